// Setup: players where the game allows a choice, vs CPU (level, colour in draughts), on this
// device, or with friends by a link (nickname and clock; the room opens in screens/room.js), and
// "Salto largo" for the capture game.

import { api, inApp, knownFeatures } from '../api.js';
import { h, choiceGroup } from '../dom.js';
import { t, seatName } from '../i18n.js';
import { topBar, GAMES } from './common.js';
import { isDraughts } from '../state.js';
import { preloadBoard } from '../boards.js';
import { cleanNickname } from '../rooms.js';
import { savedNickname, saveNickname } from '../nickname.js';
import { levelOptions, movetimeOptions, showsThinkingTime, validMovetime } from '../levels.js';
import { someoneFields, startSomeone } from './setup-someone.js';

const PLAYERS = { diamond: [2, 3], capture: [2, 3, 4, 5, 6] };
const SEATS = { english: ['black', 'white'], international: ['white', 'black'], turkish: ['white', 'black'] };
const MEMORY = 'damas-setup';
// The clock choices of a friends' room (docs/protocol.md `clock`).
const CLOCKS = {
  none: 'none',
  5: { main_ms: 300000, periods: 3, period_ms: 30000 },
  10: { main_ms: 600000, periods: 3, period_ms: 30000 },
};

export function setupScreen(app, kind) {
  if (!GAMES.includes(kind)) kind = 'diamond';
  let remembered = {};
  try { remembered = JSON.parse(localStorage.getItem(MEMORY) || '{}')[kind] || {}; } catch { /* none */ }
  const s = {
    players: remembered.players || (kind === 'diamond' ? 3 : 2),
    mode: remembered.mode || 'cpu',
    level: remembered.level || 'medium',
    colour: remembered.colour || 0,
    long_jump: !!remembered.long_jump,
    clock: remembered.clock || (kind === 'english' ? '5' : 'none'),
    rated: !!remembered.rated,
  };
  // three.js loads while the player chooses (star games on the 3D board).
  setTimeout(() => preloadBoard(kind, app.settings.board), 0);
  const el = h('section', { class: 'screen setup', 'data-testid': 'setup-screen', 'data-game': kind });
  el.append(topBar(app, t('game.' + kind), { extra: [h('a', { class: 'icon-btn', href: '#/rules/' + kind, 'aria-label': t('nav.rules'), 'data-testid': 'nav-rules' }, h('span', { 'aria-hidden': 'true' }, '?'))] }));
  const form = h('div', { class: 'scroll setup-form' });
  el.append(form);
  const remember = () => {
    try {
      const all = JSON.parse(localStorage.getItem(MEMORY) || '{}');
      all[kind] = s;
      localStorage.setItem(MEMORY, JSON.stringify(all));
    } catch { /* not remembered */ }
  };
  const field = (label, control, extraClass = '') => h('div', { class: 'field ' + extraClass }, h('h2', {}, label), control);

  if (PLAYERS[kind]) {
    form.append(field(t('setup.players'), choiceGroup({
      label: t('setup.players'), testid: 'players', value: s.players,
      options: PLAYERS[kind].map((n) => ({ value: n, label: String(n) })),
      onChange: (v) => { s.players = v; },
    }), 'not-someone'));
  }
  // Expert's thinking time is a setting (saved with the others), shown while expert is chosen.
  const movetimeField = field(t('setup.movetime'), choiceGroup({
    label: t('setup.movetime'), testid: 'movetime', value: validMovetime(app.settings.movetime),
    options: movetimeOptions(t, document.documentElement.lang),
    onChange: (v) => app.saveSettings({ movetime: v }),
  }), 'cpu-only');
  movetimeField.append(h('p', { class: 'hint' }, t('setup.movetime.hint')));
  movetimeField.dataset.testid = 'movetime-field';
  // Expert plays a draughts game's endings from its tables, which the app builds on request.
  if (isDraughts(kind) && inApp()) {
    api.endgameStatus().then((rows) => {
      const row = rows.find((r) => r.game === kind);
      if (!row || row.pieces >= row.offered) return;
      movetimeField.append(h('p', { class: 'hint', 'data-testid': 'endgame-tip' }, t('setup.endgame.tip'), ' ',
        // The settings' "‹" comes back here, to the choices made so far.
        h('a', { href: `#/settings?from=setup/${kind}`, onclick: remember }, t('setup.endgame.link'))));
    }, () => {});
  }
  // A browser's games against the server's CPU: the server thinks for its own time, and there is
  // no engine for a game on this device.
  const offers = knownFeatures();
  if (!offers.local && s.mode === 'local') s.mode = 'cpu';
  const syncLevel = () => { movetimeField.hidden = !showsThinkingTime(s.level) || !offers.local; };
  const levelField = field(t('setup.level'), choiceGroup({
    label: t('setup.level'), testid: 'level', value: s.level,
    options: levelOptions(t),
    onChange: (v) => { s.level = v; syncLevel(); },
  }), 'cpu-only');
  const colourField = isDraughts(kind) ? field(t('setup.colour'), choiceGroup({
    label: t('setup.colour'), testid: 'colour', value: s.colour,
    options: SEATS[kind].map((name, seat) => ({ value: seat, label: seatName(name), hint: seat === 0 ? t('setup.first') : '', icon: name === 'white' ? '○' : '●' })),
    onChange: (v) => { s.colour = v; },
  }), 'cpu-only') : null;
  const youPlay = !isDraughts(kind) ? h('p', { class: 'hint cpu-only' }, t('setup.youplay', { seat: kind === 'diamond' ? seatName('red') : seatName('1') })) : null;
  const syncMode = () => {
    form.classList.toggle('mode-local', s.mode !== 'cpu');
    form.classList.toggle('mode-friends', s.mode === 'friends');
    form.classList.toggle('mode-someone', s.mode === 'someone');
    start.textContent = t(s.mode === 'friends' ? 'setup.friends.start' : s.mode === 'someone' ? 'setup.someone.start' : 'setup.start');
  };
  form.append(field(t('setup.mode'), choiceGroup({
    label: t('setup.mode'), testid: 'mode', value: s.mode,
    options: [
      { value: 'cpu', label: t('setup.mode.cpu') },
      { value: 'local', label: t('setup.mode.local'), hint: t('setup.mode.local.hint') },
      { value: 'friends', label: t('setup.mode.friends'), hint: t('setup.mode.friends.hint') },
      { value: 'someone', label: t('setup.mode.someone'), hint: t('setup.mode.someone.hint') },
    ],
    onChange: (v) => { s.mode = v; syncMode(); },
  })));
  form.append(levelField, movetimeField);
  syncLevel();
  if (!offers.local) form.querySelector('[data-testid=mode-local]')?.remove();
  const nickname = h('input', { type: 'text', id: 'setup-nickname', maxlength: '24', autocomplete: 'nickname', 'data-testid': 'setup-nickname', value: savedNickname() });
  form.append(h('div', { class: 'field friends-only nickname-field' }, h('label', { for: 'setup-nickname' }, h('h2', {}, t('setup.nickname'))), nickname),
    field(t('setup.clock'), choiceGroup({
      label: t('setup.clock'), testid: 'clock', value: s.clock,
      options: ['none', '5', '10'].map((c) => ({ value: c, label: t('setup.clock.' + c) })),
      onChange: (v) => { s.clock = v; },
    }), 'friends-only'));
  form.append(someoneFields(app, kind, s));
  if (colourField) form.append(colourField);
  if (youPlay) form.append(youPlay);
  if (kind === 'capture') {
    const box = h('input', { type: 'checkbox', id: 'long-jump', 'data-testid': 'long-jump' });
    box.checked = s.long_jump;
    box.addEventListener('change', () => { s.long_jump = box.checked; });
    form.append(h('div', { class: 'field not-someone' }, h('label', { class: 'check', for: 'long-jump' }, box, h('span', {}, t('setup.longjump')), h('small', {}, t('setup.longjump.hint')))));
  }
  const start = h('button', {
    type: 'button', class: 'btn btn-primary btn-big', 'data-testid': 'start',
    onclick: async () => {
      start.disabled = true;
      remember();
      if (s.mode === 'friends' || s.mode === 'someone') {
        const name = cleanNickname(nickname.value);
        if (!name) {
          app.toast(t('room.nickname.bad'));
          nickname.focus();
          start.disabled = false;
          return;
        }
        saveNickname(name);
        if (s.mode === 'someone') return startSomeone(app, kind, s, name);
        app.roomToCreate = {
          game: { kind, players: PLAYERS[kind] ? s.players : 2, long_jump: kind === 'capture' && s.long_jump },
          nickname: name,
          clock: CLOCKS[s.clock],
        };
        app.go('#/room/new');
        return;
      }
      const setup = {
        variant: { kind, players: PLAYERS[kind] ? s.players : 2, long_jump: kind === 'capture' && s.long_jump },
        mode: s.mode,
      };
      if (s.mode === 'cpu') {
        setup.level = s.level;
        setup.human_seats = [isDraughts(kind) ? s.colour : 0];
      }
      try {
        const view = await api.newGame(setup);
        app.pendingView = view;
        app.go('#/game/' + view.id);
      } catch (e) {
        app.toast(app.errorText(e));
        start.disabled = false;
      }
    },
  }, t('setup.start'));
  form.append(start);
  syncMode();
  return { el, name: 'setup' };
}
