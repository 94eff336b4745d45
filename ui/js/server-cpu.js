// Games against the CPU in a browser, played by the room server ("play the CPU" rooms,
// docs/protocol.md): a browser has no engine of its own. This is a backend with the app's command
// names (api.js picks it when the page comes from a `damas-server`), so the setup and game screens
// do not know which side plays. Each game is a room: `new_game` sends `play_cpu`, a move is a
// `move`, the CPU's reply is the server's next pushed state (`cpu_move` waits for it), `undo` and
// `redo` are the room's own. The room's seat token is kept on the device to come back to a game.
// No DOM: the socket maker and the storage are injected (ui/tests/server-cpu.test.mjs).

import { roomGameView } from './rooms.js';

const STORE = 'damas-cpu-rooms';
const SETTINGS = 'damas-settings';
// Games kept to resume, newest first (rooms expire on the server 30 minutes after everyone left).
const KEPT = 8;

/** What this backend does not have (api.js `features`): the screens hide those controls. */
export const SERVER_CPU_FEATURES = Object.freeze({ hint: false, review: false, export: false, local: false, stats: false });

/** The GameView of a CPU room as the offline game screen takes it: mode `cpu`, the room's undo and
 * redo, and `cpu_to_move` while the server's CPU is to move. */
export function cpuGameView(room, you) {
  const view = roomGameView(room, you);
  return {
    ...view,
    mode: 'cpu',
    level: room.kind && room.kind.level ? room.kind.level : null,
    can_undo: !!room.can_undo,
    can_redo: !!room.can_redo,
    cpu_to_move: !room.result && !!room.view.cpu_to_move,
    hints: 0,
  };
}

/** The `play_cpu` message's fields for a setup of the setup screen (mode `cpu`). */
export function playCpuRequest(setup, nickname) {
  const variant = setup && setup.variant ? setup.variant : {};
  const seat = Array.isArray(setup && setup.human_seats) && setup.human_seats.length ? setup.human_seats[0] : 0;
  return {
    game: { kind: variant.kind, players: Number(variant.players) || 2, long_jump: !!variant.long_jump },
    nickname,
    level: (setup && setup.level) || 'medium',
    seat,
  };
}

/** A saved-games row (the app's `list_saved`) from a kept room. */
function savedRow(code, entry) {
  return {
    id: code,
    variant: entry.game,
    mode: 'cpu',
    level: entry.level,
    ply: entry.ply || 0,
    to_move_name: entry.to_move_name || '',
    finished: !!entry.finished,
    last_played: entry.at || 0,
  };
}

/**
 * @param {object} opts
 *   - `openSocket(tokens)`: a new room socket (room-socket.js `createRoomSocket`) using `tokens`.
 *   - `storage`: a Storage (localStorage) for the kept rooms and the settings.
 *   - `nickname()`: the player's name for a new game.
 *   - `now()`: the clock (tests).
 * @returns {{invoke: (name: string, args?: object) => Promise<any>, features: object}}
 */
export function createServerCpu({ openSocket, storage = null, nickname = () => '', now = () => Date.now() }) {
  const read = (key, fallback) => {
    try { return JSON.parse(storage?.getItem(key) || 'null') ?? fallback; } catch { return fallback; }
  };
  const write = (key, value) => { try { storage?.setItem(key, JSON.stringify(value)); } catch { /* private mode */ } };
  const kept = read(STORE, {});
  const save = () => {
    const newest = Object.entries(kept).sort((a, b) => (b[1].at || 0) - (a[1].at || 0));
    for (const [code] of newest.slice(KEPT)) delete kept[code];
    write(STORE, kept);
  };
  // The room socket's token store, over the kept rooms.
  const tokens = {
    get: (code) => kept[code] || null,
    set(code, entry) {
      kept[code] = { ...(kept[code] || {}), ...entry, at: now() };
      save();
    },
    remove(code) {
      delete kept[code];
      save();
    },
  };
  // code → socket (one room per socket, as the protocol wants).
  const sockets = new Map();
  const fail = (code, message = code) => Promise.reject({ code, message });

  function remember(room, you) {
    const entry = kept[room.code];
    if (!entry) return;
    const v = room.view;
    Object.assign(entry, {
      game: room.game,
      level: room.kind && room.kind.level,
      ply: v.ply,
      to_move_name: v.seats && v.seats[v.to_move] ? v.seats[v.to_move].name : '',
      finished: !!room.result,
      seat: you,
    });
    save();
  }

  function watch(socket) {
    socket.on('state', ({ you, room }) => remember(room, you));
    return socket;
  }

  const seatOf = (socket) => (socket.place ? socket.place.seat : null);
  const viewOf = (socket, room = socket.room) => cpuGameView(room, seatOf(socket));

  /** The socket of room `code`, back in its seat with the kept token. */
  async function socketFor(code) {
    const open = sockets.get(code);
    if (open && open.room && open.room.code === code) return open;
    const entry = kept[code];
    if (!entry || !entry.token) return fail('no_such_game', code);
    const socket = watch(openSocket(tokens));
    sockets.set(code, socket);
    try {
      await socket.resume(code, entry.token);
      if (!socket.room || socket.room.code !== code) await socket.sync();
    } catch (e) {
      sockets.delete(code);
      socket.close();
      throw e;
    }
    return socket;
  }

  /**
   * The view after the CPU's reply to the position at `ply`: the first state past it (or ended).
   * A state where the CPU is no longer to move without going past it (an undo took the position
   * back) answers `cancelled`, as the app's backend does for a search it stopped.
   */
  function cpuReply(socket, ply) {
    const judge = (room) => {
      if (room.result || room.view.ply > ply) return 'done';
      if (!room.view.cpu_to_move) return 'cancelled';
      return null;
    };
    const now = socket.room && judge(socket.room);
    if (now === 'done') return Promise.resolve(viewOf(socket));
    if (now === 'cancelled') return fail('cancelled');
    return new Promise((resolve, reject) => {
      const stop = socket.on('state', ({ room }) => {
        const verdict = judge(room);
        if (!verdict) return;
        stop();
        if (verdict === 'done') resolve(viewOf(socket, room));
        else reject({ code: 'cancelled', message: 'cancelled' });
      });
    });
  }

  async function newGame(setup) {
    if (!setup || setup.mode !== 'cpu') return fail('local_unavailable', 'this browser plays against the CPU only');
    const request = playCpuRequest(setup, nickname() || 'Jugador');
    const socket = watch(openSocket(tokens));
    let first;
    try {
      first = await socket.playCpu(request.game, request.nickname, request.level, request.seat);
    } catch (e) {
      socket.close();
      throw e;
    }
    sockets.set(first.room.code, socket);
    remember(first.room, first.you);
    return viewOf(socket, first.room);
  }

  const settings = () => read(SETTINGS, null) || { language: null, skin: 'wood', sound: true, animations: true };

  const commands = {
    new_game: ({ setup }) => newGame(setup),
    async get_game({ id }) {
      return viewOf(await socketFor(id));
    },
    async play_move({ id, moveText }) {
      const socket = await socketFor(id);
      const m = await socket.move(moveText, socket.room.view.ply);
      return viewOf(socket, m.room);
    },
    async cpu_move({ id, ply }) {
      const socket = await socketFor(id);
      return cpuReply(socket, ply ?? socket.room.view.ply);
    },
    async undo({ id }) {
      const socket = await socketFor(id);
      return viewOf(socket, (await socket.undo()).room);
    },
    async redo({ id }) {
      const socket = await socketFor(id);
      return viewOf(socket, (await socket.redo()).room);
    },
    async resign({ id }) {
      const socket = await socketFor(id);
      return viewOf(socket, (await socket.resign()).room);
    },
    /** The next game with the same choices: a new room (the person keeps their seat). */
    async rematch({ id }) {
      const socket = await socketFor(id);
      const room = socket.room;
      return newGame({
        variant: room.game,
        mode: 'cpu',
        level: room.kind && room.kind.level,
        human_seats: [seatOf(socket) ?? 0],
      });
    },
    async list_saved() {
      return Object.entries(kept)
        .filter(([, e]) => e.token && e.game && !e.finished)
        .map(([code, e]) => savedRow(code, e))
        .sort((a, b) => b.last_played - a.last_played);
    },
    /** Deleting a game leaves its room (a game in play is resigned) and forgets it. */
    async delete_saved({ id }) {
      const socket = sockets.get(id) || (await socketFor(id).catch(() => null));
      if (socket) {
        await socket.leave().catch(() => {});
        socket.close();
      }
      sockets.delete(id);
      tokens.remove(id);
      return null;
    },
    get_settings: async () => settings(),
    async set_settings({ settings: next }) {
      write(SETTINGS, { ...next });
      return { ...next };
    },
    get_stats: async () => [],
    get_candies: async () => ({ today: 0, total: 0, budget: 60, last_due: 0, last_earned: 0 }),
    take_startup_notices: async () => [],
    list_rooms: async () => [],
    take_deep_link: async () => null,
  };

  return {
    features: SERVER_CPU_FEATURES,
    invoke(name, args = {}) {
      const command = commands[name];
      return command ? command(args) : fail('unavailable_here', name);
    },
  };
}
