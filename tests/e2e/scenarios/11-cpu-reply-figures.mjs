// Figures: the time from the second tap to the CPU's reply being drawn, in each game vs the CPU
// (medium). Each reply is also checked: the move drawn is the one the app recorded.
import assert from 'node:assert/strict';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';

const GAMES = [
  { kind: 'english', opts: { colour: 0 } },
  { kind: 'international', opts: { colour: 0 } },
  { kind: 'turkish', opts: { colour: 0 } },
  { kind: 'capture', opts: { players: 2 } },
];

export default {
  // Alone, never beside another lane: its CPU reply times are figures.
  solo: true,
  name: 'cpu-reply-figures',
  title: 'Figures: second tap to the CPU reply drawn, per game (medium)',
  async run(t) {
    const toHome = await launchToHome(t);
    t.figures.coldStart(t.label, toHome, null);
    const { ui } = t;
    for (const { kind, opts } of GAMES) {
      await ui.startGame(kind, { mode: 'cpu', level: 'medium', ...opts });
      const view = await ui.view();
      assert.equal(view.to_move, view.human_seats[0], `${kind}: the human moves first`);
      const move = view.legal_moves[0];
      await ui.tap(move.from);
      await ui.waitFor((x) => x.game.phase === 'selected', `${kind}: lift`);
      await ui.tap(move.to);
      await ui.waitFor((x) => x.game.phase === 'previewing' && x.ghost === move.to, `${kind}: preview`);
      const tapped = Date.now();
      await ui.tap(move.to);
      const s = await ui.waitFor(
        (x) => Number(x.game.ply) >= 2 && x.game.busy === 'false' && !x.thinking,
        `${kind}: the CPU's reply`,
        120000,
      );
      t.figures.cpuReply(`${kind} (medium)`, Date.now() - tapped);
      const after = await ui.view();
      assert.equal(after.history[0].move.move, move.move);
      assert.notEqual(after.history[1].seat, after.history[0].seat, 'the CPU answered');
      assert.deepEqual(piecesKey(s.pieces), piecesKey(after.pieces), `${kind}: the reply is drawn`);
      assert.deepEqual(s.lastMoves.at(-1), { from: after.history.at(-1).move.from, to: after.history.at(-1).move.to }, `${kind}: the reply is marked`);
    }
    await finalScreenshot(t, DESKTOP);
  },
};
