// Headless derivations from a GameView (APP-CONTRACT.md): whose view the board shows, what the
// human may do now, how squares and moves are named in words. No DOM here, so it is testable.

import { choiceModeFor } from './moves.js';
import { t, tn, seatName } from './i18n.js';

export const DRAUGHTS = ['english', 'international', 'turkish'];
export const isDraughts = (kind) => DRAUGHTS.includes(kind);
export const isStar = (kind) => kind === 'diamond' || kind === 'capture';

/** The seat whose eyes the board uses: the human vs the CPU; in a star game on one device, the
 * player to move; in draughts on one device, the first seat (the board stays put). */
export function viewerSeat(view) {
  if (view.mode === 'cpu') return view.human_seats[0] ?? 0;
  if (isStar(view.variant.kind)) return view.to_move;
  return 0;
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

/** The last move in words, e.g. "Amarillo mueve de F10 P1 a F10 P3 (1 salto)". */
export function describeMove(view, entry) {
  const name = seatLabel(view, entry.seat);
  const m = entry.move;
  if (m.pass) return t('move.pass', { name });
  const cell = cellNamer(view);
  const p = { name, from: cell(m.from), to: cell(m.to) };
  if (m.captures && m.captures.length) return tn('move.captures', m.captures.length, p);
  if (isStar(view.variant.kind)) return m.jumps ? tn('move.jumps', m.jumps, p) : t('move.step', p);
  return t('move.plain', p);
}

/** The moves to mark on the board: the last one, or the last two with three players. */
export function markedMoves(view) {
  const n = view.variant.players >= 3 ? 2 : 1;
  return view.history.slice(-n).filter((e) => !e.move.pass);
}

/** Diamond: the seat's destination is full without its king on ◎, as the engine says. */
export function kingMustGoHome(view, seat) {
  return !!view.seats.find((s) => s.seat === seat)?.stats.king_must_go_home;
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
        parts.push(d === 0 ? t('panel.rows.zero') : d === 1 ? t('panel.rows.one') : t('panel.rows.other', { sign: d > 0 ? '+' : '−', n: Math.abs(d) }));
      }
    }
  }
  // In the capture game every jump takes one piece, so the jump count already says it.
  if (dest.captures.length && kind !== 'capture') parts.push(tn('panel.captures', dest.captures.length));
  return parts.join(' · ');
}

/** Outcome text from the viewer's side. */
export function outcomeText(view) {
  const o = view.outcome;
  if (!o) return null;
  if (o.winner == null) return t('result.draw');
  if (view.mode === 'cpu' && view.human_seats.includes(o.winner)) return t('result.youwin');
  return t('result.win', { name: seatLabel(view, o.winner) });
}
