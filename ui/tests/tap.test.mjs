// The 22 px rule: a tap within ~22 CSS px of exactly one destination counts as that destination.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveTap, TAP_TOLERANCE_PX } from '../js/tap.js';

// Three destinations 20 px apart in a row, as star holes are on a phone.
const dests = [{ cell: 'a', x: 100, y: 100 }, { cell: 'b', x: 120, y: 100 }, { cell: 'far', x: 200, y: 100 }];

test('the tolerance is ~22 CSS px', () => assert.equal(TAP_TOLERANCE_PX, 22));

test('a tap near exactly one destination is that destination', () => {
  // 21 px below 'far': nothing else within 22 px; the hole under the finger is an empty one.
  assert.equal(resolveTap({ hit: 'empty', point: { x: 200, y: 121 }, dests }), 'far');
  assert.equal(resolveTap({ hit: null, point: { x: 215, y: 100 }, dests }), 'far', 'off the holes too');
});

test('beyond the tolerance the hole under the finger counts', () => {
  assert.equal(resolveTap({ hit: 'empty', point: { x: 200, y: 123 }, dests }), 'empty');
  assert.equal(resolveTap({ hit: null, point: { x: 300, y: 100 }, dests }), null);
});

test('near two destinations: ambiguous, so the hole under the finger counts', () => {
  assert.equal(resolveTap({ hit: 'empty', point: { x: 110, y: 110 }, dests }), 'empty');
  assert.equal(resolveTap({ hit: null, point: { x: 110, y: 110 }, dests }), null);
});

test('a direct hit on a destination, an own piece or the selected piece keeps its meaning', () => {
  assert.equal(resolveTap({ hit: 'b', point: { x: 112, y: 100 }, dests }), 'b', 'nearer a, but on b');
  assert.equal(resolveTap({ hit: 'own', point: { x: 200, y: 115 }, dests, keep: new Set(['own']) }), 'own', 'switching pieces');
  assert.equal(resolveTap({ hit: 'own', point: { x: 200, y: 115 }, dests, keep: ['sel', 'own'] }), 'own');
  assert.equal(resolveTap({ hit: 'other', point: { x: 200, y: 115 }, dests, keep: ['own'] }), 'far', 'a piece that cannot be picked does not');
});

test('no destinations: the hit stands', () => {
  assert.equal(resolveTap({ hit: 'x', point: { x: 0, y: 0 }, dests: [] }), 'x');
});
