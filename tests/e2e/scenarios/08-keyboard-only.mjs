// Keyboard only: a whole move chosen with the button panel (arrows, Enter, Escape), in the Diamond
// Game and in English checkers.
import assert from 'node:assert/strict';
import { Key } from 'selenium-webdriver';
import { DESKTOP } from '../lib/page.mjs';
import { piecesKey } from '../lib/ui.mjs';
import { assertBoardIsEngines, finalScreenshot, launchToHome, moveTexts, movesFrom, sameSet } from '../lib/flows.mjs';

/** Tab until a piece button of the panel has the focus. */
async function tabToPanel(ui) {
  for (let i = 0; i < 60; i++) {
    const s = await ui.snapshot();
    if (s.activeTestid === 'panel-piece') return s;
    await ui.pressKeys(Key.TAB);
  }
  throw new Error('Tab never reached the button panel');
}

async function keyboardMove(t, kind) {
  const { ui } = t;
  let view = await ui.view();
  const before = await ui.waitIdle();
  let s = await tabToPanel(ui);
  const pieceButtons = s.panel.filter((b) => b.testid === 'panel-piece');
  sameSet(pieceButtons.map((b) => b.cell), view.legal_moves.map((m) => m.from), 'one button per piece that can move');
  const first = s.activeCell;

  // Arrow to the next piece, Enter picks it up.
  await ui.pressKeys(Key.ARROW_RIGHT);
  s = await ui.waitFor((x) => x.activeTestid === 'panel-piece' && x.activeCell !== first, 'the focus to move to the next piece');
  const piece = s.activeCell;
  await ui.pressKeys(Key.ENTER);
  // Enter picks the piece up and previews its first destination.
  const lifted = (x) =>
    x.game.phase === 'previewing' && x.selected[0] === piece && x.activeTestid === 'panel-dest' && x.ghost === x.activeCell;
  s = await ui.waitFor(lifted, `${piece} picked up`);
  const destButtons = s.panel.filter((b) => b.testid === 'panel-dest').map((b) => b.cell);
  sameSet(destButtons, movesFrom(view, piece).map((m) => m.to), 'one button per destination');
  sameSet(s.dests.map((d) => d.cell), destButtons, 'the board rings the same destinations');

  // Arrows preview destinations; Escape goes back to choosing a piece. An arrow moves the focus to the next destination and previews it.
  const focusMoved = (from) => (x) =>
    x.game.phase === 'previewing' && x.activeTestid === 'panel-dest' && x.ghost === x.activeCell && (destButtons.length < 2 || x.activeCell !== from);
  await ui.pressKeys(Key.ARROW_RIGHT);
  s = await ui.waitFor(focusMoved(s.activeCell), 'an arrow previews the focused destination');
  assert.deepEqual(piecesKey(s.pieces), piecesKey(before.pieces), 'previewing moves nothing');
  await ui.pressKeys(Key.ESCAPE);
  s = await ui.waitFor((x) => x.game.phase === 'idle' && x.activeTestid === 'panel-piece', 'Escape goes back to the pieces');
  assert.equal(s.activeCell, piece, 'the focus is back on the piece');

  // Enter again, an arrow to a destination, Enter plays it.
  await ui.pressKeys(Key.ENTER);
  s = await ui.waitFor(lifted, `${piece} picked up again`);
  await ui.pressKeys(Key.ARROW_DOWN);
  s = await ui.waitFor(focusMoved(s.activeCell), 'a destination focused');
  const dest = s.activeCell;
  const ply = Number(s.game.ply);
  await ui.pressKeys(Key.ENTER);
  s = await ui.waitFor((x) => Number(x.game.ply) === ply + 1 && x.game.busy === 'false', 'Enter plays the move');
  view = await ui.view();
  const played = view.history.at(-1).move;
  assert.equal(played.from, piece);
  assert.equal(played.to, dest);
  assert.deepEqual(piecesKey(s.pieces), piecesKey(view.pieces));
  if (kind === 'english') assertBoardIsEngines(t, s, 'english', moveTexts(view));
  return s;
}

export default {
  name: 'keyboard-only',
  title: 'Keyboard only: a move chosen with the button panel in the Diamond Game and in English checkers',
  async run(t) {
    await launchToHome(t);
    await t.ui.startGame('diamond', { players: 3, mode: 'local' });
    const s = await keyboardMove(t, 'diamond');
    const view = await t.ui.view();
    const status = t.cli.status('diamond', { players: 3, after: moveTexts(view) });
    assert.equal(status.ply, 1);
    assert.equal(status.to_move, view.seats[view.to_move].name, 'engine and app agree on who moves next');
    assert.equal(s.game.toMove, String(view.to_move));
    await finalScreenshot(t, DESKTOP, `${t.label}-diamond`);

    await t.ui.startGame('english', { mode: 'local' });
    await keyboardMove(t, 'english');
    await finalScreenshot(t, DESKTOP, `${t.label}-english`);
  },
};
