// Helpers of the choice tree: routes, the pieces a partial route takes, the dotted arc.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeOf, capturesAlong, movablePieces, capturingPieces, choiceModeFor } from '../js/moves.js';
import { arcPath } from '../js/render.js';

test('a route always starts at the origin, whether or not the engine path repeats it', () => {
  assert.deepEqual(routeOf({ from: 'a', to: 'c', path: ['a', 'b', 'c'] }), ['a', 'b', 'c']);
  assert.deepEqual(routeOf({ from: 'a', to: 'c', path: ['b', 'c'] }), ['a', 'b', 'c']);
  assert.deepEqual(routeOf({ from: 'a', to: 'b', path: [] }), ['a', 'b']);
});

test('the pieces taken by a partial route are the ones lying on its legs', () => {
  const at = { a: { x: 0, y: 0 }, b: { x: 1, y: 1 }, c: { x: 2, y: 2 }, d: { x: 3, y: 1 }, e: { x: 4, y: 0 }, f: { x: 6, y: 2 }, k: { x: 5, y: 1 } };
  const coord = (n) => at[n];
  // Route a → c → e takes b and d; k (on the leg e → f) is not taken yet.
  assert.deepEqual(capturesAlong(['a', 'c'], ['b', 'd', 'k'], coord), ['b']);
  assert.deepEqual(capturesAlong(['a', 'c', 'e'], ['b', 'd', 'k'], coord), ['b', 'd']);
  // A flying king's long leg: the piece anywhere strictly between the landings.
  assert.deepEqual(capturesAlong(['a', 'f'], ['b', 'c'], (n) => ({ a: { x: 0, y: 0 }, f: { x: 6, y: 6 }, b: { x: 3, y: 3 }, c: { x: 6, y: 6 } })[n]), ['b']);
});

test('movable and capturing pieces, choice mode per game', () => {
  const moves = [
    { from: 'a', to: 'b', path: ['a', 'b'], captures: [] },
    { from: 'c', to: 'e', path: ['c', 'e'], captures: ['d'] },
    { move: 'pass', from: '', to: '', path: [], captures: [], pass: true },
  ];
  assert.deepEqual(movablePieces(moves), ['a', 'c']);
  assert.deepEqual(capturingPieces(moves), ['c']);
  assert.equal(choiceModeFor('diamond'), 'landing');
  for (const k of ['english', 'international', 'turkish', 'capture']) assert.equal(choiceModeFor(k), 'chain');
});

test('the dotted arc passes through every landing', () => {
  const d = arcPath([{ x: 0, y: 0 }, { x: 100, y: 0 }, { x: 100, y: 100 }]);
  assert.match(d, /^M0 0 Q\S+ \S+ 100 0 Q\S+ \S+ 100 100$/);
  assert.equal(arcPath([{ x: 1, y: 1 }]), '');
});
