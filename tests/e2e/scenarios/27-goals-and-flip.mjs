// Goals and flip: the Diamond goal is drawn (◎ on each destination apex, the viewer's
// destination tinted, one line in a first Diamond game); draughts have a flip button and an
// option to turn the board to the player to move on one device.
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome, setBoard } from '../lib/flows.mjs';

// Where a square is drawn, as a fraction of the board's height from its top (0 top, 1 bottom),
// measured once the board's turn (an eased rotation of the SVG, 0.45 s) has ended: no animation
// running in the page and the same place in two reads a frame apart.
async function cellPlace(t, cell) {
  let last = null;
  await t.driver.wait(
    async () => {
      const now = await t.driver.executeAsyncScript(
        `const [cell, done] = arguments;
         requestAnimationFrame(() => {
           const running = document.getAnimations().filter((a) => a.playState === 'running').length;
           const b = document.querySelector('svg[data-testid=board]').getBoundingClientRect();
           const c = document.querySelector('svg[data-testid=board] [data-testid=cell][data-cell="' + cell + '"]').getBoundingClientRect();
           done({ running, at: (c.top + c.height / 2 - b.top) / b.height });
         });`,
        cell,
      );
      const still = now.running === 0 && last && Math.abs(last.at - now.at) < 0.001;
      last = now;
      return still;
    },
    20000,
    'the board to stop turning',
  );
  return last.at;
}

export default {
  name: 'goals-and-flip',
  title: 'Diamond goals drawn with the first-game line; draughts flip button and turn-to-player option',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    // The SVG board's goal marks (the 3D board's are checked in 30).
    await setBoard(t, '2d');
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
    // English: Black (seat 0) moves first from squares 1–12, and each seat sees its own men at
    // the bottom — so square 1 is at the bottom for Black and at the top once the board is turned.
    await ui.startGame('english', { mode: 'local' });
    let v = await ui.view();
    assert.equal(v.pieces.find((p) => p.cell === '1')?.seat, 0, "square 1 holds one of Black's men");
    const bottom = await cellPlace(t, '1');
    assert.ok(bottom > 0.8, `square 1 is in Black's bottom row at the start (${bottom.toFixed(3)} of the board's height)`);
    await ui.click('flip');
    let s = await ui.waitFor((x) => x.game.viewer === '1', 'the board flipped');
    const flippedAt = await cellPlace(t, '1');
    assert.ok(flippedAt < 0.2, `square 1 moved from the bottom to the top (${bottom.toFixed(3)} → ${flippedAt.toFixed(3)})`);
    await ui.click('flip');
    s = await ui.waitFor((x) => x.game.viewer === '0', 'flipped back');
    assert.ok((await cellPlace(t, '1')) > 0.8, 'square 1 is back at the bottom');
    await ui.click('nav-settings');
    await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings over the game');
    await ui.click('turn_board-on');
    await t.driver.wait(async () => (await t.driver.executeScript('return window.__damas.settings.turn_board')) === true, 5000);
    await ui.click('nav-back');
    await ui.waitFor((x) => x.screen === 'game-screen', 'back to the game');
    v = await ui.view();
    await ui.playByTaps(v.legal_moves[0]);
    s = await ui.waitFor((x) => x.game.toMove === '1' && x.game.viewer === '1', 'the board turned to White');
    assert.ok((await cellPlace(t, '1')) < 0.2, "White to move: Black's square 1 is at the top");
    await finalScreenshot(t, PHONE);
    await ui.playByTaps((await ui.view()).legal_moves[0]);
    await ui.waitFor((x) => x.game.toMove === '0' && x.game.viewer === '0', 'and back to Black');
    assert.ok((await cellPlace(t, '1')) > 0.8, 'Black to move: square 1 is at the bottom again');
  },
};
