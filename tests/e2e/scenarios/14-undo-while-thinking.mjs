// Undo pressed while the CPU is thinking: the capture game (2 players) vs the hard CPU, the
// longest thinker (about half a second of CPU time from the start, docs/performance.md). The human
// moves, and while the status line says the CPU is thinking the undo button is pressed: the
// human's move is taken back, and the CPU's reply never lands — not on the screen, not in the
// app's game, not in the saved file (whose redo list holds only the human's move: had the reply
// been played before the undo, it would be there too).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

// How long the board is watched after the undo: well past the hard level's time guard (2 s of CPU
// time), so a search that was not cancelled would have answered.
const WATCH_MS = 6000;
const ATTEMPTS = 3;

/** The saved record of a game, as the app wrote it (saves.json in the app data directory). */
function savedRecord(t, id) {
  for (const dir of t.app.appDataDirs()) {
    const file = path.join(dir, 'saves.json');
    if (!fs.existsSync(file)) continue;
    const found = findRecord(JSON.parse(fs.readFileSync(file, 'utf8')), id);
    if (found) return found;
  }
  return null;
}

/** The record with this id anywhere in the store file (its layout is the plugin's). */
function findRecord(value, id) {
  if (!value || typeof value !== 'object') return null;
  if (value.id === id && Array.isArray(value.moves)) return value;
  for (const child of Object.values(value)) {
    const found = findRecord(child, id);
    if (found) return found;
  }
  return null;
}

export default {
  name: 'undo-while-thinking',
  title: 'Undo while the CPU thinks: the move is taken back and no CPU reply lands afterwards',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await ui.startGame('capture', { players: 2, mode: 'cpu', level: 'hard' });
    const start = await ui.view();
    const startPieces = piecesKey((await ui.snapshot()).pieces);
    let cancelled = false;
    for (let attempt = 1; attempt <= ATTEMPTS && !cancelled; attempt++) {
      const move = start.legal_moves[attempt - 1];
      await ui.playByTaps(move, { waitIdle: false });
      await ui.waitFor((x) => Number(x.game.ply) === 1 && x.thinking, 'the CPU to be thinking', 20000);
      await ui.click('undo');
      await ui.waitFor((x) => Number(x.game.ply) === 0 && x.game.busy === 'false' && !x.thinking, 'the move taken back');
      // Had the CPU answered before the undo reached the app, the undo took its reply back too and
      // the redo list holds both moves: then the undo did not meet a thinking CPU; try again.
      const record = savedRecord(t, start.id);
      assert.ok(record, 'the game is saved');
      assert.deepEqual(record.moves, [], 'the saved game is back at its start');
      if (record.redo.length === 1) {
        assert.deepEqual(record.redo, [move.move], 'only the human move can be redone');
        cancelled = true;
      } else {
        t.log(`attempt ${attempt}: the CPU answered before the undo (redo: ${record.redo.join(' ')}); again`);
      }
    }
    assert.ok(cancelled, `the undo never met a thinking CPU in ${ATTEMPTS} attempts`);

    // Nothing lands afterwards.
    const until = Date.now() + WATCH_MS;
    while (Date.now() < until) {
      const s = await ui.snapshot();
      assert.equal(s.game.ply, '0', 'no move appears on the board');
      assert.equal(s.thinking, false, 'the CPU does not think again');
      assert.deepEqual(piecesKey(s.pieces), startPieces, 'the start position stays drawn');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const view = await ui.view();
    assert.equal(view.ply, 0);
    assert.deepEqual(view.history, []);
    assert.equal(view.to_move, 0, 'the human is to move');
    assert.equal(view.cpu_to_move, false);
    assert.equal(view.can_redo, true);
    assert.deepEqual(savedRecord(t, start.id).moves, [], 'nothing was saved after the undo');
    await finalScreenshot(t, DESKTOP);
  },
};
