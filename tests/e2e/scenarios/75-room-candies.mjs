// Candies said where they are earned: Ana opens a friends' room the app hosts itself, starts it
// with the CPU in the free seat, plays 16 plies and resigns. A room game of 16 plies or more gives
// 5 candies for a loss (the Turkish page's 15/8/5): the result dialog says "Has ganado 5
// caramelos." and home's daily total says 5.
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { clickWhenShown, finalScreenshot, launchToHome } from '../lib/flows.mjs';
import { roomOf, waitMyTurn, waitRoom } from '../lib/rooms.mjs';

const PLIES = 16;

export default {
  name: 'room-candies',
  title: 'A friends\' room game of 16 plies, resigned: the result dialog says the 5 candies earned',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    await driver.executeScript('location.hash = "#/setup/english"');
    await ui.waitFor((s) => s.screen === 'setup-screen', 'the setup screen');
    await ui.click('mode-friends');
    const nick = await ui.byTestid('setup-nickname');
    await nick.clear();
    await nick.sendKeys('Ana');
    await ui.click('start');
    await waitRoom(ui, (r) => r.you != null && r.room.seats.length === 2, 'Ana seated in the hosted room', 30000);
    await clickWhenShown(t, 'start-cpu');
    await waitRoom(ui, (r) => r.room.started, 'the game started with the CPU');

    // Ana plays until 16 plies are on the board; the server's CPU answers each move.
    for (;;) {
      const { room } = await waitRoom(ui, (r) => r.room.view.ply >= PLIES || r.room.view.to_move === r.you, 'Ana to move', 60000);
      if (room.view.ply >= PLIES) break;
      await waitMyTurn(ui, 60000);
      const ply = room.view.ply;
      await ui.playByTaps(room.view.legal_moves[0], { waitIdle: false });
      await waitRoom(ui, (r) => r.room.view.ply > ply, `ply ${ply + 1}`);
    }
    await waitMyTurn(ui, 60000);
    const { room } = await roomOf(ui);
    assert.ok(room.view.ply >= PLIES, `${room.view.ply} plies played`);

    await ui.click('resign');
    await clickWhenShown(t, 'confirm-yes');
    await ui.waitFor((s) => s.result, 'the result dialog');
    const said = await driver.wait(
      () => driver.executeScript("const e = document.querySelector('dialog[open] [data-testid=result-candies]'); return e && !e.hidden ? e.textContent : null"),
      10000,
      'the candies in the result dialog',
    );
    assert.equal(said, 'Has ganado 5 caramelos.');
    t.log(`result dialog: "${said}"`);
    await finalScreenshot(t, PHONE);

    await clickWhenShown(t, 'result-home');
    await ui.waitHome();
    const today = await driver.wait(() => driver.executeScript("return document.querySelector('[data-testid=candies]')?.dataset.today ?? null"), 5000, 'the candies on home');
    assert.equal(today, '5', 'home counts the same 5');
  },
};
