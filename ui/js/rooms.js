// A friends' room seen by the UI, headless: the room `state` (docs/protocol.md) turned into the
// GameView the offline board and controller use, each seat's line (nickname, connection, the
// countdown before the CPU takes a dropped seat, the clock with its byo-yomi periods), and the
// controller's backend for a room game. No DOM: tested in ui/tests/rooms.test.mjs.

import { t, seatName } from './i18n.js';

/** The GameView of a room's game as the offline screens take it. The server's session plays
 * every seat as "local"; here the seat of this device (`you`, null for a spectator) is the one
 * human seat, the CPU's turns are the server's, and the room's result (a resignation, a flag)
 * is the outcome. `room_version` orders pushed views (game-controller.js `receive`). */
export function roomGameView(room, you) {
  const v = room.view;
  const mine = you != null && room.seats[you] && !room.seats[you].left ? [you] : [];
  const result = room.result;
  const outcome = result ? { ...(v.outcome || {}), winner: result.winner, reason: result.reason } : v.outcome;
  return {
    ...v,
    id: room.code,
    mode: 'room',
    room_version: room.version,
    human_seats: mine,
    // The server plays the CPU's turns; this device never asks for them.
    cpu_to_move: false,
    can_undo: false,
    can_redo: false,
    must_capture: room.must_capture || v.must_capture || [],
    outcome,
    legal_moves: outcome ? [] : v.legal_moves,
  };
}

/** The server's clock now, from this device's: `now` of the state corrected by when it came. */
export function serverNow(room, localNow = Date.now()) {
  return room.now + (localNow - (room.receivedAt ?? localNow));
}

/** The countdown before the CPU takes a dropped seat, in ms (null when none runs). */
export function takeoverLeft(room, seat, now = serverNow(room)) {
  const s = room.seats[seat];
  if (!s || s.cpu_playing || s.connected || s.left || s.takeover_at == null) return null;
  return Math.max(0, s.takeover_at - now);
}

/**
 * A seat's clock at `now`: `{main_ms, periods, period_ms, byoyomi, running, flagged}`.
 * Main time runs first; then each byo-yomi period: a move inside a period keeps it, a period
 * used up is gone.
 */
export function clockFace(room, seat, now = serverNow(room)) {
  const c = room.clock;
  if (!c) return null;
  const base = c.seats[seat];
  const settings = c.settings;
  const running = c.running === seat && c.turn_started_at != null;
  let main = base.main_ms;
  let periods = base.periods;
  let period = settings.period_ms;
  if (running) {
    let spent = Math.max(0, now - c.turn_started_at);
    const fromMain = Math.min(main, spent);
    main -= fromMain;
    spent -= fromMain;
    if (spent > 0 && periods > 0) {
      const used = Math.floor(spent / settings.period_ms);
      periods = Math.max(0, periods - used);
      period = periods > 0 ? settings.period_ms - (spent % settings.period_ms) : 0;
    }
  }
  const flagged = room.result && room.result.reason === 'time' && room.result.flagged === seat;
  return { main_ms: main, periods, period_ms: period, byoyomi: main === 0 && periods > 0, running, flagged: !!flagged };
}

/** "4:59" / "0:07". */
export function formatClock(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const m = Math.floor(total / 60), s = total % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/** What a seat's line says about who plays it: `you`, `empty`, `cpu` (from the start or after a
 * leave), `cpu_away` (the CPU plays a dropped seat), `away` (dropped, countdown running),
 * `connected`, or `offline` (before the start). */
export function seatState(room, seat, you) {
  const s = room.seats[seat];
  if (s.kind === 'empty') return 'empty';
  if (s.kind === 'cpu' || s.left) return 'cpu';
  if (s.cpu_playing) return 'cpu_away';
  if (seat === you) return 'you';
  if (s.connected) return 'connected';
  return room.started && s.away_since != null ? 'away' : 'offline';
}

/**
 * A seat's line in words: `{colour, name, state}` (`state` null when the name says it already: a
 * seat the CPU plays from the start reads "Verde · CPU", not "Verde · CPU · CPU").
 */
export function seatLine(room, seat, you, now = serverNow(room)) {
  const s = room.seats[seat];
  const state = seatState(room, seat, you);
  const colour = room.game.kind === 'capture' ? seatName(String(seat + 1)) : seatName(s.color);
  const cpu = t('room.seat.cpu');
  const name = s.nickname || (state === 'cpu' ? cpu : '—');
  const left = takeoverLeft(room, seat, now);
  let said = t('room.seat.' + (state === 'away' ? 'offline' : state));
  if (state === 'away' && left != null) said = t('room.seat.away', { s: Math.ceil(left / 1000) });
  return { colour, name, state: state === 'cpu' && name.trim().toLowerCase() === cpu.toLowerCase() ? null : said };
}

/** True when the room has a free seat (a visitor may "Join", else "Watch"). */
export function hasFreeSeat(room) {
  return room.seats.some((s) => s.kind === 'empty');
}

/** The page a friend opens: `<http base>/r/<code>`. */
export function roomLink(base, code) {
  return `${String(base).replace(/\/+$/, '')}/r/${encodeURIComponent(code)}`;
}

/** The server's WebSocket address from its http(s) address: `http://h:p` → `ws://h:p/ws`. */
export function socketUrl(base) {
  const u = new URL(String(base));
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.pathname = u.pathname.replace(/\/+$/, '') + '/ws';
  u.search = '';
  u.hash = '';
  return u.toString();
}

/** Crockford's base32, what room codes are made of: one case, no I, L, O or U (docs/protocol.md). */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 20;
const CODE_GROUP = 5;

/** A room code as typed or read out, normalised as the server does: upper case, spaces and
 * dashes dropped, O read as 0, I and L as 1. A code of the former format (16 base64url
 * characters, case-sensitive) is kept as it is. null when it is neither. */
export function normaliseCode(text) {
  const s = String(text ?? '').trim();
  if (/^[A-Za-z0-9_-]{16}$/.test(s)) return s;
  const code = s.replace(/[\s\-\u2010-\u2015\u2212]/gu, '').toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === CODE_LENGTH && [...code].every((c) => CODE_ALPHABET.includes(c)) ? code : null;
}

/** A room code as people see it: groups of five joined by dashes (a former code as it is). */
export function formatCode(code) {
  const s = String(code ?? '');
  if (s.length !== CODE_LENGTH) return s;
  const groups = [];
  for (let i = 0; i < s.length; i += CODE_GROUP) groups.push(s.slice(i, i + CODE_GROUP));
  return groups.join('-');
}

/** A room code out of a pasted link or a typed code: `…/r/<code>`, `#/room/<code>` or the code
 * itself, normalised (normaliseCode); null when there is none. */
export function codeFromInput(text) {
  const s = String(text || '').trim();
  const m = /(?:\/r\/|#\/room\/)([^\s/?#]+)/.exec(s);
  if (!m) return normaliseCode(s);
  try {
    return normaliseCode(decodeURIComponent(m[1]));
  } catch {
    return null;
  }
}

/** Nickname as the server will keep it (docs/protocol.md): control characters out, spaces
 * collapsed, trimmed; null when empty or longer than 24 characters. */
export function cleanNickname(text) {
  const s = String(text || '').replace(/[\p{Cc}\p{Cf}]/gu, '').replace(/\s+/gu, ' ').trim();
  const length = [...s].length;
  return length >= 1 && length <= 24 ? s : null;
}

/**
 * The game controller's backend for a room (the same calls as the Tauri commands): moves,
 * resignation and rematch go to the server; undo, redo and a new game don't exist in a room.
 * `socket` is a room socket (room-socket.js); `you()` says this device's seat now.
 */
export function roomBackend(socket, you) {
  const view = (m) => roomGameView(m.room, you());
  const refuse = (code) => Promise.reject({ code, message: code });
  return {
    getGame: async () => {
      const m = await socket.sync();
      return view(m);
    },
    playMove: async (_id, moveText) => view(await socket.move(moveText, socket.room.view.ply)),
    cpuMove: () => refuse('not_your_turn'),
    undo: () => refuse('room_no_undo'),
    redo: () => refuse('room_no_undo'),
    newGame: () => refuse('room_no_undo'),
    resign: async () => view(await socket.resign()),
    rematch: async () => view(await socket.rematch()),
  };
}

/**
 * The finished room game as this device's seat saw it, for the rewards (record_room_result):
 * `{code, rematch, kind, result: 'win'|'draw'|'loss', plies}`, or null while the game runs, for
 * a spectator, for a seat this device left (the CPU played it on), or for an aborted game.
 */
export function roomResultFor(room, you) {
  if (!room || !room.started || !room.result || you == null) return null;
  // Aborted: the game ended without a result and counts for nobody.
  if (room.result.reason === 'aborted') return null;
  const seat = room.seats[you];
  if (!seat || seat.left) return null;
  const winner = room.result.winner;
  const result = winner == null ? 'draw' : winner === you ? 'win' : 'loss';
  return { code: room.code, rematch: room.rematch, kind: room.game.kind, result, plies: room.view.ply };
}
