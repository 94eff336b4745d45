// Capture Chinese checkers, 4 players on one device: a chain capture stopped midway; captures are
// counted per player.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome, moveTexts, sameSet } from '../lib/flows.mjs';

const OPTS = { players: 4 };

export default {
  name: 'capture-chain-stop',
  title: 'Capture Chinese checkers, 4 players pass-and-play: a chain capture stopped midway, captures per player',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    await ui.startGame('capture', { players: 4, mode: 'local' });
    let view = await ui.view();
    assert.equal(view.variant.players, 4);
    assert.ok(view.seats.every((seat) => !seat.cpu), 'every seat is a person');
    sameSet(view.legal_moves.map((m) => m.move), t.cli.moves('capture', OPTS).map((m) => m.move), 'app and engine agree at the start');

    // Player 1 jumps first: the first legal jump after which player 2 has a chain of two or more.
    const opening = view.legal_moves.find((m) => t.cli.moves('capture', { ...OPTS, after: [m.move] }).some((n) => n.jumps >= 2));
    assert.ok(opening, 'an opening jump that leaves a chain capture for the next player');
    await ui.playByTaps(opening);
    view = await ui.view();
    assert.equal(view.to_move, 1);

    // Player 2: a chain of two jumps exists; stop after the first.
    const chain = view.legal_moves.find((m) => m.jumps >= 2);
    const stop = view.legal_moves.find((m) => m.from === chain.from && m.jumps === 1 && m.to === chain.path[1]);
    assert.ok(stop, `stopping at ${chain.path[1]} is legal`);
    let s = await ui.waitIdle();
    const before = piecesKey(s.pieces);
    await ui.tap(chain.from);
    s = await ui.waitFor((x) => x.game.phase === 'selected', `${chain.from} to lift`);
    assert.ok(s.dests.some((d) => d.cell === stop.to), `the first landing ${stop.to} is offered`);
    await ui.tap(stop.to);
    await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === stop.to, 'preview of the first jump');
    await ui.tap(stop.to);
    s = await ui.waitFor((x) => x.game.phase === 'selected' && x.route && x.route.at(-1) === stop.to, `the piece to stop on ${stop.to}`);
    const stopHere = s.dests.find((d) => d.cell === stop.to);
    assert.ok(stopHere && stopHere.classes.includes('dest-stop'), 'a "stop here" choice is offered where the piece stands');
    assert.ok(s.dests.some((d) => d.cell === chain.path[2]), `the chain can go on to ${chain.path[2]}`);
    assert.equal((await ui.view()).ply, 1, 'nothing is played yet');
    assert.equal(s.pieces.length, before.length, 'nothing is removed yet');

    await ui.tap(stop.to);
    await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === stop.to, 'preview of stopping');
    await ui.tap(stop.to);
    s = await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false', 'the shortened chain to be played');
    view = await ui.view();
    assert.equal(view.history.at(-1).move.move, stop.move, 'the chain stopped after one jump');
    assert.equal(view.history.at(-1).move.captures.length, 1);
    assert.equal(s.pieces.length, before.length - 1, 'one piece was captured');

    // Captures per player: on screen, in the app, and by the engine replaying the moves.
    const status = t.cli.status('capture', { ...OPTS, after: moveTexts(view) });
    assert.deepEqual(status.players.map((p) => p.captures), [1, 1, 0, 0], 'engine: one capture each for players 1 and 2');
    for (const p of status.players) {
      const chip = s.captures.find((c) => c.seat === p.seat);
      assert.ok(chip, `a capture count for player ${p.seat + 1}`);
      assert.equal(Number(chip.value), p.captures, `captures of player ${p.seat + 1}: screen vs engine`);
      assert.equal(view.seats[p.seat].stats.captures, p.captures, `captures of player ${p.seat + 1}: app vs engine`);
    }
    assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));

    await finalScreenshot(t, PHONE);
  },
};
