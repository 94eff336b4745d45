// Which cell a tap means, for every board (SVG and 3D), pure. Star holes are ~20 px apart on a
// phone, under half a fingertip, so a tap that lands within TAP_TOLERANCE_PX of exactly one
// destination counts as that destination (docs/ui.md). A tap right on a destination, on an own
// piece that may be picked (switching) or on the selected piece (cancelling) keeps its meaning.

export const TAP_TOLERANCE_PX = 22;

/**
 * @param {object} tap
 * @param {string|null} tap.hit the cell under the finger (hit target or nearest hole), if any
 * @param {{x: number, y: number}} tap.point the tap in CSS pixels
 * @param {{cell: string, x: number, y: number}[]} tap.dests destinations on screen, CSS pixels
 * @param {Set<string>|string[]} [tap.keep] cells a direct hit keeps (own pieces, the selected one)
 * @param {number} [tap.tolerance]
 * @returns {string|null}
 */
export function resolveTap({ hit, point, dests, keep = [], tolerance = TAP_TOLERANCE_PX }) {
  if (hit != null && dests.some((d) => d.cell === hit)) return hit;
  const kept = keep instanceof Set ? keep : new Set(keep);
  if (hit != null && kept.has(hit)) return hit;
  const near = dests.filter((d) => Math.hypot(d.x - point.x, d.y - point.y) <= tolerance);
  return near.length === 1 ? near[0].cell : hit;
}

/**
 * The tap rule on a board model (board-model.js): `screenOf(cell)` is where a cell is drawn, in
 * the same pixels as `point`. The own pieces that may be picked (switching) and the selected piece
 * (cancelling) keep a direct hit.
 * @param {object|null} model
 * @param {string|null} hit
 * @param {{x: number, y: number}} point
 * @param {(cell: string) => {x: number, y: number}|null} screenOf
 */
export function boardTap(model, hit, point, screenOf) {
  if (!model || !model.dests.length) return hit;
  const keep = new Set(model.pickable || model.selectable || []);
  if (model.selected) keep.add(model.selected);
  const dests = model.dests.map((d) => ({ cell: d.cell, ...screenOf(d.cell) })).filter((d) => Number.isFinite(d.x));
  return resolveTap({ hit, point, dests, keep });
}
