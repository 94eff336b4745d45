// The 3D board, Capture Chinese checkers, 4 players on one device: a chain capture stopped midway
// and a whole chain played, by taps at projected positions; mouse hover previews and a click plays;
// a double tap off the board resets the view; then kill -9 and resume on the 3D board.
import assert from 'node:assert/strict';
import { DESKTOP, PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome, moveTexts, stopAChainMidway } from '../lib/flows.mjs';
import { touchTurn, waitBoardSettled } from '../lib/board3d.mjs';
import { touchTapAt } from '../lib/page.mjs';

const OPTS = { players: 4 };

export default {
  name: 'board3d-capture',
  title: '3D board, capture game 4 players: chain stop and a whole chain by taps, hover + click, double tap, kill -9 and resume in 3D',
  async run(t) {
    await launchToHome(t);
    let ui = t.ui;
    await resize(t.driver, PHONE);
    await ui.startGame('capture', { players: 4, mode: 'local' });
    let view = await ui.view();
    let s = await ui.snapshot();
    assert.equal(s.boardKind, '3d');
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));

    // Player 1 jumps so that player 2 has a chain of two or more; player 2 stops it midway, by
    // taps at the projected positions; while stopped, the 3D board shows the carried marble
    // lifted on its stop and the marble taken so far faded.
    const { stop, atStop } = await stopAChainMidway(t, OPTS);
    assert.ok(atStop.pieces.find((p) => p.cell === stop.to)?.lifted, 'the carried marble is drawn lifted on its stop');
    assert.ok(atStop.pieces.some((p) => p.classes.includes('taken')), 'the marble taken so far is faded');

    // Then whole chains: play, by taps, the longest capture each turn until one of 2+ jumps is done.
    let whole = null;
    for (let i = 0; i < 10 && !whole; i++) {
      view = await ui.view();
      const move = [...view.legal_moves].filter((m) => !m.pass).sort((a, b) => b.jumps - a.jumps || a.move.localeCompare(b.move))[0];
      s = await ui.playByTaps(move);
      view = await ui.view();
      assert.equal(view.history.at(-1).move.move, move.move, `${move.move} played by taps`);
      assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));
      if (move.jumps >= 2) whole = move;
    }
    assert.ok(whole, 'a whole chain of two or more jumps was played by taps');
    const status = t.cli.status('capture', { ...OPTS, after: moveTexts(view) });
    assert.deepEqual(view.seats.map((x) => x.stats.captures), status.players.map((p) => p.captures), 'captures: app vs engine');

    // Mouse: hover previews, a click plays (real WebDriver pointer actions on the canvas).
    await resize(t.driver, DESKTOP);
    await waitBoardSettled(t.driver);
    view = await ui.view();
    const m = view.legal_moves.find((x) => !x.pass && x.jumps === 1) ?? view.legal_moves.find((x) => !x.pass);
    await ui.waitIdle();
    await ui.mouseClickCell(m.from);
    await ui.waitFor((x) => x.game.phase === 'selected' && x.selected[0] === m.from, `mouse: a click lifts ${m.from}`);
    await ui.hoverCell(m.to);
    s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === m.to, `mouse: hovering ${m.to} previews`);
    await ui.mouseClickCell(m.to);
    s = await ui.waitFor((x) => Number(x.game.ply) === view.ply + 1 && x.game.busy === 'false', 'mouse: one click plays');
    view = await ui.view();
    assert.equal(view.history.at(-1).move.from, m.from);

    // A double tap off the board (the canvas corner) restores the view after a turn.
    await touchTurn(t.driver, 70);
    const turned = await waitBoardSettled(t.driver);
    const corner = await t.driver.executeScript('const r = document.querySelector(".board3d-canvas").getBoundingClientRect(); return {x: r.left + 6, y: r.bottom - 6};');
    await touchTapAt(t.driver, corner.x, corner.y);
    await touchTapAt(t.driver, corner.x, corner.y);
    const reset = await waitBoardSettled(t.driver);
    assert.ok(Math.abs(reset.orbit.azimuth - turned.orbit.azimuth) > 0.9, `a double tap off the board turns the view back (${turned.orbit.azimuth} → ${reset.orbit.azimuth})`);

    // kill -9, restart, resume: the same marbles on the 3D board, the last move ringed.
    const id = view.id;
    const pieces = piecesKey((await ui.waitIdle()).pieces);
    const history = moveTexts(view);
    await t.app.kill();
    await launchToHome(t);
    ui = t.ui;
    await ui.click('resume', `[href="#/game/${id}"]`);
    s = await ui.waitIdle();
    assert.equal(s.boardKind, '3d', 'resumed on the 3D board');
    assert.deepEqual(piecesKey(s.pieces), pieces, 'the identical position after kill -9');
    const resumed = await ui.view();
    assert.deepEqual(moveTexts(resumed), history);
    assert.equal(s.lastMoves.at(-1).from, resumed.history.at(-1).move.from, 'the last move is ringed');
    const state = await waitBoardSettled(t.driver);
    assert.ok(state.frames >= 1, 'the resumed 3D board drew');
    await finalScreenshot(t, PHONE);
  },
};
