// The app's seat tokens (room-store.js) behind the room socket: written to the app when a seat
// and its game are known, once per change, forgotten when the game ends or the room is gone,
// in the order the socket asked; the real socket (room-socket.js) drives it with a fake server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAppRoomStore } from '../js/room-store.js';
import { createRoomSocket } from '../js/room-socket.js';

const CODE = 'ROOM1234abcdEFGH';
const TOKEN = 'tok'.repeat(15);

function fakeApp(kept = []) {
  const calls = [];
  let rooms = [...kept];
  const invoke = async (name, args) => {
    calls.push([name, args]);
    if (name === 'save_room') {
      rooms = rooms.filter((r) => r.code !== args.room.code).concat([{ ...args.room, at: Date.now() }]);
      return args.room;
    }
    if (name === 'forget_room') {
      const had = rooms.some((r) => r.code === args.code);
      rooms = rooms.filter((r) => r.code !== args.code);
      return had;
    }
    throw { code: 'bad_input', message: name };
  };
  return { invoke, calls, rooms: () => rooms };
}

test('a seat is saved once its game is known, once per change, and forgotten when it ends', async () => {
  const app = fakeApp();
  const store = createAppRoomStore({ invoke: app.invoke, server: 'http://10.0.0.7:8080', rooms: [] });
  store.set(CODE, { nickname: 'Ana', token: TOKEN, seat: 0 });
  await store.settled();
  assert.deepEqual(app.calls, [], 'the game is not known at `joined`');
  store.set(CODE, { nickname: 'Ana', token: TOKEN, seat: 0, kind: 'english', finished: false });
  store.set(CODE, { nickname: 'Ana', token: TOKEN, seat: 0, kind: 'english', finished: false });
  await store.settled();
  assert.deepEqual(app.calls, [['save_room', { room: { server: 'http://10.0.0.7:8080', code: CODE, token: TOKEN, kind: 'english', nickname: 'Ana', hosted: false } }]]);
  store.set(CODE, { nickname: 'Ana', token: TOKEN, seat: 0, kind: 'english', finished: true });
  await store.settled();
  assert.deepEqual(app.calls.at(-1), ['forget_room', { code: CODE }]);
  assert.deepEqual(app.rooms(), []);
  assert.equal(store.get(CODE).token, TOKEN, 'the seat stays in memory for the rematch');
  // The rematch starts: in progress again.
  store.set(CODE, { nickname: 'Ana', token: TOKEN, seat: 1, kind: 'english', finished: false });
  await store.settled();
  assert.equal(app.rooms().length, 1);
  store.remove(CODE);
  await store.settled();
  assert.deepEqual(app.rooms(), []);
  assert.equal(store.get(CODE), null);
  assert.equal(app.calls.length, 4);
});

test('a failed write is tried again at the next change', async () => {
  let fail = true;
  const app = fakeApp();
  const invoke = (name, args) => (fail && name === 'save_room' ? Promise.reject({ code: 'storage', message: 'disk full' }) : app.invoke(name, args));
  const store = createAppRoomStore({ invoke, server: 'http://h:1', rooms: [] });
  store.set(CODE, { nickname: 'Ana', token: TOKEN, kind: 'turkish' });
  await store.settled();
  assert.equal(store.errors.length, 1);
  fail = false;
  store.set(CODE, { nickname: 'Ana', token: TOKEN, kind: 'turkish' });
  await store.settled();
  assert.equal(app.rooms().length, 1);
});

// The room socket against a scripted server, with the app's store.
class FakeSocket {
  static last = null;
  constructor(url) { this.url = url; this.sent = []; FakeSocket.last = this; setTimeout(() => this.onopen?.(), 0); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() { this.onclose?.(); }
  push(message) { this.onmessage?.({ data: JSON.stringify(message) }); }
}

const roomState = (result, rematch = 0) => ({
  type: 'state', you: 0,
  room: { code: CODE, version: 1, game: { kind: 'english', players: 2 }, started: true, rematch, seats: [], result, view: { ply: 20 } },
});

test('the socket resumes with the app\'s token; a finished game and a dead room are forgotten', async () => {
  const app = fakeApp([{ code: CODE, server: 'http://h:1', token: TOKEN, kind: 'english', nickname: 'Ana', at: 5 }]);
  const store = createAppRoomStore({ invoke: app.invoke, server: 'http://h:1', rooms: app.rooms() });
  assert.equal(store.get(CODE).token, TOKEN);
  const socket = createRoomSocket({ url: 'ws://h:1/ws', WebSocket: FakeSocket, tokens: store });
  const resumed = socket.resume(CODE, store.get(CODE).token);
  await new Promise((r) => setTimeout(r, 5));
  assert.deepEqual(FakeSocket.last.sent[0], { v: 1, type: 'resume', code: CODE, token: TOKEN });
  FakeSocket.last.push({ type: 'joined', code: CODE, seat: 0, token: TOKEN });
  await resumed;
  FakeSocket.last.push(roomState(null));
  await store.settled();
  assert.deepEqual(app.calls, [], 'nothing new to write');
  FakeSocket.last.push(roomState({ winner: 0, reason: 'resignation' }));
  await store.settled();
  assert.deepEqual(app.calls, [['forget_room', { code: CODE }]]);
  FakeSocket.last.push(roomState(null, 1));
  await store.settled();
  assert.equal(app.calls.at(-1)[0], 'save_room');
  FakeSocket.last.push({ type: 'closed', code: CODE });
  await store.settled();
  assert.deepEqual(app.calls.at(-1), ['forget_room', { code: CODE }]);
  assert.deepEqual(app.rooms(), []);
  socket.close();
});
