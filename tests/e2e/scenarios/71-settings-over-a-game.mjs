// The settings opened over a game apply at once when the player goes back to it: "Tablero: 2D"
// shows the SVG board in the same game (and "3D" the 3D board again), a piece picked up stays
// picked up, and a language change keeps it too (the screen is built again in English).
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { piecesKey, routeOf } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome, movesFrom, sameSet } from '../lib/flows.mjs';

/** Opens the settings over the game, makes `choice` (a testid), and goes back to the game. */
async function changeOverGame(t, choice, applied) {
  const { ui, driver } = t;
  const gameId = await ui.gameId();
  await ui.click('nav-settings');
  await ui.waitFor((x) => x.screen === 'settings-screen', 'the settings over the game');
  await ui.click(choice);
  await driver.wait(async () => driver.executeScript(`return (${applied})(window.__damas.settings)`), 5000, `${choice} saved`);
  await ui.click('nav-back');
  return ui.waitFor((x) => x.screen === 'game-screen' && x.game?.gameId === gameId, 'back on the same game');
}

/** Picks up a piece that has moves; returns its cell and the engine's destinations. */
async function pickUp(t) {
  const view = await t.ui.view();
  const from = view.legal_moves.find((m) => !m.pass).from;
  await t.ui.tap(from);
  await t.ui.waitFor((x) => x.game.phase === 'selected' && x.selected.includes(from), `${from} picked up`);
  return { from, dests: movesFrom(view, from).map((m) => routeOf(m)[1]) };
}

export default {
  name: 'settings-over-a-game',
  title: 'Settings over a game: 3D ↔ 2D and the language apply at once, a picked-up piece stays',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    let s = await ui.startGame('diamond', { players: 2, mode: 'cpu', level: 'easy' });
    assert.equal(s.boardKind, '3d', 'a star game opens on the 3D board');
    const view = await ui.view();
    const held = await pickUp(t);

    // 3D → 2D: the SVG board, at once, with the same position and the piece still picked up.
    s = await changeOverGame(t, 'board-2d', '(s) => s.board === "2d"');
    s = await ui.waitFor((x) => x.boardKind === '2d', 'the 2D board without leaving the game', 10000);
    assert.equal(s.game.board, '2d');
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the same position on the 2D board');
    assert.equal(s.game.phase, 'selected', 'the piece is still picked up');
    assert.deepEqual(s.selected, [held.from]);
    sameSet(s.dests.map((d) => d.cell), held.dests, 'the same destinations offered');
    assert.equal(await t.driver.executeScript('return document.querySelectorAll("[data-testid=board3d], .board3d-canvas").length'), 0, 'the 3D board is gone');

    // A move by taps on the new board, from the piece picked up on the old one.
    const move = movesFrom(view, held.from).find((m) => routeOf(m).length === 2);
    await ui.tap(move.to);
    await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === move.to, `preview of ${move.to}`);
    await ui.tap(move.to);
    await ui.waitFor((x) => Number(x.game.ply) >= 1, 'the move played');
    await ui.waitIdle();
    assert.equal((await ui.view()).history[0].move.move, move.move, 'played on the 2D board');

    // The language: the screen is built again in English, the piece picked up stays.
    const again = await pickUp(t);
    const ply = (await ui.snapshot()).game.ply;
    s = await changeOverGame(t, 'lang-en', '(s) => s.language === "en"');
    s = await ui.waitFor((x) => x.lang === 'en' && x.h1 && /Diamond/.test(x.h1) && x.game.phase === 'selected', 'the game in English, the piece still picked up', 10000);
    assert.deepEqual(s.selected, [again.from], 'the same piece is picked up');
    assert.equal(s.game.ply, ply, 'nothing was played');
    sameSet(s.dests.map((d) => d.cell), again.dests, 'its destinations offered');
    assert.equal(s.boardKind, '2d');

    // 2D → 3D: the 3D board again, the piece still picked up.
    s = await changeOverGame(t, 'board-3d', '(s) => s.board === "3d"');
    s = await ui.waitFor((x) => x.boardKind === '3d', 'the 3D board without leaving the game', 10000);
    assert.equal(s.game.phase, 'selected');
    assert.deepEqual(s.selected, [again.from]);
    assert.equal(await t.driver.executeScript('return document.querySelectorAll("svg[data-testid=board]").length'), 0, 'the SVG board is gone');
    await finalScreenshot(t, PHONE);
  },
};
