// Review, pure: the move list in the game's notation and which position is shown. The shown ply
// is `null` for the live game, or N for the position after the first N moves (read-only).

/**
 * The move list in rows of one round each: "1. 11-15 23-19" for draughts, one F/P move per seat
 * for the star games. A game started with another seat to move opens with empty cells ("1. … 28-32").
 * `text(entry, index)` writes a move (default: its notation).
 * @returns {{number: number, cells: ({ply: number, seat: number, text: string}|null)[]}[]}
 */
export function moveRows(history, players, text = (entry) => entry.move.move) {
  const rows = [];
  let row = null;
  history.forEach((entry, index) => {
    if (!row || entry.seat <= row.lastSeat) {
      row = { number: rows.length + 1, cells: Array(row ? 0 : Math.min(entry.seat, players - 1)).fill(null), lastSeat: -1 };
      rows.push(row);
    }
    row.cells.push({ ply: index + 1, seat: entry.seat, text: text(entry, index) });
    row.lastSeat = entry.seat;
  });
  return rows.map(({ number, cells }) => ({ number, cells }));
}

/**
 * The next shown ply: `{type: 'go', ply}` (tap a move: the position after it), `first` (the
 * start), `prev`, `next`, `live`. `total` is the number of moves played. Reaching the last move
 * is the live game again: the same position, and playable.
 * @param {number|null} shown
 * @returns {number|null}
 */
export function reviewStep(shown, action, total) {
  const live = null;
  const clamp = (ply) => (ply >= total ? live : Math.max(0, ply));
  switch (action.type) {
    case 'go': return Number.isInteger(action.ply) ? clamp(action.ply) : shown;
    case 'first': return total > 0 ? 0 : live;
    case 'prev': return total === 0 ? live : Math.max(0, (shown ?? total) - 1);
    case 'next': return shown == null ? live : clamp(shown + 1);
    case 'live': return live;
    default: return shown;
  }
}

/** What the review controls may do now. */
export function reviewControls(shown, total) {
  return {
    reviewing: shown != null,
    canBack: total > 0 && shown !== 0,
    canForward: shown != null,
  };
}
