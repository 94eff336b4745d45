// Review: the move list in notation on a phone; a tapped move shows that position
// read-only (marked, the board ignores taps), ←/→ and the buttons step, one tap goes back to the
// live game; the keyboard shortcuts act on the game; a finished game is replayed from home. Every
// reviewed board is checked against the engine (the damas CLI).
import assert from 'node:assert/strict';
import { By } from 'selenium-webdriver';
import { invoke, PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { assertBoardIsEngines, clickWhenShown, finalScreenshot, launchToHome, moveTexts } from '../lib/flows.mjs';

const listTexts = (t) => t.driver.executeScript(
  "return [...document.querySelectorAll('[data-testid=move-list] li')].map((li) => li.value + '. ' + [...li.querySelectorAll('.move-item')].map((b) => b.textContent).join(' '))");
const banner = (t) => t.driver.executeScript("const b = document.querySelector('[data-testid=review-banner]'); return b && !b.hidden ? b.textContent : null");
const reviewAt = (t, ply) => t.ui.waitFor((s) => s.game && s.game.review === String(ply), `the review at ply ${ply}`);

export default {
  name: 'review',
  title: 'Review: move list in notation, read-only past positions, stepping, live again, shortcuts, replay from home',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    await ui.startGame('english', { mode: 'local' });
    const boards = [piecesKey((await ui.snapshot()).pieces)];
    for (let i = 0; i < 4; i++) {
      const view = await ui.view();
      await ui.playByTaps(view.legal_moves[0]);
      boards.push(piecesKey((await ui.waitIdle()).pieces));
    }
    const view = await ui.view();
    const moves = moveTexts(view);
    // The list in the standard notation, two moves a number (it is reachable on a phone: open it).
    await t.driver.findElement(By.css('details.moves > summary')).click();
    assert.deepEqual(await listTexts(t), [`1. ${moves[0]} ${moves[1]}`, `2. ${moves[2]} ${moves[3]}`]);

    // Tap the second move: the position after it, marked and read-only.
    await ui.click('move-item', '[data-ply="2"]');
    let s = await reviewAt(t, 2);
    assert.deepEqual(piecesKey(s.pieces), boards[2], 'the board shows the position after move 2');
    assertBoardIsEngines(t, s, 'english', moves.slice(0, 2));
    assert.match(await banner(t), /2 de 4/);
    const piece = s.pieces[0].cell;
    await ui.tap(piece);
    s = await ui.settled();
    assert.equal(s.game.phase, 'idle', 'a reviewed board ignores taps');
    assert.equal(s.selected.length, 0);
    assert.equal((await ui.view()).ply, 4, 'the game is untouched');

    // ← and the buttons step; the start; back to the live game with one tap.
    await ui.click('move-item', '[data-ply="2"]');
    await ui.pressKeys('\uE012');
    s = await reviewAt(t, 1);
    assertBoardIsEngines(t, s, 'english', moves.slice(0, 1));
    await ui.click('review-next');
    await reviewAt(t, 2);
    await ui.click('review-first');
    s = await reviewAt(t, 0);
    assert.deepEqual(piecesKey(s.pieces), boards[0]);
    await ui.click('review-live');
    s = await reviewAt(t, 'live');
    assert.deepEqual(piecesKey(s.pieces), boards[4]);
    assert.equal(await banner(t), null, 'no banner on the live game');

    // Shortcuts: Ctrl+Z / Ctrl+Y, F flips, ? opens the rules, N asks before leaving.
    await t.driver.executeScript('document.activeElement.blur()');
    const ctrl = async (key) => t.driver.actions({ async: true }).keyDown('\uE009').keyDown(key).keyUp(key).keyUp('\uE009').perform();
    await ctrl('z');
    await ui.waitFor((x) => x.game.ply === '3' && x.game.busy === 'false', 'Ctrl+Z to take back a move');
    await ctrl('y');
    await ui.waitFor((x) => x.game.ply === '4' && x.game.busy === 'false', 'Ctrl+Y to replay it');
    await ui.pressKeys('f');
    const flipped = () => t.driver.executeScript("return document.querySelector('[data-testid=flip]').getAttribute('aria-pressed')");
    await t.driver.wait(async () => (await flipped()) === 'true', 5000, 'F to flip the board');
    await ui.pressKeys('?');
    await ui.waitFor((x) => x.screen === 'rules-screen', 'the rules over the game');
    // The rules page draws its diagrams with the board renderer (English: start, capture, king).
    await t.driver.wait(() => t.driver.executeScript("return document.querySelectorAll('[data-testid=rules-diagram] svg [data-testid=piece]').length > 0 && document.querySelectorAll('[data-testid=rules-diagram]').length === 3"), 10000, 'the rules diagrams');
    const capture = await t.driver.executeScript("const f = document.querySelectorAll('[data-testid=rules-diagram]')[1]; return [...f.querySelectorAll('[data-testid=piece]')].map((p) => p.getAttribute('data-cell'))");
    assert.deepEqual(capture, ['23'], 'after 14x23 only the black man on 23 is left');
    await t.driver.executeScript("document.querySelectorAll('[data-testid=rules-diagram]')[1].scrollIntoView({block: 'center'})");
    await finalScreenshot(t, PHONE, 'rules-diagrams');
    await resize(t.driver, PHONE);
    await ui.pressKeys('\uE00C');
    await ui.waitFor((x) => x.screen === 'game-screen', 'back to the game');
    await ui.pressKeys('n');
    await clickWhenShown(t, 'confirm-no');
    s = await ui.settled();
    assert.equal(s.game.gameId, view.id, 'declining keeps the game');

    // A finished game is replayed from home, from its start.
    await ui.click('resign');
    await clickWhenShown(t, 'confirm-yes');
    await ui.waitFor((x) => x.result, 'the result');
    await clickWhenShown(t, 'result-home');
    await ui.waitHome();
    await ui.click('replay');
    s = await reviewAt(t, 0);
    assert.equal(s.game.gameId, view.id);
    assert.deepEqual(piecesKey(s.pieces), boards[0]);
    await ui.pressKeys('\uE014');
    s = await reviewAt(t, 1);
    assert.deepEqual(piecesKey(s.pieces), boards[1]);
    const finished = await invoke(t.driver, 'list_saved');
    assert.equal(finished.find((g) => g.id === view.id)?.finished, true);
    await finalScreenshot(t, PHONE);
  },
};
