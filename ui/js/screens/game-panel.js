// The button panel: the keyboard's and screen reader's way to play (F/P names, arrows, Enter,
// Escape). A view only: it draws the input reducer's panel items and sends actions back.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { panelItems, currentPrefix } from '../input.js';
import { mustCapture, cellNamer, destinationLabel, outcomeText, passOnly, humanToMove } from '../state.js';

const KEYS = ['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Escape', 'Enter', ' '];

/**
 * @param {{dispatch: function, pass: function, showResult: function, currentInput: function}} actions
 *   `dispatch` takes input reducer actions; `currentInput()` is the input state at the time of an event.
 */
export function createPanelView({ dispatch, pass, showResult, currentInput }) {
  const title = h('h2', { class: 'panel-title', id: 'panel-title' });
  const list = h('div', { class: 'panel-list', role: 'group', 'aria-labelledby': 'panel-title' });
  const el = h('div', { class: 'panel', 'data-testid': 'panel' }, title, list);
  el.tabIndex = -1;
  el.addEventListener('keydown', (e) => {
    if (KEYS.includes(e.key)) {
      if ((e.key === 'Enter' || e.key === ' ') && !e.target.closest('.panel-buttons')) return;
      e.preventDefault();
      dispatch({ type: 'key', key: e.key });
    }
  });

  /** @param {object} ctx the input reducer's context; `busy` disables the pass button. */
  function update(view, input, ctx, { busy }) {
    const hadFocus = el.contains(document.activeElement);
    const items = panelItems(input, ctx);
    const name = cellNamer(view);
    clear(list);
    const choosingDest = input.phase === 'selected' || input.phase === 'previewing';
    title.textContent = view.outcome ? t('panel.over')
      : passOnly(view) ? t('status.mustpass')
      : !humanToMove(view) ? t('panel.wait')
      : choosingDest ? t('panel.dests') : t('panel.pieces');
    if (view.outcome) {
      list.append(h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'panel-rematch', onclick: () => showResult() }, outcomeText(view)));
    }
    if (passOnly(view)) {
      list.append(h('button', { type: 'button', class: 'btn btn-pass', 'data-testid': 'pass', onclick: () => pass(), disabled: busy }, t('act.pass')));
    }
    if (!choosingDest && input.phase === 'idle' && mustCapture(view).length) {
      list.append(h('p', { class: 'hint' }, t('panel.mustcapture')));
    }
    const prefix = currentPrefix(input);
    if (prefix.length > 1) list.append(h('p', { class: 'hint', 'data-testid': 'panel-continue' }, t('panel.continue', { cell: name(prefix[prefix.length - 1]) })));
    const focus = Math.min(input.focus, items.length - 1);
    const buttons = h('div', { class: 'panel-buttons' + (choosingDest ? ' dests' : ' pieces') });
    items.forEach((it, i) => {
      let label;
      let testid;
      if (it.kind === 'piece') {
        const p = view.pieces.find((x) => x.cell === it.cell);
        label = name(it.cell) + (p && p.king ? ' · ' + t('panel.king') : '');
        testid = 'panel-piece';
      } else {
        label = destinationLabel(view, it.dest, prefix);
        testid = 'panel-dest';
      }
      const isKing = it.kind === 'piece' && view.pieces.find((x) => x.cell === it.cell)?.king;
      const b = h('button', {
        type: 'button',
        class: 'pbtn' + (isKing ? ' pbtn-king' : '') + (input.preview === it.cell && it.kind === 'dest' ? ' on' : '') + (it.dest && it.dest.stop ? ' pbtn-stop' : ''),
        tabindex: i === focus ? '0' : '-1',
        'data-testid': testid,
        'data-cell': it.cell,
        'data-index': i,
        'aria-label': label,
        onclick: () => dispatch({ type: 'panel', index: i }),
        onfocus: () => { if (currentInput().focus !== i && it.kind === 'dest') dispatch({ type: 'key', key: '__focus', index: i }); },
      }, isKing ? h('span', { class: 'crown-mark', 'aria-hidden': 'true' }, '♛') : null, label);
      buttons.append(b);
    });
    list.append(buttons);
    if (choosingDest) {
      list.append(h('button', { type: 'button', class: 'pbtn pbtn-back', 'data-testid': 'panel-back', onclick: () => dispatch({ type: 'key', key: 'Escape' }) }, '‹ ' + t('act.back')));
    }
    if (hadFocus) {
      const target = buttons.children[focus] || list.querySelector('button');
      if (target) target.focus({ preventScroll: true });
      else el.focus?.();
    }
  }

  return { el, update };
}
