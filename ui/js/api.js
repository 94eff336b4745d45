// The one door to the backend: Tauri commands when inside the app; in a browser whose page came
// from a `damas-server` (it answers `/health`), games against the CPU played by that server
// (server-cpu.js); otherwise — the UI's own tests on a plain file server — the stand-in that
// replays the engine's recorded games (replay.js).
// Every call resolves with the command's JSON or rejects with {code, message} (APP-CONTRACT.md).

let backend = null;
let backendPromise = null;

/** What every backend does unless it says otherwise (`features`): hints, reviewing past
 * positions, exporting a game, games on this device, statistics. */
const ALL_FEATURES = Object.freeze({ hint: true, review: true, export: true, local: true, stats: true });

function resolveBackend() {
  if (backend) return Promise.resolve(backend);
  backendPromise ||= (async () => {
    const tauri = globalThis.window && window.__TAURI__ && window.__TAURI__.core;
    if (tauri && typeof tauri.invoke === 'function') {
      backend = { invoke: (name, args) => tauri.invoke(name, args), mock: false, features: ALL_FEATURES };
    } else if (await pageIsRoomServer()) {
      const { createServerCpu } = await import('./server-cpu.js');
      const { createRoomSocket } = await import('./room-socket.js');
      const { socketUrl } = await import('./rooms.js');
      const url = socketUrl(location.origin);
      const made = createServerCpu({
        openSocket: (tokens) => createRoomSocket({ url, tokens }),
        storage: safeStorage(),
        nickname: () => { try { return localStorage.getItem('damas-nickname') || ''; } catch { return ''; } },
      });
      backend = { ...made, mock: false, server: true };
    } else {
      const { createReplay } = await import('./replay.js');
      backend = { ...createReplay(), mock: true, features: ALL_FEATURES };
    }
    return backend;
  })();
  return backendPromise;
}

function safeStorage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

/** What the backend in use offers (`{hint, review, export, local, stats}`), once it is known. */
export const features = async () => (await resolveBackend()).features;
/** The same, at once: known after the first call to the backend (main.js makes one at start). */
export const knownFeatures = () => (backend ? backend.features : ALL_FEATURES);

/** Normalises whatever a rejection carries into {code, message} (and a bad record's line, reason, args). */
export function toError(e) {
  if (e && typeof e === 'object' && 'code' in e) {
    const error = { code: String(e.code), message: String(e.message ?? '') };
    if (e.code === 'bad_record') Object.assign(error, { line: e.line, reason: e.reason, args: e.args });
    return error;
  }
  if (typeof e === 'string') {
    try {
      const parsed = JSON.parse(e);
      if (parsed && parsed.code) return { code: parsed.code, message: parsed.message ?? '' };
    } catch { /* plain text */ }
    return { code: 'unknown', message: e };
  }
  return { code: 'unknown', message: String(e && e.message ? e.message : e) };
}

async function call(name, args) {
  const b = await resolveBackend();
  try {
    return await b.invoke(name, args);
  } catch (e) {
    throw toError(e);
  }
}

export const isMock = async () => (await resolveBackend()).mock;

export const api = {
  newGame: (setup) => call('new_game', { setup }),
  getGame: (id) => call('get_game', { id }),
  viewAt: (id, ply) => call('view_at', { id, ply }),
  diagram: (setup, moves) => call('diagram', { setup, moves }),
  exportGame: (id, player) => call('export_game', { id, player }),
  saveExport: (id, player) => call('save_export', { id, player }),
  importGame: (text, setup) => call('import_game', { text, setup }),
  playMove: (id, moveText) => call('play_move', { id, moveText }),
  cpuMove: (id, ply) => call('cpu_move', { id, ply }),
  hint: (id) => call('hint', { id }),
  undo: (id) => call('undo', { id }),
  redo: (id) => call('redo', { id }),
  resign: (id) => call('resign', { id }),
  rematch: (id) => call('rematch', { id }),
  listSaved: () => call('list_saved', {}),
  deleteSaved: (id) => call('delete_saved', { id }),
  getSettings: () => call('get_settings', {}),
  setSettings: (settings) => call('set_settings', { settings }),
  getStats: () => call('get_stats', {}),
  getCandies: (utcOffsetMinutes) => call('get_candies', { utcOffsetMinutes }),
  takeStartupNotices: () => call('take_startup_notices', {}),
  listRooms: () => call('list_rooms', {}),
  takeDeepLink: () => call('take_deep_link', {}),
  recordRoomResult: (game) => call('record_room_result', { game }),
  endgameStatus: () => call('endgame_status', {}),
  buildEndgame: (game) => call('build_endgame', { game }),
  stopEndgameBuild: () => call('stop_endgame_build', {}),
};

/**
 * Calls `fn({game, done, total})` after each slice of an endgame-table build (the
 * `endgame-progress` event). No-op in a browser, which has no tables.
 */
export function onEndgameProgress(fn) {
  const listen = globalThis.window && window.__TAURI__ && window.__TAURI__.event && window.__TAURI__.event.listen;
  if (typeof listen === 'function') listen('endgame-progress', (event) => fn(event.payload)).catch(() => {});
}

/**
 * Calls `fn()` each time the app receives a `damas://join/<code>` link while it runs (the
 * `deep-link` event; the code itself is taken with api.takeDeepLink, once). No-op in a browser.
 */
export function onDeepLink(fn) {
  const listen = globalThis.window && window.__TAURI__ && window.__TAURI__.event && window.__TAURI__.event.listen;
  if (typeof listen === 'function') listen('deep-link', () => fn()).catch(() => {});
}

// ---------- friends' rooms ----------
// A room game talks to a room server over the room protocol (room-socket.js). Which server:
// the page's own when a browser got the UI from `damas-server` (it answers `/health`), else the
// address saved in the settings, else — in the app — the server the app hosts itself on the
// local network (the `host_rooms` command). The screens ask here and never build sockets.

export const ROOM_SERVER_KEY = 'damas-room-server';

// In the app the address is one of the app's settings (`room_server` in settings.json, which a
// kill does not lose, unlike the web view's storage), handed here by main.js; null in a browser.
let settingServer = null;

/** The app's settings changed: their room server (none: ''). */
export function useRoomServerSetting(url) {
  settingServer = url || '';
}

/** The room server address saved on this device ('' if none). */
export function savedRoomServer() {
  if (settingServer !== null) return settingServer;
  try { return globalThis.localStorage?.getItem(ROOM_SERVER_KEY) || ''; } catch { return ''; }
}

/** Saves the address in a browser (the app saves it with its settings: app.saveSettings). */
export function saveRoomServer(url) {
  try {
    if (url) globalThis.localStorage?.setItem(ROOM_SERVER_KEY, url);
    else globalThis.localStorage?.removeItem(ROOM_SERVER_KEY);
  } catch { /* private mode */ }
}

let pageServer = null;
/** True when the page was served by a `damas-server` (it answers `/health`). */
function pageIsRoomServer() {
  if (!globalThis.location || !/^https?:$/.test(location.protocol)) return Promise.resolve(false);
  if (pageServer === null) {
    pageServer = fetch('/health', { cache: 'no-store' }).then((r) => r.ok, () => false);
  }
  return pageServer;
}
export const inApp = () => {
  const tauri = globalThis.window && window.__TAURI__ && window.__TAURI__.core;
  return !!(tauri && typeof tauri.invoke === 'function');
};

/**
 * The room server to use, or null when there is none: `{base, link, hosted}`, the http(s)
 * address this device connects to and the one friends open (they differ when the app hosts:
 * loopback for itself, the local network address for friends).
 */
export async function roomServer() {
  if (!inApp() && (await pageIsRoomServer())) return { base: location.origin, link: location.origin, hosted: false };
  const saved = savedRoomServer();
  if (saved) return { base: saved, link: saved, hosted: false };
  if (inApp()) {
    const hosted = await call('host_rooms', {});
    return { base: hosted.local, link: hosted.link, hosted: true };
  }
  return null;
}

/**
 * The online games in progress this device is seated in, newest first: `{code, kind, nickname,
 * at, server?}`. The app keeps them in rooms.json (list_rooms); a browser in its local storage.
 */
export async function roomGames() {
  if (inApp()) return call('list_rooms', {});
  const { createTokenStore } = await import('./room-socket.js');
  return createTokenStore().list().filter((r) => !r.finished);
}

/**
 * Where room `code` is played from this device: the server its saved seat belongs to (a game in
 * progress), else the one roomServer() picks. `{base, link, hosted}` or null.
 */
export async function roomServerFor(code) {
  if (inApp() && code !== 'new') {
    const kept = (await call('list_rooms', {})).find((r) => r.code === code);
    if (kept && kept.hosted) {
      const hosted = await call('host_rooms', {});
      return { base: hosted.local, link: hosted.link, hosted: true };
    }
    if (kept) return { base: kept.server, link: kept.server, hosted: false };
  }
  return roomServer();
}

/** A room connection to `server` (roomServer()'s answer), and the controller backend on it.
 * In the app the seat tokens are kept by the app (room-store.js), in a browser by the page. */
export async function openRoom(server) {
  const { createRoomSocket, createTokenStore } = await import('./room-socket.js');
  const { socketUrl, roomBackend } = await import('./rooms.js');
  let tokens;
  if (inApp()) {
    const { createAppRoomStore } = await import('./room-store.js');
    const rooms = await call('list_rooms', {}).catch(() => []);
    tokens = createAppRoomStore({ invoke: call, server: server.base, hosted: !!server.hosted, rooms });
  } else {
    tokens = createTokenStore();
  }
  const socket = createRoomSocket({ url: socketUrl(server.base), tokens });
  return { socket, tokens, backend: (you) => roomBackend(socket, you) };
}

// ---------- accounts, ratings and ranking (HTTP on the room server) ----------
// Signed in or not, a player's account lives on the room server (docs/protocol.md "Accounts");
// the session token is kept in account.js. These calls answer JSON or reject with {code,
// message, status}; `not_signed_in` means the token no longer works.

/** The room server's http(s) address for account calls, or null when there is none. */
async function accountBase() {
  // Not the server the app hosts on the local network: it keeps no accounts.
  const server = inApp() ? savedRoomServer() : (await roomServer().catch(() => null))?.base;
  return server ? server.replace(/\/+$/, '') : null;
}

async function accountCall(method, path, { token = null, body } = {}) {
  const base = await accountBase();
  if (!base) throw { code: 'no_account_server', message: 'no room server' };
  const headers = {};
  if (token) headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch (e) {
    throw { code: 'unavailable', message: String(e && e.message ? e.message : e) };
  }
  if (response.status === 204) return null;
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    throw { code: data && data.code ? String(data.code) : 'http_' + response.status, message: data && data.message ? String(data.message) : '', status: response.status };
  }
  return data;
}

export const accounts = {
  /** Whether the room server keeps accounts (the ranking answers). */
  available: () => accountCall('GET', '/api/ranking/english?limit=1').then(() => true, () => false),
  /** Sends the browser, or the app's system browser, to the server's sign-in (`to=web|app`). */
  async startSignIn(displayName = '') {
    const base = await accountBase();
    if (!base) throw { code: 'no_account_server', message: 'no room server' };
    const { signInUrl } = await import('./account-views.js');
    if (inApp()) return call('open_sign_in', { url: signInUrl(base, { to: 'app', displayName }) });
    location.assign(signInUrl(base, { to: 'web', displayName }));
    return null;
  },
  session: (token) => accountCall('GET', '/api/session', { token }),
  signOut: (token) => accountCall('DELETE', '/api/session', { token }),
  rename: (token, displayName) => accountCall('PUT', '/api/me/name', { token, body: { display_name: displayName } }),
  ratings: (token) => accountCall('GET', '/api/me/ratings', { token }),
  history: (token, kind, limit = 50) => accountCall('GET', `/api/me/history?kind=${encodeURIComponent(kind)}&limit=${limit}`, { token }),
  games: (token, limit = 10) => accountCall('GET', `/api/me/games?limit=${limit}`, { token }),
  ranking: (kind, token = null, limit = 50) => accountCall('GET', `/api/ranking/${encodeURIComponent(kind)}?limit=${limit}`, { token }),
  /** The app: the session of a sign-in that came back by the `damas://signed-in` link (once). */
  takeAppSession: () => (inApp() ? call('take_signed_in', {}) : Promise.resolve(null)),
  /** The app: calls `fn()` when a sign-in comes back while the app runs. No-op in a browser. */
  onAppSignedIn(fn) {
    const listen = globalThis.window && window.__TAURI__ && window.__TAURI__.event && window.__TAURI__.event.listen;
    if (typeof listen === 'function') listen('signed-in', () => fn()).catch(() => {});
  },
  /** A rated game's record (PDN text). */
  async gamePdn(id) {
    const base = await accountBase();
    if (!base) throw { code: 'no_account_server', message: 'no room server' };
    const response = await fetch(`${base}/api/games/${encodeURIComponent(id)}/pdn`, { cache: 'no-store' }).catch(() => null);
    if (!response || !response.ok) throw { code: 'no_such_game', message: id };
    return response.text();
  },
};
