// What the result dialog says about candies, from `get_candies` read right after the game was
// recorded (`last_due`: what the game is worth by the rules; `last_earned`: what the day's budget
// let it give).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candiesNote } from '../js/state.js';
import { setLanguage } from '../js/i18n.js';

const reply = (today, lastDue, lastEarned) => ({ today, total: today + 100, budget: 60, last_due: lastDue, last_earned: lastEarned });

test('a game worth nothing by the rules (too short, lost to the CPU) says nothing', () => {
  setLanguage('es');
  assert.equal(candiesNote(reply(12, 0, 0)), null);
  assert.equal(candiesNote(reply(60, 0, 0)), null);
  assert.equal(candiesNote(null), null);
});

test('a win against the CPU, a friends\' game: the candies it gave', () => {
  setLanguage('es');
  assert.equal(candiesNote(reply(12, 6, 6)), 'Has ganado 6 caramelos.');
  assert.equal(candiesNote(reply(33, 5, 5)), 'Has ganado 5 caramelos.');
  setLanguage('en');
  assert.equal(candiesNote(reply(12, 6, 6)), 'You earned 6 candies.');
  assert.equal(candiesNote(reply(55, 6, 1)), 'You earned 1 candy.');
});

test('the budget used up: said when this game filled it, and when it gave none', () => {
  setLanguage('es');
  assert.equal(candiesNote(reply(60, 6, 2)), 'Has ganado 2 caramelos. Ya tienes los 60 caramelos de hoy: mañana podrás ganar más.');
  assert.equal(candiesNote(reply(60, 6, 6)), 'Has ganado 6 caramelos. Ya tienes los 60 caramelos de hoy: mañana podrás ganar más.');
  assert.equal(candiesNote(reply(60, 15, 0)), 'Ya tienes los 60 caramelos de hoy, así que esta partida no da más: mañana podrás ganar más.');
  setLanguage('en');
  assert.equal(candiesNote(reply(60, 6, 0)), "You already have today's 60 candies, so this game gives none: you can earn more tomorrow.");
  setLanguage('es');
});
