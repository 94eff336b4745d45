// Touch and mouse: tap-twice with touch PointerEvents (select, switch, cancel, preview, confirm),
// then hover-preview + click with real WebDriver mouse actions.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts, movesFrom, sameSet } from '../lib/flows.mjs';

export default {
  name: 'touch-and-mouse',
  title: 'Touch (tap twice) and mouse (hover to preview, click to move), English checkers on one device',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    await ui.startGame('english', { mode: 'local' });
    let view = await ui.view();
    assert.equal(view.mode, 'local');
    let s = await ui.snapshot();
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));

    // ---- touch (pointerType "touch"), phone-sized window ----
    const origins = [...new Set(view.legal_moves.map((m) => m.from))];
    assert.ok(origins.length >= 2, 'two black pieces can move');
    const a = origins.find((o) => movesFrom(view, o).length >= 2) ?? origins[0];
    const other = origins.find((o) => o !== a);
    const start = piecesKey(s.pieces);

    await ui.tap(a);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.selected[0] === a, `touch: ${a} lifted`);
    sameSet(s.dests.map((d) => d.cell), movesFrom(view, a).map((m) => m.to), `rings on ${a}'s destinations`);

    await ui.tap(other);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.selected[0] === other, `touch: switch to ${other}`);
    sameSet(s.dests.map((d) => d.cell), movesFrom(view, other).map((m) => m.to), `rings on ${other}'s destinations`);

    await ui.tap(other);
    s = await ui.waitFor((x) => x.game.phase === 'idle' && x.selected.length === 0, 'touch: same piece again cancels');
    assert.equal(s.dests.length, 0, 'no rings after cancelling');

    await ui.tap(a);
    await ui.waitFor((x) => x.game.phase === 'selected' && x.selected[0] === a, `touch: ${a} lifted again`);
    const occupied = new Set(s.pieces.map((p) => p.cell));
    const dests = movesFrom(view, a).map((m) => m.to);
    const nowhere = view.layout.cells.map((c) => c.name).find((c) => !occupied.has(c) && !dests.includes(c));
    await ui.tap(nowhere);
    s = await ui.waitFor((x) => x.game.phase === 'idle', `touch: a non-destination (${nowhere}) cancels`);

    await ui.tap(a);
    await ui.waitFor((x) => x.game.phase === 'selected' && x.selected[0] === a, `touch: ${a} lifted a third time`);
    const [d1, d2] = dests;
    await ui.tap(d1);
    s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === d1, `touch: first tap previews ${d1}`);
    assert.deepEqual(s.previewPath, [a, d1], 'the path is drawn');
    assert.deepEqual(piecesKey(s.pieces), start, 'first tap: nothing moved');
    let target = d1;
    if (d2) {
      await ui.tap(d2);
      s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === d2, `touch: another destination moves the preview to ${d2}`);
      assert.deepEqual(piecesKey(s.pieces), start, 'still nothing moved');
      target = d2;
    }
    assert.equal((await ui.view()).ply, 0, 'previewing plays nothing');
    await ui.tap(target);
    s = await ui.waitFor((x) => x.game.ply === '1' && x.game.busy === 'false', 'touch: second tap plays');
    view = await ui.view();
    assert.equal(view.history[0].move.from, a);
    assert.equal(view.history[0].move.to, target);
    assertBoardIsEngines(t, s, 'english', moveTexts(view));

    // ---- mouse (real WebDriver pointer actions) ----
    const white = view.legal_moves[0];
    const before = piecesKey(s.pieces);
    await ui.mouseClickCell(white.from);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.selected[0] === white.from, `mouse: click lifts ${white.from}`);
    await ui.hoverCell(white.to);
    s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === white.to, `mouse: hovering ${white.to} previews`);
    assert.deepEqual(s.previewPath, [white.from, white.to]);
    assert.deepEqual(piecesKey(s.pieces), before, 'hover: nothing moved');
    const occupied2 = new Set(s.pieces.map((p) => p.cell));
    const away = view.layout.cells.map((c) => c.name).find((c) => !occupied2.has(c) && !movesFrom(view, white.from).some((m) => m.to === c));
    await ui.hoverCell(away);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.ghost === null, 'mouse: leaving the destination hides the preview');
    await ui.hoverCell(white.to);
    await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === white.to, 'mouse: hover previews again');
    assert.equal((await ui.view()).ply, 1, 'hovering plays nothing');
    await ui.mouseClickCell(white.to);
    s = await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false', 'mouse: one click plays');
    view = await ui.view();
    assert.equal(view.history[1].move.move, white.move);
    assertBoardIsEngines(t, s, 'english', moveTexts(view));

    await finalScreenshot(t, PHONE);
  },
};
