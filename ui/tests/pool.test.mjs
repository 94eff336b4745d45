// The searching screen's state (ui/js/pool.js): the server's pool messages in order, the time
// waited from when the server first said the player waits, and the opponent once paired.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  initialSearch, searchStep, searchTicks, waitedSeconds, formatWaited, opponentOf, poolName, hasPool, POOL_CLOCKS, ratedKind,
} from '../js/pool.js';

test('joining, then waiting from the first pool_waiting, then paired', () => {
  let s = initialSearch('english', false);
  assert.equal(s.phase, 'joining');
  assert.equal(waitedSeconds(s, 1_000_000), 0);
  s = searchStep(s, { type: 'waiting', pool: 'english/casual', rating: 1200, cpu_at: 1_020_000, at: 1_000_000 });
  assert.equal(s.phase, 'waiting');
  assert.equal(s.rating, 1200);
  assert.equal(s.cpuAt, 1_020_000);
  assert.equal(waitedSeconds(s, 1_000_999), 0);
  assert.equal(waitedSeconds(s, 1_001_000), 1);
  assert.equal(waitedSeconds(s, 1_065_400), 65);
  // A second pool_waiting (after a reconnection) keeps the start of the wait.
  s = searchStep(searchStep(s, { type: 'rejoin' }), { type: 'waiting', rating: 1210, cpu_at: 1_090_000, at: 1_070_000 });
  assert.equal(s.since, 1_000_000);
  assert.equal(s.rating, 1210);
  s = searchStep(s, { type: 'paired', code: 'K7Q2M9XRTDABCDEFGH1J', opponent: { nickname: 'Bea', rating: 1187, cpu: false, level: null }, rated: false });
  assert.equal(s.phase, 'paired');
  assert.equal(s.code, 'K7Q2M9XRTDABCDEFGH1J');
  assert.equal(s.rated, false);
});

test('a pairing stands: a late pool_left or error does not undo it', () => {
  let s = searchStep(initialSearch('turkish', true), { type: 'paired', code: 'C', opponent: { cpu: true, level: 'hard' }, rated: false });
  for (const e of [{ type: 'left' }, { type: 'error', code: 'not_in_pool' }, { type: 'waiting', at: 5 }, { type: 'rejoin' }]) {
    assert.equal(searchStep(s, e), s);
  }
});

test('cancel and refusals', () => {
  const waiting = searchStep(initialSearch('english', true), { type: 'waiting', rating: 1200, cpu_at: 0, at: 0 });
  assert.equal(searchStep(waiting, { type: 'left' }).phase, 'left');
  const failed = searchStep(initialSearch('english', true), { type: 'error', code: 'sign_in_required' });
  assert.deepEqual([failed.phase, failed.error], ['failed', 'sign_in_required']);
  // A pool_waiting that comes after Cancel (the answers cross) leaves it cancelled.
  assert.equal(searchStep(searchStep(waiting, { type: 'left' }), { type: 'waiting', at: 9 }).phase, 'left');
  assert.equal(searchStep(failed, { type: 'rejoin' }).phase, 'joining');
});

test('the clock ticks only while searching and seen', () => {
  const joining = initialSearch('english', false);
  const waiting = searchStep(joining, { type: 'waiting', at: 0 });
  assert.equal(searchTicks(joining, true), true);
  assert.equal(searchTicks(waiting, true), true);
  assert.equal(searchTicks(waiting, false), false);
  assert.equal(searchTicks(searchStep(waiting, { type: 'left' }), true), false);
  assert.equal(searchTicks(searchStep(waiting, { type: 'paired', code: 'C' }), true), false);
  assert.equal(searchTicks(searchStep(joining, { type: 'error', code: 'x' }), true), false);
});

test('time waited as m:ss', () => {
  assert.equal(formatWaited(0), '0:00');
  assert.equal(formatWaited(7), '0:07');
  assert.equal(formatWaited(65), '1:05');
  assert.equal(formatWaited(720), '12:00');
  assert.equal(formatWaited(-3), '0:00');
});

test('the opponent: a person with a rating, or plainly the CPU', () => {
  assert.deepEqual(opponentOf({ nickname: 'Bea', rating: 1187, cpu: false, level: null }), { cpu: false, nickname: 'Bea', rating: 1187, provisional: false });
  assert.deepEqual(opponentOf({ nickname: null, rating: null, cpu: true, level: 'easy' }), { cpu: true, level: 'easy' });
  assert.deepEqual(opponentOf({ nickname: 'Ana', rating: 1300, cpu: false, provisional: true }).provisional, true);
});

test('pools: the five 2-player forms, named as the server names them, with its clocks', () => {
  assert.equal(poolName('english', true), 'english/rated');
  assert.equal(poolName('capture', false), 'capture/casual');
  assert.ok(hasPool('diamond') && !hasPool('chess'));
  assert.deepEqual(['english', 'diamond', 'capture', 'turkish'].map(ratedKind), ['english', 'diamond2', 'capture2', 'turkish']);
  assert.equal(POOL_CLOCKS.english.main_ms, 5 * 60_000);
  assert.equal(POOL_CLOCKS.international.main_ms, 10 * 60_000);
  assert.equal(POOL_CLOCKS.turkish.period_ms, 30_000);
});
