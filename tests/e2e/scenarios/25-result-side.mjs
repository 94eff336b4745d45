// The result from the player's side: the result dialog speaks from the player's side against the CPU ("Has
// perdido", "Te has rendido"), names the winner on one device, and shows moves, captures and time.
import assert from 'node:assert/strict';
import { PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

async function resign(t) {
  await t.ui.click('resign');
  await t.driver.wait(async () => t.driver.executeScript('return document.getElementById("dialog").open'), 5000, 'the confirm dialog');
  await t.ui.click('confirm-yes');
  return t.ui.waitFor((s) => s.result, 'the result dialog');
}

const figures = (t) => t.driver.executeScript("return Object.fromEntries([...document.querySelectorAll('[data-testid=result-figure]')].map((f) => [f.dataset.key, f.querySelector('dd').textContent]))");
const reason = (t) => t.driver.executeScript("return document.querySelector('[data-testid=result-reason]').textContent");

export default {
  name: 'result-side',
  title: 'Result dialog: from your side vs the CPU, the winner named on one device, with figures',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('english', { mode: 'cpu', level: 'easy', colour: 0 });
    let view = await ui.view();
    await ui.playByTaps(view.legal_moves[0]);
    await ui.waitIdle();
    let s = await resign(t);
    assert.equal(s.result.text, 'Has perdido', 'said from your side');
    assert.equal(s.result.reason, 'resignation');
    assert.equal(await reason(t), 'Te has rendido.');
    let f = await figures(t);
    view = await ui.view();
    assert.equal(f.moves, String(view.history.length));
    assert.match(f.captures, /^Tú \d+ · Blancas \d+$/);
    assert.match(f.time, /^\d+:\d\d$/);
    await finalScreenshot(t, PHONE, `${t.label}-cpu`);
    await ui.click('result-close');

    await ui.startGame('turkish', { mode: 'local' });
    s = await resign(t);
    // White moves first and resigns: Black wins, named.
    assert.equal(s.result.text, 'Gana Negras');
    assert.equal(await reason(t), 'Blancas se ha rendido.');
    f = await figures(t);
    assert.equal(f.moves, '0');
    assert.equal(f.captures, 'Blancas 0 · Negras 0');
    await finalScreenshot(t, PHONE);
  },
};
