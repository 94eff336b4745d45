// GameView + input state → the board's render model (what render.js draws). Pure: the same view
// and input give the same model, so a second board (3D) can draw from it too.

import { makeGeometry } from './geometry.js';
import { routeOf, takenAlong } from './moves.js';
import { currentDestinations, previewedDestination, currentPrefix, selectablePieces } from './input.js';
import { viewerSeat, inputContext, mustCapture, cellNamer, markedMoves, diamondGoals } from './state.js';

/** A memo of board geometries by game, player count and viewer: `(view, seat) => {key, geometry}`. */
export function geometryCache() {
  const geometries = new Map();
  return (view, seat) => {
    const key = `${view.variant.kind}:${view.variant.players}:${seat}`;
    if (!geometries.has(key)) geometries.set(key, makeGeometry(view.layout, { viewer: seat }));
    return { key, geometry: geometries.get(key) };
  };
}

/** Seat colour names as the board paints them (the capture game's pieces are all neutral). */
export function boardSeatNames(view) {
  return view.seats.map((s) => (view.variant.kind === 'capture' ? 'neutral' : s.name));
}

/**
 * @param {object} view GameView
 * @param {object} input the input reducer's state
 * @param {{busy?: boolean, seat?: number, geometryFor: function}} opts `seat` is the viewer
 *   (default: `viewerSeat(view)`); `geometryFor` comes from `geometryCache()`.
 */
export function boardModel(view, input, { busy = false, seat = viewerSeat(view), geometryFor }) {
  const kind = view.variant.kind;
  const { key, geometry } = geometryFor(view, seat);
  const c = inputContext(view, busy);
  const prefix = currentPrefix(input);
  // The pieces the route so far has taken are shown faded (the engine gives each leg's capture).
  let faded = new Set();
  if (prefix.length > 1) {
    const m = c.moves.find((mv) => routeOf(mv).slice(0, prefix.length).join() === prefix.join());
    if (m) faded = new Set(takenAlong(m, prefix.length));
  }
  const pv = previewedDestination(input, c);
  if (pv) {
    // The pieces the previewed route would take are shown faded, as the route so far does.
    const m = c.moves.find((mv) => routeOf(mv).slice(0, pv.path.length).join() === pv.path.join());
    if (m) for (const cell of takenAlong(m, pv.path.length)) faded.add(cell);
  }
  const selPiece = input.from ? view.pieces.find((p) => p.cell === input.from) : null;
  return {
    key, geometry, layout: view.layout, family: geometry.family, cellLabel: cellNamer(view, seat),
    // The seat the board is seen from (the 3D board puts its start point in front).
    viewer: seat,
    seatNames: boardSeatNames(view),
    zones: kind === 'diamond' ? ['red', 'yellow', 'green'] : null,
    goals: diamondGoals(view, seat),
    pieces: view.pieces,
    selected: input.phase === 'idle' || input.phase === 'moving' ? (input.phase === 'moving' ? input.from : null) : input.from,
    carried: prefix.length > 1 ? { from: prefix[0], at: prefix[prefix.length - 1] } : null,
    faded,
    mustCapture: new Set(input.phase === 'idle' ? mustCapture(view) : []),
    selectable: new Set(input.phase === 'idle' ? selectablePieces(c) : []),
    // Own pieces a tap may pick (switching) in any phase: the tap rule keeps a direct hit on them.
    pickable: new Set(selectablePieces(c)),
    dests: input.phase === 'moving' ? [] : currentDestinations(input, c),
    preview: pv ? { cell: pv.cell, path: pv.path.slice(Math.max(0, prefix.length - 1)) } : null,
    ghostPiece: selPiece,
    route: prefix.length > 1 ? prefix : null,
    last: markedMoves(view).map((e) => ({ path: routeOf(e.move), seat: e.seat })),
  };
}
