// The selection state machine, driven as the board and the button panel drive it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialInput, reduce, currentDestinations, previewedDestination, panelItems, currentPrefix } from '../js/input.js';
import { destinations } from '../js/moves.js';

const mv = (path, captures = []) => ({
  move: path.join(captures.length ? 'x' : '-'), from: path[0], to: path[path.length - 1], path, jumps: path.length - 1, captures,
});

// Two pieces: a1 steps to b2 or jumps to c3 (one jump over b2... whatever the rules, the UI only sees moves).
const simple = [mv(['a1', 'b2']), mv(['a1', 'c3']), mv(['e1', 'f2'])];
const ctxOf = (moves, mode = 'chain', extra = {}) => ({ moves, mode, enabled: true, ...extra });

function run(state, ctx, ...actions) {
  const effects = [];
  for (const a of actions) {
    const r = reduce(state, a, ctx);
    state = r.state;
    effects.push(...r.effects);
  }
  return { state, effects };
}
const tap = (cell, pointer = 'touch') => ({ type: 'tap', cell, pointer });
const key = (k) => ({ type: 'key', key: k });

test('tapping an own piece selects it and shows its destinations', () => {
  const ctx = ctxOf(simple);
  const { state, effects } = run(initialInput(), ctx, tap('a1'));
  assert.equal(state.phase, 'selected');
  assert.equal(state.from, 'a1');
  assert.deepEqual(currentDestinations(state, ctx).map((d) => d.cell).sort(), ['b2', 'c3']);
  assert.deepEqual(effects, []);
});

test('tapping a square with no movable piece does nothing', () => {
  const ctx = ctxOf(simple);
  assert.equal(run(initialInput(), ctx, tap('h8')).state.phase, 'idle');
  assert.equal(run(initialInput(), ctx, tap(null)).state.phase, 'idle');
});

test('first tap on a destination previews without playing; a second tap plays', () => {
  const ctx = ctxOf(simple);
  let { state, effects } = run(initialInput(), ctx, tap('a1'), tap('c3'));
  assert.equal(state.phase, 'previewing');
  assert.equal(state.preview, 'c3');
  assert.deepEqual(effects, [], 'preview must not move');
  assert.deepEqual(previewedDestination(state, ctx).path, ['a1', 'c3']);
  ({ state, effects } = run(state, ctx, tap('c3')));
  assert.equal(state.phase, 'moving');
  assert.deepEqual(effects, [{ type: 'play', move: simple[1] }]);
});

test('tapping a different destination while previewing moves the preview, not the piece', () => {
  const ctx = ctxOf(simple);
  const { state, effects } = run(initialInput(), ctx, tap('a1'), tap('c3'), tap('b2'));
  assert.equal(state.phase, 'previewing');
  assert.equal(state.preview, 'b2');
  assert.deepEqual(effects, []);
});

test('mouse: hover previews, leaving clears, a click plays at once', () => {
  const ctx = ctxOf(simple);
  let { state } = run(initialInput(), ctx, tap('a1', 'mouse'), { type: 'hover', cell: 'b2' });
  assert.equal(state.phase, 'previewing');
  assert.equal(state.preview, 'b2');
  ({ state } = run(state, ctx, { type: 'hover', cell: null }));
  assert.equal(state.phase, 'selected');
  assert.equal(state.preview, null);
  const r = run(state, ctx, tap('b2', 'mouse'));
  assert.equal(r.state.phase, 'moving');
  assert.deepEqual(r.effects, [{ type: 'play', move: simple[0] }]);
});

test('tapping another own piece switches the selection', () => {
  const ctx = ctxOf(simple);
  const { state } = run(initialInput(), ctx, tap('a1'), tap('c3'), tap('e1'));
  assert.equal(state.phase, 'selected');
  assert.equal(state.from, 'e1');
  assert.deepEqual(currentDestinations(state, ctx).map((d) => d.cell), ['f2']);
});

test('tapping the same piece or a non-destination cancels', () => {
  const ctx = ctxOf(simple);
  assert.equal(run(initialInput(), ctx, tap('a1'), tap('a1')).state.phase, 'idle');
  assert.equal(run(initialInput(), ctx, tap('a1'), tap('h8')).state.phase, 'idle');
  assert.equal(run(initialInput(), ctx, tap('a1'), tap('b2'), tap('h8')).state.phase, 'idle');
});

test('nothing happens while input is disabled (CPU to move, move in flight)', () => {
  const ctx = ctxOf(simple, 'chain', { enabled: false });
  assert.equal(run(initialInput(), ctx, tap('a1')).state.phase, 'idle');
  const live = ctxOf(simple);
  const moving = run(initialInput(), live, tap('a1'), tap('b2'), tap('b2')).state;
  assert.equal(run(moving, live, tap('e1')).state.phase, 'moving');
});

// Draughts capture routes from d2: two routes share the landing f4 and part there (f4→d6, f4→h6);
// a third route runs without choice through b4 to d6.
const branching = [
  mv(['d2', 'f4', 'd6'], ['e3', 'e5']),
  mv(['d2', 'f4', 'h6'], ['e3', 'g5']),
  mv(['d2', 'b4', 'd6'], ['c3', 'c5']),
];

test('routes sharing a landing stop the piece there for the next choice', () => {
  const ctx = ctxOf(branching);
  let { state } = run(initialInput(), ctx, tap('d2'));
  const first = currentDestinations(state, ctx);
  // The forced b4 route is offered at its end (d6); the routes through f4 part there, so f4 is a stop.
  assert.deepEqual(first.map((d) => [d.cell, d.move ? d.move.move : null]).sort(), [['d6', 'd2xb4xd6'], ['f4', null]]);
  let effects;
  ({ state, effects } = run(state, ctx, tap('f4'), tap('f4')));
  assert.deepEqual(effects, [{ type: 'stop', cell: 'f4' }]);
  assert.equal(state.phase, 'selected');
  assert.deepEqual(currentPrefix(state), ['d2', 'f4']);
  assert.deepEqual(currentDestinations(state, ctx).map((d) => d.cell).sort(), ['d6', 'h6']);
  ({ state, effects } = run(state, ctx, tap('h6'), tap('h6')));
  assert.deepEqual(effects, [{ type: 'play', move: branching[1] }]);
});

test('two routes ending on one square stop at their first landings, so a tap is never ambiguous', () => {
  const moves = [mv(['a', 'b', 'x'], ['p', 'q']), mv(['a', 'c', 'x'], ['r', 's'])];
  const ds = destinations(moves, ['a'], 'chain');
  assert.deepEqual(ds.map((d) => [d.cell, d.move ? d.move.move : null]), [['b', null], ['c', null]]);
  const next = destinations(moves, ['a', 'c'], 'chain');
  assert.deepEqual(next.map((d) => [d.cell, d.move.move]), [['x', 'axcxx']]);
});

test('an unambiguous multi-jump is one choice, shown with its whole path', () => {
  const chain = [mv(['c1', 'e3', 'c5', 'e7'], ['d2', 'd4', 'd6']), mv(['g1', 'h2'])];
  const ctx = ctxOf(chain);
  const { state } = run(initialInput(), ctx, tap('c1'), tap('e7'));
  const d = previewedDestination(state, ctx);
  assert.deepEqual(d.path, ['c1', 'e3', 'c5', 'e7']);
  assert.equal(d.move, chain[0]);
  assert.deepEqual(run(state, ctx, tap('e7')).effects, [{ type: 'play', move: chain[0] }]);
});

test('capture game: after a jump that could go on, the piece may stop where it stands', () => {
  const moves = [mv(['x', 'y'], ['m']), mv(['x', 'y', 'z'], ['m', 'n'])];
  const ctx = ctxOf(moves);
  let { state } = run(initialInput(), ctx, tap('x'));
  assert.deepEqual(currentDestinations(state, ctx).map((d) => [d.cell, !!d.move]), [['y', false]]);
  let effects;
  // The first tap stops the piece on y, "stop here" previewed: the chain may end or go on there.
  ({ state, effects } = run(state, ctx, tap('y')));
  assert.deepEqual(effects, [{ type: 'stop', cell: 'y', canEnd: true }]);
  assert.equal(state.phase, 'previewing');
  assert.equal(state.preview, 'y');
  assert.deepEqual(currentPrefix(state), ['x', 'y']);
  const here = currentDestinations(state, ctx);
  assert.deepEqual(here.map((d) => [d.cell, d.stop]), [['y', true], ['z', false]]);
  assert.equal(previewedDestination(state, ctx).move, moves[0]);
  // A second tap on y stops there and plays, as tap-twice does everywhere.
  assert.deepEqual(run(state, ctx, tap('y')).effects, [{ type: 'play', move: moves[0] }]);
  // Going on is a tap on the next landing (then a second tap plays it).
  const on = run(state, ctx, tap('z'));
  assert.deepEqual(on.effects, []);
  assert.equal(on.state.preview, 'z');
  assert.deepEqual(run(on.state, ctx, tap('z')).effects, [{ type: 'play', move: moves[1] }]);
  // With a mouse, a click stops the piece and a second click there plays.
  const clicked = run(initialInput(), ctx, tap('x', 'mouse'), tap('y', 'mouse'), tap('y', 'mouse'));
  assert.deepEqual(clicked.effects, [{ type: 'stop', cell: 'y' }, { type: 'play', move: moves[0] }]);
});

test('landing mode (Diamond): one destination per landing, by the route with fewest jumps', () => {
  const long = { ...mv(['p', 'q', 'r', 's']), jumps: 3 };
  const short = { ...mv(['p', 's']), jumps: 1 };
  const ds = destinations([long, short], ['p'], 'landing');
  assert.equal(ds.length, 1);
  assert.equal(ds[0].move, short);
});

test('keyboard panel: arrows move, Enter picks and plays, Escape goes back', () => {
  const ctx = ctxOf(simple, 'chain', { order: (c) => [...c].sort() });
  let s = initialInput();
  assert.deepEqual(panelItems(s, ctx).map((i) => i.cell), ['a1', 'e1']);
  ({ state: s } = run(s, ctx, key('ArrowRight')));
  assert.equal(s.focus, 1);
  ({ state: s } = run(s, ctx, key('ArrowRight')));
  assert.equal(s.focus, 0, 'wraps around');
  ({ state: s } = run(s, ctx, key('Enter')));
  assert.equal(s.from, 'a1');
  assert.equal(s.phase, 'previewing', 'the first destination is previewed');
  const items = panelItems(s, ctx);
  assert.equal(items.length, 2);
  assert.equal(s.preview, items[0].cell);
  ({ state: s } = run(s, ctx, key('ArrowDown')));
  assert.equal(s.preview, items[1].cell);
  ({ state: s } = run(s, ctx, key('Escape')));
  assert.equal(s.phase, 'idle');
  assert.equal(s.focus, 0, 'focus returns to the piece');
  const r = run(s, ctx, key('Enter'), key('ArrowDown'), key('Enter'));
  assert.equal(r.state.phase, 'moving');
  assert.deepEqual(r.effects, [{ type: 'play', move: simple.find((m) => m.to === items[1].cell) }]);
});

test('keyboard panel: Escape steps back one stop in a branching capture', () => {
  const ctx = ctxOf(branching);
  let { state } = run(initialInput(), ctx, tap('d2'), tap('f4'), tap('f4'));
  assert.deepEqual(currentPrefix(state), ['d2', 'f4']);
  ({ state } = run(state, ctx, key('Escape')));
  assert.deepEqual(currentPrefix(state), ['d2']);
  assert.equal(state.phase, 'selected');
  ({ state } = run(state, ctx, key('Escape')));
  assert.equal(state.phase, 'idle');
});

test('panel clicks: a piece button selects, a destination button plays directly', () => {
  const ctx = ctxOf(simple);
  let { state } = run(initialInput(), ctx, { type: 'panel', index: 1 });
  assert.equal(state.from, 'e1');
  const r = run(state, ctx, { type: 'panel', index: 0 });
  assert.deepEqual(r.effects, [{ type: 'play', move: simple[2] }]);
});
