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

/**
 * @param {{cells: Map<string, {x:number, z:number}>, outline: {x:number, z:number}[]}} world
 * @param {object} opts
 * @param {{name: string, zone?: number}[]} opts.layoutCells
 * @param {string[]|null} opts.zones zone index → colour name (Diamond), or null
 * @param {{seat: string, apex: string}[]} opts.apexes ◎ of each playing seat (Diamond), else []
 */
export function buildGround(world, { layoutCells, zones, apexes }, materials, textures) {
  const group = new THREE.Group();
  group.name = 'ground';

  const shape = new THREE.Shape(world.outline.map(shapePoint));
  for (const p of world.cells.values()) shape.holes.push(holePath(p));
  const plate = layFlat(new THREE.ExtrudeGeometry(shape, { depth: PLATE_DEPTH, bevelEnabled: true, bevelThickness: 0.04, bevelSize: 0.04, bevelSegments: 2, curveSegments: 10 }));
  plate.translate(0, -PLATE_DEPTH - 0.04, 0);
  // UVs of the extrusion are world units: scale the grain to a few holes per repeat.
  textures.wood.repeat.set(0.09, 0.09);
  const top = new THREE.MeshLambertMaterial({ color: 0xffffff, map: textures.wood });
  const edge = new THREE.MeshLambertMaterial({ color: materials.palette.colour('--star-edge') });
  group.add(new THREE.Mesh(plate, [top, edge]));

  // The floor the holes are drilled down to: the hole colour, tinted per zone.
  const floor = layFlat(new THREE.ShapeGeometry(new THREE.Shape(world.outline.map(shapePoint))));
  floor.translate(0, -PLATE_DEPTH * 0.75, 0);
  group.add(new THREE.Mesh(floor, new THREE.MeshLambertMaterial({ color: materials.palette.colour('--hole') })));
  if (zones) {
    const disc = layFlat(new THREE.CircleGeometry(HOLE_RADIUS * 1.02, 20));
    const byZone = new Map();
    for (const c of layoutCells) {
      if (c.zone == null || !zones[c.zone]) continue;
      if (!byZone.has(c.zone)) byZone.set(c.zone, []);
      byZone.get(c.zone).push(world.cells.get(c.name));
    }
    for (const [zone, points] of byZone) {
      const mesh = new THREE.InstancedMesh(disc, new THREE.MeshLambertMaterial({ color: materials.palette.zone(zones[zone]) }), points.length);
      const m = new THREE.Matrix4();
      points.forEach((p, i) => mesh.setMatrixAt(i, m.makeTranslation(p.x, -PLATE_DEPTH * 0.75 + 0.004, p.z)));
      group.add(mesh);
    }
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
      mark.add(new THREE.Mesh(ring, materials.flat(`--${seat}-mid`, 0.9)));
    }
    mark.position.set(p.x, 0.004, p.z);
    group.add(mark);
  }

  const geometries = [plate, floor];
  return {
    group,
    dispose() {
      group.traverse((o) => { if (o.geometry && !geometries.includes(o.geometry)) o.geometry.dispose(); });
      geometries.forEach((g) => g.dispose());
      top.dispose();
      edge.dispose();
    },
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
