// English checkers: a capture is forced — only the capturing pieces can be picked up and they are
// ringed; the capture is played; later a multi-jump is completed in one choice.
import assert from 'node:assert/strict';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey, routeOf } from '../lib/ui.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts, sameSet } from '../lib/flows.mjs';

// The Single Corner: after 11-15 22-18 Black must take 15x22; after 26x17 9-13 31-26 Black's only
// move is the double jump 13x22x31 (checked against the engine below, not assumed).
const TO_FORCED = ['11-15', '22-18'];
const TO_DOUBLE = ['15x22', '26x17', '9-13', '31-26'];

export default {
  name: 'english-forced-capture',
  title: 'English checkers: forced capture (only capturers ringed and selectable), then a double jump',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('english', { mode: 'local' });
    let view = await ui.view();
    for (const text of TO_FORCED) {
      await ui.playByTaps(view.legal_moves.find((m) => m.move === text) ?? assert.fail(`${text} is legal`));
      view = await ui.view();
    }

    // Engine truth: one capture, by the piece on 15.
    const engine = t.cli.moves('english', { after: TO_FORCED });
    assert.ok(engine.length > 0 && engine.every((m) => m.captures.length > 0), 'the engine says a capture is forced');
    const capturers = [...new Set(engine.map((m) => m.from))];
    sameSet(view.legal_moves.map((m) => m.move), engine.map((m) => m.move), 'app and engine agree on the legal moves');

    let s = await ui.waitIdle();
    const ringed = s.pieces.filter((p) => p.classes.includes('must-capture')).map((p) => p.cell);
    sameSet(ringed, capturers, 'exactly the capturing pieces are ringed');
    const selectable = s.pieces.filter((p) => p.classes.includes('selectable')).map((p) => p.cell);
    sameSet(selectable, capturers, 'only the capturing pieces are selectable');
    // A black piece that could step if there were no capture cannot be picked up.
    const idler = s.pieces.find((p) => p.seat === 0 && !capturers.includes(p.cell) && ['9', '10', '12'].includes(p.cell));
    assert.ok(idler, 'a black piece that is not capturing');
    await ui.tap(idler.cell);
    s = await ui.settled();
    assert.equal(s.game.phase, 'idle', `tapping ${idler.cell} picks nothing up`);
    assert.deepEqual(s.selected, []);
    await ui.tap(capturers[0]);
    s = await ui.waitFor((x) => x.game.phase === 'selected', 'the capturing piece to lift');
    assert.deepEqual(s.selected, [capturers[0]]);
    await ui.tap(capturers[0]);
    await ui.waitFor((x) => x.game.phase === 'idle', 'cancel');

    // The capture is played: the captured piece leaves the board.
    const capture = engine[0];
    s = await ui.playByTaps(capture);
    for (const c of capture.captures) assert.ok(!s.pieces.some((p) => p.cell === c), `${c} was taken off the board`);
    assertBoardIsEngines(t, s, 'english', [...TO_FORCED, capture.move]);

    // On to the double jump.
    view = await ui.view();
    for (const text of TO_DOUBLE.slice(1)) {
      await ui.playByTaps(view.legal_moves.find((m) => m.move === text) ?? assert.fail(`${text} is legal here`));
      view = await ui.view();
    }
    const line = [...TO_FORCED, ...TO_DOUBLE];
    const double = t.cli.moves('english', { after: line });
    assert.equal(double.length, 1, 'one legal move');
    assert.equal(double[0].captures.length, 2, 'a double jump');
    s = await ui.waitIdle();
    sameSet(s.pieces.filter((p) => p.classes.includes('must-capture')).map((p) => p.cell), [double[0].from], 'the jumping piece is ringed');
    await ui.tap(double[0].from);
    s = await ui.waitFor((x) => x.game.phase === 'selected', 'the piece to lift');
    // One route: the board offers its final landing at once (forced stretch followed to the end).
    assert.deepEqual(s.dests.map((d) => d.cell), [double[0].to], 'the only destination is the end of the double jump');
    await ui.tap(double[0].to);
    s = await ui.waitFor((x) => x.game.phase === 'previewing', 'the preview');
    assert.deepEqual(s.previewPath, routeOf(double[0]), 'the preview follows both jumps');
    await ui.tap(double[0].to);
    s = await ui.waitFor((x) => Number(x.game.ply) === line.length + 1 && x.game.busy === 'false', 'the double jump');
    view = await ui.view();
    assert.equal(view.history.at(-1).move.move, double[0].move);
    for (const c of double[0].captures) assert.ok(!s.pieces.some((p) => p.cell === c), `${c} was taken`);
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));
    assertBoardIsEngines(t, s, 'english', moveTexts(view));

    await finalScreenshot(t, DESKTOP);
  },
};
