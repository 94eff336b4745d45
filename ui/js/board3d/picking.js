// Picking on the 3D board: a point of the canvas → the cell under it (a marble hit by the ray,
// else the nearest hole of the board's plane), and back: where a point of the world is drawn.
// Points of the canvas are CSS px; the camera must be posed for the frame being looked at.

import * as THREE from '../../vendor/three/three.module.js';
import { cssToNdc } from './camera.js';
import { nearestCell } from './cells.js';

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
