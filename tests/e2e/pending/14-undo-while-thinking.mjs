// Undo while the CPU thinks (issue 17): vs the hard CPU at International draughts, the player moves
// and, while the CPU is still thinking (the status line says so), presses Undo — once with the
// button, once with Ctrl+Z. The app keeps Undo enabled while the CPU thinks and cancels the
// search (session `cancel_cpu`): the board goes back to before the player's move, the move waits
// to be redone, and no CPU move lands afterwards. Then the CPU is let reply and one undo takes back
// the pair. After a restart the saved game is the one that was shown.
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { PHONE } from '../lib/page.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts } from '../lib/flows.mjs';
import { piecesKey } from '../lib/ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// Long enough for a search that was not cancelled to be played (hard level, debug build).
const STRAY_WINDOW_MS = 4000;

// Resolves once the status line says the CPU thinks and Undo is enabled (or after 20 s), clicking
// Undo then if asked; returns what it saw at that moment.
const PRESS_WHILE_THINKING = `
  const [click, done] = arguments;
  const start = Date.now();
  const poll = () => {
    const status = document.querySelector('[data-testid=status-line]');
    const undo = document.querySelector('[data-testid=undo]');
    const screen = document.querySelector('[data-testid=game-screen]');
    const thinking = status?.dataset.thinking === 'true';
    if ((thinking && undo && !undo.disabled) || Date.now() - start > 20000) {
      const seen = { ply: screen?.dataset.ply, thinking, disabled: undo ? undo.disabled : null };
      if (click && thinking && undo && !undo.disabled) undo.click();
      return done(seen);
    }
    setTimeout(poll, 5);
  };
  poll();`;

export default {
  name: 'undo-while-thinking',
  title: 'Undo (button, Ctrl+Z) while the CPU thinks cancels its search; no stray reply; saved = shown',
  async run(t) {
    await launchToHome(t);
    let ui = t.ui;
    await ui.startGame('international', { mode: 'cpu', level: 'hard', colour: 0 });
    const start = await ui.waitIdle();
    let view = await ui.view();
    const id = view.id;
    assert.deepEqual(view.human_seats, [0]);
    assert.equal(view.ply, 0, 'White (the player) opens');
    const startPieces = piecesKey(view.pieces);
    assert.deepEqual(piecesKey(start.pieces), startPieces);

    for (const how of ['button', 'ctrl+z']) {
      const move = view.legal_moves[0];
      await ui.playByTaps(move, { waitIdle: false });
      // Waits in the page for the CPU to be thinking with Undo enabled and presses at once: a
      // WebDriver round trip per poll could let the CPU reply first.
      const seen = await t.driver.executeAsyncScript(PRESS_WHILE_THINKING, how === 'button');
      t.log(`pressed at ply ${seen.ply}, thinking ${seen.thinking}, undo disabled ${seen.disabled}`);
      assert.equal(seen.ply, '1', 'the CPU had not replied when Undo was pressed');
      assert.equal(seen.thinking, true, 'the CPU was thinking');
      assert.equal(seen.disabled, false, 'Undo stays enabled while the CPU thinks');
      if (how === 'ctrl+z') await t.driver.actions({ async: true }).keyDown(Key.CONTROL).keyDown('z').keyUp('z').keyUp(Key.CONTROL).perform();
      const back = await ui.waitFor((x) => x.game.ply === '0' && x.game.busy === 'false' && !x.thinking, `the undo by ${how}`, 20000);
      assert.ok(back, 'back before the move');
      // A search that were still running would land its move within this window.
      await sleep(STRAY_WINDOW_MS);
      const after = await ui.waitIdle();
      view = await ui.view();
      assert.equal(view.ply, 0, `no CPU move landed after the undo by ${how}`);
      assert.equal(view.history.length, 0);
      assert.equal(view.cpu_to_move, false, 'the player is to move');
      assert.equal(view.can_redo, true, "the player's move waits to be redone");
      assert.equal(after.game.ply, '0');
      assert.deepEqual(piecesKey(after.pieces), startPieces, 'the start position is drawn');
      assert.deepEqual(piecesKey(view.pieces), startPieces, 'the start position is the game');
      t.log(`undo by ${how} while thinking: back at ply 0, no stray reply in ${STRAY_WINDOW_MS} ms`);
    }

    // Let the CPU reply: one undo then takes back the pair.
    const move = view.legal_moves[0];
    await ui.playByTaps(move, { waitIdle: false });
    await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false' && !x.thinking, "the CPU's reply", 90000);
    view = await ui.view();
    assert.deepEqual(view.history.map((h) => h.seat), [0, 1]);
    assert.equal(view.history[0].move.move, move.move);
    await ui.click('undo');
    await ui.waitFor((x) => x.game.ply === '0' && x.game.busy === 'false' && !x.thinking, 'the undo of the pair');
    await sleep(STRAY_WINDOW_MS);
    const s = await ui.waitIdle();
    view = await ui.view();
    assert.equal(view.ply, 0, 'the pair is taken back, nothing replayed');
    assert.deepEqual(piecesKey(s.pieces), startPieces);
    assertBoardIsEngines(t, s, 'international', []);

    // Play one pair more and restart: the saved game is what was shown.
    await ui.playByTaps(view.legal_moves.at(-1), { waitIdle: false });
    const shown = await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false' && !x.thinking, "the CPU's reply", 90000);
    view = await ui.view();
    const history = moveTexts(view);
    assert.deepEqual(piecesKey(shown.pieces), piecesKey(view.pieces));
    await t.app.kill();
    await launchToHome(t);
    ui = t.ui;
    await ui.click('resume', `[href="#/game/${id}"]`);
    const resumed = await ui.waitIdle();
    const saved = await ui.view();
    assert.deepEqual(moveTexts(saved), history, 'the saved moves are the shown ones');
    assert.deepEqual(piecesKey(resumed.pieces), piecesKey(shown.pieces), 'the same position after the restart');
    await finalScreenshot(t, PHONE);
  },
};
