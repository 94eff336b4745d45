// Draw offers and abort from each seat (ui/js/offers.js), on room states shaped as the server
// sends them (docs/protocol.md "Draw offers, abort").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { offerState } from '../js/offers.js';

const seat = (n, extra = {}) => ({ seat: n, kind: 'human', nickname: n ? 'Bea' : 'Ana', connected: true, left: false, cpu_playing: false, ...extra });
const room = (extra = {}) => ({
  started: true, result: null, game: { kind: 'english', players: 2 }, seats: [seat(0), seat(1)],
  draw_offer: null, next_draw_offer_ply: [0, 0], view: { ply: 6 }, ...extra,
});

test('no offer: both players may offer, a spectator sees nothing to press', () => {
  for (const you of [0, 1]) {
    const s = offerState(room(), you);
    assert.deepEqual([s.offer, s.offerButton, s.canAnswer, s.canAbort], ['none', 'enabled', false, false]);
  }
  const watching = offerState(room(), null);
  assert.deepEqual([watching.offer, watching.offerButton, watching.canAnswer], ['none', 'hidden', false]);
});

test('an offer waits: the offerer sees it sent, the receiver Accept/Decline, a spectator both names', () => {
  const r = room({ draw_offer: { from: 1, to: 0, ply: 6 } });
  const sent = offerState(r, 1);
  assert.deepEqual([sent.offer, sent.offerButton, sent.canAnswer], ['sent', 'hidden', false]);
  const received = offerState(r, 0);
  assert.deepEqual([received.offer, received.offerButton, received.canAnswer], ['received', 'hidden', true]);
  const watching = offerState(r, null);
  assert.deepEqual([watching.offer, watching.from, watching.to], ['between', 1, 0]);
});

test('after a declined offer the offerer waits the plies the server says', () => {
  const r = room({ next_draw_offer_ply: [0, 14], view: { ply: 9 } });
  const held = offerState(r, 1);
  assert.deepEqual([held.offerButton, held.reason, held.pliesLeft], ['disabled', 'too_soon', 5]);
  assert.equal(offerState(r, 0).offerButton, 'enabled');
  assert.equal(offerState(room({ next_draw_offer_ply: [0, 14], view: { ply: 14 } }), 1).offerButton, 'enabled');
});

test('the CPU takes no offers: from the start, after a leave, or playing a dropped seat', () => {
  for (const other of [seat(1, { kind: 'cpu', nickname: null }), seat(1, { left: true }), seat(1, { cpu_playing: true, connected: false })]) {
    const s = offerState(room({ seats: [seat(0), other] }), 0);
    assert.deepEqual([s.offerButton, s.reason], ['disabled', 'cpu']);
  }
});

test('abort while a side has not moved (ply < 2), for both players only', () => {
  assert.equal(offerState(room({ view: { ply: 0 } }), 0).canAbort, true);
  assert.equal(offerState(room({ view: { ply: 1 } }), 1).canAbort, true);
  assert.equal(offerState(room({ view: { ply: 2 } }), 0).canAbort, false);
  assert.equal(offerState(room({ view: { ply: 0 } }), null).canAbort, false);
});

test('nothing once the game is over, before it starts, or with 3+ players', () => {
  const ended = offerState(room({ result: { winner: null, reason: 'agreement' } }), 0);
  assert.deepEqual([ended.offer, ended.offerButton, ended.canAbort], ['none', 'hidden', false]);
  assert.equal(offerState(room({ started: false }), 0).offerButton, 'hidden');
  assert.equal(offerState(room({ game: { kind: 'capture', players: 3 } }), 0).offerButton, 'hidden');
});
