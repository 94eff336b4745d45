// Resign and rematch through the buttons: vs the CPU (English checkers, medium), the human plays a
// move, declines the resignation once (nothing changes), then resigns; the result dialog names the
// CPU as the winner by resignation, as `get_game` does; its rematch button starts a new game with
// the sides swapped, where the CPU (now Black) opens.
import assert from 'node:assert/strict';
import { invoke, PHONE } from '../lib/page.mjs';
import { clickWhenShown, finalScreenshot, launchToHome } from '../lib/flows.mjs';

export default {
  name: 'resign-and-rematch',
  title: 'Resign (declined once, then confirmed) and rematch through the buttons',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('english', { mode: 'cpu', level: 'medium', colour: 0 });
    let view = await ui.view();
    const first = view.id;
    assert.deepEqual(view.human_seats, [0]);
    await ui.playByTaps(view.legal_moves[0], { waitIdle: false });
    await ui.waitFor((x) => Number(x.game.ply) === 2 && x.game.busy === 'false' && !x.thinking, "the CPU's reply", 60000);

    // Declined: the game goes on untouched.
    await ui.click('resign');
    await clickWhenShown(t, 'confirm-no');
    let s = await ui.settled();
    assert.equal(s.result, null, 'no result after declining');
    view = await ui.view();
    assert.equal(view.outcome, null, 'declining leaves the game going');
    assert.equal(view.ply, 2);

    // Confirmed.
    await ui.click('resign');
    await clickWhenShown(t, 'confirm-yes');
    s = await ui.waitFor((x) => x.result, 'the result dialog');
    view = await ui.view();
    assert.deepEqual(view.outcome, { winner: 1, reason: 'resignation' }, 'the CPU (White) wins by resignation');
    assert.equal(s.result.winner, String(view.outcome.winner), 'dialog winner = get_game winner');
    assert.equal(s.result.reason, view.outcome.reason, 'dialog reason = get_game reason');
    // Against the CPU the dialog speaks from the player's side (docs/ui.md).
    assert.match(s.result.text, /^Has perdido/, `the dialog says the player lost: "${s.result.text}"`);
    assert.equal(view.legal_moves.length, 0);
    assert.equal(view.can_undo, false, 'a resignation is final');
    t.log(`result: "${s.result.text}" (${s.result.reason})`);

    // Rematch from the dialog: same game and level, sides swapped, the CPU opens as Black.
    await clickWhenShown(t, 'rematch');
    s = await ui.waitFor((x) => x.screen === 'game-screen' && x.game?.gameId && x.game.gameId !== first && !x.result, 'the rematch on screen');
    s = await ui.waitFor((x) => Number(x.game.ply) === 1 && x.game.busy === 'false' && !x.thinking, "the CPU's opening move", 60000);
    view = await ui.view();
    assert.notEqual(view.id, first);
    assert.deepEqual(view.variant, { kind: 'english', players: 2, long_jump: false });
    assert.equal(view.mode, 'cpu');
    assert.equal(view.level, 'medium');
    assert.deepEqual(view.human_seats, [1], 'sides swapped: the human plays White');
    assert.equal(view.history[0].seat, 0, 'the CPU (Black) opened');
    assert.equal(view.to_move, 1);
    assert.equal(view.outcome, null);
    // The resigned game keeps its result.
    const old = await invoke(t.driver, 'get_game', { id: first });
    assert.deepEqual(old.outcome, { winner: 1, reason: 'resignation' });
    await finalScreenshot(t, PHONE);
  },
};
