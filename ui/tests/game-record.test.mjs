// A shared game's record in words: an imported game's tags, and import errors sent as codes with
// arguments, worded in the player's language.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recordRows, importProblemText } from '../js/game-record.js';
import { toError } from '../js/api.js';
import { setLanguage, STRINGS } from '../js/i18n.js';
import { describeMove } from '../js/state.js';

const CLUB = [
  ['GameType', '21'], ['Event', 'Club night'], ['Site', 'Zaragoza'], ['Date', '2026.11.28'], ['Round', '?'],
  ['White', 'Ana Ruiz'], ['Black', 'Luis Gil'], ['Annotator', 'Marta'], ['Result', '*'],
];

test("an imported game's tags are shown: event, site, date, annotator, players; unknowns left out", () => {
  setLanguage('es');
  assert.deepEqual(recordRows(CLUB), [
    { label: 'Evento', value: 'Club night' },
    { label: 'Lugar', value: 'Zaragoza' },
    { label: 'Fecha', value: '2026.11.28' },
    { label: 'Comentarista', value: 'Marta' },
    { label: 'Jugadores', value: 'Ana Ruiz – Luis Gil' },
  ]);
  setLanguage('en');
  assert.deepEqual(recordRows(CLUB).map((r) => r.label), ['Event', 'Site', 'Date', 'Annotator', 'Players']);
  // A star game's seats; a game started here has no tags.
  assert.deepEqual(recordRows([['Red', 'Pepa'], ['Yellow', 'CPU (hard)'], ['Player3', '?']]), [{ label: 'Players', value: 'Pepa – CPU (hard)' }]);
  assert.deepEqual(recordRows(undefined), []);
  setLanguage('es');
});

// As the app's import_game command rejects (src-tauri/tests/review_share.rs checks the backend side).
const illegal = { code: 'bad_record', message: "line 5: move 4 '21-17': '21-17' is not a legal move here", line: 5, reason: 'illegal_move', args: { ply: '4', move: '21-17' } };
const syntax = { code: 'bad_record', message: 'line 1: PDN syntax: unexpected \')\'', line: 1, reason: 'syntax', args: { what: 'unexpected', symbol: ')' } };

test('an import error is worded from its code and arguments, in Spanish and in English', () => {
  const kept = toError(illegal);
  assert.deepEqual(kept, illegal, 'the line, reason and args reach the UI');
  setLanguage('es');
  assert.equal(importProblemText(kept), 'En la línea 5, la jugada 4 «21-17» no es legal en esa posición.');
  assert.equal(importProblemText(toError(syntax)), 'En la línea 1, el texto PDN está mal formado (sobra «)»).');
  setLanguage('en');
  assert.equal(importProblemText(kept), 'On line 5, move 4 “21-17” is not legal in that position.');
  assert.equal(importProblemText(toError(syntax)), 'On line 1, the PDN text is malformed (an unexpected “)”).');
  // Not about the text: the caller's usual error words.
  assert.equal(importProblemText({ code: 'bad_input', message: 'x' }), null);
  setLanguage('es');
});

test('every import reason the backend sends has words in both languages', () => {
  const reasons = ['syntax', 'game_type', 'start_position', 'move_syntax', 'illegal_move', 'ambiguous_move', 'move_after_end', 'unknown_seat', 'resigned_after_end'];
  const syntaxes = ['text_after_result', 'tag_in_movetext', 'comment_not_closed', 'variation_not_closed', 'unexpected', 'tag_without_name', 'tag_value_not_quoted', 'tag_value_not_closed', 'bad_escape', 'tag_not_closed'];
  for (const lang of ['es', 'en']) {
    for (const r of reasons) assert.ok(STRINGS[lang]['import.problem.' + r], `${lang} ${r}`);
    for (const s of syntaxes) assert.ok(STRINGS[lang]['import.syntax.' + s], `${lang} ${s}`);
  }
});

test('a capture that ends where it began is told as a round trip, not "from X to X"', () => {
  const view = { variant: { kind: 'capture', players: 2 }, human_seats: [0], mode: 'local', seats: [{ seat: 0, name: '1' }, { seat: 1, name: '2' }], layout: { cells: [{ name: 'F6P5', view_names: ['F6P5', 'F12P5'] }] } };
  const entry = { seat: 0, move: { move: 'F6P5xF6P5', from: 'F6P5', to: 'F6P5', path: ['F6P5', 'F8P5', 'F8P7', 'F6P5'], jumps: 3, captures: ['a', 'b', 'c'], legs: [] } };
  setLanguage('es');
  const es = describeMove(view, entry);
  assert.match(es, /captura en circuito: sale de F6 ?P5 y vuelve a él \(3 piezas\)/, es);
  assert.doesNotMatch(es, / a F6/);
  setLanguage('en');
  assert.match(describeMove(view, entry), /captures on a round trip: from F6 ?P5 back to it \(3 pieces\)/);
  setLanguage('es');
});
