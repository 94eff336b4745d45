// A whole game vs the CPU to a real result: English checkers from a position three plies from the
// end (the UI has no way to type a position, so the game is created by the app's own `new_game`
// command with `position`, then opened by its route).
// The human plays by taps, the CPU answers, the last capture ends the game; the result dialog's
// winner and reason are the app's (`get_game`) and the engine's (`damas status`).
import assert from 'node:assert/strict';
import { DESKTOP, invoke } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

// Black (the human, seat 0) has a king on 15, White one man on 28. After 15-19 White's only move
// is 28-24, and Black takes it with 19x28: White has no piece left, so no move (the engine below
// confirms each step rather than trusting this comment).
const POSITION = 'B:W28:BK15';
const HUMAN = ['15-19', '19x28'];
const CPU_REPLY = '28-24';

/** Opens the game by its route, as a link to it does (a game without a move is not listed on
 * the home screen, docs/ui.md). */
async function openGame(t, id) {
  const { ui } = t;
  await t.driver.executeScript((hash) => { location.hash = hash; }, `#/game/${id}`);
  await ui.waitFor((x) => x.game && x.game.gameId === id, `the game ${id} on screen`);
  return ui.waitIdle();
}

export default {
  name: 'game-to-the-end',
  title: 'A game vs the CPU played to its end: result dialog winner and reason = get_game = engine',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    const engine = t.cli.status('english', { position: POSITION, after: [HUMAN[0], CPU_REPLY, HUMAN[1]] });
    assert.equal(engine.result, 'black', `the engine's result: ${JSON.stringify(engine)}`);
    assert.equal(engine.reason, 'no_legal_moves');
    assert.deepEqual(
      t.cli.moves('english', { position: POSITION, after: [HUMAN[0]] }).map((m) => m.move),
      [CPU_REPLY],
      'the CPU has a single reply',
    );

    const created = await invoke(t.driver, 'new_game', {
      setup: {
        variant: { kind: 'english', players: 2, long_jump: false },
        mode: 'cpu',
        level: 'medium',
        human_seats: [0],
        position: POSITION,
      },
    });
    let s = await openGame(t, created.id);
    assert.equal(s.game.gameId, created.id);
    assert.deepEqual(
      s.pieces.map((p) => `${p.cell}:${p.seat}:${p.king}`).sort(),
      ['15:0:true', '28:1:false'],
      'the position is drawn',
    );

    let view = await ui.view();
    await ui.playByTaps(view.legal_moves.find((m) => m.move === HUMAN[0]) ?? assert.fail(`${HUMAN[0]} is legal`));
    // The CPU answers on its own.
    s = await ui.waitFor((x) => Number(x.game.ply) === 2 && x.game.busy === 'false' && !x.thinking, "the CPU's reply", 60000);
    view = await ui.view();
    assert.equal(view.history[1].move.move, CPU_REPLY);
    assert.equal(view.outcome, null, 'not over yet');

    await ui.playByTaps(view.legal_moves.find((m) => m.move === HUMAN[1]) ?? assert.fail(`${HUMAN[1]} is legal`), { waitIdle: false });
    s = await ui.waitFor((x) => x.result, 'the result dialog');
    view = await ui.view();
    assert.ok(view.outcome, 'the game is over in the app');
    assert.equal(view.ply, 3);
    assert.equal(view.legal_moves.length, 0);
    assert.equal(s.result.winner, String(view.outcome.winner), 'dialog winner = get_game winner');
    assert.equal(s.result.reason, view.outcome.reason, 'dialog reason = get_game reason');
    assert.equal(view.seats[view.outcome.winner].name, engine.result, 'winner = the engine\'s');
    assert.equal(view.outcome.reason, engine.reason, 'reason = the engine\'s');
    assert.deepEqual(view.human_seats, [view.outcome.winner], 'the human won');
    assert.match(s.result.text, /Has ganado/i, `the dialog says so in Spanish: "${s.result.text}"`);
    assert.equal(s.status, s.result.text, 'the status line says the same');
    t.log(`result: "${s.result.text}" (${s.result.reason})`);

    // A finished game leaves the list of unfinished ones.
    const saved = await invoke(t.driver, 'list_saved');
    assert.equal(saved.find((g) => g.id === created.id)?.finished, true);
    await finalScreenshot(t, DESKTOP);
  },
};
