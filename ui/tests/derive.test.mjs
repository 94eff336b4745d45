// Derivations for the game screen: the board turned by the flip button or to the player to move, one
// naming for star moves on one device, every move since your last turn, the Diamond goals
// and the result told from the player's side with figures. Views are the engine's
// (ui/tests/fixtures, written by tests/ui_fixtures.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture } from './fixtures.mjs';
import {
  viewerSeat, describeMove, namingSeat, movesSinceLastTurn, markedMoves, describeRecentMoves, diamondGoals,
  destinationOf, outcomeText, outcomeReason, resultFigures, formatDuration,
} from '../js/state.js';
import { setLanguage, setStrict } from '../js/i18n.js';

setStrict(true);

/** The engine's view of a new game: `setup` picks the fixture line that starts that way. */
function started(kind, setup = {}) {
  const players = setup.players || 2;
  const mode = setup.mode || 'local';
  const name = {
    'english:local:2': 'forced-capture',
    'english:cpu:2': 'vs-cpu',
    'diamond:local:2': 'local-2',
    'diamond:local:3': 'local-3',
    'diamond:cpu:3': 'vs-cpu',
  }[`${kind}:${mode}:${players}`];
  const view = fixture(kind, name, 0);
  assert.equal(view.mode, mode);
  assert.equal(view.variant.players, players);
  return { name, view };
}

const entry = (seat, move = 'x') => ({ seat, move: { move, from: 'a', to: 'b', path: ['a', 'b'], jumps: 0, captures: [], pass: false } });

test('draughts on one device: the flip button turns the board, the option turns it to the player to move', async () => {
  const { view } = started('english');
  assert.equal(viewerSeat(view), 0);
  assert.equal(viewerSeat(view, { flipped: true }), 1);
  const second = { ...view, to_move: 1 };
  assert.equal(viewerSeat(second), 0, 'without the option the board stays put');
  assert.equal(viewerSeat(second, { turnToPlayer: true }), 1);
  assert.equal(viewerSeat(second, { turnToPlayer: true, flipped: true }), 0);
  // Against the CPU the human's side, flipped on demand; star boards have no flip.
  const cpu = { ...view, mode: 'cpu', human_seats: [1] };
  assert.equal(viewerSeat(cpu, { turnToPlayer: true }), 1);
  assert.equal(viewerSeat(cpu, { flipped: true }), 0);
  const { view: star } = started('diamond', { players: 3 });
  assert.equal(viewerSeat({ ...star, to_move: 2 }, { flipped: true }), 2);
});

test('pass-and-play star games: a move is written in its mover\'s F/P names whoever looks', async () => {
  setLanguage('en');
  const { name } = started('diamond', { players: 3 });
  const view = fixture('diamond', name, 1);
  const e = view.history[0];
  assert.equal(e.seat, 0);
  assert.equal(namingSeat(view, e), 0);
  const texts = [0, 1, 2].map((toMove) => describeMove({ ...view, to_move: toMove }, e));
  assert.equal(new Set(texts).size, 1, `one text whoever is to move: ${texts}`);
  // Red's own names: its pieces start in rows F1–F5, so the origin is one of them.
  assert.match(texts[0], /^Red moves from F[1-5] P\d+ to F\d+ P\d+/);
  // Against the CPU the human's names are used for every seat's move.
  const cpu = { ...view, mode: 'cpu', human_seats: [1] };
  assert.equal(namingSeat(cpu, e), 1);
});

test('the marks and the text cover every move since your last turn', () => {
  const base = { variant: { kind: 'diamond', players: 3 }, seats: [0, 1, 2].map((seat) => ({ seat, name: ['red', 'yellow', 'green'][seat], cpu: seat > 0, stats: {} })), layout: { cells: [] } };
  const cpu = { ...base, mode: 'cpu', human_seats: [0], to_move: 0, history: [entry(0, 'a'), entry(1, 'b'), entry(2, 'c'), entry(0, 'd'), entry(1, 'e'), entry(2, 'f')] };
  assert.deepEqual(movesSinceLastTurn(cpu).map((e) => e.move.move), ['e', 'f']);
  // While the CPUs answer, the moves so far; right after your move, just yours.
  assert.deepEqual(movesSinceLastTurn({ ...cpu, to_move: 2, history: cpu.history.slice(0, 5) }).map((e) => e.move.move), ['e']);
  assert.deepEqual(movesSinceLastTurn({ ...cpu, to_move: 1, history: cpu.history.slice(0, 4) }).map((e) => e.move.move), ['d']);
  // A pass is said but not drawn.
  const passed = { ...cpu, history: [...cpu.history.slice(0, 5), { seat: 2, move: { move: 'pass', pass: true, path: [], captures: [] } }] };
  assert.deepEqual(movesSinceLastTurn(passed).map((e) => e.move.move), ['e', 'pass']);
  assert.deepEqual(markedMoves(passed).map((e) => e.move.move), ['e']);
  // On one device: the others' moves since the player to move last played.
  const local = { ...base, mode: 'local', human_seats: [0, 1, 2], to_move: 1, history: cpu.history.slice(0, 4) };
  assert.deepEqual(movesSinceLastTurn(local).map((e) => e.move.move), ['c', 'd']);
  // Two seats: the last move.
  const two = { ...base, variant: { kind: 'english', players: 2 }, mode: 'cpu', human_seats: [0], to_move: 0, history: [entry(0, 'a'), entry(1, 'b')] };
  assert.deepEqual(movesSinceLastTurn(two).map((e) => e.move.move), ['b']);
  assert.deepEqual(movesSinceLastTurn({ ...two, history: [] }), []);
  setLanguage('es');
  assert.equal(describeRecentMoves({ ...cpu, history: cpu.history.map((e) => ({ ...e, move: { ...e.move, pass: true } })) }).join(' | '), 'Amarillo pasa | Verde pasa');
});

test('Diamond goals: ◎ on each playing seat\'s destination apex, the viewer\'s 15 destination holes', async () => {
  const { view } = started('diamond', { players: 3 });
  const goals = diamondGoals(view, 1);
  assert.equal(goals.apexes.length, 3);
  for (const a of goals.apexes) {
    const c = view.layout.cells.find((x) => x.name === a.cell);
    assert.equal(c.view_names[a.seat], 'F17P1', `seat ${a.seat}'s apex is F17 in its own names`);
  }
  assert.equal(goals.viewer, 1);
  assert.equal(goals.home.length, 15);
  assert.ok(goals.home.includes(destinationOf(view, 1).apex));
  // Its point (rows 14–17) is empty at the start: nobody starts there (only the two corner holes
  // of its base are shared with the neighbours' starts).
  const occupied = new Set(view.pieces.map((p) => p.cell));
  const row = (c) => Number(view.layout.cells.find((x) => x.name === c).view_names[1].match(/^F(\d+)/)[1]);
  assert.equal(goals.home.filter((c) => row(c) >= 14).length, 10);
  assert.ok(goals.home.filter((c) => row(c) >= 14).every((c) => !occupied.has(c)));
  const { view: two } = started('diamond', { players: 2 });
  assert.equal(diamondGoals(two).apexes.length, 2);
  const { view: english } = started('english');
  assert.equal(diamondGoals(english), null);
});

test('the result is told from the player\'s side against the CPU and names the winner on one device', async () => {
  const { view } = started('english', { mode: 'cpu', human_seats: [0] });
  const over = (winner, reason, extra = {}) => ({ ...view, outcome: { winner, reason }, ...extra });
  setLanguage('en');
  assert.equal(outcomeText(over(1, 'no_legal_moves', { to_move: 0 })), 'You lost');
  assert.equal(outcomeReason(over(1, 'no_legal_moves', { to_move: 0 })), 'You have no move left.');
  assert.equal(outcomeText(over(0, 'no_legal_moves', { to_move: 1 })), 'You win!');
  assert.equal(outcomeReason(over(0, 'no_legal_moves', { to_move: 1 })), 'Your opponent has no move left.');
  assert.equal(outcomeReason(over(1, 'resignation')), 'You resigned.');
  assert.equal(outcomeText(over(null, 'repetition')), 'Draw');
  assert.equal(outcomeReason(over(null, 'repetition')), 'The same position for the third time.');
  setLanguage('es');
  const local = { ...over(1, 'no_legal_moves', { to_move: 0 }), mode: 'local', human_seats: [0, 1] };
  assert.equal(outcomeText(local), 'Gana Blancas');
  assert.equal(outcomeReason(local), 'Negras no tiene jugadas.');
  assert.equal(outcomeReason({ ...local, outcome: { winner: 0, reason: 'resignation' } }), 'Blancas se ha rendido.');
  assert.equal(outcomeReason({ ...over(0, 'no_legal_moves', { to_move: 1 }) }), 'Tu rival no tiene jugadas.');
  const { view: d3 } = started('diamond', { players: 3, mode: 'cpu', human_seats: [0] });
  assert.equal(outcomeText({ ...d3, outcome: { winner: 2, reason: 'destination_reached' } }), 'Has perdido: gana Verde');
  assert.equal(outcomeReason({ ...d3, outcome: { winner: 2, reason: 'destination_reached' } }), 'Verde ha llevado todas sus fichas al destino y su rey a ◎.');
});

test('result figures: moves, captures per side (you first against the CPU), time', async () => {
  setLanguage('en');
  const { view } = started('english', { mode: 'cpu', human_seats: [0] });
  const seats = view.seats.map((s) => ({ ...s, stats: { ...s.stats, pieces: s.seat === 0 ? 10 : 7 } }));
  const figs = resultFigures({ ...view, seats, history: [entry(0), entry(1), entry(0)], created: 1000, last_played: 1000 + 754000 });
  assert.deepEqual(figs.map((f) => [f.key, f.value]), [['moves', '3'], ['captures', 'You 5 · White 2'], ['time', '12:34']]);
  assert.equal(formatDuration(3723000), '1:02:03');
  const { view: d } = started('diamond', { players: 2, mode: 'local' });
  assert.deepEqual(resultFigures(d).find((f) => f.key === 'home').value, 'Red 0/15 · Yellow 0/15');
});

test('saved rows say when in words, in the page language', async () => {
  const { relativeTime } = await import('../js/screens/common.js');
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  assert.equal(relativeTime(now - 5 * 60000, now, 'en'), '5 minutes ago');
  assert.equal(relativeTime(now - 5 * 60000, now, 'es'), 'hace 5 minutos');
  assert.equal(relativeTime(now - 26 * 3600000, now, 'es'), 'ayer');
  assert.equal(relativeTime(now - 10000, now, 'en'), 'this minute');
});
