// The game screen's turn state machine, driven with a fake api whose replies the test releases
// one by one: the controller must play what the human chose, ask the CPU when it is to move, drop
// a reply that an undo made stale, and keep the backend's state when a call fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createGameController } from '../js/game-controller.js';

const move = (from, to) => ({ move: `${from}-${to}`, from, to, path: [from, to], jumps: 0, captures: [] });

/** A small GameView: the human is seat 0 vs the CPU; `moves` are the legal moves of the side to move. */
function gameView({ ply = 0, moves = [], history = [], cpu = false, outcome = null } = {}) {
  return {
    id: 'g1', variant: { kind: 'english', players: 2, long_jump: false }, mode: 'cpu', level: 'easy', human_seats: [0],
    seats: [{ seat: 0, name: 'black', cpu: false, stats: {} }, { seat: 1, name: 'white', cpu: true, stats: {} }],
    to_move: ply % 2, ply, layout: { cells: ['a1', 'b2', 'c3', 'd4', 'e5'].map((name) => ({ name })) },
    pieces: [], legal_moves: moves, history, outcome, draw_counters: [],
    can_undo: ply > 0, can_redo: false, cpu_to_move: cpu && !outcome, last_played: ply,
  };
}

const start = gameView({ moves: [move('a1', 'b2'), move('c3', 'd4')] });
const afterHuman = gameView({ ply: 1, cpu: true, history: [{ seat: 0, move: move('a1', 'b2') }] });
const afterCpu = gameView({ ply: 2, moves: [move('b2', 'c3')], history: [...afterHuman.history, { seat: 1, move: move('e5', 'd4') }] });

function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => { resolve = res; reject = rej; });
  return { promise, resolve, reject };
}

/** Every call is recorded and waits until the test settles it with `reply(name, ...)`. */
function fakeApi() {
  const calls = [];
  const waiting = new Map();
  const api = {};
  for (const name of ['getGame', 'playMove', 'cpuMove', 'undo', 'redo', 'resign', 'newGame', 'rematch', 'hint']) {
    api[name] = (...args) => {
      calls.push([name, ...args]);
      const d = deferred();
      if (!waiting.has(name)) waiting.set(name, []);
      waiting.get(name).push(d);
      return d.promise;
    };
  }
  const take = (name) => {
    const d = waiting.get(name)?.shift();
    assert.ok(d, `no ${name} call is waiting`);
    return d;
  };
  return {
    api,
    calls,
    pending: (name) => waiting.get(name)?.length ?? 0,
    reply: async (name, view) => { take(name).resolve(view); await settle(); },
    fail: async (name, error) => { take(name).reject(error); await settle(); },
  };
}

// Lets every promise chain the last reply started run to its next wait.
const settle = () => new Promise((r) => setTimeout(r, 0));

function controller(view, api) {
  const log = { presented: [], errors: [], notes: [], results: 0, changes: 0 };
  const c = createGameController(api, view, {
    changed: () => { log.changes++; },
    present: async ({ entry, animate }) => { log.presented.push({ entry, animate }); },
    notify: (e) => log.notes.push(e),
    error: (e) => log.errors.push(e),
    result: () => { log.results++; },
  });
  return { c, log };
}

const tap = (cell) => ({ type: 'tap', cell, pointer: 'touch' });

test('a tap-twice move is sent, then the CPU is asked and its reply shown', async () => {
  const fake = fakeApi();
  const { c, log } = controller(start, fake.api);
  c.dispatch(tap('a1'));
  assert.deepEqual(log.notes, [{ type: 'selected', cell: 'a1', n: 1 }]);
  c.dispatch(tap('b2'));
  assert.equal(c.input.phase, 'previewing');
  assert.equal(fake.calls.length, 0, 'the first tap on a destination only previews');
  c.dispatch(tap('b2'));
  assert.deepEqual(fake.calls, [['playMove', 'g1', 'a1-b2']]);
  assert.equal(c.busy, true);
  assert.equal(c.context().enabled, false, 'no input while the move is in flight');

  await fake.reply('playMove', afterHuman);
  assert.equal(c.view, afterHuman);
  assert.deepEqual(log.presented.at(-1), { entry: afterHuman.history[0], animate: true });
  assert.deepEqual(fake.calls.at(-1), ['cpuMove', 'g1', 1]);
  assert.equal(c.thinking, true);
  assert.equal(c.waiting, true);
  assert.deepEqual(c.cpuCalls, { made: 1, inFlight: 1, last: null });

  await fake.reply('cpuMove', afterCpu);
  assert.deepEqual(c.cpuCalls, { made: 1, inFlight: 0, last: 'played' });
  assert.equal(c.view, afterCpu);
  assert.equal(c.thinking, false);
  assert.equal(c.busy, false);
  assert.equal(c.waiting, false);
  assert.equal(c.input.phase, 'idle');
  assert.deepEqual(log.presented.at(-1).entry, afterCpu.history[1]);
  assert.deepEqual(log.notes.filter((n) => n.type === 'moved').map((n) => n.entry), afterCpu.history);
  assert.equal(fake.pending('cpuMove'), 0, 'the human is to move: no further CPU call');
  assert.deepEqual(log.errors, []);
});

test('an undo while the CPU thinks drops the CPU reply that comes after it', async () => {
  const fake = fakeApi();
  const { c, log } = controller(afterHuman, fake.api);
  c.start();
  assert.deepEqual(fake.calls, [['cpuMove', 'g1', 1]]);
  assert.equal(c.thinking, true);

  c.undo();
  assert.equal(c.busy, true);
  await fake.reply('undo', start);
  assert.equal(c.view, start);
  assert.equal(c.thinking, false);
  assert.equal(c.busy, false);
  const shown = log.presented.length;

  // The stale reply arrives after the undo.
  await fake.reply('cpuMove', afterCpu);
  await c.cpuPending;
  assert.equal(c.view, start, 'the stale CPU reply is not shown');
  assert.deepEqual(c.cpuCalls, { made: 1, inFlight: 0, last: 'dropped' });
  assert.equal(log.presented.length, shown);
  assert.equal(c.thinking, false);
  assert.deepEqual(log.errors, []);
  assert.equal(c.context().enabled, true, 'the human may move again');
});

test('a stale CPU call that ends as "cancelled" is not reported', async () => {
  const fake = fakeApi();
  const { c, log } = controller(afterHuman, fake.api);
  c.start();
  c.undo();
  await fake.reply('undo', start);
  assert.deepEqual(c.cpuCalls, { made: 1, inFlight: 1, last: null }, 'the search is still running');
  await fake.fail('cpuMove', { code: 'cancelled', message: '' });
  assert.deepEqual(c.cpuCalls, { made: 1, inFlight: 0, last: 'cancelled' });
  assert.equal(c.view, start);
  assert.deepEqual(log.errors, []);
  assert.equal(fake.pending('getGame'), 0, 'nothing to refresh for a stale call');
});

test('a rejected move is reported and the game stays as the backend has it', async () => {
  const fake = fakeApi();
  const { c, log } = controller(start, fake.api);
  c.dispatch(tap('c3'));
  c.dispatch(tap('d4'));
  c.dispatch(tap('d4'));
  const error = { code: 'illegal_move', message: 'c3-d4' };
  await fake.fail('playMove', error);
  assert.deepEqual(log.errors, [error]);
  assert.deepEqual(fake.calls.at(-1), ['getGame', 'g1'], 'the view is read again from the backend');
  await fake.reply('getGame', start);
  assert.equal(c.view, start);
  assert.equal(c.busy, false);
  assert.equal(c.input.phase, 'idle');
  assert.equal(c.context().enabled, true);
  assert.equal(log.presented.length, 0);
});

test('a failed CPU call is reported, the view re-read, and the CPU asked again', async () => {
  const fake = fakeApi();
  const { c, log } = controller(afterHuman, fake.api);
  c.start();
  await fake.fail('cpuMove', { code: 'internal', message: 'boom' });
  assert.deepEqual(c.cpuCalls, { made: 1, inFlight: 0, last: 'error' });
  assert.deepEqual(log.errors, [{ code: 'internal', message: 'boom' }]);
  assert.equal(c.thinking, false);
  await fake.reply('getGame', afterHuman);
  assert.equal(c.view, afterHuman);
  assert.equal(fake.pending('cpuMove'), 1, 'the CPU is still to move');
  await fake.reply('cpuMove', afterCpu);
  assert.equal(c.view, afterCpu);
});

test('a failed undo keeps the view and reports the error', async () => {
  const fake = fakeApi();
  const { c, log } = controller(afterCpu, fake.api);
  c.undo();
  await fake.fail('undo', { code: 'nothing_to_undo', message: '' });
  assert.deepEqual(log.errors, [{ code: 'nothing_to_undo', message: '' }]);
  assert.equal(c.busy, false);
  await fake.reply('getGame', afterCpu);
  assert.equal(c.view, afterCpu);
});

test('resigning shows the result once, without animation; redo animates', async () => {
  const fake = fakeApi();
  const { c, log } = controller(afterCpu, fake.api);
  const over = { ...afterCpu, legal_moves: [], outcome: { winner: 1, reason: 'resignation' } };
  const resigned = c.resign();
  await fake.reply('resign', over);
  await resigned;
  assert.equal(c.view, over);
  assert.equal(log.results, 1);
  assert.equal(c.context().enabled, false);
  c.start();
  assert.equal(log.results, 1, 'an ended game shows its result once');

  const fake2 = fakeApi();
  const second = controller(start, fake2.api);
  second.c.redo();
  await fake2.reply('redo', afterHuman);
  assert.deepEqual(second.log.presented, [{ entry: afterHuman.history[0], animate: true }]);
});

test('a new game and a rematch resolve with their views; a failure resolves null and is reported', async () => {
  const fake = fakeApi();
  const { c, log } = controller(afterCpu, fake.api);
  const fresh = c.newGame();
  assert.deepEqual(fake.calls.at(-1), ['newGame', { variant: afterCpu.variant, mode: 'cpu', level: 'easy', human_seats: [0] }]);
  await fake.reply('newGame', { ...start, id: 'g2' });
  assert.equal((await fresh).id, 'g2');
  const again = c.rematch();
  await fake.fail('rematch', { code: 'not_over', message: '' });
  assert.equal(await again, null);
  assert.deepEqual(log.errors, [{ code: 'not_over', message: '' }]);
  assert.equal(c.view, afterCpu);
});

test('a hint is previewed on the board and played only when the player confirms it', async () => {
  const fake = fakeApi();
  const { c } = controller(start, fake.api);
  const asked = c.hint();
  assert.equal(c.busy, true, 'no input while the hint is computed');
  assert.equal(c.hinting, true);
  const counted = { ...start, hints: 1 };
  await fake.reply('hint', { move: move('c3', 'd4'), view: counted });
  assert.deepEqual(await asked, move('c3', 'd4'));
  assert.equal(c.hinting, false);
  assert.equal(c.view.hints, 1);
  assert.equal(c.input.phase, 'previewing');
  assert.equal(c.input.from, 'c3');
  assert.equal(c.input.preview, 'd4');
  assert.equal(fake.calls.filter(([name]) => name === 'playMove').length, 0, 'not played yet');
  c.dispatch(tap('d4'));
  assert.deepEqual(fake.calls.at(-1), ['playMove', 'g1', 'c3-d4']);
});

test('a hint that arrives after the game moved on is not shown', async () => {
  const fake = fakeApi();
  const { c } = controller(start, fake.api);
  const asked = c.hint();
  await fake.reply('hint', { move: move('a1', 'b2'), view: { ...afterHuman, hints: 1 } });
  assert.equal(await asked, null);
  assert.equal(c.input.phase, 'idle');
  assert.equal(c.view, start);
});

test('a failed hint is reported and leaves the board as it was', async () => {
  const fake = fakeApi();
  const { c, log } = controller(start, fake.api);
  const asked = c.hint();
  await fake.fail('hint', { code: 'bad_input', message: 'hints are given in games against the CPU' });
  assert.equal(await asked, null);
  assert.equal(log.errors[0].code, 'bad_input');
  assert.equal(c.busy, false);
  assert.equal(c.input.phase, 'idle');
});

test('a screen built again (another language) takes over a piece picked up, for the same position only', async () => {
  const fake = fakeApi();
  const { c: before } = controller(start, fake.api);
  before.dispatch(tap('a1'));
  assert.equal(before.input.phase, 'selected');
  const kept = before.input;

  const { c: again, log } = controller(start, fake.api);
  assert.equal(again.input.phase, 'idle');
  assert.equal(again.restoreInput(kept, start.ply), true);
  assert.deepEqual(again.input, kept);
  assert.ok(log.changes > 0, 'the board is drawn with the piece picked up');
  // The next tap plays on from there: preview b2, then the move is sent.
  again.dispatch(tap('b2'));
  assert.equal(again.input.phase, 'previewing');
  again.dispatch(tap('b2'));
  assert.deepEqual(fake.calls, [['playMove', 'g1', 'a1-b2']]);

  // Another position (a move came in between), a move in flight or a finished game: not taken.
  const { c: later } = controller(afterCpu, fake.api);
  assert.equal(later.restoreInput(kept, start.ply), false);
  assert.equal(later.input.phase, 'idle');
  assert.equal(again.restoreInput(kept, start.ply), false, 'a move is in flight');
  const { c: over } = controller(gameView({ outcome: { winner: 0, reason: 'resignation' } }), fake.api);
  assert.equal(over.restoreInput(kept, 0), false);
});
