import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createAccountState } from '../js/account.js';

function memoryStorage() {
  const map = new Map();
  return {
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
    map,
  };
}

test('a session set on one page is read back by the next page on the same device', () => {
  const storage = memoryStorage();
  const first = createAccountState(storage);
  assert.equal(first.signedIn(), false);
  first.set('tok-123', { id: 7, display_name: 'Ana' });
  const next = createAccountState(storage);
  assert.deepEqual(next.get(), { token: 'tok-123', account: { id: 7, display_name: 'Ana' } });
  assert.equal(next.token(), 'tok-123');
});

test('clearing tells the listeners once and forgets the stored session', () => {
  const storage = memoryStorage();
  const state = createAccountState(storage);
  const seen = [];
  const stop = state.subscribe((s) => seen.push(s));
  state.set('t', null);
  state.clear();
  state.clear();
  stop();
  state.set('u', null);
  assert.deepEqual(seen, [{ token: 't', account: null }, null]);
  assert.equal(createAccountState(storage).token(), 'u');
});

test('a damaged stored value leaves the device a guest', () => {
  for (const raw of ['{', 'null', '{"token":""}', '{"token":5}', '[]']) {
    const storage = memoryStorage();
    storage.setItem('damas.account.session', raw);
    assert.equal(createAccountState(storage).get(), null, raw);
  }
});

test('an empty or non-string token is not taken', () => {
  const state = createAccountState(memoryStorage());
  state.set('', null);
  state.set(undefined, null);
  assert.equal(state.signedIn(), false);
});
