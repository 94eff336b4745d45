// Star cells in the 3D board's world, pure (no three.js): every hole at (x, z) on the plane y = 0,
// one unit apart, seat 0's start point towards +z. The world never turns; the camera does (a
// viewer's start is brought to the front by the camera's azimuth, see camera.js).

import { makeGeometry, STAR_UNIT } from '../geometry.js';
import { azimuthFacing } from './camera.js';

/**
 * @param {{shape: object, cells: {name: string, x: number, y: number, zone?: number,
 *   view_names?: string[]}[]}} layout a star layout (docs/commands.md)
 * @returns {{cells: Map<string, {x: number, z: number}>, radius: number, outline: {x: number, z: number}[]}}
 */
export function starWorld(layout) {
  // Seat 0's 2D geometry already has seat 0's start at the bottom (SVG y down = world +z).
  const g = makeGeometry(layout, { viewer: 0 });
  const cells = new Map();
  let radius = 0;
  for (const name of g.cells) {
    const p = g.toSvg(name);
    const w = { x: p.x / STAR_UNIT, z: p.y / STAR_UNIT };
    cells.set(name, w);
    radius = Math.max(radius, Math.hypot(w.x, w.z));
  }
  return { cells, radius, outline: starOutline([...cells.values()], 0.72) };
}

/**
 * The world of the 121-hole star every star game is played on (rows of 1, 2, 3, 4, 13, 12, 11, 10,
 * 9, … holes, seat 0's apex towards +z), without a layout: the 3D board's warm-up builds the plate
 * for it before the game exists. Cells are named by position only; a game's own world
 * (`starWorld`) has the same holes, which `holesKey` checks before the plate is reused.
 */
export function standardStarWorld() {
  const rowSizes = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
  const cells = new Map();
  let radius = 0;
  rowSizes.forEach((n, i) => {
    const z = (i - 8) * (Math.sqrt(3) / 2);
    for (let k = 0; k < n; k++) {
      const w = { x: k - (n - 1) / 2, z };
      cells.set(`${i}:${k}`, w);
      radius = Math.max(radius, Math.hypot(w.x, w.z));
    }
  });
  return { cells, radius, outline: starOutline([...cells.values()], 0.72) };
}

/** What a plate built for `world` depends on: its holes' positions (to a hundredth of a hole). */
export function holesKey(world) {
  return [...world.cells.values()].map((p) => `${p.x.toFixed(2)},${p.z.toFixed(2)}`).sort().join(' ').replace(/-0\.00/g, '0.00');
}

/**
 * The hexagram around the holes, grown by `margin` beyond the six apex holes: 12 corners in
 * angle order, alternating an apex and the inner corner between two apexes.
 */
export function starOutline(points, margin) {
  const far = [...points].sort((a, b) => Math.hypot(b.x, b.z) - Math.hypot(a.x, a.z)).slice(0, 6)
    .sort((a, b) => Math.atan2(a.z, a.x) - Math.atan2(b.z, b.x));
  const out = [];
  far.forEach((p, i) => {
    const r = Math.hypot(p.x, p.z) + margin;
    const a = Math.atan2(p.z, p.x);
    out.push({ x: r * Math.cos(a), z: r * Math.sin(a) });
    // Two equilateral triangles through the apexes cross at radius r / √3, halfway in angle.
    const n = far[(i + 1) % 6];
    let b = Math.atan2(n.z, n.x);
    if (b < a) b += 2 * Math.PI;
    const m = (a + b) / 2;
    out.push({ x: (r / Math.sqrt(3)) * Math.cos(m), z: (r / Math.sqrt(3)) * Math.sin(m) });
  });
  return out;
}

/** The hole nearest to (x, z) on the board plane, if within `maxDist` (half the hole spacing). */
export function nearestCell(cells, x, z, maxDist = 0.5) {
  let best = null, bestD = maxDist;
  for (const [name, p] of cells) {
    const d = Math.hypot(p.x - x, p.z - z);
    if (d < bestD) { bestD = d; best = name; }
  }
  return best;
}

/** The azimuth that puts the viewer's start apex (its F1P1) in front, or 0 when unnamed. */
export function viewerAzimuth(layout, world, viewer) {
  const apex = layout.cells.find((c) => c.view_names && c.view_names[viewer] === 'F1P1');
  const p = apex && world.cells.get(apex.name);
  return p ? azimuthFacing(p.x, p.z) : 0;
}
