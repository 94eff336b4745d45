// The expert level: the setup screen offers it, and its thinking-time choice shows only
// while expert is chosen; the choice is saved as the `movetime` setting (the backend's truth) and
// kept when the level changes; the expert CPU then answers with a legal move.
import assert from 'node:assert/strict';
import { invoke, PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome, setupVsCpu } from '../lib/flows.mjs';

const shown = (driver) => driver.executeScript(
  "const f = document.querySelector('[data-testid=movetime-field]'); return !!f && !f.hidden && f.offsetParent !== null");

export default {
  name: 'expert-level',
  title: 'Expert in the setup screen: thinking time shown for expert only, saved as a setting; a legal expert move',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    await setupVsCpu(t, 'english', 'hard');
    assert.equal(await shown(driver), false, 'no thinking time for hard');
    await ui.click('level-expert');
    assert.equal(await shown(driver), true, 'thinking time shown for expert');
    await ui.click('movetime-500');
    await driver.wait(async () => (await invoke(driver, 'get_settings', {})).movetime === 500, 5000, 'the setting saved');
    await ui.click('level-medium');
    assert.equal(await shown(driver), false, 'hidden again for medium');
    await ui.click('level-expert');
    const pressed = await driver.executeScript("return document.querySelector('[data-testid=movetime-500]').getAttribute('aria-pressed')");
    assert.equal(pressed, 'true');
    await finalScreenshot(t, PHONE, 'setup-expert');
    // White (seat 1): the expert CPU moves first.
    await ui.click('colour-1');
    const before = (await invoke(driver, 'get_settings', {})).movetime;
    assert.equal(before, 500);
    await ui.click('start');
    await ui.waitFor((x) => x.game && Number(x.game.ply) === 1 && x.game.busy === 'false' && !x.thinking, "the expert CPU's move", 60000);
    const view = await ui.view();
    assert.equal(view.level, 'expert');
    assert.equal(view.history.length, 1);
    // The engine's own truth, from the command line: the moves legal at the start.
    assert.ok(t.cli, 'the damas CLI is needed (--cli)');
    const legal = t.cli.moves('english').map((m) => m.move);
    assert.ok(legal.includes(view.history[0].move.move), `${view.history[0].move.move} is legal`);
  },
};
