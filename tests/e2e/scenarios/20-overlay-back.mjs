// Overlays: rules and settings opened from a game are an overlay on it. "‹", Escape and
// the system back button (a history step, as Android's back does in the WebView) return to the
// same game as it was — a piece still picked up — and close the top layer first.
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

const back = (t) => t.driver.executeScript('history.back()');

export default {
  name: 'overlay-back',
  title: 'Rules and settings over a game: back, Escape and the back button return to it',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('english', { mode: 'local' });
    const id = await ui.gameId();
    const view = await ui.view();
    const from = view.legal_moves[0].from;
    await ui.tap(from);
    await ui.waitFor((s) => s.game.phase === 'selected', 'a piece picked up');
    // The game screen element itself stays: it is not rebuilt under the overlay.
    await t.driver.executeScript("window.__gameEl = document.querySelector('[data-testid=game-screen]')");
    const same = () => t.driver.executeScript("return window.__gameEl === document.querySelector('[data-testid=game-screen]') && window.__gameEl.isConnected");

    await ui.click('nav-rules');
    let s = await ui.waitFor((x) => x.screen === 'rules-screen', 'the rules over the game');
    assert.equal(s.game.gameId, id, 'the game is still there under the rules');
    assert.ok(await t.driver.executeScript("return document.querySelector('[data-testid=game-screen]').inert"), 'the game under the overlay is inert');
    await ui.click('nav-back');
    s = await ui.waitFor((x) => x.screen === 'game-screen', 'back to the game');
    assert.equal(s.hash, `#/game/${id}`);
    assert.equal(s.game.phase, 'selected', 'the piece is still picked up');
    assert.deepEqual(s.selected, [from]);
    assert.ok(await same(), 'the same game screen, not a new one');

    // Settings over the game; Escape closes it.
    await ui.click('nav-settings');
    await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings over the game');
    await ui.pressKeys(Key.ESCAPE);
    s = await ui.waitFor((x) => x.screen === 'game-screen', 'Escape back to the game');
    assert.equal(s.hash, `#/game/${id}`);
    assert.ok(await same());

    // The system back button on the rules overlay.
    await ui.click('nav-rules');
    await ui.waitFor((x) => x.screen === 'rules-screen', 'the rules again');
    await back(t);
    s = await ui.waitFor((x) => x.screen === 'game-screen', 'the back button returns to the game');
    assert.equal(s.hash, `#/game/${id}`);
    assert.ok(await same());

    // A dialog is the top layer: the back button closes it and stays on the game.
    await ui.tap(from); // put the piece down again
    await ui.waitFor((x) => x.game.phase === 'idle', 'nothing picked up');
    await ui.click('resign');
    await t.driver.wait(async () => t.driver.executeScript('return document.getElementById("dialog").open'), 5000, 'the confirm dialog');
    await back(t);
    await t.driver.wait(async () => !(await t.driver.executeScript('return document.getElementById("dialog").open')), 5000, 'the back button to close the dialog');
    s = await ui.settled();
    assert.equal(s.screen, 'game-screen');
    assert.equal(s.hash, `#/game/${id}`);
    assert.equal(s.game.over, 'false', 'the dialog closed without resigning');
    // And Escape on a dialog over nothing else closes the dialog only.
    await ui.click('resign');
    await t.driver.wait(async () => t.driver.executeScript('return document.getElementById("dialog").open'), 5000);
    await ui.pressKeys(Key.ESCAPE);
    await t.driver.wait(async () => !(await t.driver.executeScript('return document.getElementById("dialog").open')), 5000, 'Escape to close the dialog');
    s = await ui.settled();
    assert.equal(s.screen, 'game-screen');
    assert.equal(s.hash, `#/game/${id}`);
    await finalScreenshot(t, PHONE);
  },
};
