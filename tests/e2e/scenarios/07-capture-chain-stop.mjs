// Capture Chinese checkers, 4 players on one device: a chain capture stopped midway; captures are
// counted per player.
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome, moveTexts, sameSet, stopAChainMidway } from '../lib/flows.mjs';

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

    // Player 1 jumps first so that player 2 has a chain of two or more; player 2 stops it midway.
    const { after: s } = await stopAChainMidway(t, OPTS);
    view = await ui.view();

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
