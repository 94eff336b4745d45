// Headless derivations from a GameView (APP-CONTRACT.md): whose view the board shows, what the
// human may do now, how squares and moves are named in words. No DOM here, so it is testable.

import { choiceModeFor } from './moves.js';
import { t, tn, seatName, hasText } from './i18n.js';

export const DRAUGHTS = ['english', 'international', 'turkish'];
export const isDraughts = (kind) => DRAUGHTS.includes(kind);
export const isStar = (kind) => kind === 'diamond' || kind === 'capture';
/** A game seen from one player's seat: against the CPU, or a friends' room with a seat on this
 * device (a room's spectator sees it as on one device). */
export const ownSeatView = (view) => view.mode === 'cpu' || (view.mode === 'room' && view.human_seats.length > 0);

/** The seat whose eyes the board uses: the human vs the CPU; in a star game on one device, the
 * player to move; in draughts on one device, the first seat, or the player to move when the
 * "turn the board to the player" option is on. `flipped` (the flip button, draughts) turns a
 * two-seat board round on top of that. */
export function viewerSeat(view, { flipped = false, turnToPlayer = false } = {}) {
  let seat;
  if (ownSeatView(view)) seat = view.human_seats[0] ?? 0;
  else if (view.mode === 'room') seat = 0;
  else if (isStar(view.variant.kind) || turnToPlayer) seat = view.to_move;
  else seat = 0;
  return flipped && isDraughts(view.variant.kind) ? 1 - seat : seat;
}

/** Whether a human may act now. */
export function humanToMove(view) {
  return !view.outcome && !view.cpu_to_move && view.human_seats.includes(view.to_move);
}

export function playableMoves(view) {
  return humanToMove(view) ? view.legal_moves.filter((m) => !m.pass) : [];
}

export function passOnly(view) {
  return humanToMove(view) && view.legal_moves.length > 0 && view.legal_moves.every((m) => m.pass);
}

/** Context for the input reducer. `busy` is true while a move is being sent or animated. */
export function inputContext(view, busy = false) {
  const names = cellNamer(view);
  const moves = playableMoves(view);
  return {
    moves,
    mode: choiceModeFor(view.variant.kind),
    enabled: !busy && moves.length > 0,
    order: (cells) => [...cells].sort((a, b) => compareCells(names(a), names(b))),
  };
}

/** Pieces that must capture, as the engine says (draughts: they get a ring and only they are
 * selectable), while a human is to move. */
export function mustCapture(view) {
  return humanToMove(view) ? view.must_capture || [] : [];
}

function compareCells(a, b) {
  const na = a.match(/\d+/g)?.map(Number) || [];
  const nb = b.match(/\d+/g)?.map(Number) || [];
  for (let i = 0; i < Math.max(na.length, nb.length); i++) {
    if ((na[i] ?? -1) !== (nb[i] ?? -1)) return (na[i] ?? -1) - (nb[i] ?? -1);
  }
  return a.localeCompare(b);
}

/** Names a cell as the viewer sees it: star holes as "F10 P1" in the viewer's own F/P view. */
export function cellNamer(view, seat = viewerSeat(view)) {
  const byName = new Map(view.layout.cells.map((c) => [c.name, c]));
  return (name) => {
    const c = byName.get(name);
    const own = c && c.view_names && c.view_names[seat];
    return formatCell(own || name);
  };
}

export function formatCell(name) {
  const m = /^F(\d+)P(\d+)$/.exec(name);
  return m ? `F${m[1]} P${m[2]}` : name;
}

/** Row (F) of a hole in a seat's view, or null. */
export function rowOf(view, name, seat = viewerSeat(view)) {
  const c = view.layout.cells.find((x) => x.name === name);
  const own = c && c.view_names && c.view_names[seat];
  const m = own && /^F(\d+)P/.exec(own);
  return m ? Number(m[1]) : null;
}

export function seatLabel(view, seat) {
  const s = view.seats.find((x) => x.seat === seat);
  return seatName(s ? s.name : String(seat + 1));
}

/** The seat whose F/P names a move is written in. Against the CPU: the human's, as the board
 * shows it. On one device the board turns to each player, so a move is written in its mover's
 * own names (the seed's F/P are each player's own), which never change with the viewer. */
export function namingSeat(view, entry) {
  return ownSeatView(view) ? view.human_seats[0] ?? 0 : entry.seat;
}

/** The last move in words, e.g. "Amarillo mueve de F10 P1 a F10 P3 (1 salto)". */
export function describeMove(view, entry) {
  const name = seatLabel(view, entry.seat);
  const m = entry.move;
  if (m.pass) return t('move.pass', { name });
  const cell = cellNamer(view, isStar(view.variant.kind) ? namingSeat(view, entry) : viewerSeat(view));
  const p = { name, from: cell(m.from), to: cell(m.to) };
  // A chain that ends where it began is a loop: "from X to X" would read as no move at all.
  if (m.captures && m.captures.length) return tn(m.from === m.to ? 'move.loop' : 'move.captures', m.captures.length, p);
  if (isStar(view.variant.kind)) return m.jumps ? tn('move.jumps', m.jumps, p) : t('move.step', p);
  return t('move.plain', p);
}

/** The moves made since the player now to act last moved: against the CPU every move after the
 * human's last one (all the CPU replies), on one device the moves of the others since the player
 * to move last played. At least the last move; passes included (they are said, not drawn). */
export function movesSinceLastTurn(view) {
  const h = view.history;
  if (!h.length) return [];
  const mine = ownSeatView(view) ? new Set(view.human_seats) : new Set([view.to_move]);
  let start = h.length - 1;
  while (start > 0 && !mine.has(h[start - 1].seat)) start--;
  // A human who made the last move sees that move only.
  if (mine.has(h[h.length - 1].seat)) start = h.length - 1;
  return h.slice(start);
}

/** The moves to mark on the board: every move since your last turn (passes are not drawn). */
export function markedMoves(view) {
  return movesSinceLastTurn(view).filter((e) => !e.move.pass);
}

/** The last move(s) in words: every move since your last turn, in order. */
export function describeRecentMoves(view) {
  return movesSinceLastTurn(view).map((e) => describeMove(view, e));
}

/** Diamond: the seat's destination is full without its king on ◎, as the engine says. */
export function kingMustGoHome(view, seat) {
  return !!view.seats.find((s) => s.seat === seat)?.stats.king_must_go_home;
}

/**
 * Diamond: a seat's destination as it names the holes: the 15 holes of its destination point
 * (rows F14–F17 and the middle five of F13) and ◎, the destination apex (F17) where its king ends.
 */
export function destinationHoles(layout, seat) {
  let apex = null;
  const home = [];
  for (const c of layout.cells) {
    const m = c.view_names && /^F(\d+)P(\d+)$/.exec(c.view_names[seat] || '');
    if (!m) continue;
    const f = Number(m[1]), p = Number(m[2]);
    if (f >= 14 || (f === 13 && p >= 5 && p <= 9)) home.push(c.name);
    if (f === 17) apex = c.name;
  }
  return { home, apex };
}

/** [`destinationHoles`] of a view's layout. */
export function destinationOf(view, seat) {
  return destinationHoles(view.layout, seat);
}

/** Diamond: what the board marks as goals: ◎ on each playing seat's destination apex, and the
 * viewer's own destination holes (tinted). */
export function diamondGoals(view, viewer = viewerSeat(view)) {
  if (view.variant.kind !== 'diamond') return null;
  const apexes = view.seats.map((s) => ({ seat: s.seat, cell: destinationOf(view, s.seat).apex })).filter((a) => a.cell);
  return { apexes, home: destinationOf(view, viewer).home, viewer };
}

/** Draw counters worth showing: the ones within `near` plies of the limit. */
export function nearDraws(view, near = 20) {
  return (view.draw_counters || []).filter((d) => d.plies_left <= near);
}

/** Label of a destination button: "2 saltos · +3 filas", "captura 2", or the square's name. */
export function destinationLabel(view, dest, prefix) {
  const kind = view.variant.kind;
  const cell = cellNamer(view)(dest.cell);
  if (dest.stop) return t('act.stophere') + ' · ' + cell;
  const parts = [cell];
  if (isStar(kind)) {
    const jumps = kind === 'diamond' ? dest.jumps : dest.path.length - prefix.length;
    parts.push(jumps === 0 ? t('panel.step') : tn('panel.jumps', jumps));
    if (kind === 'diamond') {
      const a = rowOf(view, prefix[prefix.length - 1]);
      const b = rowOf(view, dest.cell);
      if (a != null && b != null) {
        const d = b - a;
        parts.push(d === 0 ? t('panel.rows.zero') : t('panel.rows', { sign: d > 0 ? '+' : '−', n: Math.abs(d) }));
      }
    }
  }
  // In the capture game every jump takes one piece, so the jump count already says it.
  if (dest.captures.length && kind !== 'capture') parts.push(tn('panel.captures', dest.captures.length));
  return parts.join(' · ');
}

/** Whose side a result is told from: `won` / `lost` for the human against the CPU, `neutral` on
 * one device (the winner is named) and for draws. */
export function resultSide(view) {
  const o = view.outcome;
  if (!o || o.winner == null || !ownSeatView(view)) return 'neutral';
  return view.human_seats.includes(o.winner) ? 'won' : 'lost';
}

/** Outcome headline from the player's side: "¡Has ganado!", "Has perdido", "Gana Rojo", "Tablas". */
export function outcomeText(view) {
  const o = view.outcome;
  if (!o) return null;
  if (o.reason === 'aborted') return t('result.aborted');
  if (o.winner == null) return t('result.draw');
  const side = resultSide(view);
  if (side === 'won') return t('result.youwin');
  if (side === 'lost') return view.variant.players > 2 ? t('result.youlose.named', { name: seatLabel(view, o.winner) }) : t('result.youlose');
  return t('result.win', { name: seatLabel(view, o.winner) });
}

/** Why the game ended, from the same side as `outcomeText`. */
export function outcomeReason(view) {
  const o = view.outcome;
  if (!o) return null;
  const side = resultSide(view);
  const winner = o.winner == null ? '' : seatLabel(view, o.winner);
  // The seat that lost with two seats; with no move left, the one to move.
  const loserSeat = o.reason === 'no_legal_moves' ? view.to_move : view.seats.length === 2 && o.winner != null ? 1 - o.winner : null;
  const loser = loserSeat == null ? '' : seatLabel(view, loserSeat);
  const key = `reason.${o.reason}`;
  const own = side !== 'neutral' ? `${key}.${side}` : loser ? `${key}.named` : null;
  return t(own && hasText(own) ? own : key, { winner, loser });
}

/**
 * What the result dialog says about candies, from `get_candies` asked right after the game was
 * recorded: what the game just finished gave and, when the day's budget stopped it, that the
 * budget is used up. Null when the game gives none by the rules (too short, lost to the CPU).
 */
export function candiesNote(candies) {
  if (!candies || !(candies.last_due > 0)) return null;
  const earned = candies.last_earned || 0;
  if (earned === 0) return t('result.candies.none', { budget: candies.budget });
  const won = t('result.candies', { n: earned });
  return candies.today >= candies.budget ? won + ' ' + t('result.candies.full', { budget: candies.budget }) : won;
}

const START_PIECES = { english: 12, international: 20, turkish: 16 };

/** "12:05" or "1:02:03": the game's length from its creation to its last move. */
export function formatDuration(ms) {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600), m = Math.floor((total % 3600) / 60), sec = total % 60;
  const two = (n) => String(n).padStart(2, '0');
  return h ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** A few figures for the result dialog: moves, captures (or pieces home in Diamond) per seat, time. */
export function resultFigures(view) {
  const kind = view.variant.kind;
  const name = (seat) => (ownSeatView(view) && view.human_seats.includes(seat) ? t('result.you') : seatLabel(view, seat));
  const perSeat = (value) => view.seats.map((s) => `${name(s.seat)} ${value(s)}`).join(' · ');
  const figures = [{ key: 'moves', label: t('result.fig.moves'), value: String(view.history.filter((e) => !e.move.pass).length) }];
  if (isDraughts(kind)) {
    const start = START_PIECES[kind];
    const left = (seat) => view.seats.find((s) => s.seat === seat)?.stats.pieces ?? start;
    figures.push({ key: 'captures', label: t('result.fig.captures'), value: perSeat((s) => start - left(1 - s.seat)) });
  } else if (kind === 'capture') {
    figures.push({ key: 'captures', label: t('result.fig.captures'), value: perSeat((s) => s.stats.captures ?? 0) });
  } else if (kind === 'diamond') {
    figures.push({ key: 'home', label: t('result.fig.home'), value: perSeat((s) => `${s.stats.home ?? 0}/15`) });
  }
  if (view.created && view.last_played >= view.created) {
    figures.push({ key: 'time', label: t('result.fig.time'), value: formatDuration(view.last_played - view.created) });
  }
  return figures;
}
