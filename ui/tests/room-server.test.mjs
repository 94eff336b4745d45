// Which room server the UI uses (api.js `roomServer`), chosen in that one place: the page's own
// damas-server in a browser, else the address saved in the settings, else in the app the server
// the app hosts itself (`host_rooms`). Each case imports api.js afresh with its own globals.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';

let fresh = 0;
const importApi = () => import(`../js/api.js?case=${fresh++}`);

function memoryStorage(entries = {}) {
  const m = new Map(Object.entries(entries));
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

const saved = {};
afterEach(() => {
  for (const k of ['window', 'location', 'fetch', 'localStorage']) {
    if (k in saved) globalThis[k] = saved[k];
    else delete globalThis[k];
  }
});
function setGlobals(values) {
  for (const [k, v] of Object.entries(values)) {
    if (!(k in saved) && k in globalThis) saved[k] = globalThis[k];
    Object.defineProperty(globalThis, k, { value: v, configurable: true, writable: true });
  }
}

test('a browser served by damas-server uses the page\'s own server', async () => {
  const asked = [];
  setGlobals({
    window: {},
    location: { protocol: 'http:', origin: 'http://192.168.1.5:8080' },
    fetch: async (url) => { asked.push(url); return { ok: true }; },
    localStorage: memoryStorage({ 'damas-room-server': 'https://elsewhere.example' }),
  });
  const { roomServer } = await importApi();
  assert.deepEqual(await roomServer(), { base: 'http://192.168.1.5:8080', link: 'http://192.168.1.5:8080', hosted: false });
  assert.deepEqual(asked, ['/health']);
});

test('a browser elsewhere (no /health) uses the saved server, or none', async () => {
  const storage = memoryStorage();
  setGlobals({
    window: {},
    location: { protocol: 'http:', origin: 'http://127.0.0.1:8000' },
    fetch: async () => ({ ok: false }),
    localStorage: storage,
  });
  const { roomServer, saveRoomServer } = await importApi();
  assert.equal(await roomServer(), null);
  saveRoomServer('https://damas.example');
  assert.deepEqual(await roomServer(), { base: 'https://damas.example', link: 'https://damas.example', hosted: false });
});

test('the app hosts the rooms itself when no server is saved; a saved one wins', async () => {
  const calls = [];
  const invoke = async (name, args) => {
    calls.push([name, args]);
    if (name === 'host_rooms') return { local: 'http://127.0.0.1:41000', link: 'http://192.168.1.20:41000' };
    throw { code: 'bad_input', message: name };
  };
  const storage = memoryStorage();
  setGlobals({
    window: { __TAURI__: { core: { invoke } } },
    location: { protocol: 'tauri:', origin: 'tauri://localhost' },
    fetch: async () => { throw new Error('the app does not probe /health'); },
    localStorage: storage,
  });
  const { roomServer, useRoomServerSetting } = await importApi();
  storage.setItem('damas-room-server', 'https://old-storage.example');
  useRoomServerSetting(null);
  assert.deepEqual(await roomServer(), { base: 'http://127.0.0.1:41000', link: 'http://192.168.1.20:41000', hosted: true },
    'the app connects on loopback; friends get the network address (its settings, not the web view\'s storage)');
  assert.deepEqual(calls, [['host_rooms', {}]]);
  useRoomServerSetting('https://damas.example');
  assert.deepEqual(await roomServer(), { base: 'https://damas.example', link: 'https://damas.example', hosted: false });
  assert.equal(calls.length, 1, 'no hosting when a server is set');
});

test('a game in progress goes back to the server its saved seat is on', async () => {
  const kept = [
    { code: 'AAAAAAAAAAAAAAAA', server: 'http://10.0.0.7:8080', token: 't'.repeat(43), kind: 'english', nickname: 'Ana', at: 2 },
    { code: 'BBBBBBBBBBBBBBBB', server: 'http://127.0.0.1:41000', token: 'u'.repeat(43), kind: 'diamond', nickname: 'Ana', at: 1, hosted: true },
  ];
  const invoke = async (name) => {
    if (name === 'list_rooms') return kept;
    if (name === 'host_rooms') return { local: 'http://127.0.0.1:41000', link: 'http://192.168.1.20:41000' };
    throw { code: 'bad_input', message: name };
  };
  setGlobals({
    window: { __TAURI__: { core: { invoke } } },
    location: { protocol: 'tauri:', origin: 'tauri://localhost' },
    fetch: async () => { throw new Error('no /health in the app'); },
    localStorage: memoryStorage(),
  });
  const { roomServerFor, roomGames, useRoomServerSetting } = await importApi();
  useRoomServerSetting('https://now-another.example');
  assert.deepEqual(await roomServerFor('AAAAAAAAAAAAAAAA'), { base: 'http://10.0.0.7:8080', link: 'http://10.0.0.7:8080', hosted: false },
    'the seat\'s server, not the one set since');
  assert.deepEqual(await roomServerFor('BBBBBBBBBBBBBBBB'), { base: 'http://127.0.0.1:41000', link: 'http://192.168.1.20:41000', hosted: true });
  assert.deepEqual(await roomServerFor('CCCCCCCCCCCCCCCC'), { base: 'https://now-another.example', link: 'https://now-another.example', hosted: false });
  assert.deepEqual((await roomGames()).map((r) => r.code), ['AAAAAAAAAAAAAAAA', 'BBBBBBBBBBBBBBBB']);
});

test('a browser lists its rooms from local storage, games in progress only', async () => {
  const storage = memoryStorage({
    'damas-room:AAAAAAAAAAAAAAAA': JSON.stringify({ token: 'x', kind: 'english', at: 1 }),
    'damas-room:BBBBBBBBBBBBBBBB': JSON.stringify({ token: 'y', kind: 'english', at: 2, finished: true }),
  });
  storage.key = (i) => ['damas-room:AAAAAAAAAAAAAAAA', 'damas-room:BBBBBBBBBBBBBBBB'][i];
  storage.length = 2;
  setGlobals({ window: {}, location: { protocol: 'file:' }, localStorage: storage });
  const { roomGames } = await importApi();
  assert.deepEqual((await roomGames()).map((r) => r.code), ['AAAAAAAAAAAAAAAA']);
});
