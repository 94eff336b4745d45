// Headless derivations from a GameView and the board model, on views made by the engine
// (ui/tests/fixtures, written by tests/ui_fixtures.rs): the UI never judges a move itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, line, loadFixture } from './fixtures.mjs';
import { initialInput, reduce, currentDestinations, selectablePieces, currentPrefix } from '../js/input.js';
import { inputContext, mustCapture, describeMove, kingMustGoHome, viewerSeat, destinationLabel, nearDraws, passOnly, formatCell } from '../js/state.js';
import { boardModel, geometryCache } from '../js/board-model.js';
import { createGameController } from '../js/game-controller.js';
import { createReplay } from '../js/replay.js';
import { setLanguage } from '../js/i18n.js';

const step = (state, ctx, ...actions) => actions.reduce((s, a) => reduce(s, a, ctx).state, state);
const tap = (cell) => ({ type: 'tap', cell, pointer: 'touch' });
const fadedAt = (view, input) => [...boardModel(view, input, { geometryFor: geometryCache() }).faded].sort();

test('English: when a capture is forced only the capturing pieces are ringed and selectable', () => {
  // B:W18,32:B1,14 — Black's 14 must take 18; the man on 1 may not move.
  const view = fixture('english', 'forced-capture', 0);
  const ctx = inputContext(view);
  assert.deepEqual(mustCapture(view), ['14']);
  assert.deepEqual(selectablePieces(ctx), ['14']);
  assert.equal(step(initialInput(), ctx, tap('1')).phase, 'idle', 'a piece that cannot capture is not selectable');
  const s = step(initialInput(), ctx, tap('14'));
  assert.deepEqual(currentDestinations(s, ctx).map((d) => d.cell), ['23']);
  assert.deepEqual(boardModel(view, initialInput(), { geometryFor: geometryCache() }).mustCapture, new Set(['14']));
});

test('English: a double jump is completed with one tap-twice, its legs in the order played', () => {
  // W:W23,32:B1,9,18 — White's 23 takes 18, then 9.
  const view = fixture('english', 'double-jump', 0);
  const ctx = inputContext(view);
  const s = step(initialInput(), ctx, tap('23'));
  const [d] = currentDestinations(s, ctx).filter((x) => x.cell === '5');
  assert.deepEqual(d.path, ['23', '14', '5']);
  const r = reduce(step(s, ctx, tap('5')), tap('5'), ctx);
  assert.equal(r.effects[0].move.move, '23x14x5');
  assert.deepEqual(r.effects[0].move.legs, [{ to: '14', captured: '18' }, { to: '5', captured: '9' }]);
  // The previewed route fades both pieces it takes.
  assert.deepEqual(fadedAt(view, step(s, ctx, tap('5'))), ['18', '9']);
  const after = fixture('english', 'double-jump');
  assert.equal(after.history[0].move.move, '23x14x5');
  assert.ok(!after.pieces.some((p) => p.cell === '18' || p.cell === '9'));
});

test('English: routes that part after the first jump stop there; the pieces taken so far fade', () => {
  // B:W14,15,22,23:B10 — 10x17x26 or 10x19x26.
  const view = fixture('english', 'two-routes', 0);
  const ctx = inputContext(view);
  let s = step(initialInput(), ctx, tap('10'));
  assert.deepEqual(currentDestinations(s, ctx).map((d) => [d.cell, d.move]).sort(), [['17', null], ['19', null]]);
  s = step(s, ctx, tap('17'), tap('17'));
  assert.deepEqual(currentPrefix(s), ['10', '17']);
  assert.deepEqual(currentDestinations(s, ctx).map((d) => d.cell), ['26']);
  assert.deepEqual(fadedAt(view, s), ['14'], 'only the piece of the first leg is taken so far');
});

test('Turkish: two equal captures through one landing make the board stop there', () => {
  // W:Wd2,a2:Bd3,c4,e4,h8 — d2 takes d3 to d4, then c4 (to b4) or e4 (to f4).
  const view = fixture('turkish', 'two-routes', 0);
  const ctx = inputContext(view);
  assert.deepEqual(view.legal_moves.map((m) => m.move).sort(), ['d2xd4xb4', 'd2xd4xf4']);
  assert.deepEqual(mustCapture(view), ['d2']);
  let s = step(initialInput(), ctx, tap('d2'));
  assert.deepEqual(currentDestinations(s, ctx).map((d) => [d.cell, d.move]), [['d4', null]]);
  s = step(s, ctx, tap('d4'), tap('d4'));
  assert.deepEqual(currentPrefix(s), ['d2', 'd4']);
  assert.deepEqual(currentDestinations(s, ctx).map((d) => d.cell).sort(), ['b4', 'f4']);
  assert.deepEqual(fadedAt(view, s), ['d3']);
  setLanguage('es');
  const label = destinationLabel(view, currentDestinations(s, ctx)[0], currentPrefix(s));
  assert.match(label, /captura 2/);
});

test("Turkish: a king's capture fades the pieces of the legs it has run, in the engine's order", () => {
  // W:WKd2:Bd4,f6,h5,c4 — d6 (takes d4), h6 (f6), h4 (h5), b4 (c4); the last leg crosses d4.
  const view = fixture('turkish', 'king-chain', 0);
  const ctx = inputContext(view);
  const move = view.legal_moves.find((m) => m.move === 'd2xd6xh6xh4xb4');
  assert.deepEqual(move.legs.map((l) => l.captured), ['d4', 'f6', 'h5', 'c4']);
  let s = step(initialInput(), ctx, tap('d2'));
  // Both moves run together to h4, where they part (a4 or b4).
  assert.deepEqual(currentDestinations(s, ctx).map((d) => d.cell), ['h4']);
  s = step(s, ctx, tap('h4'), tap('h4'));
  assert.deepEqual(fadedAt(view, s), ['d4', 'f6', 'h5']);
});

test('capture game: a chain may stop after any jump — "stop here" is offered at the first landing', () => {
  const view = fixture('capture', 'chain-stop', 0);
  const ctx = inputContext(view);
  const two = view.legal_moves.find((m) => m.captures.length === 2);
  const [from, mid, end] = two.path;
  let s = step(initialInput(), ctx, tap(from));
  // One tap on the first landing stops the piece there, "stop here" previewed.
  s = step(s, ctx, tap(mid));
  assert.deepEqual(currentPrefix(s), [from, mid]);
  assert.equal(s.phase, 'previewing');
  assert.equal(s.preview, mid);
  const dests = currentDestinations(s, ctx);
  assert.deepEqual(dests.map((d) => [d.cell, d.stop]), [[mid, true], [end, false]]);
  assert.deepEqual(fadedAt(view, s), [two.legs[0].captured]);
  // The second tap there plays the one-jump move the engine lists.
  const one = view.legal_moves.find((m) => m.from === from && m.to === mid && m.captures.length === 1);
  assert.deepEqual(reduce(s, tap(mid), ctx).effects, [{ type: 'play', move: one }]);
});

test("Diamond: the last move is told in the human's own F/P names", () => {
  const view = fixture('diamond', 'vs-cpu', 2);
  const entry = view.history[1];
  assert.equal(entry.seat, 1);
  const own = (name) => formatCell(view.layout.cells.find((c) => c.name === name).view_names[0]);
  const jumps = entry.move.jumps;
  assert.ok(jumps >= 1, 'the recorded CPU move is its longest jump');
  setLanguage('es');
  assert.equal(describeMove(view, entry), `Amarillo mueve de ${own(entry.move.from)} a ${own(entry.move.to)} (${jumps} ${jumps === 1 ? 'salto' : 'saltos'})`);
  setLanguage('en');
  assert.equal(describeMove(view, entry), `Yellow moves from ${own(entry.move.from)} to ${own(entry.move.to)} (${jumps} ${jumps === 1 ? 'jump' : 'jumps'})`);
  setLanguage('es');
});

test('Diamond: "Lleva el rey a ◎" follows the view\'s rule fact, only for the seat it names', () => {
  const view = fixture('diamond', 'vs-cpu', 0);
  assert.equal(kingMustGoHome(view, 0), false);
  const told = { ...view, seats: view.seats.map((s) => (s.seat === 0 ? { ...s, stats: { ...s.stats, king_must_go_home: true } } : s)) };
  assert.equal(kingMustGoHome(told, 0), true);
  assert.equal(kingMustGoHome(told, 1), false);
});

test('viewer seat: the human vs the CPU, the player to move in star games on one device', () => {
  assert.equal(viewerSeat({ mode: 'cpu', human_seats: [1], variant: { kind: 'english' }, to_move: 0 }), 1);
  assert.equal(viewerSeat({ mode: 'local', human_seats: [0, 1, 2], variant: { kind: 'diamond' }, to_move: 2 }), 2);
  assert.equal(viewerSeat({ mode: 'local', human_seats: [0, 1], variant: { kind: 'turkish' }, to_move: 1 }), 0);
});

test('draw counters shown only when near, pass offered only when it is the only move', () => {
  assert.deepEqual(nearDraws({ draw_counters: [{ reason: 'no_progress', plies_left: 50 }, { reason: 'move_limit', plies_left: 12 }] }), [{ reason: 'move_limit', plies_left: 12 }]);
  const view = { ...fixture('diamond', 'vs-cpu', 0), legal_moves: [{ move: 'pass', from: '', to: '', path: [], jumps: 0, captures: [], legs: [], pass: true }] };
  assert.equal(passOnly(view), true);
  assert.equal(passOnly({ ...view, cpu_to_move: true }), false);
});

test('Diamond panel labels: "1 paso" or "N saltos" and the rows gained in the viewer\'s F/P view', () => {
  const view = fixture('diamond', 'vs-cpu', 0);
  setLanguage('es');
  const ctx = inputContext(view);
  const labels = [];
  const kings = new Set(view.pieces.filter((p) => p.king).map((p) => p.cell));
  for (const piece of selectablePieces(ctx)) {
    if (kings.has(piece)) continue; // the king's long jump can gain many rows at once
    const s = step(initialInput(), ctx, tap(piece));
    for (const d of currentDestinations(s, ctx)) labels.push([d, destinationLabel(view, d, [piece])]);
  }
  const stepLabel = labels.find(([d]) => d.jumps === 0);
  const jumpLabel = labels.find(([d]) => d.jumps === 1);
  assert.ok(stepLabel && jumpLabel);
  assert.match(stepLabel[1], /^F\d+ P\d+ · 1 paso · (\+1 fila|misma fila)$/);
  assert.match(jumpLabel[1], /^F\d+ P\d+ · 1 salto · (\+2 filas|\+1 fila|misma fila)$/);
  // Red's pieces all start in rows F1–F5 of Red's own view.
  const pieceRows = selectablePieces(ctx).map((c) => Number(view.layout.cells.find((x) => x.name === c).view_names[0].match(/^F(\d+)/)[1]));
  assert.ok(pieceRows.every((f) => f <= 5));
});

test('browser stand-in: a recorded Diamond game vs CPU is replayed through the game controller', async () => {
  const replay = createReplay({ load: loadFixture, delay: 0, persist: false });
  const api = {
    getGame: (id) => replay.invoke('get_game', { id }),
    playMove: (id, moveText) => replay.invoke('play_move', { id, moveText }),
    cpuMove: (id) => replay.invoke('cpu_move', { id }),
    undo: (id) => replay.invoke('undo', { id }),
    redo: (id) => replay.invoke('redo', { id }),
  };
  const recorded = line('diamond', 'vs-cpu');
  const start = await replay.invoke('new_game', { setup: recorded.setup });
  assert.equal(start.ply, 0);
  const errors = [];
  const game = createGameController(api, start, { error: (e) => errors.push(e) });

  // A move the recording does not hold is refused, and the game stays as it was.
  const other = start.legal_moves.find((m) => m.move !== recorded.steps[0].move);
  game.dispatch(tap(other.from));
  game.dispatch(tap(other.to));
  game.dispatch(tap(other.to));
  await until(() => errors.length === 1 && !game.busy);
  assert.equal(errors[0].code, 'not_recorded');
  assert.equal(game.view.ply, 0);

  // The recorded move, by tap-twice; both CPU seats answer from the recording.
  const mine = start.legal_moves.find((m) => m.move === recorded.steps[0].move);
  game.dispatch(tap(mine.from));
  game.dispatch(tap(mine.to));
  game.dispatch(tap(mine.to));
  await until(() => game.view.ply === 3 && !game.waiting);
  assert.deepEqual(game.view.history.map((e) => e.move.move), recorded.steps.slice(0, 3).map((s) => s.move));
  assert.ok(game.view.pieces.some((p) => p.cell === mine.to && p.seat === 0));

  await game.undo();
  assert.equal(game.view.ply, 0, 'undo vs CPU goes back to before the human move');
  await game.redo();
  assert.equal(game.view.ply, 3);
  assert.deepEqual(errors.length, 1);
});

async function until(condition, ms = 2000) {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 1));
  }
}
