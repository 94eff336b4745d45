// Start-up, settings and the hash router: #/ home, #/setup/<game>, #/game/<id>, #/rules/<game>, #/stats,
// #/settings, and #/play/<game>?players=&mode=&level=&colour= (starts a game; handy for screenshots).
// Rules and settings opened from a game are an overlay on it: the game stays as it was (selection,
// CPU reply in flight) and "‹", Escape or the system back button return to it. Layers close from
// the top: a dialog first (it holds a history entry of its own), then the overlay.

import { api, isMock, onDeepLink, inApp, useRoomServerSetting, ROOM_SERVER_KEY } from './api.js';
import { attachAnnouncer } from './announce.js';
import { h, clear, add } from './dom.js';
import { t, setLanguage, resolveLanguage, language } from './i18n.js';
import { setSoundEnabled } from './sound.js';
// Accounts: the profile, the ranking, and the session brought back by a sign-in.
import { profileScreen } from './screens/profile.js';
import { rankingScreen } from './screens/ranking.js';
import { accountState } from './account.js';
import { sessionFromFragment } from './account-views.js';
import { accounts } from './api.js';
import { homeScreen } from './screens/home.js';
import { setupScreen } from './screens/setup.js';
import { gameScreen } from './screens/game.js';
import { rulesScreen } from './screens/rules.js';
import { settingsScreen } from './screens/settings.js';
import { statsScreen } from './screens/stats.js';
import { roomScreen } from './screens/room.js';

const root = document.getElementById('app');
const reducedMotion = globalThis.matchMedia ? matchMedia('(prefers-reduced-motion: reduce)') : { matches: false };

// The backend leaves out optional settings at their default (turn_board, board, room_server,
// movetime): fill them in.
const DEFAULT_SETTINGS = { language: null, skin: 'wood', sound: true, animations: true, turn_board: false, board: '3d', room_server: null, movetime: 1000 };

export const app = {
  settings: { ...DEFAULT_SETTINGS },
  /** The home screen offers the last unfinished game once, right after launch. */
  offerLastGame: true,
  notices: [],
  current: null,
  go(hash) {
    if (modal.leaving) modal.then = () => app.go(hash); // after the dialog's entry is gone
    else if (location.hash === hash) route();
    else if (modal.entry) {
      // Leaving from a dialog: its history entry becomes the new place, so "back" skips it.
      modal.entry = false;
      location.replace(hash);
    } else location.hash = hash;
  },
  /** Shows the shared dialog as a modal layer that the back button closes first. */
  openModal() {
    const d = app.dialog;
    // Closed a moment ago but its close event not handled yet: this dialog takes over that entry.
    if (!d.open && modal.entry) modal.reuse = true;
    if (!d.open) d.showModal();
    if (modal.leaving) modal.then = pushModalEntry;
    else if (!modal.entry) pushModalEntry();
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
      app.settings = { ...DEFAULT_SETTINGS, ...(await api.setSettings(merged)) };
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
  if (inApp()) useRoomServerSetting(app.settings.room_server);
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
    add(d,
      h('p', { class: 'confirm-text' }, text),
      detail ? h('p', { class: 'confirm-detail' }, detail) : null,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'confirm-no', onclick: () => done(false) }, no),
        h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'confirm-yes', onclick: () => done(true) }, yes)),
    );
    d.onclose = () => resolve(false);
    app.openModal();
  });
}

// The dialog's own history entry: pushed when it opens, dropped (history.back) when it closes by a
// button or Escape; the back button (popstate to the page under it) closes it instead of leaving
// the page. While that back step is on its way (`leaving`), a new dialog or a navigation waits for
// it (`then`), so neither lands on the wrong entry.
const modal = { entry: false, leaving: false, then: null, reuse: false };

function pushModalEntry() {
  history.pushState({ modal: true }, '', location.href);
  modal.entry = true;
}

app.dialog.addEventListener('close', () => {
  if (modal.reuse) {
    modal.reuse = false;
    return;
  }
  if (!modal.entry) return;
  modal.entry = false;
  modal.leaving = true;
  history.back();
});
window.addEventListener('popstate', () => {
  if (modal.leaving) {
    modal.leaving = false;
    const then = modal.then;
    modal.then = null;
    if (then) then();
    return;
  }
  if (modal.entry && app.dialog.open) {
    modal.entry = false;
    app.dialog.close();
  }
});

// Rules or settings over a game: { el, screen, lang } while shown.
let overlay = null;

function closeOverlay() {
  if (!overlay) return;
  overlay.screen.destroy?.();
  overlay.el.remove();
  overlay = null;
  if (app.current) app.current.el.inert = false;
}

/** The hash of the screen under an overlay: a game, or a friends' room. */
const placeOf = (screen) => (screen.name === 'room' ? screen.home : '#/game/' + screen.el.dataset.gameId);

function showOverlay(parts, params) {
  const gameHash = placeOf(app.current);
  const lang = overlay ? overlay.lang : language();
  closeOverlay();
  // "‹" goes back in history: the entry before is the game (or an overlay opened from it).
  const back = { href: gameHash, onBack: () => history.back() };
  const screen = parts[0] === 'rules'
    ? rulesScreen(app, parts[1], params.get('tab'), back)
    : settingsScreen(app, back);
  const el = h('div', { class: 'overlay', 'data-testid': 'overlay', role: 'dialog', 'aria-modal': 'true', 'aria-label': screen.el.querySelector('h1')?.textContent || '' }, screen.el);
  overlay = { el, screen, lang };
  app.current.el.inert = true;
  // First in #app, so it is also the first thing found by document order (it is drawn on top).
  root.prepend(el);
  root.dataset.screen = screen.name;
  const focus = el.querySelector('[autofocus]') || el.querySelector('h1');
  if (focus) focus.focus({ preventScroll: true });
}

document.addEventListener('keydown', (e) => {
  // Escape closes the top layer: an open dialog handles it itself; then the overlay.
  if (e.key !== 'Escape' || app.dialog.open || !overlay || e.defaultPrevented) return;
  e.preventDefault();
  history.back();
});

async function route() {
  const hash = location.hash || '#/';
  const [path, query] = hash.slice(1).split('?');
  const parts = path.split('/').filter(Boolean);
  const params = new URLSearchParams(query || '');
  if (app.dialog.open) app.dialog.close();
  const gameShown = app.current && (app.current.name === 'game' || app.current.name === 'room') ? placeOf(app.current) : null;
  if (gameShown && (parts[0] === 'rules' || parts[0] === 'settings')) {
    showOverlay(parts, params);
    return;
  }
  if (gameShown && overlay && '#/' + parts.join('/') === gameShown) {
    const sameLanguage = overlay.lang === language();
    closeOverlay();
    if (sameLanguage) {
      root.dataset.screen = app.current.name;
      app.current.redraw?.();
      app.current.el.querySelector('h1')?.focus({ preventScroll: true });
      return;
    }
    // The language changed in the settings: the game screen is built again in the new one,
    // keeping a piece picked up.
    app.carriedInput = app.current.carry?.() ?? null;
  }
  closeOverlay();
  if (app.current && app.current.destroy) app.current.destroy();
  app.current = null;
  clear(root);
  let screen;
  try {
    switch (parts[0]) {
      case 'setup': screen = setupScreen(app, parts[1]); break;
      case 'game': screen = await gameScreen(app, parts[1], undefined, { review: params.has('review') ? Number(params.get('review')) : undefined }); break;
      case 'play': screen = await quickStart(parts[1], params); break;
      case 'room': screen = await roomScreen(app, parts[1]); break;
      case 'rules': screen = rulesScreen(app, parts[1], params.get('tab')); break;
      case 'settings': screen = settingsScreen(app, settingsBack(params.get('from'))); break;
      case 'stats': screen = await statsScreen(app); break;
      case 'profile': screen = await profileScreen(app); break;
      case 'ranking': screen = await rankingScreen(app, parts[1]); break;
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

/** Where the settings' "‹" goes: a game's setup screen when they were opened from it, else home. */
function settingsBack(from) {
  return /^setup\/(english|international|turkish|diamond|capture)$/.test(from || '') ? '#/' + from : '#/';
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
    app.settings = { ...DEFAULT_SETTINGS, ...(await api.getSettings()) };
  } catch (e) {
    toast(errorText(e));
  }
  applySettings();
  reducedMotion.addEventListener?.('change', applySettings);
  // Earlier versions kept the app's room server in the web view's storage: moved to the settings.
  if (inApp()) {
    let old = '';
    try { old = localStorage.getItem(ROOM_SERVER_KEY) || ''; } catch { /* none */ }
    if (old && !app.settings.room_server) await app.saveSettings({ room_server: old });
    try { if (app.settings.room_server) localStorage.removeItem(ROOM_SERVER_KEY); } catch { /* none */ }
  }
  try {
    app.notices = await api.takeStartupNotices();
  } catch {
    app.notices = [];
  }
  if (await isMock()) document.documentElement.dataset.backend = 'mock';
  await takeSignedInSession();
  accounts.onAppSignedIn(async () => {
    await takeSignedInSession();
    app.go('#/profile');
  });
  // A room link, `/r/<code>` (served by damas-server): the room's screen.
  const link = /^\/r\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (link && (!location.hash || location.hash === '#/')) history.replaceState(null, '', '#/room/' + link[1]);
  // The app opened by a `damas://join/<code>` link (checked in Rust, links.rs): that room's
  // join screen, the code filled in. A link that comes while the app runs goes there too.
  if (!(await isMock())) {
    const code = await api.takeDeepLink().catch(() => null);
    if (code) history.replaceState(null, '', '#/room/' + code);
    onDeepLink(async () => {
      const next = await api.takeDeepLink().catch(() => null);
      if (next) app.go('#/room/' + next);
    });
  }
  window.addEventListener('hashchange', route);
  await route();
  document.documentElement.dataset.ready = 'true';
}

/**
 * Back from a sign-in by redirect, the address ends in `#session=TOKEN`: the session is kept
 * (account.js), the token taken out of the address (and its history entry), and the profile shown.
 */
async function takeSignedInSession() {
  const { token: fromPage, hash } = sessionFromFragment(location.hash);
  if (hash !== (location.hash || '') || fromPage) {
    history.replaceState(null, '', location.pathname + location.search + (fromPage ? '#/profile' : hash));
  }
  // The app: the sign-in came back through the system browser and the `damas://signed-in` link.
  const token = fromPage || (await accounts.takeAppSession().catch(() => null));
  if (!token) return;
  if (!fromPage) history.replaceState(null, '', '#/profile');
  accountState.set(token);
  try {
    const session = await accounts.session(token);
    accountState.set(token, session.account);
    toast(t('account.welcome', { name: session.account.display_name }));
  } catch (e) {
    if (e.code === 'not_signed_in') accountState.clear();
    toast(errorText(e));
  }
}

export function currentLanguage() { return language(); }

globalThis.__damas = app;
start();
