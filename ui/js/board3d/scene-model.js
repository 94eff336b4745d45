// The 3D board's scene made to show a render model (the one render.js draws): the ground of the
// model's star, the viewer's destination tint, the marbles, destination rings, the preview's arc
// and ghost, the route of a stopped capture and the last moves. three.js objects are kept in maps
// keyed by cell and updated in place; each part is rebuilt only when what it shows changed.

import * as THREE from '../../vendor/three/three.module.js';
import { destinationHoles } from '../state.js';
import { starWorld } from './cells.js';
import { buildGround, buildDestinationTint } from './ground.js';
import { makeGroundImage } from './groundimage.js';
import { makeMarble, setFaded, REST_Y, LIFT_Y } from './pieces.js';
import { arcPoints, dottedLine, makeDestRing } from './marks.js';
import { sharedPlate } from './shared-renderer.js';

const seatNameOf = (m, seat) => (seat == null ? 'neutral' : m.seatNames[seat] || 'neutral');

/**
 * @param {object} o the board's scene and what it draws with
 * @param {THREE.Scene} o.scene
 * @param {{pieces: THREE.Group, rings: THREE.Group, last: THREE.Group}} o.layers
 */
export function makeSceneModel({ scene, layers, materials, textures, pieceGeoms, ringGeoms, previewLine, routeLine }) {
  let worldKey = '';
  let tintKey = '';
  let lastKey = '';
  const drawn = {
    world: null,
    ground: null,
    groundImage: null, // the ground as one picture, for light frames (groundimage.js)
    tint: null,
    ghost: null,
    marbles: new Map(), // cell → marble group
    rings: new Map(), // cell → ring group
    seatNameOf,
    /** A cell's point in the world, at height `y`. */
    position(cell, y) { const p = drawn.world.cells.get(cell); return new THREE.Vector3(p.x, y, p.z); },

    /** The ground of the model's star; true when it is a new star (the viewer must be found again). */
    buildWorld(m) {
      const key = `${m.layout.cells.length}:${m.layout.cells[0].name}:${(m.zones || []).join()}:${m.seatNames.join()}`;
      if (key === worldKey) return false;
      worldKey = key;
      const { ground, groundImage } = drawn;
      if (ground) { scene.remove(ground.group); ground.dispose(); }
      if (groundImage) { scene.remove(groundImage.group); groundImage.dispose(); }
      const world = starWorld(m.layout);
      drawn.world = world;
      // ◎ of every playing seat: Diamond only (its king's destination apex).
      const apexes = m.zones ? m.seatNames.map((seat, i) => ({ seat, apex: destinationHoles(m.layout, i).apex })).filter((a) => a.apex) : [];
      drawn.ground = buildGround(world, { layoutCells: m.layout.cells, zones: m.zones, apexes, plate: sharedPlate(world) }, materials, textures);
      scene.add(drawn.ground.group);
      drawn.groundImage = makeGroundImage(world, drawn.ground);
      scene.add(drawn.groundImage.group);
      for (const n of drawn.marbles.values()) layers.pieces.remove(n);
      drawn.marbles.clear();
      tintKey = '';
      return true;
    },

    /** The viewer's own destination point, tinted in the viewer's colour (Diamond). */
    tintViewer(m, seat) {
      const key = m.zones && seat != null ? `${seat}` : '';
      if (key === tintKey) return;
      tintKey = key;
      if (drawn.tint) { scene.remove(drawn.tint); drawn.tint.geometry.dispose(); drawn.tint = null; }
      if (key) {
        drawn.tint = buildDestinationTint(drawn.world, destinationHoles(m.layout, seat).home, seatNameOf(m, seat), materials);
        if (drawn.tint) scene.add(drawn.tint);
      }
    },

    syncPieces(m) {
      const { marbles } = drawn;
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
        n.position.copy(drawn.position(cell, cell === selectedAt ? LIFT_Y : REST_Y));
        n.userData.selected = cell === selectedAt;
        n.userData.selectable = m.selectable.has(cell);
        const faded = m.faded.has(cell);
        if (!!n.userData.faded !== faded) setFaded(n, materials, faded);
      }
    },

    syncRings(m) {
      const { rings } = drawn;
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
        r.position.copy(drawn.position(cell, 0.03));
        const on = !!(m.preview && m.preview.cell === cell);
        r.userData.on = on;
        r.scale.setScalar(on ? 1.16 : 1);
      }
    },

    syncPreview(m) {
      const { world } = drawn;
      const pv = m.preview;
      const routePoints = (cells, lift) => arcPoints(cells.map((c) => world.cells.get(c)).filter(Boolean), { base: lift });
      previewLine.show(pv ? routePoints(pv.path, REST_Y + 0.25) : null, pv ? pv.path : null);
      routeLine.show(m.route && m.route.length > 1 ? arcPoints(m.route.map((c) => world.cells.get(c)), { base: 0.08, stepHeight: 0.25, jumpHeight: 0.5 }) : null, m.route);
      const look = pv && m.ghostPiece ? `${seatNameOf(m, m.ghostPiece.seat)}:${!!m.ghostPiece.king}` : '';
      if (drawn.ghost && (!look || drawn.ghost.userData.look !== look)) { scene.remove(drawn.ghost); drawn.ghost = null; }
      if (look) {
        if (!drawn.ghost) {
          drawn.ghost = makeMarble(pieceGeoms, materials, { seatName: seatNameOf(m, m.ghostPiece.seat), king: !!m.ghostPiece.king, ghost: true });
          drawn.ghost.userData.look = look;
          scene.add(drawn.ghost);
        }
        drawn.ghost.userData.cell = pv.cell;
        drawn.ghost.position.copy(drawn.position(pv.cell, REST_Y));
      }
    },

    syncLast(m) {
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
        const pts = mv.path.map((c) => drawn.world.cells.get(c)).filter(Boolean);
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
    },

    /** Frees what the model's scene made (the board frees its materials and geometries). */
    dispose() {
      if (drawn.ground) drawn.ground.dispose();
      if (drawn.groundImage) drawn.groundImage.dispose();
      if (drawn.tint) drawn.tint.geometry.dispose();
      for (const g of layers.last.children) if (g.userData.line) g.userData.line.dispose();
    },
  };
  return drawn;
}
