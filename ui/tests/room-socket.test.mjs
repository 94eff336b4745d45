// The room socket (ui/js/room-socket.js) against a fake WebSocket that records what the client
// sends and lets the test play the server: requests answered in order, errors to the request
// they answer, the seat token kept and used to resume after a drop, spectators watching again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRoomSocket, createTokenStore } from '../js/room-socket.js';
import { fixture } from './fixtures.mjs';

/** A Storage in memory (localStorage's interface). */
function memoryStorage() {
  const m = new Map();
  return {
    get length() { return m.size; },
    key: (i) => [...m.keys()][i] ?? null,
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => m.set(k, String(v)),
    removeItem: (k) => m.delete(k),
  };
}

/** Fake WebSocket class: every instance is kept; the test opens, answers and drops them. */
function fakeSockets() {
  const made = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.sent = [];
      this.closed = false;
      made.push(this);
    }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.closed = true; this.onclose?.({ code: 1000 }); }
    // Test side:
    open() { this.onopen?.(); }
    push(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
    drop() { this.onclose?.({ code: 1006 }); }
  }
  return { FakeSocket, made, last: () => made[made.length - 1] };
}

/** Timers the test fires by hand. */
function manualTimers() {
  const queue = [];
  return {
    setTimeout: (fn, ms) => { queue.push({ fn, ms }); return queue.length; },
    clearTimeout: (id) => { if (queue[id - 1]) queue[id - 1].fn = () => {}; },
    fire() { const next = queue.shift(); assert.ok(next, 'no timer waiting'); next.fn(); return next.ms; },
    get waiting() { return queue.length; },
  };
}

const settle = () => new Promise((r) => setImmediate(r));

function roomState({ code = 'ROOM1234abcd', version = 1, started = true, ply = 0, rematch = 0, result = null } = {}) {
  const view = fixture('english', 'vs-cpu', 0);
  return {
    v: 1, code, version, game: { kind: 'english', players: 2, long_jump: false }, started, rematch,
    seats: [
      { seat: 0, color: 'black', kind: 'human', nickname: 'Ana', connected: true, left: false, away_since: null, takeover_at: null, cpu_playing: false },
      { seat: 1, color: 'white', kind: 'human', nickname: 'Bea', connected: true, left: false, away_since: null, takeover_at: null, cpu_playing: false },
    ],
    clock: null, result, must_capture: [], view: { ...view, ply }, now: 1000, expires_at: 2000,
  };
}

function setup() {
  const sockets = fakeSockets();
  const timers = manualTimers();
  const storage = memoryStorage();
  const tokens = createTokenStore(storage);
  const client = createRoomSocket({ url: 'ws://example.test/ws', WebSocket: sockets.FakeSocket, tokens, timers });
  return { sockets, timers, storage, tokens, client };
}

test('messages wait for the socket to open, carry v:1, and create resolves with joined', async () => {
  const { sockets, client, tokens } = setup();
  const statuses = [];
  client.on('status', (s) => statuses.push(s));
  const created = client.create({ kind: 'english', players: 2 }, 'Ana', 'none');
  const ws = sockets.last();
  assert.equal(ws.url, 'ws://example.test/ws');
  assert.deepEqual(ws.sent, [], 'nothing sent before open');
  ws.open();
  assert.deepEqual(ws.sent, [{ v: 1, type: 'create', game: { kind: 'english', players: 2 }, nickname: 'Ana', clock: 'none' }]);
  ws.push({ type: 'joined', code: 'ROOM1234abcd', seat: 1, token: 'secret-1' });
  const joined = await created;
  assert.equal(joined.seat, 1);
  assert.deepEqual(client.place, { code: 'ROOM1234abcd', seat: 1, token: 'secret-1' });
  assert.equal(tokens.get('ROOM1234abcd').token, 'secret-1');
  assert.equal(tokens.get('ROOM1234abcd').nickname, 'Ana', 'kept for the home screen\'s list');
  assert.deepEqual(statuses, ['connecting', 'open']);
});

test('states go to listeners; a move resolves with the state that has it, not an earlier one', async () => {
  const { sockets, client } = setup();
  const seen = [];
  client.on('state', (s) => seen.push(s.room.version));
  client.connect();
  const ws = sockets.last();
  ws.open();
  ws.push({ type: 'state', you: 0, room: roomState({ version: 1 }) });
  let done = null;
  client.move('9-13', 0).then((m) => { done = m; });
  assert.deepEqual(ws.sent.at(-1), { v: 1, type: 'move', move: '9-13', ply: 0 });
  // A seat change before the move is judged: the move is not answered by it.
  ws.push({ type: 'state', you: 0, room: roomState({ version: 2, ply: 0 }) });
  await settle();
  assert.equal(done, null);
  ws.push({ type: 'state', you: 0, room: roomState({ version: 3, ply: 1 }) });
  await settle();
  assert.equal(done.room.version, 3);
  assert.deepEqual(seen, [1, 2, 3], 'every state reaches the listeners');
  assert.equal(client.room.version, 3);
});

test('an error answers the oldest request; one with no request goes to the error listeners', async () => {
  const { sockets, client } = setup();
  const errors = [];
  client.on('error', (e) => errors.push(e));
  client.connect();
  const ws = sockets.last();
  ws.open();
  const join = client.join('nope', 'Bea');
  ws.push({ type: 'error', code: 'no_such_room', message: 'no room nope' });
  await assert.rejects(join, { code: 'no_such_room' });
  ws.push({ type: 'error', code: 'rate_limited', message: 'slow down' });
  assert.deepEqual(errors, [{ code: 'rate_limited', message: 'slow down' }]);
});

test('after a drop it reconnects by itself and resumes the seat with its token first', async () => {
  const { sockets, timers, client } = setup();
  const statuses = [];
  client.on('status', (s) => statuses.push(s));
  const joining = client.join('ROOM1234abcd', 'Bea');
  sockets.last().open();
  sockets.last().push({ type: 'joined', code: 'ROOM1234abcd', seat: 1, token: 'tok-B' });
  await joining;
  sockets.last().push({ type: 'state', you: 1, room: roomState() });
  // A move in flight when the connection drops fails (the room comes back by resume).
  const lost = client.move('22-18', 1);
  sockets.last().drop();
  await assert.rejects(lost, { code: 'disconnected' });
  assert.equal(client.status, 'reconnecting');
  assert.equal(sockets.made.length, 1, 'waits before reconnecting');
  // Asked while away: sent after the resume.
  const sync = client.sync();
  assert.equal(timers.fire(), 500);
  const second = sockets.last();
  assert.equal(sockets.made.length, 2);
  second.open();
  assert.deepEqual(second.sent, [
    { v: 1, type: 'resume', code: 'ROOM1234abcd', token: 'tok-B' },
    { v: 1, type: 'sync' },
  ]);
  second.push({ type: 'joined', code: 'ROOM1234abcd', seat: 1, token: 'tok-B' });
  second.push({ type: 'state', you: 1, room: roomState({ version: 9 }) });
  assert.equal((await sync).room.version, 9);
  assert.deepEqual(statuses, ['connecting', 'open', 'reconnecting', 'open']);
});

test('reconnection backs off while the server is unreachable', () => {
  const { sockets, timers, client } = setup();
  client.connect();
  sockets.last().drop();
  const delays = [];
  for (let i = 0; i < 6; i++) {
    delays.push(timers.fire());
    sockets.last().drop();
  }
  assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000, 8000]);
  assert.equal(sockets.made.length, 7);
});

test('a spectator watches again after a drop; close() stops reconnecting', async () => {
  const { sockets, timers, client } = setup();
  const watching = client.watch('ROOM1234abcd');
  sockets.last().open();
  sockets.last().push({ type: 'watching', code: 'ROOM1234abcd' });
  await watching;
  sockets.last().drop();
  timers.fire();
  sockets.last().open();
  assert.deepEqual(sockets.last().sent, [{ v: 1, type: 'watch', code: 'ROOM1234abcd' }]);
  client.close();
  assert.equal(sockets.last().closed, true);
  assert.equal(client.status, 'closed');
  assert.equal(timers.waiting, 0, 'no reconnection after close');
});

test('lookup answers room_info or no_such_room', async () => {
  const { sockets, client } = setup();
  const found = client.lookup('k7q2m-9xrtd-abcde-fgh1j');
  sockets.last().open();
  assert.deepEqual(sockets.last().sent, [{ v: 1, type: 'lookup', code: 'k7q2m-9xrtd-abcde-fgh1j' }]);
  sockets.last().push({ v: 1, type: 'room_info', code: 'K7Q2M9XRTDABCDEFGH1J', game: { kind: 'english', players: 2 }, started: false, free_seats: 1 });
  assert.equal((await found).code, 'K7Q2M9XRTDABCDEFGH1J');
  const missing = client.lookup('AAAAAAAAAAAAAAAAAAAA');
  sockets.last().push({ v: 1, type: 'error', code: 'no_such_room', message: 'no room' });
  await assert.rejects(missing, { code: 'no_such_room' });
});

test('a socket replaced by a newer one for its seat says so and does not reconnect', async () => {
  const { sockets, timers, tokens, client } = setup();
  const replaced = [];
  client.on('replaced', (code) => replaced.push(code));
  const joined = client.resume('ROOM1234abcd', 'tok');
  sockets.last().open();
  sockets.last().push({ type: 'joined', code: 'ROOM1234abcd', seat: 0, token: 'tok' });
  await joined;
  sockets.last().push({ type: 'replaced', code: 'ROOM1234abcd' });
  sockets.last().drop();
  assert.deepEqual(replaced, ['ROOM1234abcd']);
  assert.equal(client.status, 'closed');
  assert.equal(timers.waiting, 0, 'no reconnection, which would take the seat back');
  assert.equal(tokens.get('ROOM1234abcd').token, 'tok', 'the token stays for later');
});

test('a resume the server refuses forgets the token; leave forgets it too', async () => {
  const { sockets, client, tokens } = setup();
  tokens.set('OLDROOM12345', { token: 'stale', seat: 0 });
  tokens.set('ROOM1234abcd', { token: 'good', seat: 1 });
  const resume = client.resume('OLDROOM12345', 'stale');
  sockets.last().open();
  sockets.last().push({ type: 'error', code: 'bad_token', message: 'no seat has that token' });
  await assert.rejects(resume, { code: 'bad_token' });
  assert.equal(tokens.get('OLDROOM12345'), null);
  const again = client.resume('ROOM1234abcd', 'good');
  sockets.last().push({ type: 'joined', code: 'ROOM1234abcd', seat: 1, token: 'good' });
  await again;
  assert.deepEqual(tokens.list().map((r) => r.code), ['ROOM1234abcd']);
  const leaving = client.leave();
  sockets.last().push({ type: 'left' });
  await leaving;
  assert.equal(tokens.get('ROOM1234abcd'), null);
  assert.equal(client.place, null);
});

test('resign and rematch resolve with the state that shows them', async () => {
  const { sockets, client } = setup();
  client.connect();
  const ws = sockets.last();
  ws.open();
  ws.push({ type: 'state', you: 0, room: roomState({ version: 4 }) });
  const resign = client.resign();
  ws.push({ type: 'state', you: 0, room: roomState({ version: 5, result: { winner: 1, reason: 'resignation', flagged: null } }) });
  assert.deepEqual((await resign).room.result.reason, 'resignation');
  const rematch = client.rematch();
  assert.deepEqual(ws.sent.at(-1), { v: 1, type: 'rematch' });
  ws.push({ type: 'state', you: 1, room: roomState({ version: 6, result: { winner: 1, reason: 'resignation', flagged: null } }) });
  ws.push({ type: 'state', you: 1, room: roomState({ version: 7, rematch: 1 }) });
  const m = await rematch;
  assert.equal(m.room.rematch, 1);
  assert.equal(m.you, 1);
});

/** A state's room as a delta against a room holding `from` history entries (docs/protocol.md). */
function delta(room, from) {
  const { layout: _, ...view } = room.view;
  return { ...room, history_from: from, view: { ...view, history: view.history.slice(from) } };
}

test('a delta is completed with the history and layout held; one that cannot be is dropped for a sync', async () => {
  const { sockets, client } = setup();
  const seen = [];
  client.on('state', (s) => seen.push(s.room));
  client.connect();
  const ws = sockets.last();
  ws.open();
  const at = (ply, version, rematch = 0) => ({ ...roomState({ version, rematch }), view: fixture('english', 'vs-cpu', ply) });
  ws.push({ type: 'state', you: 0, room: at(2, 1) });
  const whole = at(4, 2);
  assert.equal(whole.view.history.length, 4);
  ws.push({ type: 'state', you: 0, room: delta(whole, 2) });
  await settle();
  const { receivedAt: _, ...held } = client.room;
  assert.deepEqual(held, whole, 'the completed delta is the whole state');
  assert.deepEqual(seen.at(-1).view.history, whole.view.history, 'listeners get the whole state');
  assert.ok(seen.at(-1).view.layout, 'with the layout');
  assert.equal(ws.sent.filter((m) => m.type === 'sync').length, 0);

  // More history asked for than held, or a delta of another rematch: dropped, the client syncs.
  for (const [room, from] of [[at(4, 3), 4 + 1], [at(4, 3, 1), 2]]) {
    const before = seen.length;
    ws.push({ type: 'state', you: 0, room: delta(room, from) });
    await settle();
    assert.equal(seen.length, before, 'nothing reaches the listeners');
    assert.equal(client.room.version, 2, 'the room held stays');
    assert.deepEqual(ws.sent.at(-1), { v: 1, type: 'sync' });
    ws.push({ type: 'state', you: 0, room: whole });
    await settle();
  }
});

test('a pool: sign-in, pool_join answered by pool_waiting, a wave\'s paired then joined keep the seat token', async () => {
  const { FakeSocket, last } = fakeSockets();
  const storage = memoryStorage();
  const socket = createRoomSocket({ url: 'ws://x/ws', WebSocket: FakeSocket, tokens: createTokenStore(storage), timers: manualTimers() });
  const heard = [];
  socket.on('pool', (m) => heard.push(m.type));
  const signing = socket.signIn('tok');
  last().open();
  assert.deepEqual(last().sent[0], { v: 1, type: 'sign_in', session: 'tok' });
  last().push({ type: 'signed_in', account: 7, name: 'Ana', ratings: [] });
  assert.equal((await signing).account, 7);
  const joining = socket.poolJoin({ kind: 'english', rated: true }, 'Ana');
  assert.deepEqual(last().sent[1], { v: 1, type: 'pool_join', pool: { kind: 'english', rated: true }, nickname: 'Ana' });
  last().push({ type: 'pool_waiting', pool: 'english/rated', rating: 1200, cpu_at: 5 });
  assert.equal((await joining).rating, 1200);
  last().push({ type: 'paired', code: 'ROOM1234abcd', opponent: { nickname: 'Bea', rating: 1210, cpu: false, level: null }, rated: true });
  last().push({ type: 'joined', code: 'ROOM1234abcd', seat: 1, token: 'seat-token' });
  last().push({ type: 'state', you: 1, room: roomState() });
  await settle();
  assert.deepEqual(heard, ['pool_waiting', 'paired']);
  assert.deepEqual(socket.place, { code: 'ROOM1234abcd', seat: 1, token: 'seat-token' });
  assert.equal(createTokenStore(storage).get('ROOM1234abcd').nickname, 'Ana', 'listed on the home screen as Ana\'s');
});

test('pool_leave is answered by pool_left, or by paired when a wave was quicker', async () => {
  const { FakeSocket, last } = fakeSockets();
  const socket = createRoomSocket({ url: 'ws://x/ws', WebSocket: FakeSocket, tokens: createTokenStore(memoryStorage()), timers: manualTimers() });
  const leaving = socket.poolLeave();
  last().open();
  last().push({ type: 'pool_left' });
  assert.equal((await leaving).type, 'pool_left');
  const crossing = socket.poolLeave();
  last().push({ type: 'paired', code: 'C', opponent: { cpu: true, level: 'easy', nickname: null, rating: null }, rated: false });
  assert.equal((await crossing).type, 'paired');
});

test('draw offers and abort resolve with the state that shows them; refusals reject with their code', async () => {
  const { FakeSocket, last } = fakeSockets();
  const socket = createRoomSocket({ url: 'ws://x/ws', WebSocket: FakeSocket, tokens: createTokenStore(memoryStorage()), timers: manualTimers() });
  const joining = socket.join('ROOM1234abcd', 'Ana');
  last().open();
  last().push({ type: 'joined', code: 'ROOM1234abcd', seat: 0, token: 't' });
  await joining;
  last().push({ type: 'state', you: 0, room: roomState({ ply: 4 }) });
  const offering = socket.offerDraw();
  assert.deepEqual(last().sent.at(-1), { v: 1, type: 'offer_draw' });
  // A state without the offer (a clock tick) does not answer it; the one with it does.
  last().push({ type: 'state', you: 0, room: { ...roomState({ ply: 4, version: 2 }), draw_offer: null } });
  let done = false;
  offering.then(() => { done = true; });
  await settle();
  assert.equal(done, false);
  last().push({ type: 'state', you: 0, room: { ...roomState({ ply: 4, version: 3 }), draw_offer: { from: 0, to: 1, ply: 4 } } });
  assert.deepEqual((await offering).room.draw_offer, { from: 0, to: 1, ply: 4 });
  const again = socket.offerDraw();
  last().push({ type: 'error', code: 'offer_pending', message: 'pending' });
  await assert.rejects(again, { code: 'offer_pending' });
  const answering = socket.answerDraw(false);
  assert.deepEqual(last().sent.at(-1), { v: 1, type: 'answer_draw', accept: false });
  last().push({ type: 'error', code: 'no_draw_offer', message: 'none' });
  await assert.rejects(answering, { code: 'no_draw_offer' });
  const aborting = socket.abort();
  last().push({ type: 'state', you: 0, room: { ...roomState({ ply: 4, version: 4 }), result: { winner: null, reason: 'aborted', flagged: null } } });
  assert.equal((await aborting).room.result.reason, 'aborted');
});
