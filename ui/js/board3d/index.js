// The 3D star board (Diamond and the capture game), with the SVG board's interface
// (render.js): `update(model)` draws the same model, `animate(move)` plays a move along its path,
// taps and hovers come back as cells through `onTap` / `onHover`, so input and state code is shared.
//
// three.js objects are kept in maps keyed by cell and updated in place. Nothing is drawn while
// nothing changes: `requestRender` schedules at most one frame, asked for by the controls, the
// model, a camera ease or a move in flight, and an ease or a move asks for the next frame only
// until it ends. Picking is a raycast (marbles first, then the board's plane → nearest hole),
// then the shared tap rule (tap.js: ~22 CSS px of exactly one destination).

import * as THREE from '../../vendor/three/three.module.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { boardTap } from '../tap.js';
import { destinationHoles } from '../state.js';
import {
  cameraPose, defaultOrbit, dragTurn, zoomAbout, clampTarget, blendOrbit, cssToNdc, rayToPlane, shortestTurn,
} from './camera.js';
import { starWorld, standardStarWorld, holesKey, nearestCell, viewerAzimuth } from './cells.js';
import { readPalette, makeMaterials, glowTexture, woodTexture } from './palette.js';
import { buildGround, buildDestinationTint, plateGeometry } from './ground.js';
import { makePieceGeometries, makeMarble, setFaded, setCoarse, REST_Y, LIFT_Y } from './pieces.js';
import { arcPoints, dottedLine, makeRingGeometries, makeDestRing } from './marks.js';
import { attachControls } from './controls.js';
import { pixelRatioFor, drawsLight, isLateMotionFrame, probeSaysLate } from './resolution.js';
import { makeBatch } from './batch.js';
import { makeGroundImage, pictureTexture, pictureMaterial } from './groundimage.js';

const VIEW_EASE_MS = 450;

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

function dropSharedRenderer() {
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
function sharedPlate(world) {
  if (!shared) return null;
  const key = holesKey(world);
  if (!shared.plate) shared.plate = { key, geometry: plateGeometry(world) };
  return shared.plate.key === key ? shared.plate.geometry : null;
}

/** The shared wood texture for the skin's colour, or null for another colour. */
function sharedWood(colour) {
  if (!shared) return null;
  const key = colour.getHexString();
  if (!shared.wood) shared.wood = { key, texture: woodTexture(colour) };
  return shared.wood.key === key ? shared.wood.texture : null;
}

function sharedGlow() {
  if (!shared) return null;
  return (shared.glow ||= glowTexture());
}

/** The scene's lights: the same for the board and the warm-up (they are part of a program's key). */
function addLights(scene) {
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
      // Test hook: the warm-up is over (docs/ui.md, "The 3D board").
      globalThis.__board3dWarmUp = { ...shared.warmUp };
    }
  };
  step();
}

const DOUBLE_TAP_MS = 350;
const STATS_KEPT = 600;

/**
 * @param {object} opts
 * @param {string} [opts.label] accessible name of the board
 * @param {(cell: string|null, pointerType: string) => void} opts.onTap
 * @param {(cell: string|null) => void} [opts.onHover]
 * @param {() => number} [opts.motion] 0 when animations are off or reduced motion is asked for
 * @param {() => void} [opts.onFail] the WebGL context was lost for good: show the 2D board instead
 * Throws when WebGL is unavailable (the caller falls back to the SVG board).
 */
export function createBoard3d({ label, onTap, onHover = () => {}, motion = () => 1, onFail = () => {} } = {}) {
  // Throws "Error creating WebGL context" when there is no WebGL: the caller shows the 2D board.
  const renderer = sharedRenderer();
  const launch = shared;
  const canvas = renderer.domElement;
  canvas.setAttribute('aria-label', label || '');
  boardsLive++;

  const viewButtons = {};
  const hud = h('div', { class: 'board3d-hud', role: 'toolbar', 'aria-label': t('board3d.views') });
  for (const v of ['perspective', 'top']) {
    viewButtons[v] = h('button', { type: 'button', class: 'board3d-btn', 'data-testid': `view-${v}`, 'aria-pressed': 'false', title: t(`board3d.${v}`), onclick: () => setView(v) }, t(`board3d.${v}`));
    hud.append(viewButtons[v]);
  }
  hud.append(h('button', { type: 'button', class: 'board3d-btn board3d-reset', 'data-testid': 'view-reset', 'aria-label': t('board3d.reset'), title: t('board3d.reset'), onclick: () => resetView() }, h('span', { 'aria-hidden': 'true' }, '⟲')));
  const el = h('div', { class: 'board3d', 'data-testid': 'board3d', 'data-view': 'perspective' }, canvas, hud);

  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(38, 1, 0.1, 100);
  addLights(scene);

  const palette = readPalette();
  const materials = makeMaterials(palette);
  // The launch's shared textures when the skin's wood is the same; the board's own otherwise.
  const textures = { glow: sharedGlow() || glowTexture(), wood: sharedWood(palette.colour('--star')) || woodTexture(palette.colour('--star')) };
  const ownTextures = Object.values(textures).filter((tx) => !shared || (tx !== shared.glow && tx !== (shared.wood && shared.wood.texture)));
  const pieceGeoms = makePieceGeometries();
  const ringGeoms = makeRingGeometries();
  const layers = { pieces: new THREE.Group(), rings: new THREE.Group(), last: new THREE.Group(), flying: new THREE.Group() };
  Object.values(layers).forEach((g) => scene.add(g));
  // A light frame draws the marbles merged (batch.js), with coarse spheres.
  const marbleBatch = makeBatch(layers.pieces);
  scene.add(marbleBatch.group);
  const previewLine = dottedLine(materials.flat('--path'), 0.05, 'preview-path');
  const routeLine = dottedLine(materials.flat('--route', 0.9), 0.05, 'route');
  scene.add(previewLine.mesh, routeLine.mesh);

  let world = null;
  let worldKey = '';
  let ground = null;
  let groundImage = null; // the ground as one picture, for light frames (groundimage.js)
  let tint = null;
  let tintKey = '';
  let model = null;
  let viewerAz = null;
  let orbit = defaultOrbit('perspective', 0);
  let ease = null; // {from, to, t0}
  const flights = new Set(); // moves in the air: each steps per frame until it lands
  const marbles = new Map(); // cell → marble group
  const rings = new Map(); // cell → ring group
  let ghost = null;
  let lastKey = '';
  let size = { w: 1, h: 1 };
  let sized = false;
  let inMotion = false; // a gesture is moving the view
  let coarseMarbles = false; // the marbles drawn with the coarse sphere (a light frame)
  let raf = 0;
  let askedAt = 0; // when the pending frame was asked for
  let destroyed = false;
  let hovered;
  let lastEmptyTap = 0;
  // buildMs: the first update (the scene made from the model), before the first frame.
  // lightFrames: a gesture's frames drawn light (lower resolution, coarse marbles: resolution.js).
  const stats = { created: performance.now(), firstFrameAt: 0, buildMs: 0, frames: 0, lightFrames: 0, probeMs: null, frameAt: [], renderMs: [] };

  // ---------- frames on demand ----------

  function requestRender() {
    if (raf || destroyed) return;
    askedAt = performance.now();
    raf = requestAnimationFrame(frame);
  }

  function frame(now) {
    raf = 0;
    // Nothing is drawn before the board has its size on screen (the resize observer asks again).
    if (destroyed || !sized) return;
    if (!launch.lateInMotion && isLateMotionFrame(performance.now() - askedAt, inMotion)) {
      launch.lateInMotion = true;
      applySize();
    }
    let more = false;
    if (ease) {
      const u = Math.min(1, (now - ease.t0) / VIEW_EASE_MS);
      orbit = blendOrbit(ease.from, ease.to, u);
      if (u < 1) more = true;
      else ease = null;
    }
    for (const f of flights) if (f(now)) more = true;
    applyCamera();
    applyMarbleDetail();
    // The ground's picture is made where gestures draw light: by the probe at rest, else in the
    // board's first gesture frame once this launch's came late (never in a board's first frame).
    if (launch.lateInMotion && inMotion && groundImage && !groundImage.baked) groundImage.bake(renderer, scene);
    const t0 = performance.now();
    drawScene();
    const t1 = performance.now();
    stats.frames++;
    if (coarseMarbles && renderer.getPixelRatio() < pixelRatioFor(globalThis.devicePixelRatio, { moving: false, lateInMotion: false })) stats.lightFrames++;
    if (!stats.firstFrameAt) {
      stats.firstFrameAt = t1;
      setTimeout(warmUp, 0);
    }
    stats.frameAt.push(now);
    stats.renderMs.push(t1 - t0);
    if (stats.frameAt.length > STATS_KEPT) { stats.frameAt.shift(); stats.renderMs.shift(); }
    el.dataset.frames = String(stats.frames);
    if (warm && stats.frames > 1) {
      scene.remove(warm);
      warm.userData.dispose();
      warm = null;
      if (!launch.probed) {
        launch.probed = true;
        setTimeout(probe, 0);
      }
    }
    if (more) requestRender();
  }

  const frameShape = () => ({ radius: (world ? world.radius : 7) + 0.9, aspect: size.w / size.h });

  function applyCamera() {
    const pose = cameraPose(orbit, frameShape());
    camera.position.set(...pose.position);
    camera.up.set(...pose.up);
    camera.lookAt(...pose.target);
    camera.fov = pose.fov;
    camera.near = pose.near;
    camera.far = pose.far;
    camera.aspect = size.w / size.h;
    camera.updateProjectionMatrix();
    // The lens shift of the pose (camera.js): projected y gains shiftY.
    camera.projectionMatrix.elements[9] = -pose.shiftY;
    camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();
    camera.updateMatrixWorld();
    // Shapes on the marbles keep pointing away from the viewer, whatever the turn.
    for (const m of marbles.values()) m.getObjectByName('top').rotation.y = orbit.azimuth;
    if (ghost) ghost.getObjectByName('top').rotation.y = orbit.azimuth;
  }

  /** Sizes the drawing buffer for the board's size on screen and the resolution of the moment. */
  function applySize() {
    const ratio = pixelRatioFor(globalThis.devicePixelRatio, { moving: inMotion, lateInMotion: launch.lateInMotion });
    // Setting a canvas's size clears it and reallocates its buffers, even to the same size.
    const same = ratio === renderer.getPixelRatio() && canvas.width === Math.floor(size.w * ratio) && canvas.height === Math.floor(size.h * ratio);
    if (same) return;
    renderer.setPixelRatio(ratio);
    renderer.setSize(size.w, size.h, false);
  }

  /** A light frame draws the marbles merged and the ground as its picture; any other the scene as it is. */
  function drawScene() {
    if (!coarseMarbles) {
      renderer.render(scene, camera);
      return;
    }
    const draw = () => marbleBatch.draw(() => renderer.render(scene, camera));
    if (groundImage) groundImage.draw(draw);
    else draw();
  }

  /** Coarse marbles for a light frame; every marble again each light frame (a move may add one). */
  function applyMarbleDetail() {
    const light = drawsLight({ moving: inMotion, lateInMotion: launch.lateInMotion });
    if (!light && !coarseMarbles) return;
    coarseMarbles = light;
    for (const m of marbles.values()) setCoarse(m, pieceGeoms, light);
  }

  function setInMotion(on) {
    if (on === inMotion) return;
    inMotion = on;
    if (!launch.lateInMotion || !sized || destroyed) return;
    // The frame asked for here is drawn before the canvas, cleared by the new size, is painted.
    applySize();
    requestRender();
  }

  const resize = new ResizeObserver(() => {
    const w = Math.max(1, el.clientWidth), hgt = Math.max(1, el.clientHeight);
    if (!el.isConnected || (w === size.w && hgt === size.h)) return;
    sized = true;
    size = { w, h: hgt };
    applySize();
    // Draw at once rather than on the next animation frame: resizing cleared the canvas, and
    // observers run just before this frame is painted (the first frame comes a frame sooner).
    if (raf) { cancelAnimationFrame(raf); raf = 0; }
    frame(performance.now());
  });
  resize.observe(el);

  const onContextLost = (e) => {
    e.preventDefault();
    // Give the browser a moment to restore it; if it does not, the game shows the 2D board.
    setTimeout(() => { if (!destroyed && renderer.getContext().isContextLost()) onFail(); }, 1500);
  };
  const onContextRestored = () => requestRender();
  canvas.addEventListener('webglcontextlost', onContextLost);
  canvas.addEventListener('webglcontextrestored', onContextRestored);

  /**
   * Right after the first frame, draws once, hidden under the board, what appears only later
   * (rings and their glow, dotted arcs, the ghost, faded marbles): software GL compiles a shader
   * variant on its first draw, and that would stall the first tap by a frame of ~0.5 s.
   */
  let warm = null;
  function warmUp() {
    if (destroyed) return;
    warm = new THREE.Group();
    const dots = dottedLine(materials.flat('--path'), 0.05, 'warm');
    dots.show([{ x: 0, y: 0, z: 0 }, { x: 0.3, y: 0, z: 0 }]);
    warm.add(makeDestRing(ringGeoms, materials, textures.glow, true), dots.mesh, makeMarble(pieceGeoms, materials, { seatName: 'red', king: true, ghost: true }));
    ['red', 'yellow', 'green', 'neutral'].forEach((n, i) => {
      const m = makeMarble(pieceGeoms, materials, { seatName: n, king: false });
      setFaded(m, materials, true);
      m.position.x = i * 0.2;
      warm.add(m);
    });
    warm.userData.dispose = () => dots.dispose();
    warm.position.y = -1.5;
    scene.add(warm);
    requestRender();
  }

  /**
   * Once a launch, after a board's first frames (its shader variants made): one frame at rest,
   * timed until drawn. If it is slow, this launch's gestures will come late, so light frames start
   * with the first gesture, and what the first light frame would make (the ground's picture, the
   * merged marbles, the smaller drawing buffer) is made now, at rest, instead of costing the
   * frames that find it out (the first gesture's first frames, ~100 ms under software GL).
   */
  function probe() {
    if (destroyed || !sized || launch.lateInMotion) return;
    const gl = renderer.getContext();
    const t0 = performance.now();
    drawScene();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    stats.probeMs = performance.now() - t0;
    if (!probeSaysLate(stats.probeMs)) return;
    launch.lateInMotion = true;
    if (groundImage && !groundImage.baked) groundImage.bake(renderer, scene);
    // A light frame, then the frame of the moment again, in one task: only the last one is shown.
    for (const moving of [true, inMotion]) {
      inMotion = moving;
      applySize();
      applyMarbleDetail();
      drawScene();
    }
  }

  // ---------- views ----------

  function setOrbit(next, animated = true) {
    if (animated && motion()) ease = { from: { ...orbit }, to: next, t0: performance.now() };
    else { ease = null; orbit = next; }
    el.dataset.view = next.view;
    for (const [v, b] of Object.entries(viewButtons)) b.setAttribute('aria-pressed', String(v === next.view));
    requestRender();
  }

  function setView(v) {
    const target = ease ? ease.to : orbit;
    setOrbit({ ...defaultOrbit(v, target.azimuth), zoom: target.zoom, tx: target.tx, tz: target.tz });
  }

  function resetView() {
    setOrbit(defaultOrbit((ease ? ease.to : orbit).view, viewerAz ?? 0));
  }

  function settle() {
    // A gesture takes over from an ease in progress.
    if (ease) { orbit = ease.to; ease = null; }
  }

  // ---------- picking ----------

  const raycaster = new THREE.Raycaster();
  const boardPlane = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);

  /** The cell under a point of the canvas (CSS px): a marble hit by the ray, else the nearest hole. */
  function pickCell(p) {
    if (!world) return null;
    applyCamera();
    const ndc = cssToNdc(p, size.w, size.h);
    raycaster.setFromCamera(new THREE.Vector2(ndc.x, ndc.y), camera);
    const bodies = [...marbles.values()].map((m) => m.getObjectByName('body'));
    const hit = raycaster.intersectObjects(bodies, false)[0];
    if (hit) return hit.object.parent.userData.cell;
    const at = raycaster.ray.intersectPlane(boardPlane, new THREE.Vector3());
    return at ? nearestCell(world.cells, at.x, at.z, 0.5) : null;
  }

  /** Where a cell is drawn on the canvas (CSS px): the marble's centre if one stands there. */
  function screenOf(cell) {
    const p = world && world.cells.get(cell);
    if (!p) return null;
    const m = marbles.get(cell);
    const v = new THREE.Vector3(p.x, m ? m.position.y : 0, p.z).project(camera);
    return { x: ((v.x + 1) / 2) * size.w, y: ((1 - v.y) / 2) * size.h };
  }

  function tapAt(p, pointerType) {
    if (!model) return;
    const cell = boardTap(model, pickCell(p), p, screenOf);
    if (cell == null) {
      // A double tap off the board restores the view.
      const now = performance.now();
      if (now - lastEmptyTap < DOUBLE_TAP_MS) { lastEmptyTap = 0; resetView(); } else lastEmptyTap = now;
    }
    onTap(cell, pointerType);
  }

  /** The point the board turns around (the orbit's target) on the canvas, CSS px. */
  function centreOnCanvas() {
    applyCamera();
    const v = new THREE.Vector3(orbit.tx, 0, orbit.tz).project(camera);
    return { x: ((v.x + 1) / 2) * size.w, y: ((1 - v.y) / 2) * size.h };
  }

  const detach = attachControls(canvas, {
    centre: centreOnCanvas,
    turnFrom(centre, from, to) {
      settle();
      const d = dragTurn(centre, from, to);
      if (d) { orbit = { ...orbit, azimuth: orbit.azimuth + d }; requestRender(); }
    },
    zoom(factor, at) {
      settle();
      orbit = zoomAbout(orbit, orbit.zoom * factor, cssToNdc(at, size.w, size.h), frameShape(), world ? world.radius : 7);
      requestRender();
    },
    pan(from, to) {
      settle();
      const pose = cameraPose(orbit, frameShape());
      const a = rayToPlane(pose, size.w / size.h, cssToNdc(from, size.w, size.h));
      const b = rayToPlane(pose, size.w / size.h, cssToNdc(to, size.w, size.h));
      if (a && b && orbit.zoom > 1) {
        orbit = clampTarget({ ...orbit, tx: orbit.tx + a[0] - b[0], tz: orbit.tz + a[2] - b[2] }, world ? world.radius : 7);
        requestRender();
      }
    },
    tap: tapAt,
    gesture: setInMotion,
    hover(p) {
      const cell = p ? pickCell(p) : null;
      if (cell === hovered) return;
      hovered = cell;
      onHover(cell);
    },
    key(k) {
      const turn = { ArrowLeft: -Math.PI / 12, ArrowRight: Math.PI / 12 }[k];
      if (turn) { settle(); setOrbit({ ...orbit, azimuth: orbit.azimuth + turn }); return true; }
      if (k === '+' || k === '=' || k === '-') {
        settle();
        orbit = zoomAbout(orbit, orbit.zoom * (k === '-' ? 1 / 1.25 : 1.25), { x: 0, y: 0 }, frameShape(), world ? world.radius : 7);
        requestRender();
        return true;
      }
      if (k === '0' || k === 'Home') { resetView(); return true; }
      return false;
    },
  });

  // ---------- drawing the model ----------

  const seatNameOf = (m, seat) => (seat == null ? 'neutral' : m.seatNames[seat] || 'neutral');
  const position = (cell, y) => { const p = world.cells.get(cell); return new THREE.Vector3(p.x, y, p.z); };

  function buildWorld(m) {
    const key = `${m.layout.cells.length}:${m.layout.cells[0].name}:${(m.zones || []).join()}:${m.seatNames.join()}`;
    if (key === worldKey) return;
    worldKey = key;
    if (ground) { scene.remove(ground.group); ground.dispose(); }
    if (groundImage) { scene.remove(groundImage.group); groundImage.dispose(); }
    world = starWorld(m.layout);
    // ◎ of every playing seat: Diamond only (its king's destination apex).
    const apexes = m.zones ? m.seatNames.map((seat, i) => ({ seat, apex: destinationHoles(m.layout, i).apex })).filter((a) => a.apex) : [];
    ground = buildGround(world, { layoutCells: m.layout.cells, zones: m.zones, apexes, plate: sharedPlate(world) }, materials, textures);
    scene.add(ground.group);
    groundImage = makeGroundImage(world, ground);
    scene.add(groundImage.group);
    for (const n of marbles.values()) layers.pieces.remove(n);
    marbles.clear();
    tintKey = '';
    viewerAz = null;
  }

  function followViewer(m) {
    const seat = m.viewer ?? 0;
    const azimuth = viewerAzimuth(m.layout, world, seat);
    if (viewerAz == null) setOrbit(defaultOrbit(orbit.view, azimuth), false);
    else if (Math.abs(shortestTurn(viewerAz, azimuth)) > 1e-6) setOrbit(defaultOrbit((ease ? ease.to : orbit).view, azimuth));
    viewerAz = azimuth;
    // The viewer's own destination point, tinted in the viewer's colour (Diamond).
    const key = m.zones && seat != null ? `${seat}` : '';
    if (key === tintKey) return;
    tintKey = key;
    if (tint) { scene.remove(tint); tint.geometry.dispose(); tint = null; }
    if (key) {
      tint = buildDestinationTint(world, destinationHoles(m.layout, seat).home, seatNameOf(m, seat), materials);
      if (tint) scene.add(tint);
    }
  }

  function syncPieces(m) {
    const want = new Map(m.pieces.map((p) => [p.cell, p]));
    // A piece carried along a stopped capture is drawn at its stop, not at its origin.
    if (m.carried && m.carried.at !== m.carried.from) {
      const carried = want.get(m.carried.from);
      want.delete(m.carried.from);
      if (carried) want.set(m.carried.at, carried);
    }
    for (const [cell, n] of marbles) {
      const p = want.get(cell);
      if (!p || n.userData.seatName !== seatNameOf(m, p.seat) || n.userData.king !== !!p.king) { layers.pieces.remove(n); marbles.delete(cell); }
    }
    const selectedAt = m.selected ? (m.carried ? m.carried.at : m.selected) : null;
    for (const [cell, p] of want) {
      let n = marbles.get(cell);
      if (!n) {
        n = makeMarble(pieceGeoms, materials, { seatName: seatNameOf(m, p.seat), king: !!p.king });
        n.userData.cell = cell;
        marbles.set(cell, n);
        layers.pieces.add(n);
      }
      n.userData.seat = p.seat;
      n.position.copy(position(cell, cell === selectedAt ? LIFT_Y : REST_Y));
      n.userData.selected = cell === selectedAt;
      n.userData.selectable = m.selectable.has(cell);
      const faded = m.faded.has(cell);
      if (!!n.userData.faded !== faded) setFaded(n, materials, faded);
    }
  }

  function syncRings(m) {
    const want = new Map(m.dests.map((d) => [d.cell, d]));
    for (const [cell, r] of rings) {
      const d = want.get(cell);
      if (!d || !!d.stop !== r.userData.stop) { layers.rings.remove(r); rings.delete(cell); }
    }
    for (const [cell, d] of want) {
      let r = rings.get(cell);
      if (!r) {
        r = makeDestRing(ringGeoms, materials, textures.glow, !!d.stop);
        r.userData.cell = cell;
        rings.set(cell, r);
        layers.rings.add(r);
      }
      r.position.copy(position(cell, 0.03));
      const on = !!(m.preview && m.preview.cell === cell);
      r.userData.on = on;
      r.scale.setScalar(on ? 1.16 : 1);
    }
  }

  function syncPreview(m) {
    const pv = m.preview;
    const routePoints = (cells, lift) => arcPoints(cells.map((c) => world.cells.get(c)).filter(Boolean), { base: lift });
    previewLine.show(pv ? routePoints(pv.path, REST_Y + 0.25) : null, pv ? pv.path : null);
    routeLine.show(m.route && m.route.length > 1 ? arcPoints(m.route.map((c) => world.cells.get(c)), { base: 0.08, stepHeight: 0.25, jumpHeight: 0.5 }) : null, m.route);
    const look = pv && m.ghostPiece ? `${seatNameOf(m, m.ghostPiece.seat)}:${!!m.ghostPiece.king}` : '';
    if (ghost && (!look || ghost.userData.look !== look)) { scene.remove(ghost); ghost = null; }
    if (look) {
      if (!ghost) {
        ghost = makeMarble(pieceGeoms, materials, { seatName: seatNameOf(m, m.ghostPiece.seat), king: !!m.ghostPiece.king, ghost: true });
        ghost.userData.look = look;
        scene.add(ghost);
      }
      ghost.userData.cell = pv.cell;
      ghost.position.copy(position(pv.cell, REST_Y));
    }
  }

  function syncLast(m) {
    const key = m.last.map((mv) => mv.path.join('-')).join('|');
    if (key === lastKey) return;
    lastKey = key;
    for (const c of [...layers.last.children]) {
      layers.last.remove(c);
      if (c.userData.line) c.userData.line.dispose();
    }
    m.last.forEach((mv, i) => {
      const older = i < m.last.length - 1;
      const g = new THREE.Group();
      g.userData = { from: mv.path[0], to: mv.path[mv.path.length - 1], older };
      const pts = mv.path.map((c) => world.cells.get(c)).filter(Boolean);
      if (!pts.length) return;
      const ring = new THREE.Mesh(ringGeoms.lastRing, materials.flat('--last', older ? 0.5 : 1));
      ring.position.set(pts[0].x, 0.02, pts[0].z);
      g.add(ring);
      const line = dottedLine(materials.flat('--last', older ? 0.45 : 0.9), 0.045, 'last-path');
      line.show(arcPoints(pts, { base: 0.06, spacing: 0.22, stepHeight: 0.12, jumpHeight: 0.3 }), mv.path);
      g.add(line.mesh);
      g.userData.line = line;
      layers.last.add(g);
    });
  }

  /** @param {object} m the model render.js draws (see game.js: model()) */
  function update(m) {
    if (destroyed) return;
    const t0 = performance.now();
    model = m;
    buildWorld(m);
    followViewer(m);
    syncPieces(m);
    syncRings(m);
    syncPreview(m);
    syncLast(m);
    if (!stats.buildMs) stats.buildMs = performance.now() - t0;
    requestRender();
  }

  /** Flies the marble now standing on the move's landing along its route. Resolves on landing. */
  function animate(move, { duration = 170, removed = [], seatNames = [] } = {}) {
    if (!world || !move || move.pass || !motion()) return Promise.resolve();
    const route = move.path && move.path.length ? move.path : [move.from, move.to];
    const full = route[0] === move.from ? route : [move.from, ...route];
    const pts = full.map((c) => world.cells.get(c)).filter(Boolean);
    const node = marbles.get(move.to);
    if (!node || pts.length < 2) return Promise.resolve();
    // Captured marbles stay until the mover passes over them.
    const taken = removed.map((p) => {
      const n = makeMarble(pieceGeoms, materials, { seatName: seatNames[p.seat] || 'neutral', king: !!p.king });
      n.position.copy(position(p.cell, REST_Y));
      layers.flying.add(n);
      return n;
    });
    const legs = pts.length - 1;
    const jumping = legs > 1 || !!move.jumps || (move.captures || []).length > 0;
    const total = duration * legs * 1.6;
    return new Promise((resolve) => {
      const t0 = performance.now();
      const step = (now) => {
        const f = Math.max(0, Math.min(1, (now - t0) / total));
        const leg = Math.min(legs - 1, Math.floor(f * legs));
        const u = f * legs - leg;
        const a = pts[leg], b = pts[leg + 1];
        const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
        const hop = Math.sin(Math.PI * u) * (jumping ? 0.9 : 0.3);
        node.position.set(a.x + (b.x - a.x) * e, REST_Y + hop, a.z + (b.z - a.z) * e);
        taken.forEach((n, i) => { n.visible = !(f * legs > i + 0.5 || (legs === 1 && f > 0.5)); });
        if (f < 1) return true;
        node.position.set(pts[legs].x, REST_Y, pts[legs].z);
        taken.forEach((n) => layers.flying.remove(n));
        flights.delete(step);
        resolve();
        return false;
      };
      flights.add(step);
      requestRender();
    });
  }

  function toClient(p) {
    const r = canvas.getBoundingClientRect();
    return { x: r.left + p.x, y: r.top + p.y };
  }

  /** What the board shows, read from its three.js objects (for tests and debugging only). */
  function describe() {
    const cls = (n) => [n.userData.selected && 'selected', n.userData.selectable && 'selectable', n.userData.faded && 'taken'].filter(Boolean);
    return {
      view: orbit.view,
      orbit: { ...orbit },
      pieces: [...marbles.values()].map((n) => ({ cell: n.userData.cell, seat: n.userData.seat ?? null, king: !!n.userData.king, classes: cls(n), lifted: n.position.y > REST_Y + 0.1 })),
      dests: [...rings.values()].map((r) => ({ cell: r.userData.cell, classes: ['dest', r.userData.stop && 'dest-stop', r.userData.on && 'dest-on'].filter(Boolean) })),
      ghost: ghost ? ghost.userData.cell : null,
      previewPath: previewLine.mesh.visible ? previewLine.mesh.userData.cells : null,
      route: routeLine.mesh.visible ? routeLine.mesh.userData.cells : null,
      lastMoves: layers.last.children.map((g) => ({ from: g.userData.from, to: g.userData.to })),
      kingHomes: ground ? ground.group.children.filter((c) => c.name === 'king-home').map((c) => c.userData) : [],
      destinationTint: tint ? tint.userData.cells : null,
    };
  }

  const api = {
    el,
    kind: '3d',
    /** Width / height of the frame the board wants: a square suits both views as it turns. */
    aspect: 1,
    update,
    animate,
    /** The cell under a client point. */
    cellAtClient(x, y) {
      const r = canvas.getBoundingClientRect();
      return pickCell({ x: x - r.left, y: y - r.top });
    },
    /** Where a cell is on screen, in client CSS px (test hook; see docs/ui.md). */
    cellScreenPosition(cell) {
      // Before its first frame the board has no size on screen: nothing is where it will be.
      if (!world || !stats.firstFrameAt) return null;
      applyCamera();
      const p = screenOf(cell);
      return p ? toClient(p) : null;
    },
    /** Where the board's turning centre is on screen, client CSS px (test hook). */
    centreScreenPosition: () => toClient(centreOnCanvas()),
    setView,
    resetView,
    requestRender,
    /**
     * Test hook: the board's own cost of a frame while turning, without the page's compositing:
     * `n` frames drawn at once, each turned by `step` radians and waited for (a one-pixel read
     * waits until software GL has drawn it all), at a gesture's resolution (`inGesture`: lower
     * once this launch's gestures drew late frames) or at rest. Returns their times (ms); the
     * view and the resolution are restored.
     */
    measureFrames(n = 30, step = Math.PI / 90, { inGesture = false } = {}) {
      if (destroyed || !sized) return [];
      const gl = renderer.getContext();
      const keep = orbit;
      const keepMotion = inMotion;
      inMotion = inGesture;
      applySize();
      applyMarbleDetail();
      const out = [];
      for (let i = 1; i <= n; i++) {
        const t0 = performance.now();
        orbit = { ...keep, azimuth: keep.azimuth + i * step };
        applyCamera();
        drawScene();
        gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
        out.push(performance.now() - t0);
      }
      orbit = keep;
      inMotion = keepMotion;
      applySize();
      applyMarbleDetail();
      requestRender();
      return out;
    },
    describe,
    stats: () => ({
      ...stats, frameAt: [...stats.frameAt], renderMs: [...stats.renderMs], size: { ...size }, warmUp: shared && shared.warmUp ? { ...shared.warmUp } : null, pending: !!raf, easing: !!ease, flying: flights.size,
      // What the shared renderer holds on the GPU now (shader programs, geometries, textures).
      // The drawing buffer now (device px), whether a gesture moves the view, whether this launch lowers gestures' frames.
      resolution: { pixelRatio: renderer.getPixelRatio(), buffer: { w: canvas.width, h: canvas.height }, inMotion, lateInMotion: launch.lateInMotion, coarseMarbles, batchParts: marbleBatch.parts },
      gl: { programs: renderer.info.programs ? renderer.info.programs.length : 0, geometries: renderer.info.memory.geometries, textures: renderer.info.memory.textures },
    }),
    get geometry() { return model ? model.geometry : null; },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      boardsLive--;
      if (raf) cancelAnimationFrame(raf);
      resize.disconnect();
      detach();
      flights.clear();
      if (ground) ground.dispose();
      if (groundImage) groundImage.dispose();
      if (tint) tint.geometry.dispose();
      for (const g of layers.last.children) if (g.userData.line) g.userData.line.dispose();
      previewLine.dispose();
      routeLine.dispose();
      marbleBatch.dispose();
      pieceGeoms.dispose();
      ringGeoms.dispose();
      materials.dispose();
      ownTextures.forEach((tx) => tx.dispose());
      canvas.removeEventListener('webglcontextlost', onContextLost);
      canvas.removeEventListener('webglcontextrestored', onContextRestored);
      // The shared canvas outlives the board: out of its element, so that it does not keep the
      // left game's whole screen alive through its parents; the renderer lets go of the scene and
      // camera it drew last (its render lists and states hold them).
      canvas.remove();
      renderer.renderLists.dispose();
      renderer.setRenderTarget(null);
      // The renderer (its GL context and compiled programs) outlives the board for the next one,
      // unless its context is gone: then the next board starts from a fresh one.
      if (renderer.getContext().isContextLost()) dropSharedRenderer();
      if (globalThis.__board === api) delete globalThis.__board;
    },
  };
  // Test hook: e2e tests read positions and what is drawn (docs/ui.md, "Test hooks").
  globalThis.__board = api;
  setOrbit(orbit, false);
  return api;
}
