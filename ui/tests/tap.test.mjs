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

// The rule on a real board model: Diamond at the start, a red piece selected, the star drawn at a
// phone's scale (holes 20 px apart).
import { boardModel, geometryCache } from '../js/board-model.js';
import { initialInput, reduce, currentDestinations } from '../js/input.js';
import { inputContext } from '../js/state.js';
import { boardTap } from '../js/tap.js';
import { fixture } from './fixtures.mjs';

test('boardTap: near one destination, on an own piece, on the selected piece', () => {
  const view = fixture('diamond', 'local-3', 0);
  const c = inputContext(view, false);
  const from = view.legal_moves[0].from;
  const input = reduce(initialInput(), { type: 'tap', cell: from, pointer: 'touch' }, c).state;
  const [dest, ...others] = currentDestinations(input, c);
  assert.ok(others.length >= 1, 'two destinations');
  const model = boardModel(view, input, { geometryFor: geometryCache() });
  const g = model.geometry;
  const scale = 20 / g.unit;
  const screenOf = (cell) => { const p = g.toSvg(cell); return { x: p.x * scale, y: p.y * scale }; };
  const at = screenOf(dest.cell);
  // Away from the other destinations: 18 px off this one is >= 38 px off the others.
  const o = screenOf(others[0].cell);
  const len = Math.hypot(at.x - o.x, at.y - o.y);
  const off = (d) => ({ x: at.x + ((at.x - o.x) / len) * d, y: at.y + ((at.y - o.y) / len) * d });
  assert.equal(boardTap(model, null, off(18), screenOf), dest.cell, 'a tap 18 px off one destination');
  assert.equal(boardTap(model, null, off(25), screenOf), null, '25 px off: nothing');
  const mid = { x: (at.x + o.x) / 2, y: (at.y + o.y) / 2 };
  assert.equal(boardTap(model, null, mid, screenOf), null, 'between two destinations: ambiguous');
  // Another own piece that may move, within 22 px of the destination: a direct hit switches.
  const other = [...model.pickable].find((cell) => cell !== from && Math.hypot(screenOf(cell).x - at.x, screenOf(cell).y - at.y) <= 22);
  if (other) assert.equal(boardTap(model, other, screenOf(other), screenOf), other, 'switching to a piece next to the destination');
  assert.equal(boardTap(model, from, screenOf(from), screenOf), from, 'the selected piece cancels');
  // Nothing selected: no destinations, the hit stands.
  const idle = boardModel(view, initialInput(), { geometryFor: geometryCache() });
  assert.equal(boardTap(idle, from, screenOf(dest.cell), screenOf), from);
});
