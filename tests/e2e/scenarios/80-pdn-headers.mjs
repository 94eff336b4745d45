// A PDN with its header: in English, an imported game shows its event, site, date and players
// with its moves and exports to the same text; a bad import is worded in English from the
// error's code (the Spanish wording is checked by 51).
import assert from 'node:assert/strict';
import { invoke, PHONE } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

const CLUB_GAME = '[GameType "21"]\n[Event "Club night"]\n[Site "Zaragoza"]\n[Date "2026.11.28"]\n[Round "3"]\n'
  + '[White "Ana Ruiz"]\n[Black "Luis Gil"]\n[Result "*"]\n\n1. 11-15 22-18 2. 15x22 25x18 *\n';
// White must take back on 22 (captures are compulsory): move 4 on line 5 is illegal.
const ILLEGAL = '[GameType "21"]\n[Event "x"]\n\n1. 11-15 22-18\n2. 15x22 21-17\n';

const shownText = (t, testid) => t.driver.executeScript(
  `const e = document.querySelector('[data-testid=${testid}]'); return e && !e.hidden ? e.textContent : null`);

async function importText(t, text) {
  await t.ui.click('import-open');
  await t.ui.byTestid('import-text');
  await t.driver.executeScript("document.querySelector('[data-testid=import-text]').value = arguments[0];", text);
  await t.ui.click('import-go');
}

async function backHome(t) {
  for (let i = 0; i < 3 && (await t.ui.snapshot()).screen !== 'home-screen'; i++) {
    const from = (await t.ui.snapshot()).screen;
    await t.ui.click('nav-back');
    await t.ui.waitFor((x) => x.ready && x.screen && x.screen !== from, `back from ${from}`);
  }
  await t.ui.waitHome();
}

export default {
  name: 'pdn-headers',
  title: 'PDN header kept: shown with the moves and exported unchanged; an import error worded in English',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.click('nav-settings');
    await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings screen');
    await ui.click('lang-en');
    await ui.waitFor((x) => x.lang === 'en', 'the page in English');
    await backHome(t);

    await importText(t, CLUB_GAME);
    const s = await ui.waitFor((x) => x.screen === 'game-screen' && x.game?.gameId, 'the imported game');
    const shown = await t.driver.wait(() => shownText(t, 'game-record'), 5000, 'the game record');
    for (const part of ['Event', 'Club night', 'Site', 'Zaragoza', 'Date', '2026.11.28', 'Round', '3', 'Players', 'Ana Ruiz – Luis Gil']) {
      assert.ok(shown.includes(part), `"${part}" in the game record: ${shown}`);
    }
    const exported = await invoke(t.driver, 'export_game', { id: s.game.gameId });
    assert.equal(exported.text, CLUB_GAME, 'the header and moves come back unchanged');

    await backHome(t);
    const before = await invoke(t.driver, 'list_saved');
    await importText(t, ILLEGAL);
    const problem = await t.driver.wait(() => shownText(t, 'import-error'), 5000, 'the import error');
    assert.equal(problem, 'On line 5, move 4 “21-17” is not legal in that position.');
    assert.deepEqual(await invoke(t.driver, 'list_saved'), before, 'nothing saved');
    await finalScreenshot(t, PHONE);
  },
};
