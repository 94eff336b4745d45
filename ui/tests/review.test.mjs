// Review navigation and the move list's rows, as the game screen drives them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { moveRows, reviewStep, reviewControls } from '../js/review.js';

const entry = (seat, move) => ({ seat, move: { move } });
const rowsText = (rows) => rows.map((r) => `${r.number}. ` + r.cells.map((c) => (c ? c.text : '…')).join(' '));

test('draughts moves pair up under one number', () => {
  const history = [entry(0, '11-15'), entry(1, '23-19'), entry(0, '8-11'), entry(1, '22-17'), entry(0, '9-13')];
  const rows = moveRows(history, 2);
  assert.deepEqual(rowsText(rows), ['1. 11-15 23-19', '2. 8-11 22-17', '3. 9-13']);
  assert.deepEqual(rows[1].cells.map((c) => c.ply), [3, 4]);
});

test('a game started with the second seat to move opens with an empty cell', () => {
  const rows = moveRows([entry(1, '28-32'), entry(0, '46x23')], 2);
  assert.deepEqual(rowsText(rows), ['1. … 28-32', '2. 46x23']);
  assert.equal(rows[0].cells[1].ply, 1);
});

test('star games take one cell per seat and a round per row', () => {
  const history = [entry(0, 'F4P1-F5P2'), entry(1, 'F13P1-F12P2'), entry(2, 'F13P13-F12P12'), entry(0, 'pass')];
  assert.deepEqual(rowsText(moveRows(history, 3)), ['1. F4P1-F5P2 F13P1-F12P2 F13P13-F12P12', '2. pass']);
  assert.deepEqual(moveRows([], 3), []);
});

test('tapping a move shows the position after it; the last move is the live game', () => {
  assert.equal(reviewStep(null, { type: 'go', ply: 3 }, 10), 3);
  assert.equal(reviewStep(null, { type: 'go', ply: 0 }, 10), 0);
  assert.equal(reviewStep(4, { type: 'go', ply: 10 }, 10), null);
  assert.equal(reviewStep(4, { type: 'go', ply: 99 }, 10), null);
  assert.equal(reviewStep(4, { type: 'go', ply: 'x' }, 10), 4);
});

test('back and forward step one ply and stop at the ends', () => {
  let shown = null;
  shown = reviewStep(shown, { type: 'prev' }, 3);
  assert.equal(shown, 2, 'back from the live game shows the position before the last move');
  shown = reviewStep(shown, { type: 'prev' }, 3);
  shown = reviewStep(shown, { type: 'prev' }, 3);
  assert.equal(shown, 0);
  assert.equal(reviewStep(shown, { type: 'prev' }, 3), 0, 'the start is the first position');
  shown = reviewStep(shown, { type: 'next' }, 3);
  assert.equal(shown, 1);
  shown = reviewStep(reviewStep(shown, { type: 'next' }, 3), { type: 'next' }, 3);
  assert.equal(shown, null, 'forward past the last move is the live game');
  assert.equal(reviewStep(null, { type: 'next' }, 3), null);
});

test('first, live and a game without moves', () => {
  assert.equal(reviewStep(null, { type: 'first' }, 5), 0);
  assert.equal(reviewStep(2, { type: 'live' }, 5), null);
  assert.equal(reviewStep(null, { type: 'prev' }, 0), null);
  assert.equal(reviewStep(null, { type: 'first' }, 0), null);
  assert.deepEqual(reviewControls(null, 0), { reviewing: false, canBack: false, canForward: false });
  assert.deepEqual(reviewControls(null, 4), { reviewing: false, canBack: true, canForward: false });
  assert.deepEqual(reviewControls(0, 4), { reviewing: true, canBack: false, canForward: true });
});
