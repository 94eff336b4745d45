// Headless derivations from a GameView, against positions built with the mock's move generator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gridLayout, draughtsMoves, buildStar, createMock } from '../js/mock.js';
import { initialInput, reduce, currentDestinations, selectablePieces, currentPrefix } from '../js/input.js';
import { inputContext, mustCapture, describeMove, kingMustGoHome, viewerSeat, destinationLabel, nearDraws, passOnly } from '../js/state.js';
import { setLanguage } from '../js/i18n.js';

function draughtsView(kind, pieces, toMove = 0) {
  const layout = gridLayout(kind);
  const at = (x, y) => layout.cells.find((c) => c.x === x && c.y === y).name;
  const board = new Map(pieces.map(([x, y, seat, king]) => [at(x, y), { seat, king: !!king }]));
  const legal = draughtsMoves(kind, layout, board, toMove);
  return {
    at,
    view: {
      id: 't', variant: { kind, players: 2, long_jump: false }, mode: 'local', level: null, human_seats: [0, 1],
      seats: [{ seat: 0, name: kind === 'english' ? 'black' : 'white', cpu: false, stats: {} }, { seat: 1, name: kind === 'english' ? 'white' : 'black', cpu: false, stats: {} }],
      to_move: toMove, ply: 0, layout, pieces: [...board].map(([cell, p]) => ({ cell, ...p })), legal_moves: legal, history: [],
      outcome: null, draw_counters: [], can_undo: false, can_redo: false, cpu_to_move: false, last_played: 0,
    },
  };
}

const step = (state, ctx, ...actions) => actions.reduce((s, a) => reduce(s, a, ctx).state, state);
const tap = (cell) => ({ type: 'tap', cell, pointer: 'touch' });

test('English: when a capture is forced only the capturing pieces are ringed and selectable', () => {
  const { view, at } = draughtsView('english', [[2, 2, 0], [6, 0, 0], [3, 3, 1], [7, 7, 1]]);
  const ctx = inputContext(view);
  assert.deepEqual(mustCapture(view), [at(2, 2)]);
  assert.deepEqual(selectablePieces(ctx), [at(2, 2)]);
  const s = step(initialInput(), ctx, tap(at(6, 0)));
  assert.equal(s.phase, 'idle', 'a piece that cannot capture is not selectable');
  const s2 = step(initialInput(), ctx, tap(at(2, 2)));
  assert.deepEqual(currentDestinations(s2, ctx).map((d) => d.cell), [at(4, 4)]);
});

test('English: a double jump is completed with one tap-twice', () => {
  const { view, at } = draughtsView('english', [[0, 0, 0], [1, 1, 1], [3, 3, 1], [7, 7, 1]]);
  const ctx = inputContext(view);
  let s = step(initialInput(), ctx, tap(at(0, 0)));
  const [d] = currentDestinations(s, ctx);
  assert.equal(d.cell, at(4, 4));
  assert.deepEqual(d.path, [at(0, 0), at(2, 2), at(4, 4)]);
  const r = reduce(step(s, ctx, tap(at(4, 4))), tap(at(4, 4)), ctx);
  assert.equal(r.effects[0].move.captures.length, 2);
});

test('Turkish: two equal captures through one landing make the board stop there', () => {
  // White man d2 takes d3 to d4, then either c4 (to b4) or e4 (to f4).
  const { view, at } = draughtsView('turkish', [[3, 1, 0], [3, 2, 1], [2, 3, 1], [4, 3, 1], [7, 7, 1]]);
  const ctx = inputContext(view);
  assert.equal(view.legal_moves.length, 2);
  let s = step(initialInput(), ctx, tap(at(3, 1)));
  assert.deepEqual(currentDestinations(s, ctx).map((d) => [d.cell, d.move]), [[at(3, 3), null]]);
  s = step(s, ctx, tap(at(3, 3)), tap(at(3, 3)));
  assert.deepEqual(currentPrefix(s), [at(3, 1), at(3, 3)]);
  assert.deepEqual(currentDestinations(s, ctx).map((d) => d.cell).sort(), [at(1, 3), at(5, 3)].sort());
  setLanguage('es');
  const label = destinationLabel(view, currentDestinations(s, ctx)[0], currentPrefix(s));
  assert.match(label, /captura 2/);
});

function diamondView(extra = {}) {
  const cells = buildStar(3);
  const name = (seat, fp) => cells.find((c) => c.view_names[seat] === fp).name;
  return {
    name,
    view: {
      id: 'd', variant: { kind: 'diamond', players: 3, long_jump: false }, mode: 'cpu', level: 'medium', human_seats: [0],
      seats: ['red', 'yellow', 'green'].map((n, seat) => ({ seat, name: n, cpu: seat > 0, stats: {} })),
      to_move: 0, ply: 0, layout: { shape: { type: 'star' }, cells }, pieces: [], legal_moves: [], history: [],
      outcome: null, draw_counters: [], can_undo: false, can_redo: false, cpu_to_move: false, last_played: 0, ...extra,
    },
  };
}

test("Diamond: the last move is told in the human's own F/P names", () => {
  const { view, name } = diamondView();
  const from = name(0, 'F10P1');
  const to = name(0, 'F10P3');
  view.history = [{ seat: 1, move: { move: 'x', from, to, path: [from, name(0, 'F10P2'), to], jumps: 1, captures: [] } }];
  setLanguage('es');
  assert.equal(describeMove(view, view.history[0]), 'Amarillo mueve de F10 P1 a F10 P3 (1 salto)');
  setLanguage('en');
  assert.equal(describeMove(view, view.history[0]), 'Yellow moves from F10 P1 to F10 P3 (1 jump)');
  setLanguage('es');
});

test('Diamond: "Lleva el rey a ◎" only when the 15 destination holes are full without the king', () => {
  const { view, name } = diamondView();
  const home = view.layout.cells.filter((c) => {
    const [, f, p] = c.view_names[0].match(/F(\d+)P(\d+)/).map(Number);
    return f >= 14 || (f === 13 && p >= 5 && p <= 9);
  });
  assert.equal(home.length, 15);
  view.pieces = home.map((c) => ({ cell: c.name, seat: 0, king: false }));
  assert.equal(kingMustGoHome(view, 0), true);
  const apex = name(0, 'F17P1');
  view.pieces = view.pieces.map((p) => (p.cell === apex ? { ...p, king: true } : p));
  assert.equal(kingMustGoHome(view, 0), false);
  view.pieces = view.pieces.slice(1);
  assert.equal(kingMustGoHome(view, 0), false, 'not full');
});

test('viewer seat: the human vs the CPU, the player to move in star games on one device', () => {
  assert.equal(viewerSeat({ mode: 'cpu', human_seats: [1], variant: { kind: 'english' }, to_move: 0 }), 1);
  assert.equal(viewerSeat({ mode: 'local', human_seats: [0, 1, 2], variant: { kind: 'diamond' }, to_move: 2 }), 2);
  assert.equal(viewerSeat({ mode: 'local', human_seats: [0, 1], variant: { kind: 'turkish' }, to_move: 1 }), 0);
});

test('draw counters shown only when near, pass offered only when it is the only move', () => {
  assert.deepEqual(nearDraws({ draw_counters: [{ reason: 'no_progress', plies_left: 50 }, { reason: 'move_limit', plies_left: 12 }] }), [{ reason: 'move_limit', plies_left: 12 }]);
  const { view } = diamondView({ legal_moves: [{ move: 'pass', from: '', to: '', path: [], jumps: 0, captures: [], pass: true }] });
  assert.equal(passOnly(view), true);
  assert.equal(passOnly({ ...view, cpu_to_move: true }), false);
});

test('mock backend: a Diamond game vs CPU is played by tap-twice and answered by both CPUs', async () => {
  const api = createMock({ delay: 0, random: () => 0.5 });
  let view = await api.invoke('new_game', { setup: { variant: { kind: 'diamond', players: 3 }, mode: 'cpu', level: 'medium', human_seats: [0] } });
  const ctx = inputContext(view);
  const piece = selectablePieces(ctx)[0];
  let s = step(initialInput(), ctx, tap(piece));
  const dest = currentDestinations(s, ctx)[0];
  const r = reduce(step(s, ctx, tap(dest.cell)), tap(dest.cell), ctx);
  view = await api.invoke('play_move', { id: view.id, moveText: r.effects[0].move.move });
  assert.equal(view.ply, 1);
  assert.ok(view.pieces.some((p) => p.cell === dest.cell && p.seat === 0));
  while (view.cpu_to_move) view = await api.invoke('cpu_move', { id: view.id });
  assert.equal(view.ply, 3);
  assert.equal(view.to_move, 0);
  view = await api.invoke('undo', { id: view.id });
  assert.equal(view.ply, 0, 'undo vs CPU goes back to before the human move');
});

test('Diamond panel labels: "1 paso" or "N saltos" and the rows gained in the viewer\'s F/P view', async () => {
  const api = createMock({ delay: 0 });
  const view = await api.invoke('new_game', { setup: { variant: { kind: 'diamond', players: 3 }, mode: 'cpu', level: 'easy', human_seats: [0] } });
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
