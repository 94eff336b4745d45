// Which backend api.js uses outside the app: the page's damas-server (it answers /health) plays
// the CPU games; on a plain file server the replaying stand-in answers. Each case loads its own
// copy of the module (the choice is made once per page).
import { test } from 'node:test';
import assert from 'node:assert/strict';

async function freshApi(health) {
  const asked = [];
  globalThis.location = { protocol: 'http:', origin: 'http://127.0.0.1:9', pathname: '/', search: '', hash: '' };
  globalThis.fetch = async (url) => {
    asked.push(String(url));
    if (health === 'down') throw new Error('connection refused');
    return { ok: health === 'ok', status: health === 'ok' ? 200 : 404, json: async () => ({}) };
  };
  const api = await import(`../js/api.js?case=${health}-${Math.random()}`);
  return { api, asked };
}

test('a page served by damas-server plays the CPU there: no hints, no review, no games on one device', async () => {
  const { api, asked } = await freshApi('ok');
  const features = await api.features();
  assert.deepEqual(features, { hint: false, review: false, export: false, local: false, stats: false });
  assert.equal(await api.isMock(), false);
  assert.deepEqual(asked, ['/health']);
  assert.deepEqual(api.knownFeatures(), features);
  // Games on one device are refused by the backend itself, before any socket.
  await assert.rejects(api.api.newGame({ variant: { kind: 'english', players: 2 }, mode: 'local' }), { code: 'local_unavailable' });
});

test('a page without a room server (the UI tests) gets the replaying stand-in with everything', async () => {
  for (const health of ['missing', 'down']) {
    const { api } = await freshApi(health);
    assert.equal(await api.isMock(), true, health);
    assert.deepEqual(await api.features(), { hint: true, review: true, export: true, local: true, stats: true });
  }
});
