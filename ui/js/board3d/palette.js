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

/**
 * Materials made once per board and shared by every piece, ring and dot. Few kinds on purpose:
 * software GL (llvmpipe, SwiftShader) compiles every shader program three.js makes (one per
 * material type × map × instancing × opaque or not × side) on its first draw, at a cost of time
 * and memory, so every lit surface is Phong (the plate too: with no specular it shades as
 * Lambert), every flat mark is a front-sided MeshBasicMaterial drawn as transparent (at opacity 1
 * it looks the same as opaque), and surfaces seen from both sides carry both faces in their
 * geometry instead of `DoubleSide`. The board uses six programs: lit, lit with the wood map,
 * lit see-through (faded and ghost marbles), flat, flat instanced (dots), glow.
 */
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
    /** A matt lit surface (the plate, its floor and edges): Phong without specular. */
    lit: (color, map = null) => once(`lit:${new THREE.Color(color).getHexString()}:${map ? map.uuid : ''}`, () => new THREE.MeshPhongMaterial({
      color, map, specular: 0x000000, shininess: 0,
    })),
    glyph: (seatName) => once(`glyph:${seatName}`, () => new THREE.MeshBasicMaterial({
      // As on the 2D board: a light shape on dark marbles, a dark one on yellow.
      color: seatName === 'yellow' ? 0x7a4600 : 0xffffff,
      transparent: true,
      opacity: seatName === 'yellow' ? 0.6 : 0.7,
      depthWrite: false,
    })),
    crown: () => once('crown', () => new THREE.MeshPhongMaterial({ color: 0xffc83a, specular: 0xfff0b0, shininess: 60 })),
    flat: (cssVar, opacity = 1) => once(`flat:${cssVar}:${opacity}`, () => new THREE.MeshBasicMaterial({
      color: palette.colour(cssVar), transparent: true, opacity, depthWrite: opacity >= 1,
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

// The two textures are computed in JS into pixel arrays, not drawn on a 2D canvas: WebKit draws
// canvases with the GPU (Skia), and under software GL the first 2D canvas costs seconds of shader
// compiling and ~60 MiB of the web process's memory, for two small images.

/** A texture from RGBA rows given top row first (as a canvas image), sRGB, mipmapped like a CanvasTexture. */
function pixelTexture(data, size) {
  const tex = new THREE.DataTexture(data, size, size, THREE.RGBAFormat, THREE.UnsignedByteType);
  tex.colorSpace = THREE.SRGBColorSpace;
  tex.flipY = false; // the rows are stored bottom first below
  tex.magFilter = THREE.LinearFilter;
  tex.minFilter = THREE.LinearMipmapLinearFilter;
  tex.generateMipmaps = true;
  tex.needsUpdate = true;
  return tex;
}

/** A soft radial glow (white at the ring's radius, fading both ways), used under destination rings. */
export function glowTexture(size = 128) {
  const stops = [[0, 0], [0.55, 0.05], [0.72, 0.75], [0.85, 0.25], [1, 0]];
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const t = Math.hypot(x + 0.5 - size / 2, y + 0.5 - size / 2) / (size / 2);
      let a = 0;
      for (let i = 1; i < stops.length; i++) {
        if (t <= stops[i][0]) {
          const [t0, a0] = stops[i - 1], [t1, a1] = stops[i];
          a = a0 + ((a1 - a0) * (t - t0)) / (t1 - t0);
          break;
        }
      }
      const o = (y * size + x) * 4;
      data[o] = data[o + 1] = data[o + 2] = 255;
      data[o + 3] = Math.round(a * 255);
    }
  }
  return pixelTexture(data, size);
}

/**
 * Wood grain for the star's top, computed once (no image files to ship): the base colour with a
 * few hundred thin, wavy, darker and lighter streaks, each a polyline through a point every 8 px,
 * blended with its coverage of each pixel (as a 2D canvas would stroke it).
 */
export function woodTexture(base, size = 512) {
  // The colour's sRGB bytes, as on a canvas (readPalette's THREE.Color holds linear values).
  const hex = base.getHexString();
  const rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const img = new Float32Array(size * size * 3);
  for (let i = 0; i < size * size; i++) img.set(rgb, i * 3);
  // Deterministic grain.
  let seed = 7;
  const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  const line = new Float32Array(size);
  for (let i = 0; i < 260; i++) {
    const y = rnd() * size;
    const dark = rnd() < 0.6;
    const alpha = dark ? 0.04 + rnd() * 0.08 : 0.03 + rnd() * 0.06;
    const colour = dark ? [90, 50, 20] : [255, 240, 210];
    const width = 0.6 + rnd() * 2.2;
    const amp = 2 + rnd() * 6, freq = 0.004 + rnd() * 0.01, ph = rnd() * 6;
    // The polyline's height at each pixel column's centre.
    for (let x = 0; x < size; x++) {
      const cx = x + 0.5;
      const k = Math.min(Math.floor(cx / 8), Math.floor(size / 8) - 1);
      const x0 = k * 8, x1 = x0 + 8;
      const y0 = y + Math.sin(x0 * freq + ph) * amp, y1 = y + Math.sin(x1 * freq + ph) * amp;
      line[x] = y0 + ((y1 - y0) * (cx - x0)) / 8;
    }
    for (let x = 0; x < size; x++) {
      const top = line[x] - width / 2, bottom = line[x] + width / 2;
      for (let row = Math.max(0, Math.floor(top)); row <= Math.min(size - 1, Math.floor(bottom)); row++) {
        const cover = Math.min(bottom, row + 1) - Math.max(top, row);
        if (cover <= 0) continue;
        const a = alpha * cover, o = (row * size + x) * 3;
        img[o] += (colour[0] - img[o]) * a;
        img[o + 1] += (colour[1] - img[o + 1]) * a;
        img[o + 2] += (colour[2] - img[o + 2]) * a;
      }
    }
  }
  // Bottom row first (a texture's v runs upwards; a canvas image's rows run downwards).
  const data = new Uint8Array(size * size * 4);
  for (let row = 0; row < size; row++) {
    for (let x = 0; x < size; x++) {
      const i = (row * size + x) * 3, o = ((size - 1 - row) * size + x) * 4;
      data[o] = Math.round(img[i]);
      data[o + 1] = Math.round(img[i + 1]);
      data[o + 2] = Math.round(img[i + 2]);
      data[o + 3] = 255;
    }
  }
  const tex = pixelTexture(data, size);
  tex.wrapS = tex.wrapT = THREE.RepeatWrapping;
  return tex;
}
