// The wooden star: a hexagram plate with 121 drilled holes, the holes' floors tinted by zone
// (Diamond's coloured points), ◎ engraved round each playing seat's destination apex, and the
// viewer's own destination point tinted with the viewer's colour. Built once per layout; only
// the viewer's tint is rebuilt when the viewer changes (pass-and-play).

import * as THREE from '../../vendor/three/three.module.js';

export const HOLE_RADIUS = 0.22;
export const PLATE_DEPTH = 0.32;

/** Shape-plane point for world (x, z): the shape is extruded along +z and then laid flat. */
const shapePoint = (p) => new THREE.Vector2(p.x, -p.z);

function holePath(p, r = HOLE_RADIUS) {
  const path = new THREE.Path();
  path.absarc(p.x, -p.z, r, 0, Math.PI * 2, true);
  return path;
}

/** Lays a shape-plane geometry flat: shape (x, y) → world (x, ·, −y), extrusion upwards. */
function layFlat(geometry) {
  geometry.rotateX(-Math.PI / 2);
  return geometry;
}

const BEVEL = 0.04; // size and height of the rounded outer edge of the plate
const BEVEL_STEPS = 2;
const HOLE_SIDES = 20;

/**
 * The plate: its wooden top (group 0) with the 121 round holes, and its bevelled outer edge in the
 * edge colour (group 1). Built directly, indexed, with only what shows from above the board: the
 * surfaces of the extrusion of the holed star it replaces (which three.js built in ~0.3–0.9 s,
 * with 89 000 vertices) less its underside and its hole walls, which faced away from the viewer
 * and were never drawn: a hole shows the floor below it. About 2 900 vertices.
 */
export function plateGeometry(world) {
  const outline = world.outline.map(shapePoint);
  // The top: the star with round holes, triangulated once (earcut), facing up.
  const circle = [];
  for (let k = 0; k < HOLE_SIDES; k++) {
    const a = (k / HOLE_SIDES) * Math.PI * 2;
    circle.push([Math.cos(a), Math.sin(a)]);
  }
  const holeRings = [...world.cells.values()].map((p) => circle.map(([c, s]) => new THREE.Vector2(p.x + HOLE_RADIUS * c, -p.z + HOLE_RADIUS * s)));
  const capTriangles = THREE.ShapeUtils.triangulateShape(outline, holeRings);
  const capPoints = outline.concat(...holeRings);

  // The outer edge: the sides of the bevelled extrusion of the star alone (a few hundred vertices).
  const edge = layFlat(new THREE.ExtrudeGeometry(new THREE.Shape(outline), { depth: PLATE_DEPTH, bevelEnabled: true, bevelThickness: BEVEL, bevelSize: BEVEL, bevelSegments: BEVEL_STEPS, curveSegments: 1 }));
  edge.translate(0, -PLATE_DEPTH - BEVEL, 0);
  const sides = edge.groups.find((g) => g.materialIndex === 1);
  const edgePos = edge.attributes.position.array.subarray(sides.start * 3, (sides.start + sides.count) * 3);
  const edgeNormal = edge.attributes.normal.array.subarray(sides.start * 3, (sides.start + sides.count) * 3);

  const vertices = capPoints.length + sides.count;
  const position = new Float32Array(vertices * 3);
  const normal = new Float32Array(vertices * 3);
  const uv = new Float32Array(vertices * 2);
  const capIndices = capTriangles.length * 3;
  const index = new (vertices > 65535 ? Uint32Array : Uint16Array)(capIndices + sides.count);
  capPoints.forEach((pt, i) => {
    position[i * 3] = pt.x;
    position[i * 3 + 2] = -pt.y;
    normal[i * 3 + 1] = 1;
    uv[i * 2] = pt.x; // world units, as the extrusion's lid (the wood's repeat scales them)
    uv[i * 2 + 1] = pt.y;
  });
  // Front faces up (three.js draws front faces only): earcut's winding, turned if need be.
  let n = 0;
  for (const [a, b, c] of capTriangles) {
    const up = (capPoints[b].x - capPoints[a].x) * (capPoints[c].y - capPoints[a].y) - (capPoints[b].y - capPoints[a].y) * (capPoints[c].x - capPoints[a].x);
    // Shape y is −z: a counter-clockwise triangle in the shape plane faces up in the world.
    index.set(up >= 0 ? [a, b, c] : [a, c, b], n);
    n += 3;
  }
  const edgeBase = capPoints.length;
  position.set(edgePos, edgeBase * 3);
  normal.set(edgeNormal, edgeBase * 3);
  for (let i = 0; i < sides.count; i++) index[n++] = edgeBase + i;
  edge.dispose();

  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(position, 3));
  geometry.setAttribute('normal', new THREE.BufferAttribute(normal, 3));
  geometry.setAttribute('uv', new THREE.BufferAttribute(uv, 2));
  geometry.setIndex(new THREE.BufferAttribute(index, 1));
  geometry.addGroup(0, capIndices, 0);
  geometry.addGroup(capIndices, index.length - capIndices, 1);
  return geometry;
}

/** One geometry of copies of `template` (position and normal) moved to each of `points` at height `y`. */
function copiesAt(template, points, y) {
  const pos = template.attributes.position.array, nrm = template.attributes.normal.array, idx = template.index.array;
  const count = pos.length / 3;
  const position = new Float32Array(points.length * pos.length);
  const normal = new Float32Array(points.length * pos.length);
  const index = new (points.length * count > 65535 ? Uint32Array : Uint16Array)(points.length * idx.length);
  points.forEach((p, i) => {
    for (let k = 0; k < count; k++) {
      position[(i * count + k) * 3] = pos[k * 3] + p.x;
      position[(i * count + k) * 3 + 1] = pos[k * 3 + 1] + y;
      position[(i * count + k) * 3 + 2] = pos[k * 3 + 2] + p.z;
    }
    normal.set(nrm, i * pos.length);
    for (let k = 0; k < idx.length; k++) index[i * idx.length + k] = idx[k] + i * count;
  });
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.BufferAttribute(position, 3));
  g.setAttribute('normal', new THREE.BufferAttribute(normal, 3));
  g.setIndex(new THREE.BufferAttribute(index, 1));
  return g;
}

/**
 * @param {{cells: Map<string, {x:number, z:number}>, outline: {x:number, z:number}[]}} world
 * @param {object} opts
 * @param {{name: string, zone?: number}[]} opts.layoutCells
 * @param {string[]|null} opts.zones zone index → colour name (Diamond), or null
 * @param {{seat: string, apex: string}[]} opts.apexes ◎ of each playing seat (Diamond), else []
 * @param {THREE.BufferGeometry} [opts.plate] the plate of this world, if already built (it is
 *   kept by the caller and not disposed here)
 */
export function buildGround(world, { layoutCells, zones, apexes, plate = null }, materials, textures) {
  const group = new THREE.Group();
  group.name = 'ground';

  const ownPlate = !plate;
  plate = plate || plateGeometry(world);
  // UVs of the top are world units: scale the grain to a few holes per repeat.
  textures.wood.repeat.set(0.09, 0.09);
  // The same lit material kind (materials.lit) as the marbles: one shader program less to compile.
  group.add(new THREE.Mesh(plate, [materials.lit(0xffffff, textures.wood), materials.lit(materials.palette.colour('--star-edge'))]));

  // The floor the holes are drilled down to: the hole colour, tinted per zone.
  const floor = layFlat(new THREE.ShapeGeometry(new THREE.Shape(world.outline.map(shapePoint))));
  floor.translate(0, -PLATE_DEPTH * 0.75, 0);
  const geometries = [floor];
  group.add(new THREE.Mesh(floor, materials.lit(materials.palette.colour('--hole'))));
  if (zones) {
    const disc = layFlat(new THREE.CircleGeometry(HOLE_RADIUS * 1.02, 20));
    const byZone = new Map();
    for (const c of layoutCells) {
      if (c.zone == null || !zones[c.zone]) continue;
      if (!byZone.has(c.zone)) byZone.set(c.zone, []);
      byZone.get(c.zone).push(world.cells.get(c.name));
    }
    for (const [zone, points] of byZone) {
      // One mesh per zone (not instanced: the same shader program as the rest of the plate).
      const discs = copiesAt(disc, points, -PLATE_DEPTH * 0.75 + 0.004);
      geometries.push(discs);
      group.add(new THREE.Mesh(discs, materials.lit(materials.palette.zone(zones[zone]))));
    }
    disc.dispose();
  }

  // ◎: two engraved circles round each playing seat's destination apex, in that seat's colour.
  for (const { seat, apex } of apexes) {
    const p = world.cells.get(apex);
    if (!p) continue;
    const mark = new THREE.Group();
    mark.name = 'king-home';
    mark.userData = { cell: apex, seat };
    for (const [r0, r1] of [[0.3, 0.345], [0.42, 0.465]]) {
      const ring = layFlat(new THREE.RingGeometry(r0, r1, 40));
      geometries.push(ring);
      mark.add(new THREE.Mesh(ring, materials.flat(`--${seat}-mid`, 0.9)));
    }
    mark.position.set(p.x, 0.004, p.z);
    group.add(mark);
  }

  if (ownPlate) geometries.push(plate);
  return {
    group,
    plate,
    // Materials are the board's (materials.dispose); only the geometries made here go.
    dispose() { geometries.forEach((g) => g.dispose()); },
  };
}

/**
 * The viewer's destination point, tinted: a thin inlay of the viewer's colour over the 15 holes'
 * triangle, drilled with the same holes. Returns null when there is no destination (capture game).
 */
export function buildDestinationTint(world, home, seatName, materials) {
  const points = home.map((c) => world.cells.get(c)).filter(Boolean);
  if (points.length < 3) return null;
  // The triangle's corners are the three holes farthest apart; grow it from its centroid.
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const cz = points.reduce((s, p) => s + p.z, 0) / points.length;
  const corners = [...points].sort((a, b) => Math.hypot(b.x - cx, b.z - cz) - Math.hypot(a.x - cx, a.z - cz)).slice(0, 3)
    .sort((a, b) => Math.atan2(a.z - cz, a.x - cx) - Math.atan2(b.z - cz, b.x - cx))
    .map((p) => {
      const d = Math.hypot(p.x - cx, p.z - cz);
      const k = (d + 0.62) / d;
      return { x: cx + (p.x - cx) * k, z: cz + (p.z - cz) * k };
    });
  const shape = new THREE.Shape(corners.map(shapePoint).reverse());
  for (const p of points) shape.holes.push(holePath(p, HOLE_RADIUS + 0.03));
  const geometry = layFlat(new THREE.ShapeGeometry(shape, 10));
  geometry.translate(0, 0.002, 0);
  const mesh = new THREE.Mesh(geometry, materials.flat(`--${seatName}-mid`, 0.28));
  mesh.name = 'destination-tint';
  mesh.userData = { cells: home };
  return mesh;
}
