// Saved games: a game without a move is not listed; leaving an unfinished game asks first;
// saved rows tell games apart (a picture of the position, your seat, the level, when); the last
// game is offered right after a launch.
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';
import { invoke } from '../lib/page.mjs';

const dialogOpen = (t) => t.driver.executeScript('return document.getElementById("dialog").open');

async function homeRows(t) {
  await t.driver.executeScript('location.hash = "#/"');
  await t.ui.waitHome();
  return t.driver.executeScript(`return [...document.querySelectorAll('[data-testid=saved-row]')].map((r) => ({
    id: r.dataset.id, ply: Number(r.dataset.ply), text: r.textContent.trim(),
    seat: r.querySelector('[data-testid=saved-seat]')?.textContent ?? null,
    when: r.querySelector('[data-testid=saved-when]')?.textContent ?? null,
    picture: r.querySelectorAll('[data-testid=mini-board] .icon-piece').length,
  }))`);
}

export default {
  name: 'saved-games',
  title: 'Saved games: no empty ones, ask before leaving, distinguishable rows, last game offered on launch',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    // Started and left at once: nothing is kept and nothing is asked.
    await ui.startGame('english', { mode: 'cpu', level: 'easy', colour: 0 });
    const empty = await ui.gameId();
    await ui.click('new-game');
    await ui.waitFor((s) => s.game && s.game.gameId && s.game.gameId !== empty && s.game.busy === 'false', 'a new game without a question');
    assert.equal(await dialogOpen(t), false);
    const second = await ui.gameId();
    assert.equal((await invoke(t.driver, 'list_saved')).length, 0, 'no game without a move is listed');

    // One move each side: now leaving asks, and "no" stays.
    let view = await ui.view();
    await ui.playByTaps(view.legal_moves[0]);
    await ui.waitIdle();
    await ui.click('new-game');
    await t.driver.wait(() => dialogOpen(t), 5000, 'a question before leaving');
    await ui.click('confirm-no');
    let s = await ui.settled();
    assert.equal(s.game.gameId, second, 'still the same game');
    await ui.click('change-mode');
    await t.driver.wait(() => dialogOpen(t), 5000, 'a question before changing the mode');
    await ui.click('confirm-yes');
    await ui.waitFor((x) => x.screen === 'setup-screen', 'the setup screen');

    // A second game, of another kind and seat, with a move.
    await ui.startGame('international', { mode: 'cpu', level: 'hard', colour: 1 });
    const third = await ui.gameId();
    view = await ui.view();
    await ui.waitIdle();
    view = await ui.view();
    await ui.playByTaps(view.legal_moves[0]);
    await ui.waitIdle();

    const rows = await homeRows(t);
    assert.deepEqual(rows.map((r) => r.id), [third, second], 'both games, the last played first');
    for (const r of rows) {
      assert.ok(r.picture >= 20, `row ${r.id} has a picture of its position (${r.picture} pieces)`);
      assert.ok(r.when && r.when.length > 0, 'a relative time');
    }
    assert.match(rows[0].seat, /Tú: (Blancas|Negras)/, rows[0].seat);
    assert.match(rows[0].seat, /difícil/);
    assert.match(rows[1].seat, /fácil/);
    assert.notEqual(rows[0].seat, rows[1].seat, 'the rows read differently');
    assert.notEqual(rows[0].text, rows[1].text);

    // After a restart the last game is offered first.
    await t.app.kill();
    await launchToHome(t);
    const offer = await t.driver.executeScript("const o = document.querySelector('[data-testid=resume-last]'); return o ? { id: o.dataset.id, text: o.textContent } : null");
    assert.ok(offer, 'the last game is offered on launch');
    assert.equal(offer.id, third);
    await finalScreenshot(t, PHONE, `${t.label}-offer`);
    await t.ui.click('resume-last-go');
    s = await t.ui.waitFor((x) => x.screen === 'game-screen' && x.game.gameId === third, 'the offered game');
    // Offered once: back home, no offer.
    await t.driver.executeScript('location.hash = "#/"');
    await t.ui.waitHome();
    assert.equal(await t.driver.executeScript("return !!document.querySelector('[data-testid=resume-last]')"), false, 'offered once per launch');
    await finalScreenshot(t, PHONE);
  },
};
