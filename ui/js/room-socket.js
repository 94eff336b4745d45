// The room protocol (docs/protocol.md) over one WebSocket: requests answered in order, the
// room's `state` pushed to listeners, and reconnection by itself. After a drop it opens a new
// socket and sends `resume` with the seat token (or `watch` again for a spectator), so the
// seat comes back at once. No DOM here: the WebSocket class, the timers and the token store are
// injected, and ui/tests/room-socket.test.mjs drives it with a fake socket.

export const PROTOCOL_VERSION = 1;

const TOKEN_PREFIX = 'damas-room:';

/** Where a device keeps its seat tokens: `{code → {token, seat, nickname, kind, at}}` entries
 * in a Storage (localStorage in a browser and in the app's web view). */
export function createTokenStore(storage = safeLocalStorage()) {
  return {
    get(code) {
      try {
        return JSON.parse(storage?.getItem(TOKEN_PREFIX + code) || 'null');
      } catch {
        return null;
      }
    },
    set(code, entry) {
      try { storage?.setItem(TOKEN_PREFIX + code, JSON.stringify({ ...entry, at: Date.now() })); } catch { /* private mode */ }
    },
    remove(code) {
      try { storage?.removeItem(TOKEN_PREFIX + code); } catch { /* private mode */ }
    },
    /** Every room this device holds a seat in, newest first (finished games included). */
    list() {
      const rows = [];
      try {
        for (let i = 0; i < (storage?.length || 0); i++) {
          const key = storage.key(i);
          if (!key || !key.startsWith(TOKEN_PREFIX)) continue;
          const entry = JSON.parse(storage.getItem(key) || 'null');
          if (entry && entry.token) rows.push({ code: key.slice(TOKEN_PREFIX.length), ...entry });
        }
      } catch { /* unreadable store: none */ }
      return rows.sort((a, b) => (b.at || 0) - (a.at || 0));
    },
  };
}

function safeLocalStorage() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
}

// What completes each request: the first message of these types (an `error` completes the
// oldest request instead, as the server answers in order).
const ANSWERS = {
  create: (m) => m.type === 'joined',
  join: (m) => m.type === 'joined',
  resume: (m) => m.type === 'joined',
  watch: (m) => m.type === 'watching',
  lookup: (m) => m.type === 'room_info',
  leave: (m) => m.type === 'left',
  sync: (m) => m.type === 'state',
  ping: (m) => m.type === 'pong',
};

/**
 * The whole room from a `state`'s `room`: as it is, or — for a delta (`history_from` set,
 * docs/protocol.md "Deltas") — completed with the history and layout of `previous`, the room
 * held before. Null when `previous` cannot complete it (another room, game or rematch, or too
 * little history): the client then asks for the whole state with `sync`.
 */
export function completeRoom(previous, room) {
  if (room == null || room.history_from == null) return room;
  const from = room.history_from;
  if (!previous || previous.code !== room.code || previous.rematch !== room.rematch
    || !previous.view || previous.view.id !== room.view?.id
    || !Array.isArray(previous.view.history) || previous.view.history.length < from
    || !Number.isInteger(from) || from < 0 || !Array.isArray(room.view.history)) {
    return null;
  }
  const { history_from: _, ...rest } = room;
  return {
    ...rest,
    view: {
      ...room.view,
      layout: previous.view.layout,
      history: previous.view.history.slice(0, from).concat(room.view.history),
    },
  };
}

/**
 * @param {object} opts
 *   - `url`: the server's WebSocket address (`ws://host:port/ws`).
 *   - `WebSocket`: the socket class (the browser's by default).
 *   - `tokens`: a token store (createTokenStore()).
 *   - `retry`: `(attempt) => ms` before reconnecting; default 0.5 s doubling up to 8 s.
 *   - `timers`: `{setTimeout, clearTimeout}` (tests).
 */
export function createRoomSocket({
  url,
  WebSocket: Socket = globalThis.WebSocket,
  tokens = createTokenStore(),
  retry = (n) => Math.min(8000, 500 * 2 ** n),
  timers = globalThis,
} = {}) {
  const listeners = { state: new Set(), status: new Set(), error: new Set(), closed: new Set(), replaced: new Set() };
  const emit = (type, value) => { for (const fn of listeners[type]) fn(value); };
  let ws = null;
  let status = 'idle';
  let attempts = 0;
  let retryTimer = null;
  let closing = false;
  // The room this socket is in: {code, seat, token} for a player, {code, watching: true} for a
  // spectator; null before create/join/watch and after leave.
  let place = null;
  let room = null;
  // The nickname of the last create/join, kept with the token (the home screen lists it).
  let nickname = null;
  // Requests in order of sending: {message, done(m) → bool, resolve, reject}.
  const pending = [];
  // Messages waiting for the socket to open.
  const outbox = [];

  function setStatus(next) {
    if (status === next) return;
    status = next;
    emit('status', next);
  }

  function open() {
    if (ws || closing) return;
    setStatus(attempts ? 'reconnecting' : 'connecting');
    let socket;
    try {
      socket = new Socket(url);
    } catch (e) {
      scheduleReconnect();
      return;
    }
    ws = socket;
    socket.onopen = () => {
      if (ws !== socket) return;
      attempts = 0;
      setStatus('open');
      // Back in the room first, then whatever was asked meanwhile.
      // Its entry goes first among the pending requests, as the server answers in order.
      const back = place && place.token ? { type: 'resume', code: place.code, token: place.token }
        : place && place.watching ? { type: 'watch', code: place.code } : null;
      if (back) {
        new Promise((resolve, reject) => {
          pending.unshift({ message: back, done: ANSWERS[back.type], resolve, reject });
        }).catch((e) => emit('error', e));
        raw(back);
      }
      for (const m of outbox.splice(0)) raw(m);
    };
    socket.onmessage = (event) => {
      if (ws !== socket) return;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      receive(message);
    };
    socket.onclose = () => {
      if (ws !== socket) return;
      ws = null;
      // Requests in flight on the dead socket get no answer: they fail; the room comes back
      // by `resume` on the next socket.
      for (const p of pending.splice(0)) p.reject({ code: 'disconnected', message: 'connection lost' });
      if (closing) {
        setStatus('closed');
        return;
      }
      scheduleReconnect();
    };
    socket.onerror = () => { /* onclose follows */ };
  }

  function scheduleReconnect() {
    ws = null;
    setStatus('reconnecting');
    const delay = retry(attempts++);
    retryTimer = timers.setTimeout(() => { retryTimer = null; open(); }, delay);
  }

  function raw(message) {
    ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...message }));
  }

  function send(message) {
    if (ws && status === 'open') raw(message);
    else {
      outbox.push(message);
      open();
    }
  }

  function receive(m) {
    if (m.type === 'state') {
      const whole = completeRoom(room, m.room);
      if (!whole) {
        // A delta this client cannot complete: drop it and ask for everything.
        request({ type: 'sync' }).catch((e) => emit('error', e));
        return;
      }
      m = { ...m, room: whole };
    }
    if (m.type === 'joined') {
      const previous = tokens.get(m.code) || {};
      place = { code: m.code, seat: m.seat, token: m.token };
      tokens.set(m.code, { ...previous, nickname: previous.nickname ?? nickname, token: m.token, seat: m.seat });
    } else if (m.type === 'watching') {
      place = { code: m.code, watching: true };
    } else if (m.type === 'left') {
      if (place) tokens.remove(place.code);
      place = null;
    } else if (m.type === 'closed') {
      tokens.remove(m.code);
      place = null;
      emit('closed', m.code);
    } else if (m.type === 'replaced') {
      // The seat is played from a newer socket (another tab or device): no reconnection, which
      // would take the seat back from it; the token stays for later.
      closing = true;
      if (retryTimer) timers.clearTimeout(retryTimer);
      retryTimer = null;
      place = null;
      emit('replaced', m.code);
    } else if (m.type === 'state') {
      room = m.room;
      room.receivedAt = Date.now();
      if (place && place.code === room.code && place.token) {
        const entry = tokens.get(room.code);
        // `finished`: the game has ended (until a rematch starts the next one); the home screen
        // lists only the games in progress, and the app forgets the finished ones on disk.
        if (entry) tokens.set(room.code, { ...entry, kind: room.game.kind, seat: m.you, finished: !!room.result });
      }
    }
    if (m.type === 'error') {
      const p = pending.shift();
      const error = { code: String(m.code), message: String(m.message ?? '') };
      // A resume that fails (the room is gone, the token no longer works) forgets the token.
      if (p && p.message.type === 'resume' && (error.code === 'bad_token' || error.code === 'no_such_room')) {
        tokens.remove(p.message.code);
        place = null;
      }
      if (p) p.reject(error);
      else emit('error', error);
      return;
    }
    const i = pending.findIndex((p) => p.done(m));
    if (i >= 0) pending.splice(i, 1)[0].resolve(m);
    if (m.type === 'state') emit('state', { you: m.you, room: m.room });
  }

  /** Sends a request; resolves with its answer message or rejects with `{code, message}`. */
  function request(message, done = ANSWERS[message.type]) {
    return new Promise((resolve, reject) => {
      pending.push({ message, done, resolve, reject });
      send(message);
    });
  }

  // Requests answered by the room's next `state` that shows their effect.
  const stateWhere = (test) => (m) => m.type === 'state' && test(m.room);
  // … or by the next state of a newer version of the room.
  const laterState = () => {
    const version = room ? room.version : -1;
    return stateWhere((r) => r.version > version);
  };

  return {
    get status() { return status; },
    get room() { return room; },
    get place() { return place; },
    on(type, fn) {
      listeners[type].add(fn);
      return () => listeners[type].delete(fn);
    },
    connect() { open(); },
    create(game, name, clock) {
      nickname = name;
      const message = { type: 'create', game, nickname: name };
      if (clock !== undefined) message.clock = clock;
      return request(message);
    },
    join(code, name) {
      nickname = name;
      return request({ type: 'join', code, nickname: name });
    },
    resume(code, token) { return request({ type: 'resume', code, token }); },
    watch(code) { return request({ type: 'watch', code }); },
    /** Whether room `code` exists: resolves with `room_info` (its canonical code, game, free
     * seats) or rejects with `no_such_room`, before any nickname is asked. */
    lookup(code) { return request({ type: 'lookup', code }); },
    startCpu() { return request({ type: 'start_cpu' }, stateWhere((r) => r.started)); },
    /** Plays `move` (its text) at `ply`; resolves with the state that has it. */
    move(move, ply) {
      return request({ type: 'move', move, ply }, stateWhere((r) => r.view.ply > ply || !!r.result));
    },
    resign() { return request({ type: 'resign' }, stateWhere((r) => !!r.result)); },
    rematch() {
      const from = room ? room.rematch : -1;
      return request({ type: 'rematch' }, stateWhere((r) => r.rematch > from));
    },
    leave() { return request({ type: 'leave' }); },
    sync() { return request({ type: 'sync' }); },
    /** "Play the CPU": a started room with this socket's player in `seat` and the CPU at `level`
     * in the others; resolves with its first state. */
    playCpu(game, name, level, seat) {
      nickname = name;
      return request({ type: 'play_cpu', game, nickname: name, level, seat }, (m) => m.type === 'state');
    },
    /** Undo / redo in a room against the CPU; resolves with the state that shows it. */
    undo() { return request({ type: 'undo' }, laterState()); },
    redo() { return request({ type: 'redo' }, laterState()); },
    /** Closes the socket for good (the seat stays: `resume` later takes it back). */
    close() {
      closing = true;
      if (retryTimer) timers.clearTimeout(retryTimer);
      retryTimer = null;
      if (ws) ws.close();
      else setStatus('closed');
    },
  };
}
