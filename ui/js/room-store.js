// The app's seat tokens: the room socket's token store (room-socket.js: get/set/remove/list)
// kept by the app in `rooms.json` (the list_rooms / save_room / forget_room commands), so an
// online game in progress survives the app being killed and is listed on the home screen.
// In memory for the socket's synchronous calls; the disk follows in the order of the calls.
// A room is written when its token, game or nickname is new, and forgotten when its game ends
// (`finished`), the player leaves, or the room is gone. No DOM: ui/tests/room-store.test.mjs.

/**
 * @param {object} opts
 *   - `invoke(name, args)`: the app's command call (api.js).
 *   - `server`: the room server's http(s) address this socket uses.
 *   - `hosted`: the app hosts that server itself (its rooms end with the app).
 *   - `rooms`: what list_rooms answered (the app's rooms, of every server).
 */
export function createAppRoomStore({ invoke, server, hosted = false, rooms = [] }) {
  const entries = new Map();
  // What the app holds on disk, by code: {token, kind, nickname}.
  const kept = new Map();
  for (const r of rooms) {
    entries.set(r.code, { token: r.token, kind: r.kind, nickname: r.nickname, at: r.at, server: r.server });
    kept.set(r.code, { token: r.token, kind: r.kind, nickname: r.nickname });
  }
  let chain = Promise.resolve();
  const errors = [];
  const queue = (name, args, failed = () => {}) => {
    chain = chain.then(() => invoke(name, args)).catch((e) => { errors.push(e); failed(); });
    return chain;
  };
  const forget = (code) => {
    if (!kept.has(code)) return;
    kept.delete(code);
    queue('forget_room', { code });
  };
  return {
    get(code) { return entries.get(code) || null; },
    set(code, entry) {
      const next = { ...entry, at: Date.now() };
      entries.set(code, next);
      if (next.finished) {
        forget(code);
        return;
      }
      if (!next.token || !next.kind || !next.nickname) return; // the game is not known yet
      const was = kept.get(code);
      if (was && was.token === next.token && was.kind === next.kind && was.nickname === next.nickname) return;
      const saved = { token: next.token, kind: next.kind, nickname: next.nickname };
      kept.set(code, saved);
      // Not written: the next change of this room tries again.
      queue('save_room', { room: { server, code, ...saved, hosted } }, () => { if (kept.get(code) === saved) kept.delete(code); });
    },
    remove(code) {
      entries.delete(code);
      forget(code);
    },
    list() {
      return [...entries].filter(([, e]) => e.token).map(([code, e]) => ({ code, ...e })).sort((a, b) => (b.at || 0) - (a.at || 0));
    },
    /** Resolves once the disk has every change asked so far (tests). */
    settled: () => chain,
    /** Calls that failed (storage): the room stays in memory, the next change retries. */
    errors,
  };
}
