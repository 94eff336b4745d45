// Pieces shared by screens: the top bar and game icons.

import { h } from '../dom.js';
import { t } from '../i18n.js';

export const GAMES = ['diamond', 'capture', 'english', 'international', 'turkish'];

/** The top bar. `back` is a hash, or `{href, onBack}` when "‹" should step back in history
 * (an overlay returning to the game under it). */
export function topBar(app, title, { back = '#/', extra = [] } = {}) {
  const href = back && typeof back === 'object' ? back.href : back;
  const onBack = back && typeof back === 'object' ? back.onBack : null;
  return h('header', { class: 'topbar' },
    back ? h('a', {
      class: 'icon-btn', href, 'aria-label': t('nav.back'), 'data-testid': 'nav-back',
      onclick: onBack ? (e) => { e.preventDefault(); onBack(); } : null,
    }, h('span', { 'aria-hidden': 'true' }, '‹')) : h('span', { class: 'brand', 'aria-hidden': 'true' }, '◎'),
    h('h1', { tabindex: '-1' }, title),
    ...extra,
    h('a', { class: 'icon-btn', href: '#/settings', 'aria-label': t('nav.settings'), 'data-testid': 'nav-settings' }, h('span', { 'aria-hidden': 'true' }, '⚙')),
  );
}

/** A small picture of each game for the home cards. */
export function gameIcon(kind) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 64 64');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('game-icon');
  const add = (name, attrs) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    svg.appendChild(e);
    return e;
  };
  if (kind === 'diamond' || kind === 'capture') {
    const tri = (rot) => add('polygon', { points: '32,4 56,46 8,46', class: 'icon-star', transform: `rotate(${rot} 32 32)` });
    tri(0); tri(180);
    const dots = kind === 'diamond'
      ? [[32, 12, 'red'], [26, 48, 'yellow'], [38, 48, 'green'], [32, 32, 'red']]
      : [[26, 28, 'neutral'], [38, 28, 'neutral'], [32, 38, 'neutral'], [20, 38, 'neutral'], [44, 38, 'neutral']];
    for (const [x, y, c] of dots) add('circle', { cx: x, cy: y, r: 5, class: 'icon-piece icon-' + c });
  } else {
    const n = kind === 'international' ? 5 : 4;
    const s = 56 / n;
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
      add('rect', { x: 4 + i * s, y: 4 + j * s, width: s, height: s, class: (kind === 'turkish' || (i + j) % 2) ? 'icon-dark' : 'icon-light' });
    }
    add('circle', { cx: 4 + s * 1.5, cy: 4 + s * 0.5, r: s * 0.36, class: 'icon-piece icon-black' });
    add('circle', { cx: 4 + s * 0.5, cy: 4 + s * (n - 0.5), r: s * 0.36, class: 'icon-piece icon-white' });
  }
  return svg;
}
