// Helpers of the choice tree: routes, the pieces a partial route takes, the dotted arc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeOf, takenAlong, movablePieces, choiceModeFor } from '../js/moves.js';
import { arcPath } from '../js/render.js';

test('a route always starts at the origin, whether or not the engine path repeats it', () => {
  assert.deepEqual(routeOf({ from: 'a', to: 'c', path: ['a', 'b', 'c'] }), ['a', 'b', 'c']);
  assert.deepEqual(routeOf({ from: 'a', to: 'c', path: ['b', 'c'] }), ['a', 'b', 'c']);
  assert.deepEqual(routeOf({ from: 'a', to: 'b', path: [] }), ['a', 'b']);
});

test("the pieces taken along a partial route are its first legs' captures, in the order played", () => {
  // The engine's legs: a → c takes d, c → e takes b (`captures` would be sorted b, d).
  const move = { from: 'a', to: 'e', path: ['a', 'c', 'e'], captures: ['b', 'd'], legs: [{ to: 'c', captured: 'd' }, { to: 'e', captured: 'b' }] };
  assert.deepEqual(takenAlong(move, 1), []);
  assert.deepEqual(takenAlong(move, 2), ['d']);
  assert.deepEqual(takenAlong(move, 3), ['d', 'b']);
  // Steps and Diamond jumps take nothing.
  assert.deepEqual(takenAlong({ from: 'a', to: 'b', path: ['a', 'b'], captures: [], legs: [{ to: 'b', captured: null }] }, 2), []);
});

test('movable pieces, choice mode per game', () => {
  const moves = [
    { from: 'a', to: 'b', path: ['a', 'b'], captures: [] },
    { from: 'c', to: 'e', path: ['c', 'e'], captures: ['d'] },
    { move: 'pass', from: '', to: '', path: [], captures: [], pass: true },
  ];
  assert.deepEqual(movablePieces(moves), ['a', 'c']);
  assert.equal(choiceModeFor('diamond'), 'landing');
  for (const k of ['english', 'international', 'turkish', 'capture']) assert.equal(choiceModeFor(k), 'chain');
});

test('the dotted arc passes through every landing', () => {
  const d = arcPath([{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }]);
  assert.match(d, /^M0 0 Q\S+ \S+ 100 0 Q\S+ \S+ 100 100$/);
  assert.equal(arcPath([{ x: 1, y: 1 }]), '');
});
