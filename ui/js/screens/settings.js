// Settings: language, skin, board (3D / 2D), sound, animations. Saved through the backend at each
// change; the room server's address (friends' rooms) is kept on this device (api.js). In the app,
// the endgame tables expert plays from: what the device holds, building them, stopping a build.

import { h, choiceGroup } from '../dom.js';
import { t } from '../i18n.js';
import { topBar } from './common.js';
import { api, inApp, onEndgameProgress, savedRoomServer, saveRoomServer } from '../api.js';
import { endgameLine } from '../endgame-tables.js';
import { accountField } from './account-field.js';

/** `back`: where "‹" goes (home, or the game under an overlay). */
export function settingsScreen(app, back = '#/') {
  const el = h('section', { class: 'screen settings', 'data-testid': 'settings-screen' });
  el.append(topBar(app, t('settings.title'), { back }));
  const body = h('div', { class: 'scroll setup-form' });
  el.append(body);
  const redraw = () => app.go('#/settings');
  const s = app.settings;
  const onOff = (key) => choiceGroup({
    label: t('settings.' + key), testid: key, value: s[key] ? 'on' : 'off',
    options: [{ value: 'on', label: t('settings.on') }, { value: 'off', label: t('settings.off') }],
    onChange: (v) => app.saveSettings({ [key]: v === 'on' }),
  });
  body.append(
    h('div', { class: 'field' }, h('h2', {}, t('settings.language')), choiceGroup({
      label: t('settings.language'), testid: 'lang', value: s.language || 'system',
      options: [{ value: 'system', label: t('settings.language.system') }, { value: 'es', label: 'Español' }, { value: 'en', label: 'English' }],
      onChange: async (v) => { await app.saveSettings({ language: v === 'system' ? null : v }); redraw(); },
    })),
    h('div', { class: 'field' }, h('h2', {}, t('settings.skin')), choiceGroup({
      label: t('settings.skin'), testid: 'skin', value: s.skin,
      options: [{ value: 'wood', label: t('settings.skin.wood'), icon: h('span', { class: 'swatch swatch-wood' }) }, { value: 'candy', label: t('settings.skin.candy'), icon: h('span', { class: 'swatch swatch-candy' }) }],
      onChange: (v) => app.saveSettings({ skin: v }),
    })),
    h('div', { class: 'field' }, h('h2', {}, t('settings.board')), choiceGroup({
      label: t('settings.board'), testid: 'board', value: s.board === '2d' ? '2d' : '3d',
      options: [{ value: '3d', label: t('settings.board.3d') }, { value: '2d', label: t('settings.board.2d') }],
      onChange: (v) => app.saveSettings({ board: v }),
    }), h('p', { class: 'hint' }, t('settings.board.hint'))),
    h('div', { class: 'field' }, h('h2', {}, t('settings.sound')), onOff('sound')),
    h('div', { class: 'field' }, h('h2', {}, t('settings.turnboard')), onOff('turn_board'),
      h('p', { class: 'hint' }, t('settings.turnboard.hint'))),
    h('div', { class: 'field' }, h('h2', {}, t('settings.animations')), onOff('animations'),
      globalThis.matchMedia && matchMedia('(prefers-reduced-motion: reduce)').matches ? h('p', { class: 'hint' }, t('settings.reduced')) : null),
    accountField(app, redraw),
    roomServerField(app),
    inApp() ? endgameField(app) : null,
  );
  return { el, name: 'settings' };
}

/** The room server's address: an http(s) URL, saved when it parses (empty: none). */
function roomServerField(app) {
  const input = h('input', { type: 'url', id: 'room-server', 'data-testid': 'room-server', value: savedRoomServer(), placeholder: 'http://192.168.1.5:8080', autocomplete: 'url', inputmode: 'url' });
  const save = () => {
    const text = input.value.trim();
    if (text) {
      let url;
      try { url = new URL(text); } catch { url = null; }
      if (!url || !/^https?:$/.test(url.protocol)) {
        app.toast(t('settings.roomserver.bad'));
        return;
      }
    }
    const url = text.replace(/\/+$/, '');
    if (inApp()) app.saveSettings({ room_server: url || null }).then(() => app.toast(t('settings.roomserver.saved')));
    else {
      saveRoomServer(url);
      app.toast(t('settings.roomserver.saved'));
    }
  };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') save(); });
  return h('div', { class: 'field' }, h('label', { for: 'room-server' }, h('h2', {}, t('settings.roomserver'))),
    h('div', { class: 'room-link-row' }, input, h('button', { type: 'button', class: 'btn', 'data-testid': 'room-server-save', onclick: save }, t('settings.roomserver.save'))),
    h('p', { class: 'hint' }, t('settings.roomserver.hint')));
}

// ---------- endgame tables ----------
// A build outlives the screen (it runs in the backend until done or stopped), so its rows and the
// progress listener are the module's; the lines on screen, when there are, follow them in place.
// A line's button is never `disabled` (that would drop the keyboard focus): it says
// aria-disabled and ignores clicks instead; when it hides, the focus moves to its line.

let endgameRows = null;
let listening = false;

async function refreshEndgame(app) {
  try {
    endgameRows = await api.endgameStatus();
  } catch (e) {
    app.toast(app.errorText(e));
  }
  drawEndgame(app);
}

function endgameField(app) {
  const list = h('div', { class: 'endgame-list', 'data-testid': 'endgame' });
  if (!listening) {
    listening = true;
    onEndgameProgress(({ game, done, total, finished }) => {
      if (finished) {
        refreshEndgame(app);
        return;
      }
      const row = endgameRows?.find((r) => r.game === game);
      if (!row) return;
      // The backend has the build: from now on a stop reaches it.
      Object.assign(row, { building: true, starting: false, done, total });
      drawEndgame(app);
    });
  }
  refreshEndgame(app);
  return h('div', { class: 'field' }, h('h2', {}, t('settings.endgame')),
    h('p', { class: 'hint' }, t('settings.endgame.hint')), list);
}

function drawEndgame(app) {
  const list = document.querySelector('[data-testid="endgame"]');
  if (!list || !endgameRows) return;
  const busy = endgameRows.some((r) => r.building);
  for (const row of endgameRows) {
    let line = list.querySelector(`[data-game="${row.game}"]`);
    if (!line) {
      const name = t('game.' + row.game);
      line = h('div', { class: 'endgame-line', 'data-game': row.game, tabindex: '-1' },
        h('span', { class: 'endgame-name' }, name),
        h('span', { class: 'endgame-state', id: 'endgame-state-' + row.game }),
        h('progress', { max: 100, 'aria-label': t('endgame.progress', { game: name }) }),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'endgame-' + row.game, 'aria-describedby': 'endgame-state-' + row.game, onclick: () => endgameAction(app, row.game) }));
      list.append(line);
    }
    const shown = endgameLine(row, document.documentElement.lang || 'es', busy);
    line.querySelector('.endgame-state').textContent = t(...shown.text);
    const bar = line.querySelector('progress');
    bar.hidden = shown.percent === null;
    if (shown.percent !== null) bar.value = shown.percent;
    const button = line.querySelector('button');
    if (!shown.action && document.activeElement === button) line.focus({ preventScroll: true });
    button.hidden = !shown.action;
    button.setAttribute('aria-disabled', shown.disabled ? 'true' : 'false');
    if (shown.action) {
      button.textContent = t('endgame.' + shown.action);
      button.setAttribute('aria-label', t('endgame.' + shown.action + '.label', { game: t('game.' + row.game) }));
    }
  }
}

async function endgameAction(app, game) {
  const row = endgameRows?.find((r) => r.game === game);
  if (!row) return;
  const busy = endgameRows.some((r) => r.building);
  if (endgameLine(row, 'en', busy).disabled) return;
  if (row.building) {
    row.stopping = true;
    drawEndgame(app);
    // False: the build ended meanwhile (its end refreshes the rows) or never started.
    const heard = await api.stopEndgameBuild().catch(() => false);
    if (!heard) await refreshEndgame(app);
    return;
  }
  Object.assign(row, { building: true, starting: true, done: 0, total: 0 });
  drawEndgame(app);
  app.toast(t('endgame.started', { game: t('game.' + game) }));
  try {
    await api.buildEndgame(game);
    app.toast(t('endgame.built', { game: t('game.' + game) }));
  } catch (e) {
    app.toast(e.code === 'endgame_stopped' ? t('endgame.stopped') : app.errorText(e));
  }
  await refreshEndgame(app);
}
