// A room's state as the screens use it (ui/js/rooms.js): the GameView from the player's seat,
// seat lines, the takeover countdown and byo-yomi clocks (hand-computed), addresses, and a room
// game driven end to end through the offline controller on a fake socket.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  roomGameView, serverNow, takeoverLeft, clockFace, formatClock, seatState, seatLine, hasFreeSeat, roomLink, socketUrl,
  codeFromInput, normaliseCode, formatCode, cleanNickname, roomBackend, roomResultFor,
} from '../js/rooms.js';
import { createRoomSocket, createTokenStore } from '../js/room-socket.js';
import { createGameController } from '../js/game-controller.js';
import { viewerSeat, humanToMove, resultSide, outcomeText } from '../js/state.js';
import { setLanguage, setStrict } from '../js/i18n.js';
import { fixture, line } from './fixtures.mjs';

setStrict(true);
setLanguage('en');

const seat = (n, extra = {}) => ({
  seat: n, color: n === 0 ? 'black' : 'white', kind: 'human', nickname: n === 0 ? 'Ana' : 'Bea', connected: true,
  left: false, away_since: null, takeover_at: null, cpu_playing: false, ...extra,
});

/** A room of English draughts at step `index` of the engine's recorded `vs-cpu` line. */
function room({ index = 0, version = 1, seats = [seat(0), seat(1)], clock = null, result = null, started = true, rematch = 0 } = {}) {
  return {
    v: 1, code: 'ROOM1234abcd', version, game: { kind: 'english', players: 2, long_jump: false }, started, rematch,
    seats, clock, result, must_capture: [], view: { ...fixture('english', 'vs-cpu', index), mode: 'local', human_seats: [0, 1] },
    now: 1_000_000, expires_at: 2_000_000, receivedAt: 5_000,
  };
}

test('the GameView of a room is seen from this device\'s seat; the server plays the CPU', () => {
  const r = room();
  const mine = roomGameView(r, 1);
  assert.equal(mine.mode, 'room');
  assert.deepEqual(mine.human_seats, [1]);
  assert.equal(mine.cpu_to_move, false);
  assert.equal(mine.can_undo, false);
  assert.equal(mine.id, 'ROOM1234abcd');
  assert.equal(mine.room_version, 1);
  assert.equal(viewerSeat(mine), 1, 'the board turns to my seat');
  assert.equal(humanToMove(mine), false, 'black (seat 0) moves first, not me');
  assert.equal(humanToMove(roomGameView(r, 0)), true);
  // A spectator acts for no seat and sees the board from the first seat.
  const watching = roomGameView(r, null);
  assert.deepEqual(watching.human_seats, []);
  assert.equal(viewerSeat(watching), 0);
  assert.equal(humanToMove(watching), false);
});

test('the room\'s result (resignation, time) is the outcome, told from my side', () => {
  const r = room({ index: 2, result: { winner: 0, reason: 'time', flagged: 1 } });
  const loser = roomGameView(r, 1);
  assert.deepEqual([loser.outcome.winner, loser.outcome.reason], [0, 'time']);
  assert.deepEqual(loser.legal_moves, [], 'nothing to play after the end');
  assert.equal(resultSide(loser), 'lost');
  assert.equal(outcomeText(loser), 'You lost');
  assert.equal(resultSide(roomGameView(r, 0)), 'won');
  assert.equal(resultSide(roomGameView(r, null)), 'neutral', 'a spectator is told who won');
});

test('seat lines: you, connected, away with the takeover countdown, the CPU, free', () => {
  const away = seat(1, { connected: false, away_since: 990_000, takeover_at: 1_035_000 });
  const r = room({ seats: [seat(0), away] });
  assert.equal(seatState(r, 0, 0), 'you');
  assert.equal(seatState(r, 0, 1), 'connected');
  assert.equal(seatState(r, 1, 0), 'away');
  // The state was made at server 1_000_000 and came at local 5_000: 2 s later it is 1_002_000.
  assert.equal(serverNow(r, 7_000), 1_002_000);
  assert.equal(takeoverLeft(r, 1, serverNow(r, 7_000)), 33_000);
  assert.equal(takeoverLeft(r, 1, 1_040_000), 0, 'never below zero');
  assert.equal(takeoverLeft(r, 0), null, 'a connected seat has no countdown');
  const taken = room({ seats: [seat(0), { ...away, cpu_playing: true }] });
  assert.equal(seatState(taken, 1, 0), 'cpu_away');
  assert.equal(takeoverLeft(taken, 1), null);
  const lobby = room({ started: false, seats: [seat(0), { seat: 1, color: 'white', kind: 'empty', nickname: null, connected: false, left: false, away_since: null, takeover_at: null, cpu_playing: false }] });
  assert.equal(seatState(lobby, 1, 0), 'empty');
  assert.equal(hasFreeSeat(lobby), true);
  assert.equal(hasFreeSeat(r), false);
  const left = room({ seats: [seat(0), seat(1, { left: true, connected: false })] });
  assert.equal(seatState(left, 1, 0), 'cpu');
});

test('clocks: main time first, then byo-yomi periods; a period used up is gone', () => {
  const settings = { main_ms: 300_000, periods: 3, period_ms: 30_000 };
  const clock = { settings, seats: [{ main_ms: 10_000, periods: 3 }, { main_ms: 0, periods: 2 }], running: 0, turn_started_at: 1_000_000, flag_at: 1_100_000 };
  const r = room({ clock });
  // Seat 0 runs: 4 s into its 10 s of main time.
  assert.deepEqual(clockFace(r, 0, 1_004_000), { main_ms: 6_000, periods: 3, period_ms: 30_000, byoyomi: false, running: true, flagged: false });
  // 10 s main + 35 s: the first period is gone, 25 s left in the second.
  assert.deepEqual(clockFace(r, 0, 1_045_000), { main_ms: 0, periods: 2, period_ms: 25_000, byoyomi: true, running: true, flagged: false });
  // 10 s + 90 s: all three periods used.
  assert.equal(clockFace(r, 0, 1_100_000).periods, 0);
  // Seat 1 does not run: its saved figures, whatever the time.
  assert.deepEqual(clockFace(r, 1, 1_100_000), { main_ms: 0, periods: 2, period_ms: 30_000, byoyomi: true, running: false, flagged: false });
  assert.equal(clockFace(room(), 0), null, 'an untimed room has no clock');
  assert.equal(formatClock(299_001), '5:00');
  assert.equal(formatClock(7_000), '0:07');
  assert.equal(formatClock(-5), '0:00');
});

test('addresses: the room link, the socket address, a code out of a pasted link', () => {
  assert.equal(roomLink('http://192.168.1.5:8080/', 'ab_C-9'), 'http://192.168.1.5:8080/r/ab_C-9');
  assert.equal(socketUrl('http://127.0.0.1:4000'), 'ws://127.0.0.1:4000/ws');
  assert.equal(socketUrl('https://damas.example/rooms/'), 'wss://damas.example/rooms/ws');
  // Links and codes of the former format (16 base64url characters) keep working, as they are.
  assert.equal(codeFromInput(' https://x.example/r/x8Jd0-qL2mZ_a9Qe '), 'x8Jd0-qL2mZ_a9Qe');
  assert.equal(codeFromInput('x8Jd0-qL2mZ_a9Qe'), 'x8Jd0-qL2mZ_a9Qe');
  assert.equal(codeFromInput('http://h/r/abc#/room/abc'), null, 'too short for a code');
  assert.equal(codeFromInput('not a code'), null);
  // Codes now: Crockford's base32, typed in any case, with spaces or dashes, from a link or not.
  assert.equal(codeFromInput('https://x.example/r/K7Q2M9XRTDABCDEFGH1J'), 'K7Q2M9XRTDABCDEFGH1J');
  assert.equal(codeFromInput('http://h/#/room/k7q2m-9xrtd-abcde-fgh1j'), 'K7Q2M9XRTDABCDEFGH1J');
  assert.equal(codeFromInput(' k7q2m 9xrtd abcde fghij '), 'K7Q2M9XRTDABCDEFGH1J');
});

test('room codes: typed input normalised like the server, shown in groups of five', () => {
  const code = 'K7Q2M9XRTDABCDEFGH1J';
  for (const typed of ['k7q2m-9xrtd-abcde-fgh1j', ' K7Q2M 9XRTD ABCDE FGH1J ', 'k7q2m9xrtdabcdefghij', 'K7Q2M–9XRTD–ABCDE–FGHlJ']) {
    assert.equal(normaliseCode(typed), code, typed);
  }
  // O is read as 0.
  assert.equal(normaliseCode('KOQ2M9XRTDABCDEFGH1J'), 'K0Q2M9XRTDABCDEFGH1J');
  for (const bad of ['', 'K7Q2M9XRTDABCDEFGH1', 'K7Q2M9XRTDABCDEFGH1JK', 'K7Q2M9XRTDABCDEFGH1U', 'K7Q2M9XRTDABCDEFGH1_']) {
    assert.equal(normaliseCode(bad), null, bad);
  }
  assert.equal(formatCode(code), 'K7Q2M-9XRTD-ABCDE-FGH1J');
  assert.equal(normaliseCode(formatCode(code).toLowerCase()), code, 'what is shown, typed back');
  assert.equal(formatCode('x8Jd0-qL2mZ_a9Qe'), 'x8Jd0-qL2mZ_a9Qe', 'a former code as it is');
});

test('nicknames are cleaned as the server does: 1 to 24 characters', () => {
  assert.equal(cleanNickname('  Ana \t María\u0000 '), 'Ana María');
  assert.equal(cleanNickname('\u200b'), null);
  assert.equal(cleanNickname('x'.repeat(24)), 'x'.repeat(24));
  assert.equal(cleanNickname('x'.repeat(25)), null);
  assert.equal(cleanNickname('ñ'.repeat(24)), 'ñ'.repeat(24));
});

// ---------- a room game through the offline controller, on a fake socket ----------

function fakeServer() {
  const sockets = [];
  class FakeSocket {
    constructor() { this.sent = []; sockets.push(this); queueMicrotask(() => this.onopen?.()); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.onclose?.({}); }
  }
  const storage = new Map();
  const tokens = createTokenStore({ getItem: (k) => storage.get(k) ?? null, setItem: (k, v) => storage.set(k, v), removeItem: (k) => storage.delete(k), get length() { return storage.size; }, key: (i) => [...storage.keys()][i] });
  const socket = createRoomSocket({ url: 'ws://x/ws', WebSocket: FakeSocket, tokens });
  const push = (message) => sockets.at(-1).onmessage({ data: JSON.stringify(message) });
  return { socket, sockets, push };
}

const settle = () => new Promise((r) => setImmediate(r));

test('a room game: my move goes to the server, the other player\'s arrives pushed and is drawn', async () => {
  const steps = line('english', 'vs-cpu').steps;
  const { socket, sockets, push } = fakeServer();
  socket.connect();
  await settle();
  push({ type: 'state', you: 0, room: room({ index: 0, version: 3 }) });
  const presented = [];
  let you = 0;
  const game = createGameController(roomBackend(socket, () => you), roomGameView(socket.room, 0), {
    present: async ({ entry }) => { presented.push(entry ? entry.move.move : null); },
  });
  // Black (me) plays the recorded first move with two taps.
  const first = game.view.legal_moves.find((m) => m.move === steps[0].move);
  game.dispatch({ type: 'tap', cell: first.from, pointer: 'mouse' });
  game.dispatch({ type: 'tap', cell: first.to, pointer: 'mouse' });
  await settle();
  assert.deepEqual(sockets[0].sent.at(-1), { v: 1, type: 'move', move: steps[0].move, ply: 0 });
  assert.equal(game.busy, true, 'no input until the server answers');
  push({ type: 'state', you: 0, room: room({ index: 1, version: 4 }) });
  await settle();
  assert.equal(game.view.ply, 1);
  assert.equal(game.busy, false);
  assert.equal(humanToMove(game.view), false, 'white to move now');
  // The same state again (the listener's copy): nothing new is drawn.
  game.receive(roomGameView(room({ index: 1, version: 4 }), you));
  // White's reply comes pushed: drawn as a move, my turn again.
  game.receive(roomGameView(room({ index: 2, version: 5 }), you));
  await settle();
  assert.equal(game.view.ply, 2);
  assert.deepEqual(presented, [steps[0].move, steps[1].move]);
  assert.equal(humanToMove(game.view), true);
  // An older state arriving late is dropped.
  game.receive(roomGameView(room({ index: 1, version: 4 }), you));
  await settle();
  assert.equal(game.view.ply, 2);
  // A refused move (the server says it is stale): the error is reported and the view stays.
  const errors = [];
  const g2 = createGameController(roomBackend(socket, () => you), game.view, { error: (e) => errors.push(e.code) });
  const second = g2.view.legal_moves.find((m) => m.move === steps[2].move);
  g2.dispatch({ type: 'tap', cell: second.from, pointer: 'mouse' });
  g2.dispatch({ type: 'tap', cell: second.to, pointer: 'mouse' });
  await settle();
  push({ type: 'error', code: 'stale_ply', message: 'the game moved on' });
  await settle();
  // The controller asks for the room again (sync) and keeps what the server says.
  assert.deepEqual(sockets[0].sent.at(-1), { v: 1, type: 'sync' });
  push({ type: 'state', you: 0, room: room({ index: 2, version: 6 }) });
  await settle();
  assert.deepEqual(errors, ['stale_ply']);
  assert.equal(g2.view.ply, 2);
  assert.equal(g2.busy, false);
});

test('a rematch with swapped seats turns the board to my new seat', async () => {
  const { socket } = fakeServer();
  const game = createGameController(roomBackend(socket, () => 0), roomGameView(room({ index: 2, version: 8, result: { winner: 0, reason: 'resignation', flagged: null } }), 0), {});
  assert.ok(game.view.outcome);
  game.receive(roomGameView(room({ index: 0, version: 9, rematch: 1 }), 1));
  await settle();
  assert.equal(game.view.ply, 0);
  assert.equal(game.view.outcome, null);
  assert.deepEqual(game.view.human_seats, [1]);
  assert.equal(viewerSeat(game.view), 1);
});

test('a finished room game for the rewards: from my seat, once it is over, not for a spectator or a seat left', () => {
  const over = (winner, extra = {}) => room({ index: 4, result: { winner, reason: 'resignation', flagged: null }, rematch: 2, ...extra });
  const plies = over(0).view.ply;
  assert.ok(plies > 0);
  assert.deepEqual(roomResultFor(over(0), 0), { code: 'ROOM1234abcd', rematch: 2, kind: 'english', result: 'win', plies });
  assert.equal(roomResultFor(over(0), 1).result, 'loss');
  assert.equal(roomResultFor(over(null), 1).result, 'draw');
  assert.equal(roomResultFor(room({ index: 4 }), 0), null, 'still running');
  assert.equal(roomResultFor(over(0), null), null, 'a spectator');
  assert.equal(roomResultFor(over(1, { seats: [seat(0, { left: true }), seat(1)] }), 0), null, 'left: the CPU finished it');
  // An aborted game has no result: no draw in the record. A draw by agreement is a draw.
  assert.equal(roomResultFor(room({ index: 4, result: { winner: null, reason: 'aborted', flagged: null } }), 0), null, 'aborted');
  assert.equal(roomResultFor(room({ index: 4, result: { winner: null, reason: 'agreement', flagged: null } }), 0).result, 'draw');
});

test('a seat line says "CPU" once for a seat the CPU plays from the start', () => {
  const cpuSeat = (n, color) => ({ seat: n, color, kind: 'cpu', nickname: null, connected: false, left: false, away_since: null, takeover_at: null, cpu_playing: false });
  const star = {
    ...room(), game: { kind: 'diamond', players: 3, long_jump: false },
    seats: [{ ...seat(0), color: 'red' }, cpuSeat(1, 'yellow'), { ...cpuSeat(2, 'green'), nickname: 'CPU' }],
  };
  const words = (r, n, lang) => {
    setLanguage(lang);
    const w = seatLine(r, n, 0, 1_000_000);
    setLanguage('en');
    return [w.colour, w.name, w.state].filter(Boolean).join(' ');
  };
  assert.equal(words(star, 1, 'en'), 'Yellow CPU');
  assert.equal(words(star, 2, 'en'), 'Green CPU', 'a CPU seat named "CPU" by the server');
  assert.equal(words(star, 2, 'es'), 'Verde CPU');
  assert.equal(words(star, 0, 'en'), 'Red Ana you');
  // A player who left: the name stays and the CPU is said to play the seat.
  const left = { ...star, seats: [star.seats[0], { ...seat(1), color: 'yellow', left: true }, star.seats[2]] };
  assert.equal(words(left, 1, 'en'), 'Yellow Bea CPU');
  // Away with the countdown, in words.
  const away = room({ seats: [seat(0), seat(1, { connected: false, away_since: 990_000, takeover_at: 1_035_000 })] });
  assert.equal(words(away, 1, 'en'), 'White Bea disconnected: the CPU plays in 35 s');
});
