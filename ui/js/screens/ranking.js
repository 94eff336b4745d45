// The ranking of one game (#/ranking/<game>): the top players with their place, rating (`?` while
// provisional) and games, the player's own row marked, or shown under the top when outside it.
// A list of rows rather than a table, so it reads on a phone.

import { h } from '../dom.js';
import { t, language } from '../i18n.js';
import { accounts } from '../api.js';
import { accountState } from '../account.js';
import { RATING_KINDS, gameOfKind, rankingModel } from '../account-views.js';
import { topBar, gameIcon } from './common.js';

const TOP = 50;

function row(r, testid) {
  return h('li', {
    class: 'rank-row' + (r.you ? ' rank-you' : ''), 'data-testid': testid, 'data-place': r.place, 'data-account': r.account,
    'data-rating': Math.round(r.rating), 'data-provisional': String(r.provisional),
    'aria-current': r.you ? 'true' : null,
  },
  h('span', { class: 'rank-place', 'aria-label': t('ranking.place') }, String(r.place)),
  h('span', { class: 'rank-name' }, r.name, r.you ? h('small', {}, ' · ' + t('ranking.you')) : null),
  h('span', { class: 'rank-rating', 'aria-label': t('ranking.rating') }, r.text),
  h('span', { class: 'rank-games' }, t('ranking.games', { n: r.games })));
}

export async function rankingScreen(app, kind) {
  if (!RATING_KINDS.includes(kind)) kind = 'english';
  const session = accountState.get();
  const el = h('section', { class: 'screen ranking', 'data-testid': 'ranking-screen', 'data-kind': kind });
  el.append(topBar(app, t('ranking.title')));
  const body = h('div', { class: 'scroll' });
  el.append(body);
  const tabs = h('nav', { class: 'choices rank-kinds', 'aria-label': t('ranking.kind') },
    RATING_KINDS.map((k) => h('a', {
      class: 'choice', href: '#/ranking/' + k, 'data-testid': 'ranking-kind-' + k, 'aria-current': k === kind ? 'page' : null,
    }, gameIcon(gameOfKind(k)), h('span', {}, t('game.' + gameOfKind(k) + '.short')))));
  body.append(tabs, h('h2', {}, t('game.' + gameOfKind(kind))));
  let answer;
  try {
    answer = await accounts.ranking(kind, session ? session.token : null, TOP);
  } catch (e) {
    body.append(h('p', { class: 'hint', 'data-testid': 'ranking-error' }, app.errorText(e)));
    return { el, name: 'ranking' };
  }
  const model = rankingModel(answer, session && session.account ? session.account.id : null, language());
  if (!model.rows.length) body.append(h('p', { class: 'hint', 'data-testid': 'ranking-empty' }, t('ranking.empty')));
  else body.append(h('ol', { class: 'rank-list', 'data-testid': 'ranking-list' }, model.rows.map((r) => row(r, 'ranking-row'))));
  if (model.youBelow) {
    body.append(h('h2', {}, t('ranking.yourplace')), h('ol', { class: 'rank-list' }, row(model.you, 'ranking-you')));
  }
  if (!session) body.append(h('p', { class: 'hint' }, t('ranking.signin'), ' ', h('a', { href: '#/settings' }, t('account.signin'))));
  return { el, name: 'ranking' };
}
