// Steps several scenarios share.
import assert from 'node:assert/strict';
import { By, until } from 'selenium-webdriver';
import { resize, screenshot } from './page.mjs';
import { fenPieces } from './cli.mjs';
import { piecesKey } from './ui.mjs';

/** Launches the app and waits for an interactive home screen; returns ms from launch. */
export async function launchToHome(t) {
  const started = Date.now();
  await t.launch();
  await t.ui.waitHome();
  return Date.now() - started;
}

/** Sets the window size for the scenario's final screenshot and takes it once the board settled. */
export async function finalScreenshot(t, size, name = t.label) {
  await resize(t.driver, size);
  // Let the page lay out and paint at the new size (frames are irregular under Xvfb).
  await t.driver.executeAsyncScript(
    `const done = arguments[0];
     requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 250)));`,
  );
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
