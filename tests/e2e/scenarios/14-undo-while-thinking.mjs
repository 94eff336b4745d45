// Undo while the CPU thinks: vs the hard CPU at International draughts, the player moves
// and, while the CPU is still thinking (the status line says so), presses Undo — once with the
// button, once with Ctrl+Z. The app keeps Undo enabled while the CPU thinks and cancels the
// search (session `cancel_cpu`): the board goes back to before the player's move, the move waits
// to be redone, and no CPU move lands afterwards. Then the CPU is let reply and one undo takes back
// the pair. After a restart the saved game is the one that was shown.
//
// Race-free: the press (a click on Undo, or the Ctrl+Z key chord dispatched as keydown/keyup on
// the focused element) happens in the same in-page script that sees the CPU thinking, so no
// WebDriver round trip lies between the check and the press. "No stray reply" is not a fixed
// wait: the game screen's test hook counts its CPU calls (`window.__damas.current.debug.cpuCalls`:
// made, in flight, how the last one ended), and the test waits until the call that was in flight
// has ended — cancelled by the backend — after which no search is left that could land a move.
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts } from '../lib/flows.mjs';
import { piecesKey } from '../lib/ui.mjs';

// The game screen's CPU calls: {made, inFlight, last} (ui/js/game-controller.js).
const cpuCalls = (t) => t.driver.executeScript('return window.__damas.current.debug.cpuCalls');

// Resolves once the status line says the CPU thinks and Undo is enabled (or after 60 s), and then
// — in the same task, before the page can take a CPU reply — presses Undo: a click on the button,
// or Ctrl+Z as keydown/keyup events on the focused element. Returns what it saw at that moment.
const PRESS_WHILE_THINKING = `
  const [how, done] = arguments;
  const start = Date.now();
  const poll = () => {
    const status = document.querySelector('[data-testid=status-line]');
    const undo = document.querySelector('[data-testid=undo]');
    const screen = document.querySelector('[data-testid=game-screen]');
    const thinking = status?.dataset.thinking === 'true';
    const ready = thinking && undo && !undo.disabled;
    if (ready || Date.now() - start > 60000) {
      const seen = { ply: screen?.dataset.ply, thinking, disabled: undo ? undo.disabled : null, pending: window.__damas.current.debug.cpuCalls.inFlight };
      if (ready && how === 'button') undo.click();
      if (ready && how === 'ctrl+z') {
        const target = document.activeElement || document.body;
        const chord = (type, key, code, ctrl) => target.dispatchEvent(new KeyboardEvent(type, { key, code, ctrlKey: ctrl, bubbles: true, cancelable: true, composed: true, view: window }));
        chord('keydown', 'Control', 'ControlLeft', true);
        seen.handled = !chord('keydown', 'z', 'KeyZ', true);
        chord('keyup', 'z', 'KeyZ', true);
        chord('keyup', 'Control', 'ControlLeft', false);
      }
      return done(seen);
    }
    setTimeout(poll, 5);
  };
  poll();`;

/** Waits until no cpu_move call is in flight; returns the calls record. */
async function noSearchLeft(t, what, timeoutMs = 60000) {
  let calls = null;
  await t.driver.wait(
    async () => {
      calls = await cpuCalls(t);
      return calls.inFlight === 0;
    },
    timeoutMs,
    `the CPU call to end after ${what}`,
  );
  return calls;
}

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
      // Waits in the page for the CPU to be thinking with Undo enabled and presses at once.
      const seen = await t.driver.executeAsyncScript(PRESS_WHILE_THINKING, how);
      t.log(`pressed ${how} at ply ${seen.ply}, thinking ${seen.thinking}, undo disabled ${seen.disabled}, cpu calls in flight ${seen.pending}`);
      assert.equal(seen.ply, '1', 'the CPU had not replied when Undo was pressed');
      assert.equal(seen.thinking, true, 'the CPU was thinking');
      assert.equal(seen.disabled, false, 'Undo stays enabled while the CPU thinks');
      assert.equal(seen.pending, 1, 'one CPU search was in flight when Undo was pressed');
      if (how === 'ctrl+z') assert.equal(seen.handled, true, 'the game screen took Ctrl+Z as its shortcut');
      await ui.waitFor((x) => x.game.ply === '0' && x.game.busy === 'false' && !x.thinking, `the undo by ${how}`, 30000);
      // The search that was running ended, cancelled: nothing is left that could land a move.
      const calls = await noSearchLeft(t, `the undo by ${how}`);
      assert.equal(calls.last, 'cancelled', `the CPU search was cancelled by the undo (${how})`);
      const after = await ui.settled();
      view = await ui.view();
      assert.equal(view.ply, 0, `no CPU move landed after the undo by ${how}`);
      assert.equal(view.history.length, 0);
      assert.equal(view.cpu_to_move, false, 'the player is to move');
      assert.equal(view.can_redo, true, "the player's move waits to be redone");
      assert.equal(after.game.ply, '0');
      assert.equal(after.thinking, false, 'the CPU is not thinking');
      assert.deepEqual(piecesKey(after.pieces), startPieces, 'the start position is drawn');
      assert.deepEqual(piecesKey(view.pieces), startPieces, 'the start position is the game');
      assert.equal((await cpuCalls(t)).made, calls.made, 'no new CPU search started');
      t.log(`undo by ${how} while thinking: back at ply 0, the search ended cancelled`);
    }

    // Let the CPU reply: one undo then takes back the pair.
    const move = view.legal_moves[0];
    await ui.playByTaps(move, { waitIdle: false });
    await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false' && !x.thinking, "the CPU's reply", 120000);
    view = await ui.view();
    assert.deepEqual(view.history.map((h) => h.seat), [0, 1]);
    assert.equal(view.history[0].move.move, move.move);
    const replied = await noSearchLeft(t, "the CPU's reply");
    assert.equal(replied.last, 'played', 'the CPU reply came from its search');
    await ui.click('undo');
    await ui.waitFor((x) => x.game.ply === '0' && x.game.busy === 'false' && !x.thinking, 'the undo of the pair');
    const s = await ui.settled();
    view = await ui.view();
    assert.equal(view.ply, 0, 'the pair is taken back, nothing replayed');
    assert.equal(view.cpu_to_move, false);
    assert.equal((await cpuCalls(t)).made, replied.made, 'no CPU search started after the undo');
    assert.deepEqual(piecesKey(s.pieces), startPieces);
    assertBoardIsEngines(t, s, 'international', []);

    // Play one pair more and restart: the saved game is what was shown.
    await ui.playByTaps(view.legal_moves.at(-1), { waitIdle: false });
    const shown = await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false' && !x.thinking, "the CPU's reply", 120000);
    view = await ui.view();
    const history = moveTexts(view);
    assert.deepEqual(piecesKey(shown.pieces), piecesKey(view.pieces));
    assertBoardIsEngines(t, shown, 'international', history);
    await t.app.kill();
    await launchToHome(t);
    ui = t.ui;
    await ui.click('resume', `[href="#/game/${id}"]`);
    const resumed = await ui.waitIdle();
    const saved = await ui.view();
    assert.deepEqual(moveTexts(saved), history, 'the saved moves are the shown ones');
    assert.deepEqual(piecesKey(resumed.pieces), piecesKey(shown.pieces), 'the same position after the restart');
    assertBoardIsEngines(t, resumed, 'international', history);
    await finalScreenshot(t, PHONE);
  },
};
