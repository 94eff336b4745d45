// The selection state machine, pure: (state, action, context) → {state, effects}.
//
//   idle ──tap own piece──▶ selected ──tap destination──▶ previewing ──tap it again──▶ moving
//                              ▲  │                          │
//                              │  └── tap other own piece: switch; same piece / elsewhere: idle
//                              └── a destination where routes part: the piece stops there (chain)
//
// Capture game: where the chain may end or go on, the first tap stops the piece there with
// "stop here" previewed, so a second tap plays (tap twice, as everywhere); a tap on a next landing
// goes on instead.
// Mouse: hovering a destination previews and a click plays. Touch and pen: tap twice.
// The button panel drives the same machine: arrows move the focus, Enter activates, Escape goes
// back one step. The host supplies the legal moves; this module never knows the rules.

import { destinations, movablePieces } from './moves.js';

/**
 * @typedef {{phase: 'idle'|'selected'|'previewing'|'moving', from: string|null,
 *   stack: string[][], preview: string|null, focus: number}} InputState
 * @typedef {{moves: import('./moves.js').MoveInfo[], mode: 'landing'|'chain', enabled: boolean,
 *   order?: (cells: string[]) => string[]}} InputContext
 */

/** @returns {InputState} */
export function initialInput() {
  return { phase: 'idle', from: null, stack: [], preview: null, focus: 0 };
}

/** The route chosen so far (origin first), or [] when nothing is selected. */
export function currentPrefix(state) {
  return state.stack.length ? state.stack[state.stack.length - 1] : [];
}

/** Pieces that may be picked up, in panel order. */
export function selectablePieces(ctx) {
  if (!ctx.enabled) return [];
  const cells = movablePieces(ctx.moves);
  return ctx.order ? ctx.order(cells) : cells;
}

/** Destinations of the selected piece at its current stop. */
export function currentDestinations(state, ctx) {
  if (state.phase !== 'selected' && state.phase !== 'previewing') return [];
  return destinations(ctx.moves, currentPrefix(state), ctx.mode);
}

/** The destination being previewed, if any. */
export function previewedDestination(state, ctx) {
  if (state.phase !== 'previewing') return null;
  return currentDestinations(state, ctx).find((d) => d.cell === state.preview) || null;
}

/** What the button panel lists now: pieces, or the selected piece's destinations. */
export function panelItems(state, ctx) {
  if (state.phase === 'selected' || state.phase === 'previewing') {
    return currentDestinations(state, ctx).map((d) => ({ kind: 'dest', cell: d.cell, dest: d }));
  }
  if (state.phase === 'moving') return [];
  return selectablePieces(ctx).map((cell) => ({ kind: 'piece', cell }));
}

const none = (state) => ({ state, effects: [] });

function select(cell) {
  return { state: { phase: 'selected', from: cell, stack: [[cell]], preview: null, focus: 0 }, effects: [] };
}

function idle(state, ctx) {
  const pieces = selectablePieces(ctx);
  const at = state.from ? pieces.indexOf(state.from) : -1;
  return { state: { ...initialInput(), focus: Math.max(0, at) }, effects: [] };
}

function confirm(state, dest) {
  if (dest.move) {
    return {
      state: { ...state, phase: 'moving', preview: dest.cell },
      effects: [{ type: 'play', move: dest.move }],
    };
  }
  return {
    state: { ...state, phase: 'selected', stack: [...state.stack, dest.advance], preview: null, focus: 0 },
    effects: [{ type: 'stop', cell: dest.cell }],
  };
}

function preview(state, dest, focus) {
  return { state: { ...state, phase: 'previewing', preview: dest.cell, focus }, effects: [] };
}

/**
 * @param {InputState} state
 * @param {{type: string, [k: string]: any}} action
 * @param {InputContext} ctx
 */
export function reduce(state, action, ctx) {
  switch (action.type) {
    case 'reset':
      return { state: initialInput(), effects: [] };
    case 'tap':
      return tap(state, action.cell, action.pointer || 'touch', ctx);
    case 'hover':
      return hover(state, action.cell, ctx);
    case 'key':
      return key(state, action.key, ctx);
    case 'panel':
      return panel(state, action.index, ctx);
    default:
      return none(state);
  }
}

function tap(state, cell, pointer, ctx) {
  if (!ctx.enabled || state.phase === 'moving') return none(state);
  const pieces = selectablePieces(ctx);
  if (state.phase === 'idle') {
    return pieces.includes(cell) ? select(cell) : none(state);
  }
  const dests = currentDestinations(state, ctx);
  const di = dests.findIndex((d) => d.cell === cell);
  if (di >= 0) {
    const dest = dests[di];
    const again = state.phase === 'previewing' && state.preview === cell;
    if (pointer === 'mouse' || again) return confirm(state, dest);
    const stopHere = endingAt(state, dest, ctx);
    if (stopHere) return stopAndOffer(state, dest, stopHere);
    return preview(state, dest, di);
  }
  if (cell !== state.from && pieces.includes(cell)) return select(cell);
  return idle(state, ctx);
}

/**
 * The "stop here" destination at `dest` when it is a landing where the chain may end or go on
 * (capture game), else null.
 */
function endingAt(state, dest, ctx) {
  if (dest.move || !dest.advance) return null;
  const next = destinations(ctx.moves, dest.advance, ctx.mode);
  const index = next.findIndex((d) => d.stop && d.cell === dest.cell);
  return index >= 0 ? { dest: next[index], index } : null;
}

/** The piece stops on `dest` (the chain could go on from there) with stopping previewed. */
function stopAndOffer(state, dest, stopHere) {
  const r = confirm(state, dest);
  return {
    state: { ...r.state, phase: 'previewing', preview: stopHere.dest.cell, focus: stopHere.index },
    effects: [{ type: 'stop', cell: dest.cell, canEnd: true }],
  };
}

function hover(state, cell, ctx) {
  if (!ctx.enabled || (state.phase !== 'selected' && state.phase !== 'previewing')) return none(state);
  const dests = currentDestinations(state, ctx);
  const di = cell == null ? -1 : dests.findIndex((d) => d.cell === cell);
  if (di >= 0) {
    if (state.phase === 'previewing' && state.preview === cell) return none(state);
    return preview(state, dests[di], di);
  }
  if (state.phase === 'previewing') return { state: { ...state, phase: 'selected', preview: null }, effects: [] };
  return none(state);
}

function activate(state, item, index, ctx) {
  if (!item) return none(state);
  if (item.kind === 'piece') return select(item.cell);
  return confirm({ ...state, focus: index }, item.dest);
}

function panel(state, index, ctx) {
  if (!ctx.enabled || state.phase === 'moving') return none(state);
  const items = panelItems(state, ctx);
  return activate(state, items[index], index, ctx);
}

function focusOn(state, items, focus) {
  const item = items[focus];
  if (item && item.kind === 'dest') return preview(state, item.dest, focus);
  return { state: { ...state, focus }, effects: [] };
}

function key(state, k, ctx) {
  if (!ctx.enabled || state.phase === 'moving') return none(state);
  const items = panelItems(state, ctx);
  const n = items.length;
  const focus = Math.min(state.focus, Math.max(0, n - 1));
  switch (k) {
    case 'ArrowDown':
    case 'ArrowRight':
      return n ? focusOn(state, items, (focus + 1) % n) : none(state);
    case 'ArrowUp':
    case 'ArrowLeft':
      return n ? focusOn(state, items, (focus - 1 + n) % n) : none(state);
    case 'Home':
      return n ? focusOn(state, items, 0) : none(state);
    case 'End':
      return n ? focusOn(state, items, n - 1) : none(state);
    case 'Enter':
    case ' ': {
      const r = activate(state, items[focus], focus, ctx);
      // After picking a piece the first destination is previewed, as if focused.
      if (items[focus] && items[focus].kind === 'piece') {
        const next = panelItems(r.state, ctx);
        return next.length ? focusOn(r.state, next, 0) : r;
      }
      if (r.state.phase === 'selected') {
        const next = panelItems(r.state, ctx);
        return next.length ? focusOn(r.state, next, 0) : r;
      }
      return r;
    }
    case 'Escape': {
      if (state.phase === 'idle') return none(state);
      if (state.stack.length > 1) {
        return { state: { ...state, phase: 'selected', stack: state.stack.slice(0, -1), preview: null, focus: 0 }, effects: [] };
      }
      return idle(state, ctx);
    }
    default:
      return none(state);
  }
}
