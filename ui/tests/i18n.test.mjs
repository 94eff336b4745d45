// Every key in both languages, the same placeholders, and written content for every game.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRINGS, t, tn, seatName, resolveLanguage, pluralCategory } from '../js/i18n.js';
import { readFileSync, readdirSync } from 'node:fs';
import { CONTENT } from '../js/content.js';
import esTexts from '../js/i18n/es.js';
import enTexts from '../js/i18n/en.js';

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('Spanish and English have the same keys', () => {
  assert.deepEqual(Object.keys(enTexts).sort(), Object.keys(esTexts).sort());
});

test('the lookup reads the per-language data files', () => {
  assert.equal(STRINGS.es, esTexts);
  assert.equal(STRINGS.en, enTexts);
});

test('translations use the same placeholders and are not empty', () => {
  for (const k of Object.keys(STRINGS.es)) {
    assert.ok(STRINGS.es[k].trim() && STRINGS.en[k].trim(), k);
    assert.deepEqual(placeholders(STRINGS.en[k]), placeholders(STRINGS.es[k]), k);
  }
});

test('every error code of the contract and every end reason has a text', () => {
  const codes = ['unknown_game', 'bad_players', 'illegal_move', 'not_your_turn', 'game_over', 'no_such_game', 'bad_level', 'cancelled', 'nothing_to_undo', 'nothing_to_redo', 'storage', 'bad_input'];
  const reasons = ['no_legal_moves', 'destination_reached', 'no_jumps_left', 'repetition', 'no_progress', 'move_limit', 'insufficient_material', 'endgame_count', 'all_passed', 'resignation'];
  for (const lang of ['es', 'en']) {
    for (const c of codes) assert.ok(STRINGS[lang]['error.' + c], c);
    for (const r of reasons) assert.ok(STRINGS[lang]['reason.' + r], r);
  }
});

test("the seeds' terms are used in Spanish", () => {
  assert.equal(t('act.pass', {}, 'es'), 'Pasar');
  assert.equal(t('panel.king', {}, 'es'), 'Rey');
  assert.equal(t('act.undo', {}, 'es'), 'Deshacer jugada');
  assert.equal(t('act.new', {}, 'es'), 'Nueva partida');
  assert.equal(t('act.mode', {}, 'es'), 'Cambiar de modo');
  assert.equal(t('act.resign', {}, 'es'), 'Rendirse');
  assert.equal(t('setup.longjump', {}, 'es'), 'Salto largo');
  assert.equal(t('status.kingtohome', {}, 'es'), 'Lleva el rey a ◎');
  assert.equal(tn('move.jumps', 1, { name: 'Amarillo', from: 'F10 P1', to: 'F10 P3' }, 'es'), 'Amarillo mueve de F10 P1 a F10 P3 (1 salto)');
  assert.equal(tn('panel.jumps', 2, {}, 'es'), '2 saltos');
});

test('seat names and language resolution', () => {
  assert.equal(seatName('yellow', 'es'), 'Amarillo');
  assert.equal(seatName('3', 'en'), 'Player 3');
  assert.equal(resolveLanguage(null, ['en-GB', 'es']), 'en');
  assert.equal(resolveLanguage(null, ['fr-FR']), 'es');
  assert.equal(resolveLanguage('en', ['es-ES']), 'en');
});

test('rules, tips and FAQ exist for every game in both languages', () => {
  for (const lang of ['es', 'en']) {
    for (const game of ['english', 'international', 'turkish', 'diamond', 'capture']) {
      for (const part of ['rules', 'tips', 'faq']) {
        const lines = CONTENT[lang][game][part];
        assert.ok(Array.isArray(lines) && lines.length >= 2, `${lang}/${game}/${part}`);
      }
      const q = CONTENT[lang][game].faq.filter((l) => l.startsWith('Q: ')).length;
      assert.ok(q >= 2, `${lang}/${game} has questions`);
    }
  }
});

test('counts agree with their number in both languages (Intl.PluralRules)', () => {
  assert.equal(t('home.moves', { n: 1 }, 'es'), '1 jugada');
  assert.equal(t('home.moves', { n: 2 }, 'es'), '2 jugadas');
  assert.equal(t('home.moves', { n: 0 }, 'es'), '0 jugadas');
  assert.equal(t('home.moves', { n: 1 }, 'en'), '1 move');
  assert.equal(t('home.moves', { n: 0 }, 'en'), '0 moves');
  assert.equal(t('home.players', { n: 1 }, 'en'), '1 player');
  assert.equal(t('draw.no_progress', { n: 1 }, 'es'), 'Tablas por falta de progreso en 1 jugada');
  assert.equal(t('move.selected', { n: 1, cell: '9' }, 'en'), 'Piece 9 picked: 1 destination');
  assert.equal(tn('move.captures', 1, { name: 'Negras', from: '9', to: '18' }, 'es'), 'Negras captura de 9 a 18 (1 pieza)');
  // Spanish has a CLDR "many" category (a million): the family falls back to `.other`.
  assert.equal(pluralCategory(1000000, 'es') === 'many' || pluralCategory(1000000, 'es') === 'other', true);
  assert.equal(t('home.moves', { n: 1000000 }, 'es'), '1000000 jugadas');
});

test('every text that puts a word after a count is a plural family with one and other', () => {
  for (const lang of ['es', 'en']) {
    const table = STRINGS[lang];
    for (const [key, text] of Object.entries(table)) {
      if (!/\{n\}\s*\p{L}/u.test(text)) continue;
      const m = /^(.*)\.(one|other)$/.exec(key);
      assert.ok(m, `${lang} ${key}: "${text}" counts without a plural family`);
      assert.ok(table[m[1] + '.one'] && table[m[1] + '.other'], `${lang} ${m[1]} lacks .one or .other`);
    }
  }
});

test('the screens ask for counted texts by family name, never a fixed member', () => {
  const dir = new URL('../js/', import.meta.url);
  const files = [...readdirSync(dir).filter((f) => f.endsWith('.js')).map((f) => new URL(f, dir)),
    ...readdirSync(new URL('screens/', dir)).map((f) => new URL('screens/' + f, dir))];
  for (const file of files) {
    const src = readFileSync(file, 'utf8');
    for (const m of src.matchAll(/\bt\('([\w.]+)\.other'/g)) assert.fail(`${file.pathname}: t('${m[1]}.other') — use t('${m[1]}', { n })`);
  }
});

test('the Diamond rules state the no-gift rule and the king jumping a single piece (seed 000)', () => {
  const es = CONTENT.es.diamond.rules.join('\n');
  const en = CONTENT.en.diamond.rules.join('\n');
  assert.match(es, /prohibida la jugada que llenaría el último hueco libre del destino de otro jugador/);
  assert.match(es, /El rey salta como las demás fichas una sola ficha pegada/);
  assert.match(en, /would fill the last empty hole of another player’s destination/);
  assert.match(en, /king may jump a single adjacent piece/);
});
