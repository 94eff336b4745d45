// The endgame tables' lines in the settings: sizes, percentages, what each line offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endgameLine, formatBytes, percentDone } from '../js/endgame-tables.js';
import { setStrict, t } from '../js/i18n.js';

const row = (fields) => ({ game: 'english', pieces: 0, bytes: 0, offered: 5, building: false, done: 0, total: 0, ...fields });

test('sizes are written in decimal units with the language\'s decimal mark', () => {
  assert.equal(formatBytes(0, 'en'), '0 B');
  assert.equal(formatBytes(999, 'en'), '999 B');
  assert.equal(formatBytes(850_000, 'en'), '850 kB');
  assert.equal(formatBytes(12_400_000, 'en'), '12 MB');
  assert.equal(formatBytes(1_234_000_000, 'en'), '1.2 GB');
  assert.equal(formatBytes(1_234_000_000, 'es'), '1,2 GB');
  assert.equal(formatBytes(-5, 'en'), '0 B');
});

test('the percentage is rounded down and reaches 100 only when done', () => {
  assert.equal(percentDone(0, 0), 0);
  assert.equal(percentDone(999, 1000), 99);
  assert.equal(percentDone(1000, 1000), 100);
  assert.equal(percentDone(2000, 1000), 100);
  assert.equal(percentDone(1, 3), 33);
});

test('each state offers its action, and none starts while another game builds', () => {
  assert.deepEqual(endgameLine(row({}), 'en'), { text: ['endgame.none', { offered: 5 }], percent: null, action: 'build', disabled: false });
  assert.equal(endgameLine(row({}), 'en', true).disabled, true);
  const partial = endgameLine(row({ pieces: 3, bytes: 1_500_000 }), 'en');
  assert.deepEqual(partial.text, ['endgame.partial', { pieces: 3, size: '1.5 MB', offered: 5 }]);
  assert.equal(t(...partial.text, 'es'), 'Hasta 3 de 5 piezas (1.5 MB)');
  assert.equal(partial.action, 'complete');
  const ready = endgameLine(row({ pieces: 5, bytes: 200_000_000 }), 'es', true);
  assert.deepEqual(ready, { text: ['endgame.ready', { pieces: 5, size: '200 MB' }], percent: null, action: null, disabled: false });
  const building = endgameLine(row({ building: true, done: 250, total: 1000 }), 'en', true);
  assert.deepEqual(building, { text: ['endgame.building', { percent: 25 }], percent: 25, action: 'stop', disabled: false });
  // Until the backend has the build, a click would stop nothing.
  assert.equal(endgameLine(row({ building: true, starting: true }), 'en').disabled, true);
  const stopping = endgameLine(row({ building: true, stopping: true, done: 500, total: 1000 }), 'en', true);
  assert.equal(stopping.text[0], 'endgame.stopping');
  assert.equal(stopping.disabled, true);
});

test('every line and action has its words in both languages', () => {
  setStrict(true);
  for (const lang of ['es', 'en']) {
    for (const key of ['none', 'partial', 'ready', 'building', 'stopping', 'build', 'complete', 'stop', 'build.label', 'complete.label', 'stop.label', 'progress', 'started', 'built', 'stopped']) {
      const text = t('endgame.' + key, { game: 'X', pieces: 3, offered: 4, size: '1 MB', percent: 5 }, lang);
      assert.ok(text && !text.startsWith('endgame.') && !text.includes('{'), `${lang} endgame.${key}: ${text}`);
    }
    for (const code of ['endgame_busy', 'endgame_failed', 'endgame_stopped']) assert.ok(t('error.' + code, {}, lang) !== 'error.' + code, code);
  }
  setStrict(false);
});
