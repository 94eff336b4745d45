// Issue 13, items 2 and 11: the Diamond goal is drawn (◎ on each destination apex, the viewer's
// destination tinted, one line in a first Diamond game); draughts have a flip button and an
// option to turn the board to the player to move on one device.
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

// Measured once the board's turn (an eased rotation) has ended.
async function cellTop(t, cell) {
  await t.driver.wait(async () => (await t.driver.executeScript("return document.getAnimations().filter((a) => a.playState === 'running').length")) === 0, 10000, 'the board to stop turning');
  return t.driver.executeScript(`return document.querySelector('svg[data-testid=board] [data-testid=cell][data-cell="${cell}"]').getBoundingClientRect().top`);
}

export default {
  name: 'goals-and-flip',
  title: 'Diamond goals drawn with the first-game line; draughts flip button and turn-to-player option',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('diamond', { players: 3, mode: 'cpu', level: 'easy' });
    const view = await ui.view();
    const goals = await t.driver.executeScript(`return {
      apexes: [...document.querySelectorAll('[data-testid=goal-apex]')].map((e) => ({ cell: e.dataset.cell, seat: Number(e.dataset.seat) })),
      home: (document.querySelector('[data-testid=goal-home]')?.dataset.cells ?? '').split(' ').filter(Boolean),
      homeSeat: document.querySelector('[data-testid=goal-home]')?.dataset.seat,
      hint: document.querySelector('[data-testid=goal-hint]')?.textContent ?? null,
    }`);
    assert.equal(goals.apexes.length, 3, 'a ◎ for each player');
    for (const a of goals.apexes) {
      assert.equal(view.layout.cells.find((c) => c.name === a.cell).view_names[a.seat], 'F17P1', `seat ${a.seat}'s ◎ on its destination apex`);
    }
    assert.equal(goals.homeSeat, '0', "the viewer's destination is tinted");
    assert.equal(goals.home.length, 15);
    const rows = goals.home.map((c) => Number(view.layout.cells.find((x) => x.name === c).view_names[0].match(/^F(\d+)/)[1]));
    assert.ok(rows.every((f) => f >= 13), 'the tinted holes are in rows 13–17 of Red\'s view');
    assert.equal(goals.hint, 'Lleva tus 15 fichas a la punta de enfrente y el rey a ◎.');
    await finalScreenshot(t, PHONE, `${t.label}-diamond`);

    // Draughts on one device: flip by hand, then the setting turns the board to the player.
    await ui.startGame('english', { mode: 'local' });
    const top1 = await cellTop(t, '1');
    await ui.click('flip');
    let s = await ui.waitFor((x) => x.game.viewer === '1', 'the board flipped');
    assert.ok((await cellTop(t, '1')) > top1, 'square 1 moved from the top to the bottom');
    await ui.click('flip');
    s = await ui.waitFor((x) => x.game.viewer === '0', 'flipped back');
    await ui.click('nav-settings');
    await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings over the game');
    await ui.click('turn_board-on');
    await t.driver.wait(async () => (await t.driver.executeScript('return window.__damas.settings.turn_board')) === true, 5000);
    await ui.click('nav-back');
    await ui.waitFor((x) => x.screen === 'game-screen', 'back to the game');
    const v = await ui.view();
    await ui.playByTaps(v.legal_moves[0]);
    s = await ui.waitFor((x) => x.game.toMove === '1' && x.game.viewer === '1', 'the board turned to White');
    await finalScreenshot(t, PHONE);
    await ui.playByTaps((await ui.view()).legal_moves[0]);
    await ui.waitFor((x) => x.game.toMove === '0' && x.game.viewer === '0', 'and back to Black');
  },
};
