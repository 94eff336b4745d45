// Turkish draughts: a multi-capture whose routes share a landing and then part — the board stops
// at that landing for the next choice.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts, sameSet } from '../lib/flows.mjs';

// Black's man takes twice and crowns on a1; after b3-a3 the new king must take a3 and e4 and has
// three routes, all through a4 (checked against the engine below).
const LINE = ['e3-e4', 'a6-a5', 'a3-a4', 'a5xa3xa1', 'b3-a3'];

export default {
  name: 'turkish-multi-capture',
  title: 'Turkish draughts: a multi-capture that stops at a shared landing for the next choice',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    await ui.startGame('turkish', { mode: 'local' });
    let view = await ui.view();
    for (const text of LINE) {
      await ui.playByTaps(view.legal_moves.find((m) => m.move === text) ?? assert.fail(`${text} is legal`));
      view = await ui.view();
    }
    const engine = t.cli.moves('turkish', { after: LINE });
    sameSet(view.legal_moves.map((m) => m.move), engine.map((m) => m.move), 'app and engine agree on the legal moves');
    const from = engine[0].from;
    assert.ok(engine.every((m) => m.from === from && m.path.length === 3), 'every legal move is a two-piece capture by one piece');
    const shared = engine[0].path[1];
    assert.ok(engine.every((m) => m.path[1] === shared), `every route passes ${shared}`);
    const ends = engine.map((m) => m.to);
    assert.ok(new Set(ends).size >= 2, 'the routes part after the shared landing');

    let s = await ui.waitIdle();
    const before = piecesKey(s.pieces);
    await ui.tap(from);
    s = await ui.waitFor((x) => x.game.phase === 'selected', `${from} to lift`);
    assert.deepEqual(s.dests.map((d) => d.cell), [shared], `the board offers only the shared landing ${shared}`);
    await ui.tap(shared);
    await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === shared, `preview of ${shared}`);
    await ui.tap(shared);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.route && x.route.at(-1) === shared, `the piece to stop on ${shared}`);
    assert.deepEqual(s.route, [from, shared], 'the route so far is drawn');
    assert.ok(s.panelContinue, 'the panel says the capture goes on');
    sameSet(s.dests.map((d) => d.cell), ends, 'then the next landings are offered');
    assert.equal((await ui.view()).ply, LINE.length, 'nothing is played while the capture is being chosen');
    // The moving piece is drawn at its stop; every other piece is where it was.
    assert.equal(s.pieces.filter((p) => p.cell === from).length, 0, `the piece left ${from} for ${shared}`);
    assert.deepEqual(
      piecesKey(s.pieces.filter((p) => p.cell !== shared)),
      before.filter((k) => !k.startsWith(`${from}:`)),
      'no other piece moves or is removed before the capture is complete',
    );

    const chosen = engine.find((m) => m.to === ends.sort()[1]) ?? engine[0];
    await ui.tap(chosen.to);
    await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === chosen.to, `preview of ${chosen.to}`);
    await ui.tap(chosen.to);
    s = await ui.waitFor((x) => Number(x.game.ply) === LINE.length + 1 && x.game.busy === 'false', 'the capture to be played');
    view = await ui.view();
    assert.equal(view.history.at(-1).move.move, chosen.move, `the chosen route ${chosen.move} was played`);
    for (const c of chosen.captures) assert.ok(!s.pieces.some((p) => p.cell === c), `${c} was taken`);
    assertBoardIsEngines(t, s, 'turkish', moveTexts(view));

    await finalScreenshot(t, PHONE);
  },
};
