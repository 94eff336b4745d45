// Hint: against the CPU the hint button shows the hard CPU's move as a preview (the
// piece lifted, the ghost on its landing) that is played only when the player confirms it; the
// count is kept with the game. On one device there is no hint button. The game, resigned, shows
// in the statistics screen as a loss.
import assert from 'node:assert/strict';
import { invoke, PHONE } from '../lib/page.mjs';
import { clickWhenShown, finalScreenshot, launchToHome } from '../lib/flows.mjs';

export default {
  name: 'hint',
  title: 'Hint vs the CPU: a previewed legal move, played on confirmation, counted with the game; the loss in the statistics',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('international', { mode: 'cpu', level: 'easy', colour: 0 });
    const view = await ui.view();
    await ui.click('hint');
    let s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.game.busy === 'false', 'the hint previewed', 30000);
    const lifted = s.selected[0];
    const landing = s.ghost;
    const suggested = view.legal_moves.find((m) => m.from === lifted && m.to === landing);
    assert.ok(suggested, `the hint ${lifted} → ${landing} is a legal move`);
    assert.equal(Number(s.game.ply), 0, 'nothing played yet');
    const counted = await ui.view();
    assert.equal(counted.hints, 1, 'the hint is counted with the game');
    assert.equal(counted.ply, 0);
    const label = await t.driver.executeScript("return document.querySelector('[data-testid=hint]').dataset.hints");
    assert.equal(label, '1');
    // Confirmed with a second tap on the landing: played, then the CPU replies.
    await ui.tap(landing);
    s = await ui.waitFor((x) => Number(x.game.ply) === 2 && x.game.busy === 'false' && !x.thinking, "the move and the CPU's reply", 60000);
    const after = await ui.view();
    assert.equal(after.history[0].move.move, suggested.move);
    assert.equal(after.hints, 1);
    // Resigned: the statistics screen counts a loss for International draughts, easy.
    await ui.click('resign');
    await clickWhenShown(t, 'confirm-yes');
    await ui.waitFor((x) => x.result, 'the result');
    await clickWhenShown(t, 'result-home');
    await ui.waitHome();
    await ui.click('stats-link');
    await ui.waitFor((x) => x.screen === 'stats-screen', 'the statistics');
    const rows = await t.driver.executeScript(`return [...document.querySelectorAll('[data-testid=stats-row]')].map((r) => ({
      game: r.dataset.game, level: r.dataset.level,
      figures: Object.fromEntries([...r.querySelectorAll('.stats-figure')].map((f) => [f.dataset.key, f.querySelector('dd').textContent])),
      bars: [...r.querySelectorAll('[data-testid=stats-chart] rect')].map((b) => b.dataset.result),
    }))`);
    assert.deepEqual(rows.map((r) => [r.game, r.level]), [['international', 'easy']]);
    assert.deepEqual([rows[0].figures.played, rows[0].figures.wins, rows[0].figures.losses], ['1', '0', '1']);
    assert.deepEqual(rows[0].bars, ['loss']);
    await finalScreenshot(t, PHONE, 'stats');
    // The Diamond rules' diagrams: the king's line jump and the win, drawn by the board renderer.
    await t.driver.executeScript('location.hash = "#/rules/diamond"');
    await t.driver.wait(() => t.driver.executeScript("return document.querySelectorAll('[data-testid=rules-diagram] [data-testid=piece]').length > 0 && document.querySelectorAll('[data-testid=rules-diagram]').length === 3"), 10000, 'the Diamond diagrams');
    await t.driver.executeScript("document.querySelectorAll('[data-testid=rules-diagram]')[2].scrollIntoView({block: 'center'})");
    await finalScreenshot(t, PHONE, 'rules-diamond');
    // Pass-and-play has no hint.
    await ui.startGame('english', { mode: 'local' });
    s = await ui.snapshot();
    assert.equal(s.actions.hint, undefined, 'no hint button on one device');
    const local = await ui.view();
    await assert.rejects(invoke(t.driver, 'hint', { id: local.id }), /bad_input/);
    await finalScreenshot(t, PHONE);
  },
};
