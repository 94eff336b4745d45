// The game screen's status block (whose turn, the last move, piece counts, rule alerts). A view
// only: it draws what a GameView and the controller's flags say.

import { h, clear } from '../dom.js';
import { t, seatName } from '../i18n.js';
import { describeRecentMoves, kingMustGoHome, nearDraws, outcomeText, seatLabel } from '../state.js';

export function createStatusView() {
  const statusLine = h('p', { class: 'status-line', 'data-testid': 'status-line', role: 'status' });
  const lastLine = h('p', { class: 'last-line', 'data-testid': 'last-move-text' });
  const counts = h('div', { class: 'counts', 'data-testid': 'counts' });
  const alerts = h('div', { class: 'alerts' });
  const el = h('div', { class: 'status' }, statusLine, lastLine, counts, alerts);

  function seatChip(view, seat, value, testid, shown = String(value)) {
    const kind = view.variant.kind;
    const s = view.seats.find((x) => x.seat === seat);
    const name = s ? s.name : String(seat + 1);
    return h('span', { class: `chip seat-${kind === 'capture' ? 'player' : name}` + (seat === view.to_move && !view.outcome ? ' to-move' : ''), 'data-testid': testid, 'data-seat': seat, 'data-value': value },
      h('span', { class: 'chip-dot', 'aria-hidden': 'true' }), h('span', { class: 'chip-name' }, seatName(name)), s && s.cpu ? h('small', { class: 'chip-cpu' }, 'CPU') : null, h('b', {}, shown));
  }

  /** @param {{thinking: boolean, hinting?: boolean, goalHint?: boolean}} flags `goalHint`: show the
   * Diamond goal line; `hinting`: a hint is being looked for. */
  function update(view, { thinking, hinting = false, goalHint = false }) {
    const kind = view.variant.kind;
    const toMoveName = seatLabel(view, view.to_move);
    let line;
    if (view.outcome) line = outcomeText(view);
    else if (thinking || view.cpu_to_move) line = t('status.thinking', { name: toMoveName });
    else if (hinting) line = t('status.hinting');
    else if (view.mode === 'cpu' || (view.mode === 'room' && view.human_seats.includes(view.to_move))) line = t('status.yourturn', { name: toMoveName });
    else line = t('status.turn', { name: toMoveName });
    statusLine.textContent = line;
    statusLine.classList.toggle('thinking', !view.outcome && (thinking || view.cpu_to_move));
    statusLine.dataset.thinking = String(!view.outcome && (thinking || view.cpu_to_move));
    // Every move since the player to act last moved (all the CPU replies in a 3-seat game).
    const recent = describeRecentMoves(view);
    lastLine.textContent = recent.length ? recent.join(' · ') : t('status.nomoves');
    clear(counts);
    if (kind === 'diamond') {
      counts.append(h('span', { class: 'counts-label' }, t('status.home')), ...view.seats.map((s) => seatChip(view, s.seat, s.stats.home ?? 0, 'count-home', `${s.stats.home ?? 0}/15`)));
    } else if (kind === 'capture') {
      counts.append(h('span', { class: 'counts-label' }, t('status.captures')), ...view.seats.map((s) => seatChip(view, s.seat, s.stats.captures ?? 0, 'count-captures')));
    } else {
      counts.append(h('span', { class: 'counts-label' }, t('status.pieces')), ...view.seats.map((s) => seatChip(view, s.seat, s.stats.pieces, 'count-pieces')));
    }
    clear(alerts);
    if (goalHint && !view.outcome) {
      alerts.append(h('p', { class: 'alert alert-goal', 'data-testid': 'goal-hint' }, t('status.goal')));
    }
    if (!view.outcome && kingMustGoHome(view, view.to_move) && view.human_seats.includes(view.to_move)) {
      alerts.append(h('p', { class: 'alert', 'data-testid': 'king-home' }, t('status.kingtohome')));
    }
    for (const d of nearDraws(view)) {
      alerts.append(h('p', { class: 'alert alert-draw', 'data-testid': 'draw-counter', 'data-reason': d.reason, 'data-plies': d.plies_left }, t('draw.' + d.reason, { n: d.plies_left })));
    }
  }

  return { el, update };
}
