// Settings → Account: signed in, the name shown in the ranking (renamed here) and "Sign out";
// a guest, "Sign in" with what it is for (guests keep playing with their nickname). The session
// itself lives in account.js; the calls go through api.js `accounts`.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { accounts } from '../api.js';
import { accountState } from '../account.js';
import { cleanNickname } from '../rooms.js';
import { savedNickname } from '../nickname.js';

/** The account's field of the settings screen; `redraw()` builds the screen again. */
export function accountField(app, redraw) {
  const field = h('div', { class: 'field account-field', 'data-testid': 'account-field' }, h('h2', {}, t('account.title')));
  const session = accountState.get();
  if (!session) {
    const button = h('button', {
      type: 'button', class: 'btn btn-primary account-signin', 'data-testid': 'sign-in', disabled: true,
      onclick: () => accounts.startSignIn(savedNickname()).catch((e) => app.toast(app.errorText(e))),
    }, t('account.signin'));
    const note = h('p', { class: 'hint', 'data-testid': 'sign-in-why' }, t('account.signin.why'));
    field.append(note, button);
    // Only a server that keeps accounts offers it.
    accounts.available().then((ok) => {
      button.disabled = !ok;
      if (!ok) {
        button.hidden = true;
        note.textContent = t('account.unavailable');
      }
    });
    return field;
  }
  const name = session.account && session.account.display_name ? session.account.display_name : '';
  const input = h('input', { type: 'text', id: 'account-name', maxlength: '24', autocomplete: 'nickname', 'data-testid': 'account-name', value: name });
  const rename = async () => {
    const clean = cleanNickname(input.value);
    if (!clean) {
      app.toast(t('room.nickname.bad'));
      input.focus();
      return;
    }
    try {
      const account = await accounts.rename(session.token, clean);
      accountState.set(session.token, { id: account.id, display_name: account.display_name });
      app.toast(t('account.renamed'));
      redraw();
    } catch (e) {
      if (e.code === 'not_signed_in') accountState.clear();
      app.toast(app.errorText(e));
    }
  };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') rename(); });
  field.append(
    h('p', { class: 'account-who', 'data-testid': 'signed-in-as' }, t('account.signedin', { name: name || '…' })),
    h('label', { for: 'account-name', class: 'account-label' }, t('account.name')),
    h('div', { class: 'room-link-row' }, input,
      h('button', { type: 'button', class: 'btn', 'data-testid': 'account-rename', onclick: rename }, t('account.rename'))),
    h('p', { class: 'account-links' },
      h('a', { class: 'btn', href: '#/profile', 'data-testid': 'account-profile' }, t('profile.title')),
      ' ',
      h('button', {
        type: 'button', class: 'btn', 'data-testid': 'sign-out',
        onclick: async () => {
          // Signed out on the server first; the device forgets the session whatever it says.
          await accounts.signOut(session.token).catch(() => {});
          accountState.clear();
          app.toast(t('account.signedout'));
          redraw();
        },
      }, t('account.signout'))),
  );
  // The name may have changed on another device: the server's is the one.
  if (!session.account) {
    accounts.session(session.token).then((s) => {
      accountState.set(session.token, s.account);
      redraw();
    }, (e) => { if (e.code === 'not_signed_in') { accountState.clear(); redraw(); } });
  }
  return field;
}
