// Issue 14, PDN: a Turkish game is exported (the dialog shows the app's PDN, GameType 30) and saved
// to a file; a bad PDN pasted into the import dialog is refused with its line and nothing is kept;
// the exported text pasted back continues the game against the CPU from its last position.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { Key } from 'selenium-webdriver';
import { invoke, PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome, moveTexts } from '../lib/flows.mjs';

// Null until the element exists: the export dialog is filled after the backend answers, so a wait
// that polls it must not throw on the first poll.
const value = (t, testid) => t.driver.executeScript(
  `const e = document.querySelector('[data-testid=${testid}]'); return e ? e.value : null`);
const shownText = (t, testid) => t.driver.executeScript(
  `const e = document.querySelector('[data-testid=${testid}]'); return e && !e.hidden ? e.textContent : null`);

export default {
  name: 'pdn-share',
  title: 'PDN: export to the dialog and a file, a bad import refused with its line, an import played on vs the CPU',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('turkish', { mode: 'local' });
    for (let i = 0; i < 3; i++) {
      const view = await ui.view();
      await ui.playByTaps(view.legal_moves[0]);
    }
    const played = await ui.view();

    // Export: the dialog's text is the backend's, and saving writes the same text.
    await ui.click('export');
    await t.driver.wait(async () => ((await value(t, 'export-text')) || '').length > 0, 5000, 'the export text');
    const text = await value(t, 'export-text');
    assert.equal(text, (await invoke(t.driver, 'export_game', { id: played.id })).text);
    assert.match(text, /\[GameType "30"\]/);
    const numbered = `1. ${moveTexts(played)[0]} ${moveTexts(played)[1]} 2. ${moveTexts(played)[2]} *`;
    assert.ok(text.includes(numbered), `movetext "${numbered}" in:\n${text}`);
    await ui.click('export-save');
    const path = await t.driver.wait(() => t.driver.executeScript("const e = document.querySelector('[data-testid=export-said]'); return (e && e.dataset.path) || null"), 5000, 'the saved path');
    assert.equal(fs.readFileSync(path, 'utf8'), text, `the file ${path}`);
    await ui.click('export-close');
    await t.driver.wait(() => t.driver.executeScript('return !document.getElementById("dialog").open'), 5000, 'the dialog to close');
    await ui.settled();

    // A bad PDN: its line is named and nothing is saved.
    await ui.click('nav-back');
    await ui.waitHome();
    const before = await invoke(t.driver, 'list_saved');
    await ui.click('import-open');
    const area = await ui.byTestid('import-text');
    // Typed line by line (Enter between lines), as a person would.
    await area.sendKeys('[GameType "30"]', Key.ENTER, Key.ENTER, '1. 99-98 *', Key.ENTER);
    assert.equal(await value(t, 'import-text'), '[GameType "30"]\n\n1. 99-98 *\n');
    await ui.click('import-go');
    await t.driver.wait(async () => (await shownText(t, 'import-error')) != null, 5000, 'the import error');
    const problem = await shownText(t, 'import-error');
    assert.match(problem, /línea 3/, problem);
    // Worded in the player's language (Spanish here) from the error's code, no English detail.
    assert.doesNotMatch(problem, /\bmove\b|is not|legal move/, problem);
    assert.deepEqual(await invoke(t.driver, 'list_saved'), before, 'nothing saved');

    // The exported text, played on against the CPU: the human takes the side to move.
    await area.clear();
    await t.driver.executeScript("const a = document.querySelector('[data-testid=import-text]'); a.value = arguments[0];", text);
    await ui.click('import-mode-cpu');
    await ui.click('import-level-easy');
    await ui.click('import-go');
    const s = await ui.waitFor((x) => x.screen === 'game-screen' && x.game?.gameId && x.game.gameId !== played.id && x.game.busy === 'false', 'the imported game');
    const imported = await invoke(t.driver, 'get_game', { id: s.game.gameId });
    assert.deepEqual(moveTexts(imported), moveTexts(played));
    assert.equal(imported.mode, 'cpu');
    assert.equal(imported.level, 'easy');
    assert.deepEqual(imported.human_seats, [played.to_move]);
    assert.equal(imported.cpu_to_move, false);
    await finalScreenshot(t, PHONE);
  },
};
