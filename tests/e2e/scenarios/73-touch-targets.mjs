// Fingers and eyes on a phone, at 360×640 and 390×844: every visible interactive element of every
// screen (home, setup, a game on the 2D and the 3D board with a piece picked up and the move list
// open, rules, settings, statistics, the confirmation, result and share dialogs) is at least 44 CSS
// px both ways (Apple's minimum; a check box or radio counts by its label), every visible text is
// at least 12 px, the titles are whole (not cut with "…"), and the open move list shows whole rows.
import assert from 'node:assert/strict';
import { invoke, PHONE, resize, settled } from '../lib/page.mjs';
import { clickWhenShown, finalScreenshot, launchToHome } from '../lib/flows.mjs';

const SMALL = { width: 360, height: 640 };
const MIN_TARGET = 44;
const MIN_TEXT = 12;

// What is under the minimums on the screen now (an open dialog is the screen: the rest is inert).
const MEASURE = `
  const [minTarget, minText] = arguments;
  const dialog = document.querySelector('dialog[open]');
  const root = dialog || document.getElementById('app');
  const hiddenByPage = (e) => !!e.closest('[inert], [hidden], .sr-only, [aria-hidden=true]');
  const shown = (e) => {
    if (hiddenByPage(e)) return false;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const cs = getComputedStyle(e);
    return cs.visibility !== 'hidden' && cs.display !== 'none' && Number(cs.opacity) > 0;
  };
  const describe = (e) => (e.dataset.testid || e.getAttribute('aria-label') || e.textContent.trim().slice(0, 24) || e.tagName) + ' <' + e.tagName.toLowerCase() + (e.className && typeof e.className === 'string' ? '.' + e.className.split(' ')[0] : '') + '>';
  const interactive = [...root.querySelectorAll('a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [role=tab], [tabindex]:not([tabindex="-1"])')];
  const small = [];
  let targets = 0;
  for (const e of interactive) {
    if (!shown(e)) continue;
    // A check box or radio is tapped through its label.
    const target = e.matches('input[type=checkbox], input[type=radio]') ? (e.closest('label') || document.querySelector('label[for="' + e.id + '"]') || e) : e;
    const r = target.getBoundingClientRect();
    targets++;
    if (Math.min(r.width, r.height) < minTarget - 0.5) small.push(describe(e) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
  }
  const tiny = new Set();
  for (const e of root.querySelectorAll('*')) {
    if (e.closest('svg') || !shown(e)) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const size = parseFloat(getComputedStyle(e).fontSize);
    // Size 0: words kept for screen readers while a picture shows (the small 3D board's buttons).
    if (size > 0 && size < minText - 0.05) tiny.add(describe(e) + ' ' + size.toFixed(1) + 'px');
  }
  // Titles cut with an ellipsis: wider text than box.
  const cut = [...document.querySelectorAll('#app .topbar h1')].filter((h) => shown(h) && h.scrollWidth > h.clientWidth + 1).map((h) => h.textContent.trim());
  return { targets, small, tiny: [...tiny], cut };
`;

async function check(t, where) {
  const problems = [];
  for (const size of [SMALL, PHONE]) {
    await resize(t.driver, size);
    await settled(t.driver);
    const m = await t.driver.executeScript(MEASURE, MIN_TARGET, MIN_TEXT);
    assert.ok(m.targets > 0, `${where}: no interactive element found`);
    const at = `${where} ${size.width}×${size.height}`;
    if (m.small.length) problems.push(`${at}: targets under ${MIN_TARGET} px: ${m.small.join('; ')}`);
    if (m.tiny.length) problems.push(`${at}: text under ${MIN_TEXT} px: ${m.tiny.join('; ')}`);
    if (m.cut.length) problems.push(`${at}: title cut: ${m.cut.join('; ')}`);
    t.log(`${at}: ${m.targets} targets`);
  }
  return problems;
}

/** The open move list on a phone: its rows whole inside it, and more than two of them. */
async function moveListRows(t) {
  return t.driver.executeScript(`const list = document.querySelector('#app > .screen details.moves[open] .move-list');
    const box = list.getBoundingClientRect();
    const rows = [...list.querySelectorAll('.move-row')].map((r) => r.getBoundingClientRect()).filter((r) => r.bottom > box.top && r.top < box.bottom);
    return { height: box.height, whole: rows.filter((r) => r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5).length };`);
}

export default {
  name: 'touch-targets',
  title: 'Targets ≥ 44 px, text ≥ 12 px, whole titles and a readable move list at 360×640 and 390×844',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    const problems = [];
    // Home with four unfinished games (so "show all" is there), a finished one to replay.
    for (let i = 0; i < 4; i++) {
      const view = await invoke(driver, 'new_game', { setup: { variant: { kind: 'english', players: 2, long_jump: false }, mode: 'local' } });
      await invoke(driver, 'play_move', { id: view.id, moveText: view.legal_moves[0].move });
    }
    const done = await invoke(driver, 'new_game', { setup: { variant: { kind: 'turkish', players: 2, long_jump: false }, mode: 'local' } });
    await invoke(driver, 'play_move', { id: done.id, moveText: done.legal_moves[0].move });
    await invoke(driver, 'resign', { id: done.id });
    await driver.executeScript('location.hash = "#/stats"');
    await ui.waitFor((s) => s.screen === 'stats-screen', 'the statistics');
    problems.push(...(await check(t, 'statistics')));
    await driver.executeScript('location.hash = "#/"');
    await ui.waitFor((s) => s.screen === 'home-screen' && s.savedRows.length === 4, 'home with the games');
    problems.push(...(await check(t, 'home')));

    for (const kind of ['english', 'diamond']) {
      await driver.executeScript(`location.hash = "#/setup/${kind}"`);
      await ui.waitFor((s) => s.screen === 'setup-screen', 'the setup');
      problems.push(...(await check(t, `setup ${kind}`)));
    }
    await driver.executeScript('location.hash = "#/rules/international"');
    await ui.waitFor((s) => s.screen === 'rules-screen', 'the rules');
    problems.push(...(await check(t, 'rules')));
    await driver.executeScript('location.hash = "#/settings"');
    await ui.waitFor((s) => s.screen === 'settings-screen', 'the settings');
    problems.push(...(await check(t, 'settings')));

    // A game on the 2D board: a piece picked up (the panel's destinations), the move list open.
    await resize(driver, PHONE);
    await ui.startGame('international', { mode: 'cpu', level: 'easy', colour: 0 });
    let view = await ui.view();
    for (let i = 0; i < 3; i++) {
      await ui.playByTaps(view.legal_moves[0], { waitIdle: false });
      await ui.waitIdle();
      view = await ui.view();
    }
    await ui.tap(view.legal_moves[0].from);
    await ui.waitFor((s) => s.game.phase === 'selected', 'a piece picked up');
    problems.push(...(await check(t, 'international, a piece picked up')));
    await driver.executeScript("document.querySelector('#app > .screen details.moves').open = true");
    problems.push(...(await check(t, 'international, move list open')));
    for (const size of [SMALL, PHONE]) {
      await resize(driver, size);
      await settled(driver);
      const rows = await moveListRows(t);
      if (rows.whole < 3) problems.push(`move list at ${size.width}×${size.height}: ${rows.whole} whole rows in ${Math.round(rows.height)} px`);
    }
    await driver.executeScript("document.querySelector('#app > .screen details.moves').open = false");
    // The share dialog, the confirmation and the result.
    await ui.click('export');
    await ui.waitFor(() => true, 'the share dialog');
    await driver.wait(() => driver.executeScript('return document.getElementById("dialog").open'), 5000, 'the share dialog');
    problems.push(...(await check(t, 'share dialog')));
    await driver.executeScript('document.getElementById("dialog").close()');
    await ui.click('resign');
    await driver.wait(() => driver.executeScript('return document.getElementById("dialog").open'), 5000, 'the confirmation');
    problems.push(...(await check(t, 'confirmation')));
    await clickWhenShown(t, 'confirm-yes');
    await ui.waitFor((s) => s.result, 'the result dialog');
    problems.push(...(await check(t, 'result dialog')));
    await driver.executeScript('document.getElementById("dialog").close()');

    // A star game on the 3D board (its view buttons), with the longest title.
    await resize(driver, PHONE);
    await ui.startGame('diamond', { players: 3, mode: 'cpu', level: 'easy' });
    assert.equal((await ui.snapshot()).boardKind, '3d');
    problems.push(...(await check(t, 'diamond 3D')));

    await finalScreenshot(t, SMALL);
    assert.deepEqual(problems, [], `under the minimums:\n${problems.join('\n')}`);
  },
};
