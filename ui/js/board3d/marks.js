// Marks on the board: glowing rings on destinations (static: nothing pulses forever), dotted arcs
// for a previewed route, the route so far of a stopped capture, and the last move(s): an orange
// ring where the piece started and its dotted path.

import * as THREE from '../../vendor/three/three.module.js';
import { REST_Y } from './pieces.js';

/** Points along a route's hops: each leg an arc over the board, higher for jumps than for steps. */
export function arcPoints(points, { base = REST_Y, spacing = 0.2, stepHeight = 0.45, jumpHeight = 0.95 } = {}) {
  const out = [];
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i];
    const len = Math.hypot(b.x - a.x, b.z - a.z);
    const h = len > 1.5 ? jumpHeight : stepHeight;
    const n = Math.max(2, Math.round(len / spacing));
    for (let k = i === 1 ? 0 : 1; k <= n; k++) {
      const u = k / n;
      out.push({ x: a.x + (b.x - a.x) * u, y: base + 4 * h * u * (1 - u), z: a.z + (b.z - a.z) * u });
    }
  }
  return out;
}

const MAX_DOTS = 400;

/** A reusable dotted line: small spheres placed along points; `show(points)` or `show(null)`. */
export function dottedLine(material, radius, name) {
  const mesh = new THREE.InstancedMesh(new THREE.SphereGeometry(radius, 8, 6), material, MAX_DOTS);
  mesh.name = name;
  mesh.count = 0;
  mesh.frustumCulled = false;
  const m = new THREE.Matrix4();
  return {
    mesh,
    show(points, cells = null) {
      const n = points ? Math.min(points.length, MAX_DOTS) : 0;
      for (let i = 0; i < n; i++) mesh.setMatrixAt(i, m.makeTranslation(points[i].x, points[i].y, points[i].z));
      mesh.count = n;
      mesh.instanceMatrix.needsUpdate = true;
      mesh.visible = n > 0;
      mesh.userData.cells = n ? cells : null;
    },
    dispose() { mesh.geometry.dispose(); mesh.dispose(); },
  };
}

/** Geometries of rings, shared. */
export function makeRingGeometries() {
  const ring = new THREE.TorusGeometry(0.43, 0.045, 10, 48);
  ring.rotateX(Math.PI / 2);
  // The "stop here" ring is dashed: twelve short arcs.
  const dash = new THREE.TorusGeometry(0.5, 0.045, 8, 6, (Math.PI * 2) / 24);
  dash.rotateX(Math.PI / 2);
  const glow = new THREE.PlaneGeometry(1.5, 1.5);
  glow.rotateX(-Math.PI / 2);
  const lastRing = new THREE.TorusGeometry(0.44, 0.04, 8, 48);
  lastRing.rotateX(Math.PI / 2);
  return { ring, dash, glow, lastRing, dispose() { [ring, dash, glow, lastRing].forEach((g) => g.dispose()); } };
}

/** A destination ring with its glow; `userData` holds the cell and the look, for tests. */
export function makeDestRing(geoms, materials, glowTex, stop) {
  const group = new THREE.Group();
  if (stop) {
    for (let i = 0; i < 12; i++) {
      const d = new THREE.Mesh(geoms.dash, materials.flat('--ring'));
      d.rotation.y = (i / 12) * Math.PI * 2;
      group.add(d);
    }
  } else {
    group.add(new THREE.Mesh(geoms.ring, materials.flat('--ring')));
  }
  const glow = new THREE.Mesh(geoms.glow, materials.glow('--ring', glowTex));
  glow.position.y = -0.01;
  glow.renderOrder = 2;
  group.add(glow);
  group.userData.stop = stop;
  return group;
}
