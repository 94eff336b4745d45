// Rules, tips and FAQ of one game, in the current language.

import { h } from '../dom.js';
import { t, language } from '../i18n.js';
import { CONTENT } from '../content.js';
import { topBar, GAMES } from './common.js';

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
  const show = (name) => {
    tab = name;
    for (const b of tabs.children) b.setAttribute('aria-selected', String(b.dataset.tab === name));
    body.replaceChildren(...renderText(CONTENT[language()][kind][name]));
  };
  for (const name of ['rules', 'tips', 'faq']) {
    tabs.append(h('button', { type: 'button', role: 'tab', class: 'tab', 'data-tab': name, 'data-testid': 'tab-' + name, onclick: () => show(name) }, t('rules.tab.' + name)));
  }
  el.append(tabs, body);
  show(tab);
  return { el, name: 'rules' };
}
