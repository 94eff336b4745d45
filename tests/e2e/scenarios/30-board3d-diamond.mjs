// The 3D board, Diamond Game, 3 players on one device: taps at the cells' projected positions
// (tap to preview, tap again to move), multi-jumps, the board turning to the player to move,
// Perspective/Top, turning by drag (touch and a real mouse), zooming by wheel and pinch (clamped),
// then picking a piece right after; a move from the button panel; screenshots of both views at
// phone and desktop sizes.
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { DESKTOP, PHONE, resize, screenshot } from '../lib/page.mjs';
import { piecesKey, routeOf } from '../lib/ui.mjs';
import { expectedMarks, launchToHome, moveTexts, movesFrom, sameSet } from '../lib/flows.mjs';
import { assertStartInFront, board3dState, canvasBox, mouseDrag, pinch, touchTurn, waitBoardSettled, wheel } from '../lib/board3d.mjs';

const OPTS = { players: 3 };
const NARROW = { width: 360, height: 640 };

async function shot(t, name, size) {
  await resize(t.driver, size);
  await waitBoardSettled(t.driver);
  const file = await screenshot(t.driver, `${t.label}-${name}-${size.width}x${size.height}`);
  t.log(`screenshot ${file}`);
}

export default {
  name: 'board3d-diamond',
  title: '3D board, Diamond Game 3 players on one device: projected taps, multi-jump, views, turn and zoom, then pick',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    await resize(driver, PHONE);
    await ui.startGame('diamond', { players: 3, mode: 'local' });
    let view = await ui.view();
    let s = await ui.snapshot();
    assert.equal(s.boardKind, '3d', 'a star game opens on the 3D board by default');
    assert.equal(s.view3d, 'perspective', 'in the Perspective view');
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the 45 marbles stand where the engine has its pieces');
    const described = await driver.executeScript('return window.__board.describe()');
    assert.deepEqual(described.kingHomes.map((k) => k.cell).sort(), view.seats.map((x) => view.layout.cells.find((c) => c.view_names[x.seat] === 'F17P1').name).sort(), '◎ marked at each seat\'s destination apex');
    assert.equal(described.destinationTint.length, 15, "the viewer's 15 destination holes are tinted");
    await waitBoardSettled(driver);
    await assertStartInFront(driver, view.layout, 0, 'Red to move');

    // Screenshots: both views, phone and desktop.
    await shot(t, 'perspective', PHONE);
    await shot(t, 'perspective', DESKTOP);
    await ui.click('view-top');
    s = await ui.waitFor((x) => x.view3d === 'top', 'the Top view');
    await shot(t, 'top', DESKTOP);
    await shot(t, 'top', PHONE);
    await assertStartInFront(driver, view.layout, 0, 'Top view, Red to move');
    // On a small phone the board is under 200 px wide: the view buttons stay whole inside it.
    await shot(t, 'top', NARROW);
    const hud = await driver.executeScript(`const b = document.querySelector('[data-testid="board3d"]').getBoundingClientRect();
      return { board: { left: b.left, right: b.right, top: b.top, width: b.width }, buttons: [...document.querySelectorAll('.board3d-btn')].map((e) => { const r = e.getBoundingClientRect(); return { id: e.dataset.testid, left: r.left, right: r.right, top: r.top, bottom: r.bottom }; }) };`);
    t.log(`board at ${NARROW.width}x${NARROW.height}: ${hud.board.width.toFixed(0)} px wide`);
    for (const b of hud.buttons) {
      assert.ok(b.left >= hud.board.left - 0.5 && b.right <= hud.board.right + 0.5 && b.top >= hud.board.top - 0.5, `${b.id} is inside the ${hud.board.width.toFixed(0)} px board at ${NARROW.width}x${NARROW.height}: ${JSON.stringify({ board: hud.board, button: b })}`);
    }
    await resize(driver, PHONE);
    await ui.click('view-perspective');
    await ui.waitFor((x) => x.view3d === 'perspective', 'back to Perspective');

    // Play by taps at projected positions until a multi-jump has been played (each seat picks its
    // longest jump); after each move the board turns to the next player.
    let multi = null;
    for (let ply = 0; ply < 12 && !multi; ply++) {
      view = await ui.view();
      const move = [...view.legal_moves].filter((m) => !m.pass).sort((a, b) => b.jumps - a.jumps || a.move.localeCompare(b.move))[0];
      const before = await ui.waitIdle();
      await ui.tap(move.from);
      s = await ui.waitFor((x) => x.game.phase === 'selected' && x.dests.length > 0, `${move.from} to lift`);
      assert.deepEqual(s.selected, [move.from]);
      assert.ok(s.pieces.find((p) => p.cell === move.from).lifted, 'the picked marble is lifted');
      sameSet(s.dests.map((d) => d.cell), movesFrom(view, move.from).map((m) => m.to), 'rings on every destination');
      await ui.tap(move.to);
      s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === move.to, `preview of ${move.to}`);
      const shortest = movesFrom(view, move.from).filter((m) => m.to === move.to).sort((a, b) => a.jumps - b.jumps)[0];
      assert.deepEqual(s.previewPath, routeOf(shortest), 'the dotted arc follows the fewest-jumps route');
      assert.deepEqual(piecesKey(s.pieces), piecesKey(before.pieces), 'a first tap moves nothing');
      await ui.tap(move.to);
      s = await ui.waitFor((x) => Number(x.game.ply) === ply + 1 && x.game.busy === 'false', `${shortest.move} to be played`);
      view = await ui.view();
      assert.equal(view.history.at(-1).move.move, shortest.move);
      const status = t.cli.status('diamond', { ...OPTS, after: moveTexts(view) });
      assert.equal(status.ply, ply + 1, 'the engine replays the same moves');
      assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'marbles = the game');
      assert.deepEqual(s.lastMoves, expectedMarks(view, 2), 'the last two moves are ringed (3 players)');
      await waitBoardSettled(driver);
      await assertStartInFront(driver, view.layout, view.to_move, `after ply ${ply + 1}, the board turned to seat ${view.to_move}`);
      if (shortest.jumps >= 2) multi = shortest;
    }
    assert.ok(multi, 'a multi-jump was played by taps');
    t.log(`multi-jump played by taps: ${multi.move} (${multi.jumps} jumps)`);

    // Turn by a one-finger drag: 60° clockwise around the centre.
    let before = await waitBoardSettled(driver);
    await touchTurn(driver, 60);
    let after = await waitBoardSettled(driver);
    const turned = ((after.orbit.azimuth - before.orbit.azimuth) * 180) / Math.PI;
    assert.ok(Math.abs(turned - 60) < 6, `a 60° drag turns the board ~60° (turned ${turned.toFixed(1)}°)`);
    assert.equal((await ui.snapshot()).game.phase, 'idle', 'a drag is not a tap');

    // A real mouse drag turns it too.
    const box = await canvasBox(driver);
    before = after;
    await mouseDrag(driver, { x: box.w * 0.3, y: 0 }, { x: 0, y: box.h * 0.3 });
    after = await waitBoardSettled(driver);
    assert.ok(Math.abs(after.orbit.azimuth - before.orbit.azimuth) > 0.5, `a mouse drag turns the board (${before.orbit.azimuth} → ${after.orbit.azimuth})`);
    assert.equal((await ui.snapshot()).game.phase, 'idle', 'a mouse drag is not a click');

    // Zoom: wheel in (clamped at the maximum), pinch out, wheel out (clamped at the whole board).
    await wheel(driver, -120, 3);
    after = await waitBoardSettled(driver);
    assert.ok(after.orbit.zoom > 1.5, `three wheel notches zoom in (${after.orbit.zoom})`);
    await wheel(driver, -120, 40);
    after = await waitBoardSettled(driver);
    assert.equal(after.orbit.zoom, 3.5, 'zoom is clamped at 3.5×');
    await wheel(driver, 120, 40);
    after = await waitBoardSettled(driver);
    assert.equal(after.orbit.zoom, 1, 'zooming out stops at the whole board');
    await pinch(driver, 60, 150);
    after = await waitBoardSettled(driver);
    assert.ok(after.orbit.zoom > 2 && after.orbit.zoom <= 2.6, `two fingers spreading 60 → 150 px zoom ×2.5 (${after.orbit.zoom})`);

    // Picking right after turning and zooming: the next player's move, by taps (a cell off
    // screen when zoomed in would not be tappable, so zoom back first if needed).
    await wheel(driver, 120, 40);
    await touchTurn(driver, -35);
    await waitBoardSettled(driver);
    view = await ui.view();
    const next = view.legal_moves.find((m) => !m.pass);
    s = await ui.playByTaps(next);
    view = await ui.view();
    assert.equal(view.history.at(-1).move.move, next.move, 'the move tapped right after turning was played');
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));

    // Reset view: the button restores the default orbit for the player to move.
    await touchTurn(driver, 80);
    await waitBoardSettled(driver);
    await ui.click('view-reset');
    await waitBoardSettled(driver);
    await assertStartInFront(driver, view.layout, view.to_move, 'after "reset view"');
    const reset = await board3dState(driver);
    assert.equal(reset.orbit.zoom, 1);

    // The button panel plays on the 3D board too: the marble lifts, then the move is drawn.
    const plyBefore = (await ui.view()).ply;
    await ui.click('panel-piece');
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.selected.length === 1 && x.activeTestid === 'panel-dest', 'a piece picked from the panel');
    assert.ok(s.pieces.find((p) => p.cell === s.selected[0]).lifted, 'the marble picked from the panel is lifted');
    // Enter on the focused destination button. (A WebDriver click on it fails at phone width,
    // on the 2D board too: at the button's centre, where WebDriver aims, hit testing finds the
    // sideways-scrolling row itself, not the button — its top-left corner is found; probably
    // GTK's overlay scrollbar of the row. The panel's layout, not the board's.)
    await ui.pressKeys(Key.ENTER);
    s = await ui.waitFor((x) => Number(x.game.ply) === plyBefore + 1 && x.game.busy === 'false', 'a move played from the panel');
    view = await ui.view();
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces), 'the 3D board shows the panel\'s move');
  },
};
