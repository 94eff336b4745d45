// Colours of the 3D board, read from the skin's CSS variables (ui/css/app.css) so that the wood
// and candy skins look the same in 2D and 3D. Materials are shared: one per seat and state.

import * as THREE from '../../vendor/three/three.module.js';

const FALLBACK = {
  '--star': '#e3bd84', '--star-edge': '#9a6430', '--hole': '#6f431d', '--plate': '#c99757',
  '--zone-red': '#d9806c', '--zone-yellow': '#e9c766', '--zone-green': '#8cba7f',
  '--red-mid': '#cf3b2a', '--yellow-mid': '#e7b321', '--green-mid': '#2f9650', '--neutral-mid': '#d9cfc1',
  '--white-mid': '#efe3c8', '--black-mid': '#2f2520',
  '--ring': '#fff36b', '--last': '#ff8a1f', '--path': '#fffbe6', '--route': '#ffd36b',
};

export function readPalette(root = document.documentElement) {
  const style = getComputedStyle(root);
  const colour = (name) => new THREE.Color((style.getPropertyValue(name) || '').trim() || FALLBACK[name]);
  return {
    colour,
    seat: (name) => colour(`--${name}-mid`),
    zone: (name) => colour(`--zone-${name}`),
  };
}

/** Materials made once per board and shared by every piece, ring and dot. */
export function makeMaterials(palette) {
  const cache = new Map();
  const once = (key, make) => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key);
  };
  return {
    palette,
    // Phong, not physically based: software GL (llvmpipe, SwiftShader) draws it several times faster.
    marble: (seatName, { faded = false, ghost = false } = {}) => once(`marble:${seatName}:${faded}:${ghost}`, () => new THREE.MeshPhongMaterial({
      color: palette.seat(seatName),
      specular: 0x666666,
      shininess: 90,
      transparent: faded || ghost,
      opacity: ghost ? 0.45 : faded ? 0.35 : 1,
      depthWrite: !(faded || ghost),
    })),
    glyph: (seatName) => once(`glyph:${seatName}`, () => new THREE.MeshBasicMaterial({
      // As on the 2D board: a light shape on dark marbles, a dark one on yellow.
      color: seatName === 'yellow' ? 0x7a4600 : 0xffffff,
      transparent: true,
      opacity: seatName === 'yellow' ? 0.6 : 0.7,
      depthWrite: false,
      side: THREE.DoubleSide,
    })),
    crown: () => once('crown', () => new THREE.MeshPhongMaterial({ color: 0xffc83a, specular: 0xfff0b0, shininess: 60, side: THREE.DoubleSide })),
    flat: (cssVar, opacity = 1) => once(`flat:${cssVar}:${opacity}`, () => new THREE.MeshBasicMaterial({
      color: palette.colour(cssVar), transparent: opacity < 1, opacity, depthWrite: opacity >= 1, side: THREE.DoubleSide,
    })),
    glow: (cssVar, texture) => once(`glow:${cssVar}`, () => new THREE.MeshBasicMaterial({
      color: palette.colour(cssVar), map: texture, transparent: true, depthWrite: false, blending: THREE.AdditiveBlending,
    })),
    dispose() {
      for (const m of cache.values()) m.dispose();
      cache.clear();
    },
  };
}

/** A soft radial glow (white at the ring's radius, fading both ways), used under destination rings. */
export function glowTexture(size = 128) {
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const g = c.getContext('2d');
  const grad = g.createRadialGradient(size / 2, size / 2, 0, size / 2, size / 2, size / 2);
  grad.addColorStop(0, 'rgba(255,255,255,0)');
  grad.addColorStop(0.55, 'rgba(255,255,255,0.05)');
  grad.addColorStop(0.72, 'rgba(255,255,255,0.75)');
  grad.addColorStop(0.85, 'rgba(255,255,255,0.25)');
  grad.addColorStop(1, 'rgba(255,255,255,0)');
  g.fillStyle = grad;
  g.fillRect(0, 0, size, size);
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  return tex;
}

/** Wood grain for the star's top, drawn once (no image files to ship). */
export function woodTexture(base, size = 512) {
  const c = document.createElement('canvas');
  c.width = c.height = size;
  const g = c.getContext('2d');
  g.fillStyle = `#${base.getHexString()}`;
  g.fillRect(0, 0, size, size);
  // Deterministic grain: a few hundred thin, wavy, darker and lighter streaks.
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (let i = 0; i < 260; i++) {
    const y = rnd() * size;
    const dark = rnd() < 0.6;
    g.strokeStyle = dark ? `rgba(90,50,20,${0.04 + rnd() * 0.08})` : `rgba(255,240,210,${0.03 + rnd() * 0.06})`;
    g.lineWidth = 0.6 + rnd() * 2.2;
    g.beginPath();
    const amp = 2 + rnd() * 6, freq = 0.004 + rnd() * 0.01, ph = rnd() * 6;
    for (let x = 0; x <= size; x += 8) {
      const yy = y + Math.sin(x * freq + ph) * amp;
      if (x === 0) g.moveTo(x, yy);
      else g.lineTo(x, yy);
    }
    g.stroke();
  }
  const tex = new THREE.CanvasTexture(c);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
  return tex;
}
