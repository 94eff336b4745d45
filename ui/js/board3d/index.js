// The 3D star board (Diamond and the capture game), with the SVG board's interface
// (render.js): `update(model)` draws the same model, `animate(move)` plays a move along its path,
// taps and hovers come back as cells through `onTap` / `onHover`, so input and state code is shared.
//
// three.js objects are kept in maps keyed by cell and updated in place. Nothing is drawn while
// nothing changes: `requestRender` schedules at most one frame, asked for by the controls, the
// model, a camera ease or a move in flight, and an ease or a move asks for the next frame only
// until it ends. Picking is a raycast (marbles first, then the board's plane → nearest hole),
// then the shared tap rule (tap.js: ~22 CSS px of exactly one destination).
//
// Tests read and time the board through instruments (test-instruments.js) that only a test harness
// installs, as `globalThis.__board3dInstruments`; without them the board keeps no figures.

import * as THREE from '../../vendor/three/three.module.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { boardTap } from '../tap.js';
import {
  cameraPose, defaultOrbit, dragTurn, zoomAbout, clampTarget, blendOrbit, cssToNdc, rayToPlane, shortestTurn,
} from './camera.js';
import { viewerAzimuth } from './cells.js';
import { readPalette, makeMaterials, glowTexture, woodTexture } from './palette.js';
import { makePieceGeometries, makeMarble, setFaded, setCoarse, REST_Y } from './pieces.js';
import { dottedLine, makeRingGeometries, makeDestRing } from './marks.js';
import { attachControls } from './controls.js';
import { pixelRatioFor, drawsLight, isLateMotionFrame, probeSaysLate } from './resolution.js';
import { makeBatch } from './batch.js';
import { makeSceneModel } from './scene-model.js';
import { makeFlight } from './flight.js';
import { makePicker } from './picking.js';
import {
  openSharedRenderer, closeSharedRenderer, dropSharedRenderer, isSharedTexture, sharedWood, sharedGlow, addLights,
  prewarmBoard3d, instruments,
} from './shared-renderer.js';

const VIEW_EASE_MS = 450;
const DOUBLE_TAP_MS = 350;

// Made ahead of the first board while the setup screen is shown (shared-renderer.js).
export { prewarmBoard3d };

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
  const launch = openSharedRenderer();
  const renderer = launch.renderer;
  const canvas = renderer.domElement;
  canvas.setAttribute('aria-label', label || '');

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
  const ownTextures = Object.values(textures).filter((tx) => !isSharedTexture(tx));
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

  // What the model shows, in the scene (scene-model.js): world, ground, marbles, rings, ghost…
  const drawn = makeSceneModel({ scene, layers, materials, textures, pieceGeoms, ringGeoms, previewLine, routeLine });
  const { marbles, rings } = drawn;
  let model = null;
  let viewerAz = null;
  let orbit = defaultOrbit('perspective', 0);
  let ease = null; // {from, to, t0}
  const flights = new Set(); // moves in the air: each steps per frame until it lands
  let size = { w: 1, h: 1 };
  let sized = false;
  let inMotion = false; // a gesture is moving the view
  let coarseMarbles = false; // the marbles drawn with the coarse sphere (a light frame)
  let raf = 0;
  let askedAt = 0; // when the pending frame was asked for
  let destroyed = false;
  let hovered;
  let lastEmptyTap = 0;
  let framesDrawn = 0;
  let watch = null; // the test instruments' watcher of this board, when installed
  let built = false; // the first update made the scene

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
    if (launch.lateInMotion && inMotion && drawn.groundImage && !drawn.groundImage.baked) drawn.groundImage.bake(renderer, scene);
    const t0 = performance.now();
    drawScene();
    const t1 = performance.now();
    framesDrawn++;
    if (framesDrawn === 1) setTimeout(warmUp, 0);
    if (watch) {
      const light = coarseMarbles && renderer.getPixelRatio() < pixelRatioFor(globalThis.devicePixelRatio, { moving: false, lateInMotion: false });
      watch.frameDrawn({ at: now, drawnAt: t1, renderMs: t1 - t0, light });
    }
    if (warm && framesDrawn > 1) {
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

  const frameShape = () => ({ radius: (drawn.world ? drawn.world.radius : 7) + 0.9, aspect: size.w / size.h });

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
    if (drawn.ghost) drawn.ghost.getObjectByName('top').rotation.y = orbit.azimuth;
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
    if (drawn.groundImage) drawn.groundImage.draw(draw);
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
    const probeMs = performance.now() - t0;
    if (watch) watch.probed(probeMs);
    if (!probeSaysLate(probeMs)) return;
    launch.lateInMotion = true;
    if (drawn.groundImage && !drawn.groundImage.baked) drawn.groundImage.bake(renderer, scene);
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

  const picker = makePicker(camera);

  /** The cell under a point of the canvas (CSS px): a marble hit by the ray, else the nearest hole. */
  function pickCell(p) {
    if (!drawn.world) return null;
    applyCamera();
    return picker.cellAt(p, drawn.world, marbles, size);
  }

  /** Where a cell is drawn on the canvas (CSS px): the marble's centre if one stands there. */
  function screenOf(cell) {
    const p = drawn.world && drawn.world.cells.get(cell);
    if (!p) return null;
    const m = marbles.get(cell);
    return picker.canvasPoint(p.x, m ? m.position.y : 0, p.z, size);
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
    return picker.canvasPoint(orbit.tx, 0, orbit.tz, size);
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
      orbit = zoomAbout(orbit, orbit.zoom * factor, cssToNdc(at, size.w, size.h), frameShape(), drawn.world ? drawn.world.radius : 7);
      requestRender();
    },
    pan(from, to) {
      settle();
      const pose = cameraPose(orbit, frameShape());
      const a = rayToPlane(pose, size.w / size.h, cssToNdc(from, size.w, size.h));
      const b = rayToPlane(pose, size.w / size.h, cssToNdc(to, size.w, size.h));
      if (a && b && orbit.zoom > 1) {
        orbit = clampTarget({ ...orbit, tx: orbit.tx + a[0] - b[0], tz: orbit.tz + a[2] - b[2] }, drawn.world ? drawn.world.radius : 7);
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
        orbit = zoomAbout(orbit, orbit.zoom * (k === '-' ? 1 / 1.25 : 1.25), { x: 0, y: 0 }, frameShape(), drawn.world ? drawn.world.radius : 7);
        requestRender();
        return true;
      }
      if (k === '0' || k === 'Home') { resetView(); return true; }
      return false;
    },
  });

  // ---------- drawing the model ----------

  /** Turns the view to a new viewer (the seat at the bottom), and tints its destination. */
  function followViewer(m) {
    const seat = m.viewer ?? 0;
    const azimuth = viewerAzimuth(m.layout, drawn.world, seat);
    if (viewerAz == null) setOrbit(defaultOrbit(orbit.view, azimuth), false);
    else if (Math.abs(shortestTurn(viewerAz, azimuth)) > 1e-6) setOrbit(defaultOrbit((ease ? ease.to : orbit).view, azimuth));
    viewerAz = azimuth;
    drawn.tintViewer(m, seat);
  }

  /** @param {object} m the model render.js draws (see game.js: model()) */
  function update(m) {
    if (destroyed) return;
    const t0 = performance.now();
    model = m;
    if (drawn.buildWorld(m)) viewerAz = null;
    followViewer(m);
    drawn.syncPieces(m);
    drawn.syncRings(m);
    drawn.syncPreview(m);
    drawn.syncLast(m);
    if (!built) {
      built = true;
      if (watch) watch.built(performance.now() - t0);
    }
    requestRender();
  }

  /** Flies the marble now standing on the move's landing along its route. Resolves on landing. */
  function animate(move, { duration = 170, removed = [], seatNames = [] } = {}) {
    if (!drawn.world || !move || move.pass || !motion()) return Promise.resolve();
    const route = move.path && move.path.length ? move.path : [move.from, move.to];
    const full = route[0] === move.from ? route : [move.from, ...route];
    const pts = full.map((c) => drawn.world.cells.get(c)).filter(Boolean);
    const node = marbles.get(move.to);
    if (!node || pts.length < 2) return Promise.resolve();
    // Captured marbles stay until the mover passes over them.
    const taken = removed.map((p) => {
      const n = makeMarble(pieceGeoms, materials, { seatName: seatNames[p.seat] || 'neutral', king: !!p.king });
      n.position.copy(drawn.position(p.cell, REST_Y));
      layers.flying.add(n);
      return n;
    });
    const jumping = pts.length > 2 || !!move.jumps || (move.captures || []).length > 0;
    return new Promise((resolve) => {
      const fly = makeFlight({ node, points: pts, taken, jumping, legMs: duration, startedAt: performance.now() });
      const step = (now) => {
        if (fly(now)) return true;
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
    setView,
    resetView,
    requestRender,
    get geometry() { return model ? model.geometry : null; },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      closeSharedRenderer();
      if (raf) cancelAnimationFrame(raf);
      resize.disconnect();
      detach();
      flights.clear();
      drawn.dispose();
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
      if (watch) watch.destroyed();
    },
  };

  // What the test instruments read and drive (test-instruments.js); made only when installed.
  const inside = {
    api, el, canvas, renderer, launch, marbleBatch, layers, previewLine, routeLine, marbles, rings, REST_Y,
    get orbit() { return orbit; },
    set orbit(next) { orbit = next; },
    get inMotion() { return inMotion; },
    set inMotion(on) { inMotion = on; },
    get world() { return drawn.world; },
    get ground() { return drawn.ground; },
    get tint() { return drawn.tint; },
    get ghost() { return drawn.ghost; },
    get size() { return size; },
    get sized() { return sized; },
    get destroyed() { return destroyed; },
    get framesDrawn() { return framesDrawn; },
    get pending() { return !!raf; },
    get easing() { return !!ease; },
    get flying() { return flights.size; },
    get coarseMarbles() { return coarseMarbles; },
    applyCamera, applySize, applyMarbleDetail, drawScene, requestRender, screenOf, centreOnCanvas, toClient,
  };
  watch = instruments()?.board(inside) ?? null;
  setOrbit(orbit, false);
  return api;
}
