// The level choices of the setup screen and expert's thinking time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEVELS, MOVETIME, MOVETIME_CHOICES, levelOptions, movetimeOptions, showsThinkingTime, validMovetime } from '../js/levels.js';
import { t } from '../js/i18n.js';

test('the setup screen offers the four levels, expert last, each named in both languages', () => {
  for (const lang of ['es', 'en']) {
    const options = levelOptions((key, vars) => t(key, vars, lang));
    assert.deepEqual(options.map((o) => o.value), ['easy', 'medium', 'hard', 'expert']);
    for (const o of options) assert.ok(o.label && o.label !== 'level.' + o.value, `${lang} ${o.value}`);
    assert.equal(new Set(options.map((o) => o.label)).size, LEVELS.length, `${lang}: distinct labels`);
  }
  assert.equal(t('level.expert', {}, 'es'), 'Experto');
  assert.equal(t('level.expert', {}, 'en'), 'Expert');
});

test('the thinking-time control shows for expert only', () => {
  assert.deepEqual(LEVELS.filter(showsThinkingTime), ['expert']);
});

test('thinking times run from half a second to five seconds, labelled in seconds', () => {
  assert.equal(MOVETIME_CHOICES[0], MOVETIME.min);
  assert.equal(MOVETIME_CHOICES.at(-1), MOVETIME.max);
  assert.ok(MOVETIME_CHOICES.includes(MOVETIME.default));
  const en = movetimeOptions((key, vars) => t(key, vars, 'en'), 'en');
  assert.deepEqual(en.map((o) => o.label), ['0.5\u00a0s', '1\u00a0s', '2\u00a0s', '3\u00a0s', '5\u00a0s']);
  const es = movetimeOptions((key, vars) => t(key, vars, 'es'), 'es');
  assert.equal(es[0].label, '0,5\u00a0s', 'a non-breaking space keeps the unit with the figure');
});

test('a missing or corrupt thinking time reads as the default', () => {
  for (const ms of [500, 1000, 2500, 5000]) assert.equal(validMovetime(ms), ms);
  for (const bad of [undefined, null, 499, 5001, 1000.5, '1000', NaN, -1]) assert.equal(validMovetime(bad), MOVETIME.default, String(bad));
});
