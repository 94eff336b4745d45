// The profile (#/profile): the signed-in player's rating in each game (`?` while provisional),
// their record and place, a small chart of the rating after each rated game (the statistics
// chart's style), and the last rated games — each opens in review from its record (PDN) where
// this device has an engine to replay it (the app), else its record opens as text (a browser).

import { h } from '../dom.js';
import { t, language } from '../i18n.js';
import { api, accounts, knownFeatures } from '../api.js';
import { accountState } from '../account.js';
import { RATING_KINDS, profileModel, historyLine, HISTORY_CHART } from '../account-views.js';
import { topBar, gameIcon, relativeTime } from './common.js';

const RECENT = 10;

function historyChart(row) {
  const line = historyLine(row.points);
  if (!line) return null;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${HISTORY_CHART.width} ${HISTORY_CHART.height}`);
  svg.setAttribute('class', 'stats-chart rating-chart');
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute('data-testid', 'rating-chart');
  svg.setAttribute('aria-label', t('profile.chart', { list: row.points.map((p) => Math.round(p)).join(', ') }));
  const path = document.createElementNS(ns, 'path');
  path.setAttribute('d', line.path);
  path.setAttribute('class', 'rating-line');
  path.setAttribute('vector-effect', 'non-scaling-stroke');
  svg.append(path);
  return svg;
}

/** Opens a rated game in review, imported from its PDN (where the backend can review). */
async function openGame(app, game) {
  try {
    const pdn = await accounts.gamePdn(game.id);
    const view = await api.importGame(pdn, { mode: 'local' });
    app.pendingView = view;
    app.go('#/game/' + view.id + '?review=0');
  } catch (e) {
    app.toast(app.errorText(e));
  }
}

export async function profileScreen(app) {
  const el = h('section', { class: 'screen profile', 'data-testid': 'profile-screen' });
  el.append(topBar(app, t('profile.title')));
  const body = h('div', { class: 'scroll' });
  el.append(body);
  const session = accountState.get();
  if (!session) {
    body.append(h('p', { class: 'hint', 'data-testid': 'profile-guest' }, t('profile.guest')),
      h('a', { class: 'btn btn-primary', href: '#/settings', 'data-testid': 'profile-sign-in' }, t('account.signin')));
    return { el, name: 'profile' };
  }
  let me;
  let games;
  const histories = {};
  try {
    [me, games] = await Promise.all([accounts.ratings(session.token), accounts.games(session.token, RECENT)]);
    await Promise.all(RATING_KINDS.filter((k) => me.ratings.some((r) => r.kind === k && r.games > 0)).map(async (k) => {
      histories[k] = await accounts.history(session.token, k);
    }));
  } catch (e) {
    if (e.code === 'not_signed_in') accountState.clear();
    body.append(h('p', { class: 'hint', 'data-testid': 'profile-error' }, app.errorText(e)));
    return { el, name: 'profile' };
  }
  const model = profileModel(me, games, histories, language());
  if (me.account) accountState.set(session.token, { id: me.account.id, display_name: me.account.display_name });
  body.append(h('p', { class: 'profile-name', 'data-testid': 'profile-name' }, model.name));
  const list = h('ul', { class: 'profile-ratings', 'data-testid': 'profile-ratings' });
  for (const row of model.rows) {
    const title = t('game.' + row.game);
    list.append(h('li', {
      class: 'stats-row profile-row', 'data-testid': 'profile-rating', 'data-kind': row.kind,
      'data-rating': Math.round(row.rating), 'data-provisional': String(row.provisional), 'data-games': row.games,
    },
    h('h2', {}, gameIcon(row.game), h('span', {}, title),
      h('strong', { class: 'profile-elo', 'aria-label': t('profile.rating') + ': ' + row.text }, row.text)),
    h('p', { class: 'profile-figures' },
      [t('profile.games', { n: row.games }),
        row.games ? t('profile.record', { w: row.wins, d: row.draws, l: row.losses }) : null,
        row.place != null ? t('profile.place', { place: row.place }) : null].filter(Boolean).join(' · '),
      ' ', h('a', { href: '#/ranking/' + row.kind, class: 'profile-ranking', 'aria-label': t('ranking.title') + ': ' + title }, t('ranking.title'))),
    historyChart(row)));
  }
  body.append(list);
  if (model.rows.some((r) => r.provisional)) body.append(h('p', { class: 'hint' }, t('profile.provisional')));
  body.append(h('h2', { class: 'section-title' }, t('profile.recent')));
  const recent = h('ul', { class: 'saved-list', 'data-testid': 'profile-games' });
  if (!model.recent.length) recent.append(h('li', { class: 'empty' }, t('profile.norecent')));
  for (const g of model.recent) {
    recent.append(h('li', { class: 'saved-row', 'data-testid': 'profile-game', 'data-id': g.id, 'data-result': g.result },
      gameIcon(g.game),
      h('div', { class: 'saved-info' },
        h('strong', {}, t('game.' + g.game)),
        h('span', {}, [t('profile.vs', { name: g.opponent }), t('profile.result.' + g.result)].join(' · ')),
        h('span', { 'data-testid': 'profile-game-change' }, `${Math.round(g.before)} → ${Math.round(g.after)}, ${g.change}`),
        h('span', {}, relativeTime(g.finished_ms))),
      h('div', { class: 'saved-actions' },
        // A browser has no engine to replay it: the record itself opens (to read or save).
        knownFeatures().review
          ? h('button', { type: 'button', class: 'btn', 'data-testid': 'profile-game-open', 'aria-label': t('profile.open') + ': ' + t('profile.vs', { name: g.opponent }), onclick: () => openGame(app, g) }, t('profile.open'))
          : h('a', { class: 'btn', href: `/api/games/${encodeURIComponent(g.id)}/pdn`, target: '_blank', rel: 'noopener', 'data-testid': 'profile-game-pdn', 'aria-label': t('profile.pdn') + ': ' + t('profile.vs', { name: g.opponent }) }, t('profile.pdn')))));
  }
  body.append(recent);
  return { el, name: 'profile' };
}
