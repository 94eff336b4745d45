// The 3D board's view: the camera posed from the board state's orbit, the two views (perspective,
// top) and their reset, the ease between orbits, the turn that puts the viewer's seat at the
// bottom, and what gestures and keys do to the orbit. Reads and writes `state.orbit`,
// `state.ease` and `state.viewerAz` (board-state.js); asks for a frame when the view changed.

import {
  cameraPose, defaultOrbit, dragTurn, zoomAbout, clampTarget, blendOrbit, cssToNdc, rayToPlane, shortestTurn,
} from './camera.js';
import { viewerAzimuth } from './cells.js';

const VIEW_EASE_MS = 450;

/** What the camera frames: the board's radius with a margin, at the board's aspect on screen. */
export const frameShape = (state, boardScene) => ({ radius: boardScene.radius() + 0.9, aspect: state.size.w / state.size.h });

/** Poses the scene's camera for `state.orbit`, and turns the marbles' shapes to face the viewer. */
export function poseCamera(state, boardScene) {
  const { camera, marbles, drawn } = boardScene;
  const pose = cameraPose(state.orbit, frameShape(state, boardScene));
  camera.position.set(...pose.position);
  camera.up.set(...pose.up);
  camera.lookAt(...pose.target);
  camera.fov = pose.fov;
  camera.near = pose.near;
  camera.far = pose.far;
  camera.aspect = state.size.w / state.size.h;
  camera.updateProjectionMatrix();
  // The lens shift of the pose (camera.js): projected y gains shiftY.
  camera.projectionMatrix.elements[9] = -pose.shiftY;
  camera.projectionMatrixInverse.copy(camera.projectionMatrix).invert();
  camera.updateMatrixWorld();
  // Shapes on the marbles keep pointing away from the viewer, whatever the turn.
  for (const m of marbles.values()) m.getObjectByName('top').rotation.y = state.orbit.azimuth;
  if (drawn.ghost) drawn.ghost.getObjectByName('top').rotation.y = state.orbit.azimuth;
}

/**
 * Steps an ease in progress to `now`; true while it has frames to go.
 * @param {import('./board-state.js').BoardState} state
 */
export function stepEase(state, now) {
  const { ease } = state;
  if (!ease) return false;
  const u = Math.min(1, (now - ease.t0) / VIEW_EASE_MS);
  state.orbit = blendOrbit(ease.from, ease.to, u);
  if (u < 1) return true;
  state.ease = null;
  return false;
}

/**
 * The view's controls over a board's state.
 * @param {object} o
 * @param {import('./board-state.js').BoardState} o.state
 * @param {ReturnType<import('./scene.js').makeBoardScene>} o.boardScene
 * @param {HTMLElement} o.el the board's element (its `data-view`)
 * @param {Record<string, HTMLElement>} o.viewButtons the buttons of the views (their `aria-pressed`)
 * @param {() => number} o.motion 0 when animations are off
 * @param {() => void} o.requestRender
 */
export function makeView({ state, boardScene, el, viewButtons, motion, requestRender }) {
  /** The orbit the view is going to: the ease's end, else the orbit now. */
  const aim = () => (state.ease ? state.ease.to : state.orbit);

  function setOrbit(next, animated = true) {
    if (animated && motion()) state.ease = { from: { ...state.orbit }, to: next, t0: performance.now() };
    else { state.ease = null; state.orbit = next; }
    el.dataset.view = next.view;
    for (const [v, b] of Object.entries(viewButtons)) b.setAttribute('aria-pressed', String(v === next.view));
    requestRender();
  }

  function setView(v) {
    const target = aim();
    setOrbit({ ...defaultOrbit(v, target.azimuth), zoom: target.zoom, tx: target.tx, tz: target.tz });
  }

  function resetView() {
    setOrbit(defaultOrbit(aim().view, state.viewerAz ?? 0));
  }

  /** A gesture takes over from an ease in progress. */
  function settle() {
    if (state.ease) { state.orbit = state.ease.to; state.ease = null; }
  }

  /** Turns the view to a new viewer (the seat at the bottom), and tints its destination. */
  function followViewer(m) {
    const seat = m.viewer ?? 0;
    const azimuth = viewerAzimuth(m.layout, boardScene.drawn.world, seat);
    if (state.viewerAz == null) setOrbit(defaultOrbit(state.orbit.view, azimuth), false);
    else if (Math.abs(shortestTurn(state.viewerAz, azimuth)) > 1e-6) setOrbit(defaultOrbit(aim().view, azimuth));
    state.viewerAz = azimuth;
    boardScene.drawn.tintViewer(m, seat);
  }

  const zoomBy = (factor, ndc) => {
    state.orbit = zoomAbout(state.orbit, state.orbit.zoom * factor, ndc, frameShape(state, boardScene), boardScene.radius());
    requestRender();
  };

  /** What gestures and keys do to the view (controls.js calls them). */
  const gestures = {
    turnFrom(centre, from, to) {
      settle();
      const d = dragTurn(centre, from, to);
      if (d) { state.orbit = { ...state.orbit, azimuth: state.orbit.azimuth + d }; requestRender(); }
    },
    zoom(factor, at) {
      settle();
      zoomBy(factor, cssToNdc(at, state.size.w, state.size.h));
    },
    pan(from, to) {
      settle();
      const { size, orbit } = state;
      const pose = cameraPose(orbit, frameShape(state, boardScene));
      const a = rayToPlane(pose, size.w / size.h, cssToNdc(from, size.w, size.h));
      const b = rayToPlane(pose, size.w / size.h, cssToNdc(to, size.w, size.h));
      if (a && b && orbit.zoom > 1) {
        state.orbit = clampTarget({ ...orbit, tx: orbit.tx + a[0] - b[0], tz: orbit.tz + a[2] - b[2] }, boardScene.radius());
        requestRender();
      }
    },
    key(k) {
      const turn = { ArrowLeft: -Math.PI / 12, ArrowRight: Math.PI / 12 }[k];
      if (turn) { settle(); setOrbit({ ...state.orbit, azimuth: state.orbit.azimuth + turn }); return true; }
      if (k === '+' || k === '=' || k === '-') {
        settle();
        zoomBy(k === '-' ? 1 / 1.25 : 1.25, { x: 0, y: 0 });
        return true;
      }
      if (k === '0' || k === 'Home') { resetView(); return true; }
      return false;
    },
  };

  return { setOrbit, setView, resetView, followViewer, gestures };
}
