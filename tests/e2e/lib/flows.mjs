// Steps several scenarios share.
import assert from 'node:assert/strict';
import { By, until } from 'selenium-webdriver';
import { resize, screenshot, settled } from './page.mjs';
import { fenPieces } from './cli.mjs';
import { piecesKey } from './ui.mjs';

/** Launches the app and waits for an interactive home screen; returns ms from launch. */
export async function launchToHome(t) {
  const started = Date.now();
  await t.launch();
  await t.ui.waitHome();
  return Date.now() - started;
}

/** From the home screen to `game`'s setup, against the CPU at `level`. */
export async function setupVsCpu(t, game, level) {
  await t.ui.click('game-card', `[data-game="${game}"]`);
  await t.ui.waitFor((x) => x.screen === 'setup-screen', 'the setup screen');
  await t.ui.click('mode-cpu');
  await t.ui.click(`level-${level}`);
}

/** Sets the window size for the scenario's final screenshot and takes it once the board settled. */
export async function finalScreenshot(t, size, name = t.label) {
  await resize(t.driver, size);
  await settled(t.driver);
  const file = await screenshot(t.driver, `${name}-${size.width}x${size.height}`);
  t.log(`screenshot ${file}`);
  return file;
}

export const moveTexts = (view) => view.history.map((h) => h.move.move);

export function sameSet(actual, expected, what) {
  assert.deepEqual([...new Set(actual)].sort(), [...new Set(expected)].sort(), what);
}

/** The seat that plays white in each draughts game (English: Black, seat 0, moves first). */
export const WHITE_SEAT = { english: 1, international: 0, turkish: 0 };

/** Asserts the board drawn equals the engine's position after `after` (from the damas CLI). */
export function assertBoardIsEngines(t, snapshot, kind, after, opts = {}) {
  if (!t.cli) throw new Error('the damas CLI is needed for the engine truth (--cli)');
  const status = t.cli.status(kind, { ...opts, after });
  if (status.fen) {
    assert.deepEqual(piecesKey(snapshot.pieces), piecesKey(fenPieces(status.fen, WHITE_SEAT[kind])), `board vs engine after ${after.join(' ')}`);
  }
  return status;
}

/** Legal moves of the view grouped by origin. */
export function movesFrom(view, from) {
  return view.legal_moves.filter((m) => !m.pass && m.from === from);
}

/** The engine's last-move marks for a view: the last `n` moves' origin and landing. */
export function expectedMarks(view, n) {
  return view.history.slice(-n).map((h) => ({ from: h.move.path?.[0] ?? h.move.from, to: h.move.to }));
}

/** Clicks a control once it is on screen (a dialog's button appears a frame after the click that opens it). */
export async function clickWhenShown(t, testid, timeoutMs = 10000) {
  const el = await t.driver.wait(until.elementLocated(By.css(`[data-testid="${testid}"]`)), timeoutMs, `${testid} to appear`);
  await t.driver.wait(until.elementIsVisible(el), timeoutMs, `${testid} to be visible`);
  await el.click();
}

/**
 * Capture game on one device, from the start: player 1 plays the first jump after which player 2
 * has a chain of two or more; player 2 picks that chain by taps, stops on its first landing
 * ("stop here", tapped twice) and so plays one jump. Returns the chain, the stop move, the
 * snapshot while stopped (`atStop`), the piece count before and the snapshot after.
 */
export async function stopAChainMidway(t, opts) {
  const { ui } = t;
  let view = await ui.view();
  const opening = view.legal_moves.find((m) => t.cli.moves('capture', { ...opts, after: [m.move] }).some((n) => n.jumps >= 2));
  assert.ok(opening, 'an opening jump that leaves a chain capture for the next player');
  await ui.playByTaps(opening);
  view = await ui.view();
  assert.equal(view.to_move, 1);

  const chain = view.legal_moves.find((m) => m.jumps >= 2);
  const stop = view.legal_moves.find((m) => m.from === chain.from && m.jumps === 1 && m.to === chain.path[1]);
  assert.ok(stop, `stopping at ${chain.path[1]} is legal`);
  let s = await ui.waitIdle();
  const before = s.pieces.length;
  await ui.tap(chain.from);
  s = await ui.waitFor((x) => x.game.phase === 'selected', `${chain.from} to lift`);
  assert.ok(s.dests.some((d) => d.cell === stop.to), `the first landing ${stop.to} is offered`);
  // One tap on the landing stops the piece there with "stop here" previewed (the chain could go on).
  await ui.tap(stop.to);
  const atStop = await ui.waitFor((x) => x.game.phase === 'previewing' && x.route && x.route.at(-1) === stop.to && x.ghost === stop.to, `the piece to stop on ${stop.to}, stopping previewed`);
  const stopHere = atStop.dests.find((d) => d.cell === stop.to);
  assert.ok(stopHere && stopHere.classes.includes('dest-stop'), 'a "stop here" choice is offered where the piece stands');
  assert.ok(atStop.dests.some((d) => d.cell === chain.path[2]), `the chain can go on to ${chain.path[2]}`);
  assert.equal((await ui.view()).ply, 1, 'nothing is played yet');
  assert.equal(atStop.pieces.length, before, 'nothing is removed yet');

  // The second tap there means "stop here and play".
  await ui.tap(stop.to);
  const after = await ui.waitFor((x) => x.game.ply === '2' && x.game.busy === 'false', 'the shortened chain to be played');
  view = await ui.view();
  assert.equal(view.history.at(-1).move.move, stop.move, 'the chain stopped after one jump');
  assert.equal(view.history.at(-1).move.captures.length, 1);
  assert.equal(after.pieces.length, before - 1, 'one piece was captured');
  return { chain, stop, atStop, before, after };
}

/** The "Board: 3D / 2D" setting, chosen on the settings screen; resolves once it is saved. */
export async function setBoard(t, value) {
  await t.driver.executeScript('location.hash = "#/settings"');
  await t.ui.waitFor((x) => x.screen === 'settings-screen', 'the settings');
  await t.ui.click(`board-${value}`);
  await t.driver.wait(async () => (await t.driver.executeScript('return window.__damas.settings.board')) === value, 5000, `board setting ${value}`);
}
