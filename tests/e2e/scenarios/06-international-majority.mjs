// International draughts: the majority rule — a shorter capture on the board is not offered.
import assert from 'node:assert/strict';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey, routeOf } from '../lib/ui.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts, sameSet } from '../lib/flows.mjs';

// After these moves White's man on 29 could take 24 alone (landing on 20), while the man on 30
// takes two (30x19x28); the rule allows only the larger capture. Checked below from the board
// geometry and the engine, not assumed.
const LINE = ['33-29', '19-23', '35-30', '20-24'];

/** Single captures by men of `seat` that the board geometry allows (ignoring the majority rule). */
function shortCaptures(view, seat) {
  const pos = new Map(view.layout.cells.map((c) => [c.name, [c.x, c.y]]));
  const at = new Map(view.layout.cells.map((c) => [`${c.x},${c.y}`, c.name]));
  const piece = new Map(view.pieces.map((p) => [p.cell, p]));
  const out = [];
  for (const p of view.pieces) {
    if (p.seat !== seat || p.king) continue;
    const [x, y] = pos.get(p.cell);
    for (const [dx, dy] of [[1, 1], [1, -1], [-1, 1], [-1, -1]]) {
      const over = at.get(`${x + dx},${y + dy}`);
      const land = at.get(`${x + 2 * dx},${y + 2 * dy}`);
      if (over && land && piece.get(over)?.seat === 1 - seat && !piece.has(land)) out.push({ from: p.cell, over, land });
    }
  }
  return out;
}

export default {
  name: 'international-majority',
  title: 'International draughts: the majority rule, the shorter capture is not offered',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('international', { mode: 'local' });
    let view = await ui.view();
    for (const text of LINE) {
      await ui.playByTaps(view.legal_moves.find((m) => m.move === text) ?? assert.fail(`${text} is legal`));
      view = await ui.view();
    }
    const engine = t.cli.moves('international', { after: LINE });
    sameSet(view.legal_moves.map((m) => m.move), engine.map((m) => m.move), 'app and engine agree on the legal moves');
    const most = Math.max(...engine.map((m) => m.captures.length));
    assert.ok(most >= 2 && engine.every((m) => m.captures.length === most), 'only the largest captures are legal');
    const shorts = shortCaptures(view, view.to_move).filter((c) => !engine.some((m) => m.from === c.from && m.path[1] === c.land));
    assert.ok(shorts.length > 0, 'the board has a shorter capture that the rule forbids');
    const short = shorts[0];
    t.log(`shorter capture on the board: ${short.from}x${short.land} (over ${short.over}); legal: ${engine.map((m) => m.move).join(', ')}`);

    let s = await ui.waitIdle();
    const capturers = [...new Set(engine.map((m) => m.from))];
    sameSet(s.pieces.filter((p) => p.classes.includes('must-capture')).map((p) => p.cell), capturers, 'only the majority capturers are ringed');
    assert.ok(!s.pieces.find((p) => p.cell === short.from).classes.includes('selectable'), `${short.from} is not selectable`);
    await ui.tap(short.from);
    s = await ui.settled();
    assert.equal(s.game.phase, 'idle', `tapping ${short.from} picks nothing up`);
    assert.equal(s.dests.length, 0);

    const move = engine[0];
    await ui.tap(move.from);
    s = await ui.waitFor((x) => x.game.phase === 'selected', `${move.from} to lift`);
    const offered = s.dests.map((d) => d.cell);
    assert.ok(!offered.includes(short.land), `no ring on ${short.land}`);
    sameSet(offered, engine.filter((m) => m.from === move.from).map((m) => m.to), 'only the full capture landings are offered');
    const panelDests = s.panel.filter((b) => b.testid === 'panel-dest').map((b) => b.cell);
    sameSet(panelDests, offered, 'the button panel offers the same');
    await ui.tap(move.to);
    s = await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === move.to, 'the preview');
    assert.deepEqual(s.previewPath, routeOf(move));
    await ui.tap(move.to);
    s = await ui.waitFor((x) => Number(x.game.ply) === LINE.length + 1 && x.game.busy === 'false', 'the capture');
    view = await ui.view();
    assert.equal(view.history.at(-1).move.move, move.move);
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));
    assertBoardIsEngines(t, s, 'international', moveTexts(view));

    await finalScreenshot(t, DESKTOP);
  },
};
