// Accounts seen by the UI, pure: the session token out of the page address after a sign-in by
// redirect, ratings as people read them ("1,216" / "1,200?"), and the view models of the profile
// and the ranking screens from the server's answers (docs/protocol.md "Accounts, ratings and
// ranking"). No DOM, no network: tested in ui/tests/account-views.test.mjs.

/** The server's rating kinds (2-player forms) and the UI's game of each, in the server's order. */
export const RATING_KINDS = ['english', 'turkish', 'international', 'diamond2', 'capture2'];
const GAME_OF = { english: 'english', turkish: 'turkish', international: 'international', diamond2: 'diamond', capture2: 'capture' };

/** The UI's game (`diamond`) of a rating kind (`diamond2`); null for an unknown kind. */
export const gameOfKind = (kind) => GAME_OF[kind] ?? null;

// A session token: 32 random bytes in base64url (43 characters).
const TOKEN = /^[A-Za-z0-9_-]{20,128}$/;

/**
 * After a sign-in by redirect the server sends the browser to `/#session=TOKEN`. Reads the token
 * and the address to show instead, without it (the token must not stay in the address bar, in the
 * history or in a shared link). `{token: null, hash}` when there is none or it is malformed; `hash`
 * is what is left (`''` when nothing).
 */
export function sessionFromFragment(hash) {
  const text = String(hash ?? '').replace(/^#/, '');
  if (!text) return { token: null, hash: '' };
  const parts = text.split('&');
  let token = null;
  const rest = [];
  for (const part of parts) {
    if (part.startsWith('session=')) {
      let value = part.slice('session='.length);
      try { value = decodeURIComponent(value); } catch { value = ''; }
      if (TOKEN.test(value) && token === null) token = value;
    } else if (part) rest.push(part);
  }
  if (token === null && !parts.some((p) => p.startsWith('session='))) return { token: null, hash: '#' + text };
  return { token, hash: rest.length ? '#' + rest.join('&') : '' };
}

/** The address that starts a sign-in: `/auth/start?to=web|app&display_name=…` on `base`. */
export function signInUrl(base, { to = 'web', displayName = '' } = {}) {
  const url = new URL('/auth/start', String(base));
  url.searchParams.set('to', to === 'app' ? 'app' : 'web');
  const name = String(displayName || '').trim();
  if (name) url.searchParams.set('display_name', name);
  return url.toString();
}

/** A rating as people read it: rounded, grouped as the language does ("1,216"; Spanish leaves four digits together, "1216"), `?` while
 * provisional. */
export function ratingText(rating, provisional, lang = 'en') {
  const n = Math.round(Number(rating) || 0).toLocaleString(lang);
  return provisional ? n + '?' : n;
}

/** A rating change in points, signed and rounded: "+16", "−4", "±0". */
export function changeText(before, after) {
  const d = Math.round(Number(after) - Number(before));
  if (d > 0) return '+' + d;
  if (d < 0) return '\u2212' + Math.abs(d);
  return '\u00b10';
}

/**
 * One finished rated game from the side of account `me`: the opponent, the result for me, my
 * rating before and after. `{id, kind, game, opponent, result: 'win'|'draw'|'loss', before, after,
 * change, finished_ms, colour: 'white'|'black'}`; null when `me` did not play it.
 */
export function gameFor(game, me) {
  const white = game.white === me;
  if (!white && game.black !== me) return null;
  const result = game.result === 'draw' ? 'draw' : (game.result === 'white_wins') === white ? 'win' : 'loss';
  const before = white ? game.white_before : game.black_before;
  const after = white ? game.white_after : game.black_after;
  return {
    id: game.game_id,
    kind: game.kind,
    game: gameOfKind(game.kind),
    opponent: white ? game.black_name : game.white_name,
    colour: white ? 'white' : 'black',
    result,
    before,
    after,
    change: changeText(before, after),
    finished_ms: game.finished_ms,
  };
}

/**
 * The profile: one row per game kind (the server's order) with its rating, provisional mark,
 * counts and place; the rating history of each kind as chart points; the last rated games.
 * @param {{account: object, ratings: object[]}} me `GET /api/me/ratings`
 * @param {{games: object[]}|null} games `GET /api/me/games`
 * @param {Record<string, {history: object[]}>} histories `GET /api/me/history?kind=` by kind
 */
export function profileModel(me, games, histories = {}, lang = 'en') {
  const account = me && me.account ? me.account : {};
  const byKind = new Map((me && me.ratings ? me.ratings : []).map((r) => [r.kind, r]));
  const rows = RATING_KINDS.map((kind) => {
    const r = byKind.get(kind) || { kind, rating: 1200, games: 0, wins: 0, draws: 0, losses: 0, provisional: true, place: null };
    const history = histories[kind] && Array.isArray(histories[kind].history) ? histories[kind].history : [];
    return {
      kind,
      game: gameOfKind(kind),
      rating: r.rating,
      text: ratingText(r.rating, r.provisional, lang),
      provisional: !!r.provisional,
      games: r.games || 0,
      wins: r.wins || 0,
      draws: r.draws || 0,
      losses: r.losses || 0,
      place: r.place ?? null,
      // The chart starts at 1,200 (every account's start), then one point per rated game.
      points: r.games ? [1200, ...history.map((p) => p.rating)] : [],
    };
  });
  const recent = (games && Array.isArray(games.games) ? games.games : []).map((g) => gameFor(g, account.id)).filter(Boolean);
  return { name: account.display_name || '', id: account.id ?? null, rows, recent };
}

export const HISTORY_CHART = { width: 200, height: 40, pad: 3 };

/**
 * A rating history as a line in the statistics chart's box (stats-chart.js `CHART`): `points`
 * oldest first; y down, the lowest rating at the bottom. At least 60 points of range, so a small
 * change does not fill the box. `{path, dots: [{x, y}], min, max}`; null with fewer than 2 points.
 */
export function historyLine(points) {
  if (!Array.isArray(points) || points.length < 2) return null;
  const { width, height, pad } = HISTORY_CHART;
  let min = Math.min(...points);
  let max = Math.max(...points);
  if (max - min < 60) {
    const mid = (max + min) / 2;
    min = mid - 30;
    max = mid + 30;
  }
  const x = (i) => pad + (i * (width - 2 * pad)) / (points.length - 1);
  const y = (r) => pad + ((max - r) * (height - 2 * pad)) / (max - min);
  const dots = points.map((r, i) => ({ x: +x(i).toFixed(2), y: +y(r).toFixed(2) }));
  const path = dots.map((d, i) => `${i ? 'L' : 'M'}${d.x} ${d.y}`).join(' ');
  return { path, dots, min, max };
}

/**
 * The ranking of one kind: the top rows, each marked when it is the player's; the player's own
 * row shown below the top when it is not among them. `{rows, you, youBelow}`.
 * @param {{top: object[], you: object|null}} answer `GET /api/ranking/{kind}`
 */
export function rankingModel(answer, me = null, lang = 'en') {
  const row = (e) => ({
    place: e.place,
    account: e.account,
    name: e.display_name,
    rating: e.rating,
    text: ratingText(e.rating, e.provisional, lang),
    provisional: !!e.provisional,
    games: e.games,
    you: me != null && e.account === me,
  });
  const rows = (answer && Array.isArray(answer.top) ? answer.top : []).map(row);
  const you = answer && answer.you ? row({ ...answer.you, account: answer.you.account ?? me }) : null;
  if (you) you.you = true;
  const youBelow = !!you && !rows.some((r) => r.you);
  return { rows, you, youBelow };
}
