// Start-up, settings and the hash router: #/ home, #/setup/<game>, #/game/<id>, #/rules/<game>,
// #/settings, and #/play/<game>?players=&mode=&level=&colour= (starts a game; handy for screenshots).

import { api, isMock } from './api.js';
import { attachAnnouncer } from './announce.js';
import { h, clear } from './dom.js';
import { t, setLanguage, resolveLanguage, language } from './i18n.js';
import { setSoundEnabled } from './sound.js';
import { homeScreen } from './screens/home.js';
import { setupScreen } from './screens/setup.js';
import { gameScreen } from './screens/game.js';
import { rulesScreen } from './screens/rules.js';
import { settingsScreen } from './screens/settings.js';

const root = document.getElementById('app');
const reducedMotion = globalThis.matchMedia ? matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

export const app = {
  settings: { language: null, skin: 'wood', sound: true, animations: true },
  notices: [],
  current: null,
  go(hash) {
    if (location.hash === hash) route();
    else location.hash = hash;
  },
  /** Animation speed factor: 0 when animations are off or the system asks for less motion. */
  motion() {
    if (!app.settings.animations) return 0;
    return reducedMotion.matches ? 0 : 1;
  },
  async saveSettings(next) {
    const merged = { ...app.settings, ...next };
    app.settings = merged;
    applySettings();
    try {
      app.settings = await api.setSettings(merged);
    } catch (e) {
      app.settings = merged;
      toast(errorText(e));
    }
    applySettings();
  },
  toast: (text) => toast(text),
  errorText: (e) => errorText(e),
  confirm: (text, opts) => confirmDialog(text, opts),
  dialog: document.getElementById('dialog'),
};

function applySettings() {
  const lang = resolveLanguage(app.settings.language, navigator.languages || [navigator.language]);
  setLanguage(lang);
  document.documentElement.lang = lang;
  document.documentElement.dataset.skin = app.settings.skin === 'candy' ? 'candy' : 'wood';
  document.documentElement.dataset.motion = app.motion() ? 'on' : 'off';
  document.title = t('app.title');
  setSoundEnabled(!!app.settings.sound);
}

export function errorText(e) {
  const code = e && e.code ? e.code : 'unknown';
  const key = 'error.' + code;
  const text = t(key);
  return text === key || code === 'unknown' ? t('error.unknown', { message: e && e.message ? e.message : String(e) }) : text;
}

let toastTimer = 0;
function toast(text) {
  const el = document.getElementById('toast');
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => el.classList.remove('show'), 3200);
}

function confirmDialog(text, { detail, yes = t('act.yes'), no = t('act.no') } = {}) {
  const d = app.dialog;
  return new Promise((resolve) => {
    clear(d);
    d.className = 'confirm';
    d.setAttribute('data-testid', 'confirm');
    const done = (v) => { d.close(); resolve(v); };
    d.append(
      h('p', { class: 'confirm-text' }, text),
      detail ? h('p', { class: 'confirm-detail' }, detail) : null,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'confirm-no', onclick: () => done(false) }, no),
        h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'confirm-yes', onclick: () => done(true) }, yes)),
    );
    d.onclose = () => resolve(false);
    d.showModal();
  });
}

async function route() {
  const hash = location.hash || '#/';
  const [path, query] = hash.slice(1).split('?');
  const parts = path.split('/').filter(Boolean);
  const params = new URLSearchParams(query || '');
  if (app.current && app.current.destroy) app.current.destroy();
  app.current = null;
  if (app.dialog.open) app.dialog.close();
  clear(root);
  let screen;
  try {
    switch (parts[0]) {
      case 'setup': screen = setupScreen(app, parts[1]); break;
      case 'game': screen = await gameScreen(app, parts[1]); break;
      case 'play': screen = await quickStart(parts[1], params); break;
      case 'rules': screen = rulesScreen(app, parts[1], params.get('tab')); break;
      case 'settings': screen = settingsScreen(app); break;
      default: screen = await homeScreen(app);
    }
  } catch (e) {
    toast(errorText(e));
    screen = await homeScreen(app);
  }
  if (!screen) return;
  app.current = screen;
  clear(root);
  root.append(screen.el);
  root.dataset.screen = screen.name;
  const focus = screen.el.querySelector('[autofocus]') || screen.el.querySelector('h1');
  if (focus) focus.focus({ preventScroll: true });
}

async function quickStart(kind, params) {
  const players = Number(params.get('players')) || (kind === 'diamond' ? 3 : 2);
  const mode = params.get('mode') === 'local' ? 'local' : 'cpu';
  const colour = Number(params.get('colour')) || 0;
  const setup = {
    variant: { kind, players, long_jump: params.get('long') === '1' },
    mode,
    level: mode === 'cpu' ? params.get('level') || 'medium' : null,
    human_seats: mode === 'cpu' ? [colour] : undefined,
  };
  const view = await api.newGame(setup);
  history.replaceState(null, '', '#/game/' + view.id);
  return gameScreen(app, view.id, view);
}

async function start() {
  attachAnnouncer(document.getElementById('announcer'));
  try {
    app.settings = { ...app.settings, ...(await api.getSettings()) };
  } catch (e) {
    toast(errorText(e));
  }
  applySettings();
  reducedMotion.addEventListener?.('change', applySettings);
  try {
    app.notices = await api.takeStartupNotices();
  } catch {
    app.notices = [];
  }
  if (await isMock()) document.documentElement.dataset.backend = 'mock';
  window.addEventListener('hashchange', route);
  await route();
  document.documentElement.dataset.ready = 'true';
}

export function currentLanguage() { return language(); }

globalThis.__damas = app;
start();
