// The endgame tables from the app: the settings list the three draughts games with no
// tables; "Construir" starts an English build that shows its progress, "Detener" stops it, and the
// piece counts finished by then are on disk in the cache the CLI shares
// ($XDG_DATA_HOME/damas/endgame), offered to be completed. Expert's setup points to the tables
// while a game's are missing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { invoke, PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome, setupVsCpu } from '../lib/flows.mjs';

const line = (driver, game) => driver.executeScript(
  `const l = document.querySelector('.endgame-line[data-game="${game}"]');
   if (!l) return null;
   const b = l.querySelector('button'), p = l.querySelector('progress');
   return { state: l.querySelector('.endgame-state').textContent, button: b.hidden ? null : b.textContent,
            label: b.getAttribute('aria-label'), disabled: b.getAttribute('aria-disabled') === 'true', progress: p.hidden ? null : p.value };`);

const english = async (driver) => (await invoke(driver, 'endgame_status', {})).find((r) => r.game === 'english');

export default {
  name: 'endgame-tables',
  title: 'Settings: build the English endgame tables, watch the progress, stop; finished piece counts kept',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    // Choosing expert for English points to the tables, which this device lacks.
    await setupVsCpu(t, 'english', 'expert');
    await driver.wait(async () => driver.executeScript(
      "const tip = document.querySelector('[data-testid=endgame-tip]'); return !!tip && tip.offsetParent !== null"), 10000, 'the tip under expert');
    await driver.executeScript("document.querySelector('[data-testid=endgame-tip] a').click()");
    await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings, from the tip');
    await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings screen');
    await driver.wait(async () => (await line(driver, 'turkish')) !== null, 10000, 'the endgame lines');
    for (const game of ['english', 'international', 'turkish']) {
      const shown = await line(driver, game);
      assert.match(shown.state, /^Sin tablas/, `${game}: ${shown.state}`);
      assert.equal(shown.button, 'Construir');
      assert.match(shown.label, /^Construir las tablas de finales de Damas /);
      assert.equal(shown.progress, null);
    }

    await ui.click('endgame-english');
    await driver.wait(async () => (await line(driver, 'english')).button === 'Detener', 10000, 'the build under way');
    const others = await line(driver, 'turkish');
    assert.equal(others.disabled, true, 'no second build while one runs');
    // Wait for the 2- and 3-piece files (a second or so), then stop before the 5-piece ones.
    await driver.wait(async () => (await english(driver)).pieces >= 3, 60000, 'three pieces built');
    const during = await line(driver, 'english');
    assert.match(during.state, /^Construyendo… \d+ %$/, during.state);
    assert.ok(during.progress !== null, 'the progress bar shows');
    await ui.click('endgame-english');
    await ui.waitFor((x) => /detenida/.test(x.toast || ''), 'the stop announced', 300000);
    await driver.wait(async () => (await line(driver, 'english')).button === 'Completar', 10000, 'the line offers to complete');

    const status = await english(driver);
    assert.equal(status.building, false);
    assert.ok(status.pieces >= 3 && status.pieces < 5, `pieces ${status.pieces}`);
    const dir = path.join(t.app.dataHome, 'damas', 'endgame');
    const files = fs.readdirSync(dir).filter((f) => /^english-\d\.egtb$/.test(f)).sort();
    assert.deepEqual(files, Array.from({ length: status.pieces - 1 }, (_, i) => `english-${i + 2}.egtb`));
    const bytes = files.reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
    assert.equal(status.bytes, bytes);
    const after = await line(driver, 'english');
    assert.match(after.state, new RegExp(`^Hasta ${status.pieces} de 5 piezas \\(.+\\)$`), after.state);
    assert.equal((await line(driver, 'turkish')).disabled, false, 'builds can start again');
    await finalScreenshot(t, PHONE, 'endgame-tables');
    // "‹" goes back to the setup the tip was followed from, expert still chosen.
    await ui.click('nav-back');
    await ui.waitFor((x) => x.screen === 'setup-screen', 'back to the setup');
    const expert = await driver.executeScript("return document.querySelector('[data-testid=level-expert]').getAttribute('aria-pressed')");
    assert.equal(expert, 'true', 'expert is still chosen');
  },
};
