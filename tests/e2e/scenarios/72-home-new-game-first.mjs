// Home with many unfinished games (11, as a player who leaves games half played): on a phone,
// starting a new game needs no scrolling (the first game card is on the first screen), and the
// unfinished list shows its latest three rows and "Ver todas (11)", which shows the rest; a game
// deleted from the list brings the next one into view.
import assert from 'node:assert/strict';
import { invoke, PHONE, resize } from '../lib/page.mjs';
import { clickWhenShown, finalScreenshot, launchToHome } from '../lib/flows.mjs';

const UNFINISHED = 11;
const KINDS = ['english', 'international', 'turkish'];

/** Where things are on the home screen, in CSS px from the top of the window (scrolled to the top). */
const LAYOUT = `
  const scroller = document.querySelector('[data-testid=home-screen] .scroll');
  scroller.scrollTop = 0;
  const visible = (e) => e.getClientRects().length > 0;
  const card = document.querySelector('[data-testid=game-card]');
  const rows = [...document.querySelectorAll('[data-testid=saved-row]')];
  const all = document.querySelector('[data-testid=saved-all]');
  return {
    innerHeight, cardTop: card.getBoundingClientRect().top, cardBottom: card.getBoundingClientRect().bottom,
    rows: rows.length, shownRows: rows.filter(visible).map((r) => r.dataset.id),
    all: all && visible(all) ? all.textContent.trim() : null,
  };`;

export default {
  name: 'home-new-game-first',
  title: 'Home with 11 unfinished games: a new game on the first phone screen, the list compact',
  async run(t) {
    await launchToHome(t);
    const made = [];
    for (let i = 0; i < UNFINISHED; i++) {
      const kind = KINDS[i % KINDS.length];
      const view = await invoke(t.driver, 'new_game', { setup: { variant: { kind, players: 2, long_jump: false }, mode: 'local' } });
      await invoke(t.driver, 'play_move', { id: view.id, moveText: view.legal_moves[0].move });
      made.push(view.id);
    }
    const listed = (await invoke(t.driver, 'list_saved')).filter((g) => !g.finished);
    assert.equal(listed.length, UNFINISHED, 'eleven unfinished games kept');

    // A new launch, as the player comes back: the last game is offered, then the games to start.
    await t.app.close();
    await launchToHome(t);
    await resize(t.driver, PHONE);
    await t.ui.waitFor((s) => s.savedRows.length === UNFINISHED, 'the unfinished games listed');
    const home = await t.driver.executeScript(LAYOUT);
    t.log(`first game card at ${Math.round(home.cardTop)}–${Math.round(home.cardBottom)} px of ${home.innerHeight}`);
    assert.ok(home.cardBottom <= home.innerHeight, `the first game card is on the first screen (${Math.round(home.cardBottom)} px > ${home.innerHeight} px)`);
    assert.equal(home.rows, UNFINISHED);
    assert.deepEqual(home.shownRows, listed.slice(0, 3).map((g) => g.id), 'the three latest unfinished games are shown');
    assert.equal(home.all, `Ver todas (${UNFINISHED})`);

    // Deleting a shown game: the next one comes into view and the count follows.
    await t.ui.click('delete', `[aria-label]`);
    await clickWhenShown(t, 'confirm-yes');
    await t.ui.waitFor((s) => s.savedRows.length === UNFINISHED - 1, 'the first game deleted');
    listed.shift();
    const fewer = await t.driver.executeScript(LAYOUT);
    assert.deepEqual(fewer.shownRows, listed.slice(0, 3).map((g) => g.id), 'still the three latest');
    assert.equal(fewer.all, `Ver todas (${UNFINISHED - 1})`);

    // "Ver todas": every row, and the focus on the first one it showed.
    await t.ui.click('saved-all');
    const after = await t.driver.executeScript(`${LAYOUT.replace('return {', 'const focused = document.activeElement; return { focusedRow: focused?.closest("[data-testid=saved-row]")?.dataset.id ?? null,')}`);
    assert.deepEqual(after.shownRows, listed.map((g) => g.id), 'all of them, latest first');
    assert.equal(after.all, null, 'the button is gone');
    assert.equal(after.focusedRow, listed[3].id, 'the focus moves to the first row shown');
    await finalScreenshot(t, PHONE);
  },
};
