// The 2D star board by choice: with the setting "Tablero: 2D" the Diamond Game shows the SVG board
// and plays by taps and by the button panel; back to "3D", a star game opens on the 3D board.
// A 3D board whose WebGL context is lost for good is replaced by the SVG board in the same game.
// Then the fallback: with WebGL made to fail in the page (getContext gives no WebGL context, as on
// a device without it), a star game opens on the SVG board although the setting says 3D, and plays.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome, setBoard } from '../lib/flows.mjs';

export default {
  name: 'board3d-setting-2d',
  title: 'Setting "Tablero: 2D": the Diamond Game on the 2D board, taps and the panel play; back to 3D',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    await resize(driver, PHONE);
    await setBoard(t, '2d');
    await ui.startGame('diamond', { players: 2, mode: 'cpu', level: 'easy' });
    let s = await ui.snapshot();
    assert.equal(s.boardKind, '2d', 'the 2D board is shown');
    let view = await ui.view();
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));
    const move = view.legal_moves.find((m) => m.jumps) ?? view.legal_moves[0];
    await ui.playByTaps(move, { waitIdle: false });
    s = await ui.waitFor((x) => Number(x.game.ply) >= 2 && x.game.busy === 'false' && x.game.toMove === '0', 'the CPU to answer', 60000);
    view = await ui.view();
    assert.equal(view.history[0].move.move, move.move);
    // The panel plays too.
    await ui.click('panel-piece');
    await ui.waitFor((x) => x.game.phase === 'selected', 'a piece picked from the panel');
    await ui.click('panel-dest');
    await ui.waitFor((x) => Number(x.game.ply) >= 3, 'a move played from the panel', 30000);
    await finalScreenshot(t, PHONE);
    // The setting persists across a restart, and "3D" brings the 3D board back.
    await t.app.close();
    await launchToHome(t);
    assert.equal(await t.driver.executeScript('return window.__damas.settings.board'), '2d', 'the setting survived the restart');
    await setBoard(t, '3d');
    await t.ui.startGame('capture', { players: 2, mode: 'local' });
    assert.equal((await t.ui.snapshot()).boardKind, '3d', 'back on the 3D board');

    // The WebGL context lost for good (as when a GPU process dies): the SVG board takes its place
    // in the same game, which goes on by taps.
    await t.driver.executeScript(`document.querySelector('.board3d-canvas').getContext('webgl2').getExtension('WEBGL_lose_context').loseContext();`);
    s = await t.ui.waitFor((x) => x.boardKind === '2d' && x.game.board === '2d', 'the SVG board after the context was lost', 10000);
    view = await t.ui.view();
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the same position on the SVG board');
    const first = view.legal_moves.find((m) => !m.pass);
    s = await t.ui.playByTaps(first);
    assert.equal((await t.ui.view()).history.at(-1).move.move, first.move, 'played by taps after the swap');

    // No WebGL: three.js cannot create its context, boards.js falls back to the SVG board.
    await t.driver.executeScript(
      `const real = HTMLCanvasElement.prototype.getContext;
       HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
         return /^(webgl|webgl2|experimental-webgl)$/.test(type) ? null : real.call(this, type, ...rest);
       };`,
    );
    s = await t.ui.startGame('diamond', { players: 3, mode: 'local' });
    assert.equal(s.boardKind, '2d', 'without WebGL the star game is on the 2D board');
    assert.equal(s.game.board, '2d');
    assert.equal(await t.driver.executeScript('return window.__damas.settings.board'), '3d', 'the setting is unchanged');
    view = await t.ui.view();
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));
    const jump = view.legal_moves.find((m) => m.jumps) ?? view.legal_moves[0];
    s = await t.ui.playByTaps(jump);
    view = await t.ui.view();
    assert.equal(view.history[0].move.move, jump.move, 'a move played by taps on the fallback board');
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the fallback board redrew the move');
    await finalScreenshot(t, PHONE, `${t.label}-no-webgl`);
  },
};
