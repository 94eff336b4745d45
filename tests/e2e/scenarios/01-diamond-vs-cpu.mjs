// Diamond Game, 3 players vs CPU (medium): select, preview (board unchanged), confirm; both CPUs
// answer; the status line and the pieces-home counts match the engine's state.
import assert from 'node:assert/strict';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey, routeOf } from '../lib/ui.mjs';
import { expectedMarks, finalScreenshot, launchToHome, moveTexts, movesFrom, sameSet } from '../lib/flows.mjs';

export default {
  // Alone, never beside another lane: its cold start and CPU reply times are figures.
  solo: true,
  name: 'diamond-vs-cpu',
  title: 'Diamond Game, 3 players vs CPU (medium): tap to preview, tap again to move, both CPUs answer',
  async run(t) {
    const toHome = await launchToHome(t);
    const { ui } = t;
    const started = Date.now();
    await ui.startGame('diamond', { players: 3, mode: 'cpu', level: 'medium' });
    t.figures.coldStart(t.label, toHome, toHome + (Date.now() - started));
    let view = await ui.view();
    assert.equal(view.variant.kind, 'diamond');
    assert.equal(view.variant.players, 3);
    assert.deepEqual(view.human_seats, [0]);
    assert.deepEqual(view.seats.map((s) => s.cpu), [false, true, true], 'Red is the human, Yellow and Green the CPU');
    assert.equal(view.to_move, 0, 'Red starts');
    let s = await ui.snapshot();
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the start position is drawn');
    assert.equal(s.pieces.length, 45, '15 pieces for each of the 3 colours');

    // The engine's own list of legal moves agrees with what the app offers.
    const engineMoves = t.cli.moves('diamond', { players: 3 });
    sameSet(view.legal_moves.map((m) => m.move), engineMoves.map((m) => m.move), 'legal moves: app vs damas CLI');

    // A red piece with the longest jump, so that the path is worth drawing.
    const move = [...view.legal_moves].sort((a, b) => b.jumps - a.jumps || a.move.localeCompare(b.move))[0];
    const fromPiece = s.pieces.find((p) => p.cell === move.from);
    assert.equal(fromPiece.seat, 0, 'the chosen piece is red');
    const before = piecesKey(s.pieces);

    await ui.tap(move.from);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.dests.length > 0, 'the piece to lift');
    assert.deepEqual(s.selected, [move.from], 'the tapped piece is lifted');
    sameSet(s.dests.map((d) => d.cell), movesFrom(view, move.from).map((m) => m.to), 'a ring on every legal destination');

    // First tap on the destination: path and ghost, nothing moves.
    await ui.tap(move.to);
    s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === move.to, 'the preview');
    const shortest = movesFrom(view, move.from)
      .filter((m) => m.to === move.to)
      .sort((a, b) => a.jumps - b.jumps)[0];
    assert.deepEqual(s.previewPath, routeOf(shortest), 'the dotted path is the shortest jump path');
    assert.deepEqual(piecesKey(s.pieces), before, 'first tap: the board is unchanged');
    assert.equal(s.game.ply, '0');
    assert.equal((await ui.view()).ply, 0, 'first tap: nothing was played');

    // Second tap: the move is played and both CPUs answer.
    const tapped = Date.now();
    await ui.tap(move.to);
    s = await ui.waitFor(
      (x) => Number(x.game.ply) >= 3 && x.game.busy === 'false' && !x.thinking && x.game.toMove === '0',
      'both CPUs to answer',
      120000,
    );
    t.figures.cpuReply('diamond (3 players, medium, 2 CPU moves)', Date.now() - tapped);
    view = await ui.view();
    assert.equal(view.ply, 3);
    assert.equal(view.history[0].move.move, shortest.move, 'the human move played is the previewed one');
    assert.deepEqual(view.history.map((h) => h.seat), [0, 1, 2], 'Red, then Yellow and Green answered');
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the board shows the game state');

    // The engine, replaying the same moves, agrees on the position and the counts.
    const status = t.cli.status('diamond', { players: 3, after: moveTexts(view) });
    assert.equal(status.ply, 3);
    assert.equal(status.to_move, 'red');
    for (const seat of status.players) {
      const chip = s.home.find((c) => c.seat === seat.seat);
      assert.ok(chip, `a pieces-home count for seat ${seat.seat}`);
      assert.equal(Number(String(chip.value).split('/')[0]), seat.home, `pieces home of ${seat.name}: screen vs engine`);
      assert.equal(view.seats[seat.seat].stats.home, seat.home, `pieces home of ${seat.name}: app vs engine`);
    }
    // Status line: Red (the human) to move, named as on Red's count chip.
    const seatText = (seat) => s.home.find((c) => c.seat === seat).name;
    const redName = seatText(0);
    assert.ok(redName.length > 0);
    assert.ok(s.status.includes(redName), `status line "${s.status}" names ${redName}`);
    assert.equal(s.thinking, false);
    // With 3 players the last two moves are marked on the board.
    assert.deepEqual(s.lastMoves, expectedMarks(view, 2), 'the last two moves are marked');
    const greenName = seatText(2);
    assert.ok(s.lastText.includes(greenName), `last move "${s.lastText}" is Green's`);

    await finalScreenshot(t, DESKTOP);
  },
};
