// The launch's one WebGL renderer, shared by every 3D board (index.js), and its warm-up on the
// setup screen. Boards open it (`openSharedRenderer`) and close it when they go; the warm-up never
// draws on the shared canvas while a board shows it.

import * as THREE from '../../vendor/three/three.module.js';
import { h } from '../dom.js';
import { standardStarWorld, holesKey } from './cells.js';
import { readPalette, makeMaterials, glowTexture, woodTexture } from './palette.js';
import { plateGeometry } from './ground.js';
import { makePieceGeometries, makeMarble, setFaded } from './pieces.js';
import { dottedLine, makeRingGeometries, makeDestRing } from './marks.js';
import { pixelRatioFor } from './resolution.js';
import { pictureTexture, pictureMaterial } from './groundimage.js';

/** The test instruments, when a test harness installed them (test-instruments.js). */
export const instruments = () => globalThis.__board3dInstruments ?? null;

// One WebGL renderer (context, canvas, compiled shader programs) for every 3D board of the
// launch, made ahead of the first one by `prewarmBoard3d` while the setup screen is shown: with
// software GL the first draw with a new shader program costs most of a second, and a context per
// board compiled them all again for every game. With it live the resources every board draws the
// same way: the plate of the 121-hole star (its geometry, uploaded once), the wood and glow
// textures. Boards dispose only their own scene resources, never these.
let shared = null; // { renderer, keep: resources of the warm-up scene, kept so their programs stay, plate, wood, glow }
let boardsLive = 0; // the warm-up draws on the shared canvas: never while a board shows it

function sharedRenderer() {
  // A context lost while no board showed it is not given to a new board: it starts afresh.
  if (shared && shared.renderer.getContext().isContextLost()) dropSharedRenderer();
  if (shared) return shared.renderer;
  // No MSAA: with software GL (llvmpipe under Xvfb, SwiftShader) it multiplies the cost of every
  // pixel; on phones the device pixel ratio smooths the edges instead.
  const canvas = h('canvas', { class: 'board3d-canvas', tabindex: '0', role: 'img', 'aria-keyshortcuts': 'ArrowLeft ArrowRight + - 0' });
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: false, alpha: true, powerPreference: 'low-power' });
  renderer.setPixelRatio(pixelRatioFor(globalThis.devicePixelRatio, { moving: false, lateInMotion: false }));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  // lateInMotion: frames drawn while a gesture moved a board came late (resolution.js); from then
  // on this launch draws gestures' frames at the lower resolution.
  shared = { renderer, keep: null, plate: null, wood: null, glow: null, lateInMotion: false };
  return renderer;
}

export function dropSharedRenderer() {
  if (!shared) return;
  const { renderer, keep, plate, wood, glow } = shared;
  shared = null;
  if (keep) keep.dispose();
  if (plate) plate.geometry.dispose();
  if (wood) wood.texture.dispose();
  if (glow) glow.dispose();
  renderer.dispose();
  renderer.forceContextLoss();
}

/** The plate for `world`: the shared one when its holes are the same, else null (the board builds its own). */
export function sharedPlate(world) {
  if (!shared) return null;
  const key = holesKey(world);
  if (!shared.plate) shared.plate = { key, geometry: plateGeometry(world) };
  return shared.plate.key === key ? shared.plate.geometry : null;
}

/** The shared wood texture for the skin's colour, or null for another colour. */
export function sharedWood(colour) {
  if (!shared) return null;
  const key = colour.getHexString();
  if (!shared.wood) shared.wood = { key, texture: woodTexture(colour) };
  return shared.wood.key === key ? shared.wood.texture : null;
}

export function sharedGlow() {
  if (!shared) return null;
  return (shared.glow ||= glowTexture());
}

/** The scene's lights: the same for the board and the warm-up (they are part of a program's key). */
export function addLights(scene) {
  scene.add(new THREE.HemisphereLight(0xfff4e0, 0x5a3d22, 1.6));
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.set(-5, 12, 7);
  scene.add(sun);
}

/**
 * Makes the shared renderer and draws, once and off screen, a small scene with every kind of
 * material and mesh the board uses (its six shader programs, palette.js: lit with and without
 * the wood map, marbles with crowns and shapes, faded and ghost, flat and glowing rings, dotted
 * lines, in every blend and depth state the board draws them with), so that the
 * first board's first frame finds its shader programs compiled. The warm-up materials are kept
 * with the renderer: three.js frees a program when the last material using it goes.
 * Throws when WebGL is unavailable (the caller ignores it; making the board falls back).
 */
export function prewarmBoard3d() {
  if (boardsLive > 0 || (shared && shared.warmUp)) return;
  // Interrupted by a board (the player was quick): go on from where it stopped.
  if (shared && shared.resumeWarmUp) { shared.resumeWarmUp(); return; }
  const startedAt = performance.now();
  const renderer = sharedRenderer();
  const scene = new THREE.Scene();
  addLights(scene);
  const palette = readPalette();
  const materials = makeMaterials(palette);
  const textures = { glow: null, wood: null };
  let ownWood = null;
  const pieceGeoms = makePieceGeometries();
  const ringGeoms = makeRingGeometries();
  const disc = new THREE.CircleGeometry(0.3, 8);
  disc.rotateX(-Math.PI / 2);
  const picture = { texture: null, material: null };
  const dots = dottedLine(materials.flat('--path'), 0.05, 'warm');
  dots.show([{ x: 0, y: 0, z: 0 }, { x: 0.3, y: 0, z: 0 }]);
  // What each step adds to the scene, first what the board's first frame draws. The plate is
  // built (once per launch, for the standard star) and drawn here, so its buffers and the wood
  // texture are on the GPU before the game opens.
  // Each step is short but for a shader program's first draw (most of a second under load).
  let plate = null;
  const parts = [
    () => {
      textures.glow = sharedGlow();
      textures.wood = sharedWood(palette.colour('--star')) || (ownWood = woodTexture(palette.colour('--star'), 16));
      return null;
    },
    () => { plate = sharedPlate(standardStarWorld()); return null; },
    () => new THREE.Mesh(disc, materials.lit(palette.colour('--star-edge'))),
    () => plate && new THREE.Mesh(plate, [materials.lit(0xffffff, textures.wood), materials.lit(palette.colour('--star-edge'))]),
    ...['red', 'yellow', 'green', 'neutral', 'white', 'black'].map((seatName) => () => makeMarble(pieceGeoms, materials, { seatName, king: false })),
    () => makeMarble(pieceGeoms, materials, { seatName: 'red', king: true }),
    () => new THREE.Mesh(disc, materials.flat('--ring')),
    () => new THREE.Mesh(disc, materials.flat('--route', 0.9)),
    () => dots.mesh,
    () => makeDestRing(ringGeoms, materials, textures.glow, true),
    () => makeDestRing(ringGeoms, materials, textures.glow, false),
    () => makeMarble(pieceGeoms, materials, { seatName: 'red', king: true, ghost: true }),
    () => {
      const faded = makeMarble(pieceGeoms, materials, { seatName: 'red', king: false });
      setFaded(faded, materials, true);
      return faded;
    },
    // The ground's picture of light frames (groundimage.js), in its own states.
    () => {
      picture.texture = pictureTexture(new Uint8Array(4 * 4 * 4).fill(255), 4);
      picture.material = pictureMaterial(picture.texture);
      return new THREE.Mesh(disc, picture.material);
    },
  ];
  const camera = new THREE.PerspectiveCamera(60, 1, 0.1, 20);
  camera.position.set(0, 4, 2);
  camera.lookAt(0, 0, 0);
  renderer.setSize(8, 8, false);
  // Kept from the start, so that an interrupted warm-up keeps the programs it has made.
  shared.keep = {
    dispose() {
      dots.dispose();
      disc.dispose();
      pieceGeoms.dispose();
      ringGeoms.dispose();
      materials.dispose();
      if (picture.material) picture.material.dispose();
      if (picture.texture) picture.texture.dispose();
      // The shared textures go with the renderer (dropSharedRenderer).
      if (ownWood) ownWood.dispose();
    },
  };
  const gl = renderer.getContext();
  let next = 0;
  let busyMs = 0;
  let longestMs = 0;
  // One part per task: a draw with a new program blocks for a while with software GL, and the
  // setup screen must stay responsive in between. Drawing (not only compiling) also makes the
  // driver build its per-state variants; reading a pixel waits for that work to finish.
  const step = () => {
    if (!shared || shared.renderer !== renderer) return;
    if (boardsLive > 0) { shared.resumeWarmUp = () => { shared.resumeWarmUp = null; renderer.setSize(8, 8, false); step(); }; return; }
    const t0 = performance.now();
    const part = parts[next++]();
    if (part) scene.add(part);
    renderer.render(scene, camera);
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    busyMs += performance.now() - t0;
    longestMs = Math.max(longestMs, performance.now() - t0);
    if (next < parts.length) setTimeout(step, 0);
    else {
      shared.warmUp = { startedAt, ms: performance.now() - startedAt, busyMs, longestMs };
      instruments()?.warmedUp({ ...shared.warmUp });
    }
  };
  step();
}

/**
 * The shared renderer for a board that opens: `{renderer, lateInMotion, warmUp, …}`, this launch's
 * (made afresh when there is none or its context was lost). Throws when WebGL is unavailable.
 */
export function openSharedRenderer() {
  sharedRenderer();
  boardsLive++;
  return shared;
}

/** A board let go of the shared renderer (it stays for the next board). */
export function closeSharedRenderer() {
  boardsLive--;
}

/** Whether a texture is one of the launch's shared ones, which boards never dispose. */
export function isSharedTexture(texture) {
  return !!shared && (texture === shared.glow || texture === (shared.wood && shared.wood.texture));
}
