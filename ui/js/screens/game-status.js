// The game screen's status block (whose turn, the last move, piece counts, rule alerts) and the
// move list. Views only: they draw what a GameView and the controller's flags say.

import { h, clear } from '../dom.js';
import { t, seatName } from '../i18n.js';
import { describeMove, describeRecentMoves, kingMustGoHome, nearDraws, outcomeText, seatLabel } from '../state.js';

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

  /** @param {{thinking: boolean, goalHint?: boolean}} flags `goalHint`: show the Diamond goal line. */
  function update(view, { thinking, goalHint = false }) {
    const kind = view.variant.kind;
    const toMoveName = seatLabel(view, view.to_move);
    let line;
    if (view.outcome) line = outcomeText(view);
    else if (thinking || view.cpu_to_move) line = t('status.thinking', { name: toMoveName });
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

/** The move list, in words; rebuilt only when the history changes. */
export function createMoveListView({ open = false } = {}) {
  const list = h('ol', { class: 'move-list', 'data-testid': 'move-list' });
  const summary = h('summary', {});
  const el = h('details', { class: 'moves' }, summary, list);
  el.open = open;
  let listed = '';

  function update(view) {
    const sig = view.id + ':' + view.history.length + ':' + (view.history[view.history.length - 1]?.move.move || '');
    if (sig === listed) return;
    listed = sig;
    summary.textContent = t('status.moves', { n: view.history.length });
    clear(list);
    view.history.forEach((e, i) => {
      list.append(h('li', { 'data-testid': 'move-item', 'data-move': e.move.move, 'data-seat': e.seat, 'data-ply': i + 1 }, describeMove(view, e)));
    });
    list.scrollTop = list.scrollHeight;
  }

  return { el, update };
}
