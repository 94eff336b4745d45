// Rules, tips and FAQ of one game, in the current language.

import { h } from '../dom.js';
import { t, language } from '../i18n.js';
import { CONTENT } from '../content.js';
import { topBar, GAMES } from './common.js';
import { api } from '../api.js';
import { createBoard } from '../render.js';
import { boardModel, geometryCache } from '../board-model.js';
import { initialInput } from '../input.js';
import { DIAGRAMS } from '../diagrams.js';

/** The rules' diagrams of a game (diagrams.js), each drawn by the board renderer from the
 * backend's view of its position and moves; a diagram the backend refuses is left out. */
async function diagramsSection(kind) {
  const list = DIAGRAMS.games[kind] || [];
  const geometryFor = geometryCache();
  const figures = await Promise.all(list.map(async (d) => {
    const setup = { variant: { kind, players: d.players }, mode: 'local', position: d.position };
    let view;
    try {
      view = await api.diagram(setup, d.moves);
    } catch {
      return null;
    }
    const caption = d.caption[language()] || d.caption.en;
    const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.classList.add('board', 'diagram-board');
    const board = createBoard(svg, { label: caption });
    const model = boardModel(view, initialInput(), { busy: true, seat: 0, geometryFor });
    board.update(model);
    const vb = model.geometry.viewBox;
    return h('figure', { class: 'diagram', 'data-testid': 'rules-diagram', style: `--ar: ${(vb.w / vb.h).toFixed(4)}` },
      h('div', { class: 'diagram-wrap' }, svg), h('figcaption', {}, caption));
  }));
  const shown = figures.filter(Boolean);
  return shown.length ? [h('h3', {}, t('rules.diagrams')), h('div', { class: 'diagrams' }, shown)] : [];
}

export function renderText(lines) {
  const out = [];
  let list = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.startsWith('- ')) {
      if (!list) { list = h('ul'); out.push(list); }
      list.append(h('li', {}, line.slice(2)));
      continue;
    }
    list = null;
    if (line.startsWith('## ')) out.push(h('h3', {}, line.slice(3)));
    else if (line.startsWith('Q: ')) {
      out.push(h('details', { open: true }, h('summary', {}, line.slice(3)), h('p', {}, lines[i + 1] || '')));
      i++;
    } else out.push(h('p', {}, line));
  }
  return out;
}

/** `back`: where "‹" goes (the setup screen of the game, or the game under an overlay). */
export function rulesScreen(app, kind, tab = 'rules', back = null) {
  if (!GAMES.includes(kind)) kind = 'diamond';
  if (!['rules', 'tips', 'faq'].includes(tab)) tab = 'rules';
  const el = h('section', { class: 'screen rules', 'data-testid': 'rules-screen', 'data-game': kind });
  el.append(topBar(app, t('game.' + kind), { back: back || '#/setup/' + kind }));
  const tabs = h('nav', { class: 'tabs', role: 'tablist' });
  const body = h('article', { class: 'scroll prose', role: 'tabpanel', 'data-testid': 'rules-body' });
  let shownCount = 0;
  const show = (name) => {
    tab = name;
    for (const b of tabs.children) b.setAttribute('aria-selected', String(b.dataset.tab === name));
    body.replaceChildren(...renderText(CONTENT[language()][kind][name]));
    const shownNow = ++shownCount;
    if (name === 'rules') {
      diagramsSection(kind).then((parts) => { if (shownNow === shownCount) body.append(...parts); });
    }
  };
  for (const name of ['rules', 'tips', 'faq']) {
    tabs.append(h('button', { type: 'button', role: 'tab', class: 'tab', 'data-tab': name, 'data-testid': 'tab-' + name, onclick: () => show(name) }, t('rules.tab.' + name)));
  }
  el.append(tabs, body);
  show(tab);
  return { el, name: 'rules' };
}
