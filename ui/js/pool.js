// "Play someone": a pairing pool seen by the UI, headless (docs/protocol.md "Pairing pools").
// The searching screen's state as a reducer over the server's messages, the time waited, and
// who the opponent is once paired. No DOM: tested in ui/tests/pool.test.mjs.

/** The games that have a pool (their 2-player forms). */
export const POOL_KINDS = ['english', 'turkish', 'international', 'diamond', 'capture'];

// Each pool's clock (docs/protocol.md): main time and byo-yomi periods.
const FIVE = { main_ms: 300000, periods: 3, period_ms: 30000 };
const TEN = { main_ms: 600000, periods: 3, period_ms: 30000 };
export const POOL_CLOCKS = { english: FIVE, diamond: FIVE, capture: FIVE, turkish: TEN, international: TEN };

export const hasPool = (kind) => POOL_KINDS.includes(kind);

/** The ratings' name of a pool's game (`signed_in.ratings[].kind`): the star games' 2-player forms. */
export function ratedKind(kind) {
  return kind === 'diamond' || kind === 'capture' ? kind + '2' : kind;
}

/** The pool the server names `english/rated` (what `pool_waiting.pool` says). */
export function poolName(kind, rated) {
  return `${kind}/${rated ? 'rated' : 'casual'}`;
}

/**
 * The searching screen's state. `phase`: `joining` (asked, no answer yet), `waiting` (in the
 * pool since `since`), `paired` (a room was made: `code`, `opponent`, `rated`), `left`
 * (cancelled), `failed` (`error` is the server's code). `rating` is this player's in the pool.
 */
export function initialSearch(kind, rated) {
  return { phase: 'joining', kind, rated: !!rated, since: null, rating: null, cpuAt: null, code: null, opponent: null, error: null };
}

/**
 * The next state after `event`: `{type: 'waiting', pool, rating, cpu_at, at}` (the server's
 * `pool_waiting`, `at` the local time it came), `{type: 'paired', code, opponent, rated}`,
 * `{type: 'left'}`, `{type: 'error', code}`, `{type: 'rejoin'}` (the connection came back: ask
 * again, the time waited goes on).
 */
export function searchStep(state, event) {
  if (state.phase === 'paired') return state; // a pairing stands, whatever comes after it
  switch (event.type) {
    case 'waiting':
      if (state.phase === 'left') return state;
      return {
        ...state, phase: 'waiting', error: null,
        since: state.since ?? event.at,
        rating: Number.isFinite(event.rating) ? event.rating : state.rating,
        cpuAt: Number.isFinite(event.cpu_at) ? event.cpu_at : null,
      };
    case 'paired':
      return { ...state, phase: 'paired', code: event.code, opponent: event.opponent || null, rated: !!event.rated };
    case 'left':
      return { ...state, phase: 'left' };
    case 'error':
      return { ...state, phase: 'failed', error: event.code };
    case 'rejoin':
      return state.phase === 'waiting' || state.phase === 'failed' ? { ...state, phase: 'joining', error: null } : state;
    default:
      return state;
  }
}

/** Whether the screen's clock should tick: while searching and while it is seen. */
export function searchTicks(state, visible) {
  return !!visible && (state.phase === 'joining' || state.phase === 'waiting');
}

/** Whole seconds waited at `now` (0 before the server said the player waits). */
export function waitedSeconds(state, now) {
  if (state.since == null) return 0;
  return Math.max(0, Math.floor((now - state.since) / 1000));
}

/** "0:07", "1:05", "12:00". */
export function formatWaited(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Who the opponent is, from `paired.opponent`: `{cpu: true, level}` or `{cpu: false, nickname,
 * rating, provisional}` (`provisional` only when the server says it). */
export function opponentOf(opponent) {
  if (!opponent || opponent.cpu) return { cpu: true, level: opponent?.level || 'medium' };
  return { cpu: false, nickname: String(opponent.nickname ?? ''), rating: Number.isFinite(opponent.rating) ? opponent.rating : null, provisional: opponent.provisional === true };
}
