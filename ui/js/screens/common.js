// Pieces shared by screens: the top bar and game icons.

import { h } from '../dom.js';
import { t, language } from '../i18n.js';
import { makeGeometry } from '../geometry.js';
import { viewerSeat } from '../state.js';

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

/** A small picture of a game's position (home screen rows), as its player sees the board. */
export function miniBoard(view) {
  const ns = 'http://www.w3.org/2000/svg';
  const g = makeGeometry(view.layout, { viewer: viewerSeat(view) });
  const svg = document.createElementNS(ns, 'svg');
  const vb = g.viewBox;
  const pad = g.unit * 0.6;
  svg.setAttribute('viewBox', `${vb.x - pad} ${vb.y - pad} ${vb.w + 2 * pad} ${vb.h + 2 * pad}`);
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('game-icon', 'mini-board');
  svg.dataset.testid = 'mini-board';
  const add = (name, attrs) => {
    const e = document.createElementNS(ns, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    svg.appendChild(e);
    return e;
  };
  const grid = g.family === 'grid';
  add('rect', { x: vb.x - pad, y: vb.y - pad, width: vb.w + 2 * pad, height: vb.h + 2 * pad, rx: g.unit * 0.5, class: grid ? 'icon-light' : 'icon-star' });
  for (const c of view.layout.cells) {
    const p = g.toSvg(c.name);
    if (grid) add('rect', { x: p.x - g.unit / 2, y: p.y - g.unit / 2, width: g.unit, height: g.unit, class: 'icon-dark' });
    else add('circle', { cx: p.x, cy: p.y, r: g.unit * 0.16, class: 'icon-hole' });
  }
  const names = view.seats.map((x) => (view.variant.kind === 'capture' ? 'neutral' : x.name));
  for (const piece of view.pieces) {
    const p = g.toSvg(piece.cell);
    add('circle', { cx: p.x, cy: p.y, r: g.pieceRadius * (grid ? 1 : 1.15), class: 'icon-piece icon-' + (piece.seat == null ? 'neutral' : names[piece.seat]) + (piece.king ? ' icon-king' : '') });
  }
  return svg;
}

const UNITS = [['year', 31536e6], ['month', 2592e6], ['week', 6048e5], ['day', 864e5], ['hour', 36e5], ['minute', 6e4]];
/** "hace 5 minutos" / "5 minutes ago" (`now` for tests). */
export function relativeTime(ms, now = Date.now(), lang = language()) {
  const rtf = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  const diff = ms - now;
  for (const [unit, size] of UNITS) {
    if (Math.abs(diff) >= size) return rtf.format(Math.round(diff / size), unit);
  }
  return rtf.format(0, 'minute');
}
