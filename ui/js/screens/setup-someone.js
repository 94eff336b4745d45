// The setup's "Play someone" choices (screens/setup.js): casual or rated — rated only when signed
// in, otherwise the choice says why and links to the sign-in — and the pool's clock. Starting
// opens the searching screen (screens/pool.js).

import { h, choiceGroup } from '../dom.js';
import { t } from '../i18n.js';
import { accountState } from '../account.js';
import { POOL_CLOCKS } from '../pool.js';

/** The fields shown in the setup's "Play someone" mode; `s.rated` holds the choice. */
export function someoneFields(app, kind, s) {
  if (!accountState.signedIn()) s.rated = false;
  const why = h('p', { class: 'hint', id: 'rated-why', 'data-testid': 'rated-why' }, t('pool.rated.signin'), ' ',
    h('a', { class: 'inline-target', href: '#/settings', 'data-testid': 'rated-sign-in' }, t('pool.signin')));
  const group = choiceGroup({
    label: t('pool.kind'), testid: 'rated', value: !!s.rated,
    options: [
      { value: false, label: t('pool.casual'), hint: t('pool.casual.hint') },
      { value: true, label: t('pool.rated'), hint: t('pool.rated.hint') },
    ],
    onChange: (v) => { s.rated = v; },
  });
  const ratedBtn = group.querySelector('[data-testid=rated-true]');
  const casualBtn = group.querySelector('[data-testid=rated-false]');
  const sync = () => {
    const signedIn = accountState.signedIn();
    ratedBtn.disabled = !signedIn;
    if (!signedIn) ratedBtn.setAttribute('aria-describedby', 'rated-why');
    else ratedBtn.removeAttribute('aria-describedby');
    why.hidden = signedIn;
    if (!signedIn && s.rated) {
      s.rated = false;
      ratedBtn.setAttribute('aria-pressed', 'false');
      casualBtn.setAttribute('aria-pressed', 'true');
    }
  };
  sync();
  const field = h('div', { class: 'field someone-only', 'data-testid': 'someone-fields' },
    h('h2', {}, t('pool.kind')), group, why,
    h('p', { class: 'hint', 'data-testid': 'pool-clock' }, t('pool.clock', { clock: t(POOL_CLOCKS[kind].main_ms === 300000 ? 'setup.clock.5' : 'setup.clock.10') })));
  // Signed in or out meanwhile (another screen, another tab): the choice follows.
  const unsubscribe = accountState.subscribe(() => {
    if (!field.isConnected) { unsubscribe(); return; }
    sync();
  });
  return field;
}

/** Opens the searching screen for this game's pool. */
export function startSomeone(app, kind, s, nickname) {
  const rated = !!s.rated && accountState.signedIn();
  app.poolToJoin = { kind, rated, nickname };
  app.go('#/pool/' + kind + (rated ? '?rated=1' : ''));
}
