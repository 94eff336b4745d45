// The choice tree of one piece's legal moves: what the board offers as destinations at each step.
//
// Two ways of choosing, by game family:
// - "landing" (Diamond): a destination is a final landing; several routes to one landing are the
//   same move, and the one with the fewest jumps is shown (seed 000: shortest path).
// - "chain" (draughts, capture game): moves are routes; a destination is the next point where the
//   routes part. Forced stretches are followed to their end, so an unambiguous multi-jump is one
//   choice, while routes that share a landing make the board stop there for the next choice
//   (seeds 003/004). When a route may also end where the piece stands (capture game: stop after
//   any jump), the current point is offered as a "stop here" destination.

/** @typedef {{to: string, captured: string|null}} Leg */
/** @typedef {{move: string, from: string, to: string, path: string[], jumps: number, captures: string[], legs: Leg[], pass?: boolean}} MoveInfo */
/** @typedef {{cell: string, path: string[], move: MoveInfo|null, advance: string[]|null, stop: boolean, jumps: number, captures: string[]}} Destination */

/** The move's landings from its origin, origin included. */
export function routeOf(move) {
  const path = move.path && move.path.length ? move.path : [move.from, move.to];
  return path[0] === move.from ? path : [move.from, ...path];
}

export function choiceModeFor(kind) {
  return kind === 'diamond' ? 'landing' : 'chain';
}

/** Origins of the playable moves, in first-seen order. */
export function movablePieces(moves) {
  const seen = new Set();
  for (const m of moves) if (!m.pass) seen.add(m.from);
  return [...seen];
}

function startsWith(route, prefix) {
  if (route.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (route[i] !== prefix[i]) return false;
  return true;
}

/**
 * Destinations offered for the piece whose route so far is `prefix` (prefix[0] = origin).
 * @param {MoveInfo[]} moves legal moves of the position
 * @param {string[]} prefix
 * @param {'landing'|'chain'} mode
 * @returns {Destination[]}
 */
export function destinations(moves, prefix, mode) {
  const from = prefix[0];
  const own = moves.filter((m) => !m.pass && m.from === from);
  if (mode === 'landing') {
    const best = new Map();
    for (const m of own) {
      const prev = best.get(m.to);
      if (!prev || m.jumps < prev.jumps) best.set(m.to, m);
    }
    return [...best.values()].map((m) => finalDest(m, false));
  }
  const routes = own.map((m) => ({ m, r: routeOf(m) })).filter((x) => startsWith(x.r, prefix));
  const k = prefix.length;
  const out = [];
  const ending = routes.filter((x) => x.r.length === k);
  if (k > 1 && ending.length) out.push(finalDest(ending[0].m, true, prefix));
  const groups = new Map();
  for (const x of routes) {
    if (x.r.length <= k) continue;
    const key = x.r[k];
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(x);
  }
  const branches = [...groups.values()].map((g) => ({ g, depth: forcedDepth(g, k + 1) }));
  // Two branches stopping on one point would make a tap ambiguous: such branches stop at their
  // first landing instead (first landings differ by construction), repeated until none collide.
  for (;;) {
    const taken = new Map();
    if (out.length) taken.set(out[0].cell, -1);
    let clash = false;
    branches.forEach((b, i) => {
      const cell = b.g[0].r[b.depth - 1];
      if (taken.has(cell)) {
        clash = true;
        const j = taken.get(cell);
        b.depth = k + 1;
        if (j >= 0) branches[j].depth = k + 1;
      } else taken.set(cell, i);
    });
    if (!clash) break;
    if (branches.every((b) => b.depth === k + 1)) break;
  }
  for (const { g, depth } of branches) out.push(branchDest(g, depth));
  return out;
}

/** How far a group of routes runs together without a choice (no route ends, one next point). */
function forcedDepth(group, depth) {
  for (;;) {
    if (group.some((x) => x.r.length === depth)) return depth;
    const next = new Set(group.map((x) => x.r[depth]));
    if (next.size !== 1) return depth;
    depth++;
  }
}

function branchDest(group, depth) {
  const path = group[0].r.slice(0, depth);
  const longer = group.filter((x) => x.r.length > depth);
  const ending = group.filter((x) => x.r.length === depth);
  const final = longer.length === 0;
  const m = final ? ending[0].m : null;
  return {
    cell: path[path.length - 1],
    path,
    move: m,
    advance: final ? null : path,
    stop: false,
    jumps: m ? m.jumps : path.length - 1,
    captures: m ? m.captures || [] : [],
  };
}

function finalDest(m, stop, prefix) {
  return {
    cell: m.to,
    path: prefix || routeOf(m),
    move: m,
    advance: null,
    stop,
    jumps: m.jumps,
    captures: m.captures || [],
  };
}

/**
 * The pieces a move takes along the first `landings` points of its route (origin included), in
 * the order taken: the engine gives each leg's capture (`MoveInfo.legs`).
 */
export function takenAlong(move, landings) {
  return (move.legs || []).slice(0, Math.max(0, landings - 1)).map((leg) => leg.captured).filter((c) => c != null);
}
