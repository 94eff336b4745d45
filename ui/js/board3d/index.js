// The 3D star board (Diamond and the capture game), with the SVG board's interface
// (render.js): `update(model)` draws the same model, `animate(move)` plays a move along its path,
// taps and hovers come back as cells through `onTap` / `onHover`, so input and state code is shared.
//
// The board is made of parts that share one state object (board-state.js): its scene (scene.js,
// scene-model.js: three.js objects kept in maps keyed by cell and updated in place), frames on
// demand (frames.js: nothing is drawn while nothing changes), the view (view.js: camera, views,
// gestures) and picking (picking.js: a raycast, then the shared tap rule of tap.js). This module
// puts them together on the launch's shared renderer (shared-renderer.js) and plays moves.
//
// Tests read and time the board through instruments (test-instruments.js) that only a test harness
// installs, as `globalThis.__board3dInstruments`; without them the board keeps no figures.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { makeMarble, REST_Y } from './pieces.js';
import { attachControls } from './controls.js';
import { makeFlight } from './flight.js';
import { makeBoardState } from './board-state.js';
import { makeBoardScene } from './scene.js';
import { makeFrames } from './frames.js';
import { makeView, poseCamera } from './view.js';
import { makeBoardPicking } from './picking.js';
import {
  openSharedRenderer, closeSharedRenderer, dropSharedRenderer, prewarmBoard3d, instruments,
} from './shared-renderer.js';

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
    viewButtons[v] = h('button', { type: 'button', class: 'board3d-btn', 'data-testid': `view-${v}`, 'aria-pressed': 'false', title: t(`board3d.${v}`), onclick: () => view.setView(v) }, t(`board3d.${v}`));
    hud.append(viewButtons[v]);
  }
  hud.append(h('button', { type: 'button', class: 'board3d-btn board3d-reset', 'data-testid': 'view-reset', 'aria-label': t('board3d.reset'), title: t('board3d.reset'), onclick: () => view.resetView() }, h('span', { 'aria-hidden': 'true' }, '⟲')));
  const el = h('div', { class: 'board3d', 'data-testid': 'board3d', 'data-view': 'perspective' }, canvas, hud);

  const state = makeBoardState();
  const boardScene = makeBoardScene();
  const { drawn, marbles, layers } = boardScene;
  const frames = makeFrames({ state, boardScene, launch });
  const { requestRender } = frames;
  const view = makeView({ state, boardScene, el, viewButtons, motion, requestRender });
  const picking = makeBoardPicking({ state, boardScene, onTap, onHover, resetView: view.resetView });

  const resize = new ResizeObserver(() => {
    const w = Math.max(1, el.clientWidth), hgt = Math.max(1, el.clientHeight);
    if (!el.isConnected || (w === state.size.w && hgt === state.size.h)) return;
    state.sized = true;
    state.size = { w, h: hgt };
    frames.applySize();
    // Draw at once rather than on the next animation frame: resizing cleared the canvas, and
    // observers run just before this frame is painted (the first frame comes a frame sooner).
    frames.drawNow();
  });
  resize.observe(el);

  const onContextLost = (e) => {
    e.preventDefault();
    // Give the browser a moment to restore it; if it does not, the game shows the 2D board.
    setTimeout(() => { if (!state.destroyed && renderer.getContext().isContextLost()) onFail(); }, 1500);
  };
  const onContextRestored = () => requestRender();
  canvas.addEventListener('webglcontextlost', onContextLost);
  canvas.addEventListener('webglcontextrestored', onContextRestored);

  const detach = attachControls(canvas, {
    centre: picking.centreOnCanvas,
    ...view.gestures,
    tap: picking.tap,
    gesture: frames.setInMotion,
    hover: picking.hover,
  });

  /** @param {object} m the model render.js draws (see game.js: model()) */
  function update(m) {
    if (state.destroyed) return;
    const t0 = performance.now();
    state.model = m;
    if (drawn.buildWorld(m)) state.viewerAz = null;
    view.followViewer(m);
    drawn.syncPieces(m);
    drawn.syncRings(m);
    drawn.syncPreview(m);
    drawn.syncLast(m);
    if (!state.built) {
      state.built = true;
      if (state.watch) state.watch.built(performance.now() - t0);
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
      const n = makeMarble(boardScene.pieceGeoms, boardScene.materials, { seatName: seatNames[p.seat] || 'neutral', king: !!p.king });
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
        state.flights.delete(step);
        resolve();
        return false;
      };
      state.flights.add(step);
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
      return picking.pickCell({ x: x - r.left, y: y - r.top });
    },
    setView: view.setView,
    resetView: view.resetView,
    requestRender,
    get geometry() { return state.model ? state.model.geometry : null; },
    destroy() {
      if (state.destroyed) return;
      state.destroyed = true;
      closeSharedRenderer();
      if (state.raf) cancelAnimationFrame(state.raf);
      resize.disconnect();
      detach();
      state.flights.clear();
      boardScene.dispose();
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
      if (state.watch) state.watch.destroyed();
    },
  };

  // What the test instruments read and drive (test-instruments.js); made only when installed.
  const inside = {
    api, el, canvas, renderer, launch, state, boardScene, REST_Y,
    poseCamera: () => poseCamera(state, boardScene),
    applySize: frames.applySize,
    applyMarbleDetail: frames.applyMarbleDetail,
    drawScene: frames.drawScene,
    requestRender,
    screenOf: picking.screenOf,
    centreOnCanvas: picking.centreOnCanvas,
    toClient,
  };
  state.watch = instruments()?.board(inside) ?? null;
  view.setOrbit(state.orbit, false);
  return api;
}
