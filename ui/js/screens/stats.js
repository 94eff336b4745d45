// Statistics against the CPU: per game and level, wins/draws/losses, streaks, games and average
// length, with a small chart of the latest results (stats-chart.js). Figures from `get_stats`.

import { api } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { topBar, gameIcon } from './common.js';
import { CHART, chartBars, winRate } from '../stats-chart.js';

function chart(row) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${CHART.width} ${CHART.height}`);
  svg.setAttribute('class', 'stats-chart');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('data-testid', 'stats-chart');
  svg.setAttribute('aria-label', t('stats.chart') + ': '
    + row.recent.map((r) => t('stats.short.' + r)).join(' '));
  const line = document.createElementNS(ns, 'line');
  for (const [k, v] of Object.entries({ x1: 0, x2: CHART.width, y1: CHART.height / 2, y2: CHART.height / 2, class: 'stats-mid' })) line.setAttribute(k, v);
  svg.append(line);
  for (const bar of chartBars(row.recent)) {
    const rect = document.createElementNS(ns, 'rect');
    for (const [k, v] of Object.entries({ x: bar.x, y: bar.y, width: bar.width, height: bar.height, rx: 1, class: 'stats-bar stats-' + bar.result, 'data-result': bar.result })) rect.setAttribute(k, v);
    svg.append(rect);
  }
  return svg;
}

export async function statsScreen(app) {
  let rows = [];
  try {
    rows = await api.getStats();
  } catch (e) {
    app.toast(app.errorText(e));
  }
  const el = h('section', { class: 'screen stats', 'data-testid': 'stats-screen' });
  el.append(topBar(app, t('stats.title')));
  const body = h('div', { class: 'scroll' });
  el.append(body);
  if (!rows.length) body.append(h('p', { class: 'hint', 'data-testid': 'stats-empty' }, t('stats.none')));
  for (const row of rows) {
    const figure = (key, value) => h('div', { class: 'stats-figure', 'data-key': key }, h('dt', {}, t('stats.' + key)), h('dd', {}, String(value)));
    body.append(h('article', { class: 'stats-row', 'data-testid': 'stats-row', 'data-game': row.kind, 'data-level': row.level },
      h('h2', {}, gameIcon(row.kind), h('span', {}, t('game.' + row.kind)), h('small', {}, t('level.' + row.level))),
      h('dl', { class: 'stats-figures' },
        figure('played', row.played),
        figure('wins', row.wins), figure('draws', row.draws), figure('losses', row.losses),
        figure('winrate', winRate(row) + ' %'),
        figure('streak', row.current_streak), figure('best', row.best_streak),
        figure('length', Math.round(row.average_plies))),
      chart(row)));
  }
  return { el, name: 'stats' };
}
