// Marbles: one per piece, kept in a map keyed by cell and updated in place (as the SVG board keeps
// its nodes). A marble carries its seat's colour-blind shape on top (Red ●, Yellow ▲, Green ■) or,
// for a king, a crown; a selected marble lifts; pieces taken along a stopped capture fade.

import * as THREE from '../../vendor/three/three.module.js';

export const MARBLE_RADIUS = 0.36;
/** Height of a resting marble's centre: sunk into its hole. */
export const REST_Y = 0.17;
export const LIFT_Y = 0.42;

const SHAPE_SIDES = { red: 32, yellow: 3, green: 4 };

/** An indexed geometry with a second copy of every face turned the other way (normals flipped). */
export function bothFaces(geometry) {
  const pos = geometry.attributes.position.array, nrm = geometry.attributes.normal.array, idx = geometry.index.array;
  const count = pos.length / 3;
  const position = new Float32Array(pos.length * 2);
  const normal = new Float32Array(nrm.length * 2);
  position.set(pos);
  position.set(pos, pos.length);
  normal.set(nrm);
  for (let i = 0; i < nrm.length; i++) normal[nrm.length + i] = -nrm[i];
  const index = new (count * 2 > 65535 ? Uint32Array : Uint16Array)(idx.length * 2);
  index.set(idx);
  for (let i = 0; i < idx.length; i += 3) {
    index[idx.length + i] = idx[i] + count;
    index[idx.length + i + 1] = idx[i + 2] + count;
    index[idx.length + i + 2] = idx[i + 1] + count;
  }
  geometry.dispose();
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(position, 3));
  g.setAttribute('normal', new THREE.BufferAttribute(normal, 3));
  g.setIndex(new THREE.BufferAttribute(index, 1));
  return g;
}

/** Geometries shared by every marble of a board; `coarseSphere` serves light frames (resolution.js). */
export function makePieceGeometries() {
  const sphere = new THREE.SphereGeometry(MARBLE_RADIUS, 24, 16);
  const coarseSphere = new THREE.SphereGeometry(MARBLE_RADIUS, 12, 8);
  const glyphs = {};
  for (const [name, sides] of Object.entries(SHAPE_SIDES)) {
    const r = sides === 32 ? 0.12 : sides === 3 ? 0.17 : 0.16;
    const g = new THREE.CircleGeometry(r, sides, sides === 4 ? Math.PI / 4 : Math.PI / 2);
    g.rotateX(-Math.PI / 2);
    glyphs[name] = g;
  }
  // The crown: an open gold band with five points, sitting on the marble's top.
  // Its inside shows from above: the band carries both faces (no double-sided material).
  const band = bothFaces(new THREE.CylinderGeometry(0.2, 0.17, 0.09, 24, 1, true));
  band.translate(0, 0.045, 0);
  const point = new THREE.ConeGeometry(0.045, 0.12, 8);
  point.translate(0, 0.15, 0);
  const crownParts = [band];
  for (let i = 0; i < 5; i++) {
    const p = point.clone();
    const a = (i / 5) * Math.PI * 2;
    p.translate(Math.cos(a) * 0.19, 0, Math.sin(a) * 0.19);
    crownParts.push(p);
  }
  const shadow = new THREE.CircleGeometry(MARBLE_RADIUS * 1.05, 24);
  shadow.rotateX(-Math.PI / 2);
  return {
    sphere, coarseSphere, glyphs, crownParts, shadow,
    dispose() {
      sphere.dispose();
      coarseSphere.dispose();
      shadow.dispose();
      Object.values(glyphs).forEach((g) => g.dispose());
      crownParts.forEach((g) => g.dispose());
      point.dispose();
    },
  };
}

/**
 * A marble group: body, shape or crown. `userData` says what it shows, for picking and tests.
 * @param {{seatName: string, king: boolean, ghost?: boolean}} look
 */
export function makeMarble(geoms, materials, look) {
  const group = new THREE.Group();
  const body = new THREE.Mesh(geoms.sphere, materials.marble(look.seatName, { ghost: !!look.ghost }));
  body.name = 'body';
  group.add(body);
  const top = new THREE.Group();
  top.name = 'top';
  top.position.y = MARBLE_RADIUS + 0.004;
  if (look.king) {
    for (const g of geoms.crownParts) top.add(new THREE.Mesh(g, materials.crown()));
  } else if (geoms.glyphs[look.seatName] && !look.ghost) {
    top.add(new THREE.Mesh(geoms.glyphs[look.seatName], materials.glyph(look.seatName)));
  }
  group.add(top);
  group.userData = { seatName: look.seatName, king: look.king };
  return group;
}

/** Draws a marble's body with the coarse sphere (a light frame) or the fine one. */
export function setCoarse(marble, geoms, coarse) {
  marble.getObjectByName('body').geometry = coarse ? geoms.coarseSphere : geoms.sphere;
}

/** Sets a marble's material to its seat's, faded or not (pieces taken along a stopped chain). */
export function setFaded(marble, materials, faded) {
  const body = marble.getObjectByName('body');
  body.material = materials.marble(marble.userData.seatName, { faded });
  marble.userData.faded = faded;
}
