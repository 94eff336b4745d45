// Persistence: three moves, SIGKILL, restart on the same data directory, resume from the home
// list, the identical position and move list; then undo back to the start.
import assert from 'node:assert/strict';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts } from '../lib/flows.mjs';

export default {
  name: 'persistence',
  title: 'Persistence: three moves vs CPU, kill -9, restart, resume, same game; undo to the start',
  async run(t) {
    await launchToHome(t);
    let ui = t.ui;
    await ui.startGame('english', { mode: 'cpu', level: 'easy', colour: 0 });
    let view = await ui.view();
    const id = view.id;
    const startPieces = piecesKey(view.pieces);
    for (let i = 1; i <= 3; i++) {
      // The first legal move of the human (Black); a capture if one is forced.
      await ui.playByTaps(view.legal_moves[0]);
      await ui.waitFor((x) => x.game.busy === 'false' && !x.thinking && x.game.toMove === '0', `the CPU's reply ${i}`, 60000);
      view = await ui.view();
      assert.equal(view.history.filter((h) => h.seat === 0).length, i, `${i} human moves played`);
    }
    const s1 = await ui.waitIdle();
    const history = moveTexts(view);
    const pieces = piecesKey(s1.pieces);
    assert.deepEqual(pieces, piecesKey(view.pieces));
    assertBoardIsEngines(t, s1, 'english', history);
    t.log(`before the kill: ${history.join(' ')}`);

    // The app dies without a chance to save anything more.
    await t.app.kill();
    await launchToHome(t);
    ui = t.ui;
    const home = await ui.snapshot();
    const row = home.savedRows.find((r) => r.id === id);
    assert.ok(row, `the unfinished game is listed on the home screen (${JSON.stringify(home.savedRows)})`);
    assert.equal(row.game, 'english');
    assert.equal(row.ply, history.length, 'the list shows its move count');
    await ui.click('resume', `[href="#/game/${id}"]`);
    const s2 = await ui.waitIdle();
    assert.equal(s2.game.gameId, id);
    assert.deepEqual(piecesKey(s2.pieces), pieces, 'the identical position is drawn after the restart');
    const resumed = await ui.view();
    assert.deepEqual(moveTexts(resumed), history, 'the identical move list');
    assert.deepEqual(s2.lastMoves, [{ from: resumed.history.at(-1).move.from, to: resumed.history.at(-1).move.to }], 'the last move is marked');

    // Undo vs CPU goes back to before the human's last move, the CPU's reply with it.
    let ply = history.length;
    for (let i = 0; i < 3; i++) {
      await ui.click('undo');
      const want = history.slice(0, ply).map((_, k) => k).filter((k) => view.history[k].seat === 0).at(-1);
      await ui.waitFor((x) => Number(x.game.ply) === want && x.game.busy === 'false', `undo ${i + 1} to ply ${want}`);
      ply = want;
      const s = await ui.waitIdle();
      assertBoardIsEngines(t, s, 'english', history.slice(0, ply));
    }
    const s3 = await ui.waitIdle();
    assert.equal(s3.game.ply, '0', 'back at the start');
    assert.deepEqual(piecesKey(s3.pieces), startPieces, 'the start position is drawn');
    assert.equal(s3.actions.undo.disabled, true, 'nothing left to undo');
    assert.equal((await ui.view()).can_undo, false);

    await finalScreenshot(t, DESKTOP);
  },
};
