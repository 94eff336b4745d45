// Picking on the 3D board: a point of the canvas → the cell under it (a marble hit by the ray,
// else the nearest hole of the board's plane), and back: where a point of the world is drawn.
// Points of the canvas are CSS px; the camera must be posed for the frame being looked at.
// A board's picking (`makeBoardPicking`) poses it from the board state, turns taps into cells by
// the shared tap rule (tap.js) and tells hovers; it writes the state's `hovered` and `lastEmptyTap`.

import * as THREE from '../../vendor/three/three.module.js';
import { cssToNdc } from './camera.js';
import { nearestCell } from './cells.js';
import { boardTap } from '../tap.js';
import { poseCamera } from './view.js';

const DOUBLE_TAP_MS = 350;

const boardPlane = new THREE.Plane(new THREE.Vector3(0, 1, 0), 0);

/** A picker for one board's camera. */
export function makePicker(camera) {
  const raycaster = new THREE.Raycaster();
  return {
    /**
     * The cell under canvas point `p`: a marble's (`marbles`: cell → marble group with a `body`)
     * hit by the ray, else the hole of `world` nearest where the ray meets the board.
     */
    cellAt(p, world, marbles, size) {
      const ndc = cssToNdc(p, size.w, size.h);
      raycaster.setFromCamera(new THREE.Vector2(ndc.x, ndc.y), camera);
      const bodies = [...marbles.values()].map((m) => m.getObjectByName('body'));
      const hit = raycaster.intersectObjects(bodies, false)[0];
      if (hit) return hit.object.parent.userData.cell;
      const at = raycaster.ray.intersectPlane(boardPlane, new THREE.Vector3());
      return at ? nearestCell(world.cells, at.x, at.z, 0.5) : null;
    },
    /** Where world point (x, y, z) is drawn on the canvas, CSS px. */
    canvasPoint(x, y, z, size) {
      const v = new THREE.Vector3(x, y, z).project(camera);
      return { x: ((v.x + 1) / 2) * size.w, y: ((1 - v.y) / 2) * size.h };
    },
  };
}

/**
 * A board's picking: points of its canvas (CSS px) to cells and back, taps and hovers.
 * @param {object} o
 * @param {import('./board-state.js').BoardState} o.state
 * @param {ReturnType<import('./scene.js').makeBoardScene>} o.boardScene
 * @param {(cell: string|null, pointerType: string) => void} o.onTap
 * @param {(cell: string|null) => void} o.onHover
 * @param {() => void} o.resetView what a double tap off the board does
 */
export function makeBoardPicking({ state, boardScene, onTap, onHover, resetView }) {
  const { drawn, marbles } = boardScene;
  const picker = makePicker(boardScene.camera);

  /** The cell under a point of the canvas (CSS px): a marble hit by the ray, else the nearest hole. */
  function pickCell(p) {
    if (!drawn.world) return null;
    poseCamera(state, boardScene);
    return picker.cellAt(p, drawn.world, marbles, state.size);
  }

  /** Where a cell is drawn on the canvas (CSS px): the marble's centre if one stands there. */
  function screenOf(cell) {
    const p = drawn.world && drawn.world.cells.get(cell);
    if (!p) return null;
    const m = marbles.get(cell);
    return picker.canvasPoint(p.x, m ? m.position.y : 0, p.z, state.size);
  }

  /** The point the board turns around (the orbit's target) on the canvas, CSS px. */
  function centreOnCanvas() {
    poseCamera(state, boardScene);
    return picker.canvasPoint(state.orbit.tx, 0, state.orbit.tz, state.size);
  }

  function tap(p, pointerType) {
    if (!state.model) return;
    const cell = boardTap(state.model, pickCell(p), p, screenOf);
    if (cell == null) {
      // A double tap off the board restores the view.
      const now = performance.now();
      if (now - state.lastEmptyTap < DOUBLE_TAP_MS) { state.lastEmptyTap = 0; resetView(); } else state.lastEmptyTap = now;
    }
    onTap(cell, pointerType);
  }

  function hover(p) {
    const cell = p ? pickCell(p) : null;
    if (cell === state.hovered) return;
    state.hovered = cell;
    onHover(cell);
  }

  return { pickCell, screenOf, centreOnCanvas, tap, hover };
}
