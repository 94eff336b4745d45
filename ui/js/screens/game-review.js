// The game screen's review: the move list in the game's notation (a button per move), the step
// buttons under the board and the banner that marks a past position as read-only. Views only:
// the navigation is review.js's, the positions come from the backend (`view_at`).

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { moveRows, reviewControls } from '../review.js';
import { describeMove, namingSeat, isStar } from '../state.js';
import { recordRows } from '../game-record.js';

/** A move as the list writes it: the draughts notation, or the F/P move in its mover's names. */
export function moveNotation(view, entry) {
  const m = entry.move;
  if (m.pass) return t('act.pass');
  if (!isStar(view.variant.kind)) return m.move;
  const seat = namingSeat(view, entry);
  const byName = new Map(view.layout.cells.map((c) => [c.name, c]));
  return m.move.replace(/F\d+P\d+/g, (name) => byName.get(name)?.view_names?.[seat] || name);
}

/**
 * @param {{open?: boolean, go: (ply: number) => void}} opts `go(ply)`: show the position after
 *   `ply` moves.
 */
export function createMoveListView({ open = false, go }) {
  const list = h('ol', { class: 'move-list', 'data-testid': 'move-list' });
  const summary = h('summary', {});
  // An imported game's details (event, site, date, players), above its moves.
  const record = h('dl', { class: 'game-record', 'data-testid': 'game-record', 'aria-label': t('record.title'), hidden: true });
  const el = h('details', { class: 'moves' }, summary, record, list);
  let recorded = null;
  el.open = open;
  let listed = '';

  /** @param {number|null} shown the reviewed ply, or null for the live game */
  function update(view, shown) {
    if (view.tags !== recorded) {
      recorded = view.tags;
      const rows = recordRows(view.tags);
      clear(record);
      for (const row of rows) record.append(h('div', {}, h('dt', {}, row.label), h('dd', {}, row.value)));
      record.hidden = !rows.length;
    }
    const sig = view.id + ':' + view.history.length + ':' + (view.history[view.history.length - 1]?.move.move || '');
    if (sig !== listed) {
      listed = sig;
      summary.textContent = t('status.moves', { n: view.history.length });
      clear(list);
      for (const row of moveRows(view.history, view.variant.players, (e) => moveNotation(view, e))) {
        list.append(h('li', { class: 'move-row', value: row.number },
          row.cells.map((c) => (c
            ? h('button', {
              type: 'button', class: 'move-item', 'data-testid': 'move-item', 'data-ply': c.ply, 'data-seat': c.seat,
              'data-move': view.history[c.ply - 1].move.move, 'aria-label': describeMove(view, view.history[c.ply - 1]),
              onclick: () => go(c.ply),
            }, c.text)
            : h('span', { class: 'move-item move-gap', 'aria-hidden': 'true' }, '…')))));
      }
      list.scrollTop = list.scrollHeight;
    }
    const current = shown ?? view.history.length;
    for (const b of list.querySelectorAll('button[data-ply]')) {
      const on = Number(b.dataset.ply) === current;
      b.classList.toggle('on', on);
      if (on) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
    if (shown != null) list.querySelector('button.on')?.scrollIntoView?.({ block: 'nearest' });
  }

  return { el, update };
}

/**
 * The step buttons (start, back, forward, live) and the read-only banner.
 * @param {{step: (type: string) => void}} opts
 */
export function createReviewBar({ step }) {
  const btn = (type, icon, label) => h('button', {
    type: 'button', class: 'icon-btn review-btn', 'data-testid': 'review-' + type, 'aria-label': label, title: label, onclick: () => step(type),
  }, h('span', { 'aria-hidden': 'true' }, icon));
  const first = btn('first', '«', t('review.first'));
  const prev = btn('prev', '◀', t('review.prev'));
  const next = btn('next', '▶', t('review.next'));
  const live = h('button', { type: 'button', class: 'btn review-live', 'data-testid': 'review-live', onclick: () => step('live') }, t('review.live'));
  const el = h('nav', { class: 'review-bar', 'aria-label': t('review.nav'), 'data-testid': 'review-bar' }, first, prev, next, live);
  const banner = h('p', { class: 'review-banner', 'data-testid': 'review-banner', role: 'status', hidden: true });

  function update(total, shown) {
    const c = reviewControls(shown, total);
    first.disabled = !c.canBack;
    prev.disabled = !c.canBack;
    next.disabled = !c.canForward;
    live.hidden = !c.reviewing;
    banner.hidden = !c.reviewing;
    banner.textContent = c.reviewing ? t('review.banner', { ply: shown, total }) : '';
    el.dataset.reviewing = String(c.reviewing);
  }

  return { el, banner, update };
}
