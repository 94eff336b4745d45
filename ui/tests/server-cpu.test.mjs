// The browser's games against the server's CPU (server-cpu.js): the app's command names mapped
// onto the room protocol's `play_cpu`, `move`, `undo`, `redo`, `resign` and `resume`, with a fake
// room socket that records what is sent and pushes states as the server does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServerCpu, cpuGameView, playCpuRequest } from '../js/server-cpu.js';

function memoryStorage() {
  const map = new Map();
  return { getItem: (k) => (map.has(k) ? map.get(k) : null), setItem: (k, v) => map.set(k, String(v)), removeItem: (k) => map.delete(k) };
}

function roomAt({ code = 'ROOM1', version = 1, ply = 0, cpuToMove = false, canUndo = false, canRedo = false, result = null, seat = 0 } = {}) {
  return {
    code, version, rematch: 0,
    game: { kind: 'english', players: 2, long_jump: false },
    kind: { type: 'cpu', level: 'hard' },
    seats: [{ kind: seat === 0 ? 'human' : 'cpu', left: false }, { kind: seat === 1 ? 'human' : 'cpu', left: false }],
    result, can_undo: canUndo, can_redo: canRedo, must_capture: [],
    view: { id: 9, ply, to_move: ply % 2, seats: [{ name: 'black' }, { name: 'white' }], history: new Array(ply).fill({}), legal_moves: [{ move: '9-13' }], cpu_to_move: cpuToMove, outcome: null, mode: 'room' },
  };
}

/** A fake room socket: `sent` records the requests; `push(room)` is the server's next state. */
function fakeServer() {
  const sent = [];
  const sockets = [];
  function openSocket(tokens) {
    const listeners = new Set();
    const socket = {
      room: null, place: null, closed: false,
      on(type, fn) { if (type !== 'state') return () => {}; listeners.add(fn); return () => listeners.delete(fn); },
      push(room) {
        socket.room = room;
        for (const fn of [...listeners]) fn({ you: socket.place?.seat ?? null, room });
        return { you: socket.place?.seat ?? null, room };
      },
      async playCpu(game, nickname, level, seat) {
        sent.push({ type: 'play_cpu', game, nickname, level, seat });
        socket.place = { code: 'ROOM1', seat, token: 'tok-1' };
        tokens.set('ROOM1', { nickname, token: 'tok-1', seat });
        return socket.push(roomAt({ seat }));
      },
      async resume(code, token) { sent.push({ type: 'resume', code, token }); socket.place = { code, seat: 0, token }; return { type: 'joined' }; },
      async sync() { sent.push({ type: 'sync' }); return socket.push(server.current); },
      async move(move, ply) { sent.push({ type: 'move', move, ply }); return socket.push(roomAt({ version: socket.room.version + 1, ply: ply + 1, cpuToMove: true })); },
      async undo() { sent.push({ type: 'undo' }); return socket.push(roomAt({ version: socket.room.version + 1, ply: 0, canRedo: true })); },
      async redo() { sent.push({ type: 'redo' }); return socket.push(roomAt({ version: socket.room.version + 1, ply: 2, canUndo: true })); },
      async resign() { sent.push({ type: 'resign' }); return socket.push({ ...socket.room, version: socket.room.version + 1, result: { winner: 1, reason: 'resignation' } }); },
      async leave() { sent.push({ type: 'leave' }); return { type: 'left' }; },
      close() { socket.closed = true; },
    };
    sockets.push(socket);
    return socket;
  }
  const server = { sent, sockets, openSocket, current: roomAt() };
  return server;
}

const SETUP = { variant: { kind: 'english', players: 2, long_jump: false }, mode: 'cpu', level: 'hard', human_seats: [1] };

test('a setup becomes the play_cpu request: game, nickname, level and the seat chosen', () => {
  assert.deepEqual(playCpuRequest(SETUP, 'Ana'), { game: { kind: 'english', players: 2, long_jump: false }, nickname: 'Ana', level: 'hard', seat: 1 });
  const diamond = playCpuRequest({ variant: { kind: 'diamond', players: '3' }, mode: 'cpu' }, 'Bea');
  assert.deepEqual(diamond, { game: { kind: 'diamond', players: 3, long_jump: false }, nickname: 'Bea', level: 'medium', seat: 0 });
});

test('a CPU room is a CPU game to the screens: its undo, redo, level and the CPU to move', () => {
  const view = cpuGameView(roomAt({ ply: 3, cpuToMove: true, canUndo: true }), 0);
  assert.equal(view.mode, 'cpu');
  assert.equal(view.id, 'ROOM1');
  assert.equal(view.level, 'hard');
  assert.equal(view.can_undo, true);
  assert.equal(view.can_redo, false);
  assert.equal(view.cpu_to_move, true);
  assert.deepEqual(view.human_seats, [0]);
  // Over: nobody is to move, whatever the room's view says.
  const over = cpuGameView(roomAt({ cpuToMove: true, result: { winner: 1, reason: 'resignation' } }), 0);
  assert.equal(over.cpu_to_move, false);
  assert.equal(over.outcome.reason, 'resignation');
});

test('new game, move, the CPU reply, undo and redo go to the room as the protocol says', async () => {
  const server = fakeServer();
  const cpu = createServerCpu({ openSocket: server.openSocket, storage: memoryStorage(), nickname: () => 'Ana' });
  const first = await cpu.invoke('new_game', { setup: SETUP });
  assert.deepEqual(server.sent[0], { type: 'play_cpu', game: { kind: 'english', players: 2, long_jump: false }, nickname: 'Ana', level: 'hard', seat: 1 });
  assert.equal(first.id, 'ROOM1');
  const moved = await cpu.invoke('play_move', { id: 'ROOM1', moveText: '9-13' });
  assert.deepEqual(server.sent[1], { type: 'move', move: '9-13', ply: 0 });
  assert.equal(moved.cpu_to_move, true);
  // The CPU's reply is the next state the server pushes past that ply.
  const socket = server.sockets[0];
  const reply = cpu.invoke('cpu_move', { id: 'ROOM1', ply: 1 });
  socket.push(roomAt({ version: 3, ply: 2, canUndo: true }));
  const replied = await reply;
  assert.equal(replied.ply, 2);
  assert.equal(replied.can_undo, true);
  const undone = await cpu.invoke('undo', { id: 'ROOM1' });
  assert.equal(server.sent.at(-1).type, 'undo');
  assert.equal(undone.ply, 0);
  assert.equal(undone.can_redo, true);
  const redone = await cpu.invoke('redo', { id: 'ROOM1' });
  assert.equal(server.sent.at(-1).type, 'redo');
  assert.equal(redone.ply, 2);
  // One socket for the game all along.
  assert.equal(server.sockets.length, 1);
});

test('a CPU reply taken back by an undo answers cancelled, as the app does', async () => {
  const server = fakeServer();
  const cpu = createServerCpu({ openSocket: server.openSocket, storage: memoryStorage() });
  await cpu.invoke('new_game', { setup: SETUP });
  await cpu.invoke('play_move', { id: 'ROOM1', moveText: '9-13' });
  const reply = cpu.invoke('cpu_move', { id: 'ROOM1', ply: 1 });
  await cpu.invoke('undo', { id: 'ROOM1' });
  await assert.rejects(reply, { code: 'cancelled' });
});

test('a game is kept on the device: another page resumes it with the seat token and lists it', async () => {
  const storage = memoryStorage();
  const server = fakeServer();
  const cpu = createServerCpu({ openSocket: server.openSocket, storage, nickname: () => 'Ana' });
  await cpu.invoke('new_game', { setup: SETUP });
  await cpu.invoke('play_move', { id: 'ROOM1', moveText: '9-13' });
  const later = createServerCpu({ openSocket: server.openSocket, storage });
  const rows = await later.invoke('list_saved');
  assert.equal(rows.length, 1);
  assert.equal(rows[0].id, 'ROOM1');
  assert.equal(rows[0].mode, 'cpu');
  assert.equal(rows[0].level, 'hard');
  assert.equal(rows[0].ply, 1);
  assert.equal(rows[0].variant.kind, 'english');
  server.current = roomAt({ version: 7, ply: 1 });
  const view = await later.invoke('get_game', { id: 'ROOM1' });
  assert.deepEqual(server.sent.slice(-2), [{ type: 'resume', code: 'ROOM1', token: 'tok-1' }, { type: 'sync' }]);
  assert.equal(view.ply, 1);
  // Resigned: finished, no longer among the games to resume.
  await later.invoke('resign', { id: 'ROOM1' });
  assert.deepEqual(await later.invoke('list_saved'), []);
  await assert.rejects(later.invoke('get_game', { id: 'NOPE' }), { code: 'no_such_game' });
});

test('what a browser cannot do is refused with a code, never sent to the server', async () => {
  const server = fakeServer();
  const cpu = createServerCpu({ openSocket: server.openSocket, storage: memoryStorage() });
  await assert.rejects(cpu.invoke('new_game', { setup: { ...SETUP, mode: 'local' } }), { code: 'local_unavailable' });
  await assert.rejects(cpu.invoke('hint', { id: 'ROOM1' }), { code: 'unavailable_here' });
  assert.deepEqual(server.sent, []);
  assert.equal(cpu.features.hint, false);
  assert.equal(cpu.features.review, false);
});
