// Friends' rooms as a test plays them, shared by the browser-only runner (browser-rooms.mjs) and
// the app scenario (scenarios/42-…): read the room the server last sent a page, wait for it,
// play a legal move by real clicks and check both players' screens and the server's state.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { screenshot, settled } from './page.mjs';
import { By } from 'selenium-webdriver';
import { Ui, routeOf } from './ui.mjs';
import { waitFor } from './procs.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The room as the server last sent it to a page, and the page's seat. */
export function roomOf(ui) {
  return ui.driver.executeScript(`
    const d = window.__damas && window.__damas.current && window.__damas.current.debug;
    return d && d.room ? { room: d.room, you: d.you } : null;`);
}

/** Whether some file under `dir` holds `text` (ASCII). */
function onDisk(dir, text) {
  const needle = Buffer.from(text, 'latin1');
  let files = [];
  try {
    files = fs.readdirSync(dir, { recursive: true }).map((f) => path.join(dir, f));
  } catch {
    return false;
  }
  return files.some((f) => {
    try {
      return fs.statSync(f).isFile() && fs.readFileSync(f).includes(needle);
    } catch {
      return false;
    }
  });
}

/** Waits for `pred(roomState)` in a page (`{room, you}`). */
export async function waitRoom(ui, pred, what, timeoutMs = 20000) {
  const start = Date.now();
  let last = null;
  for (;;) {
    last = await roomOf(ui).catch(() => null);
    if (last && pred(last)) return last;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; last room: ${JSON.stringify(last && { you: last.you, started: last.room.started, ply: last.room.view.ply, result: last.room.result, seats: last.room.seats })}`);
    await sleep(50);
  }
}

/** The board of a room page is ready for its player: my turn, nothing moving, nothing picked,
 * and the board no longer turning (after a rematch it turns to the player's new side). */
export async function waitMyTurn(ui, timeoutMs = 30000) {
  const s = await ui.waitFor(
    (x) => x.game && x.game.busy === 'false' && x.game.phase === 'idle' && x.game.over === 'false'
      && x.status && x.game.toMove === x.game.viewer,
    'my turn on an idle board',
    timeoutMs,
  );
  await ui.driver.wait(() => ui.driver.executeScript("return document.getAnimations().every((a) => a.playState !== 'running')"), 5000, 'the board to stop turning');
  return s;
}

async function shotOf(ui, name, log = () => {}) {
  await settled(ui.driver);
  const file = await screenshot(ui.driver, name);
  log(`screenshot ${path.basename(file)}`);
}

/**
 * The player to move plays the first legal move the server lists, by real clicks on the board
 * (the piece, then each stop). Both pages must then show the new position: same ply, same move
 * in the history, and the move marked on the board.
 */
export async function playOne(mover, other) {
  const { room } = await roomOf(mover);
  const ply = room.view.ply;
  const move = room.view.legal_moves[0];
  await mover.playByTaps(move, { pointer: 'mouse', waitIdle: false });
  for (const ui of [mover, other]) {
    const seen = await waitRoom(ui, (r) => r.room.view.ply > ply, `ply ${ply + 1} at the ${ui === mover ? 'mover' : 'other player'}`);
    assert.equal(seen.room.view.history[ply].move.move, move.move, 'the server has the clicked move');
    // Marked on the board, unless a later move (a CPU seat's reply) already took the marks: they
    // show the moves since the player's own last turn (docs/ui.md).
    await ui.waitFor((s) => Number(s.game.ply) > ply + 1 || (Number(s.game.ply) === ply + 1 && s.lastMoves.some((m) => routeOf(move).includes(m.to))), `move ${move.move} drawn`);
  }
  return move;
}

/** `[the page whose player is to move, the other page]`. */
export async function whoMoves(a, b) {
  const ra = await roomOf(a);
  return ra.room.view.to_move === ra.you ? [a, b] : [b, a];
}


/**
 * Bea, a browser-only friend, opens `link` of the English room where Ana (`ana`, a page in the
 * app or a browser, in seat `anaSeat`) waits: the join page, "Join", and the game that starts at
 * once; six moves by real clicks on both sides, each checked in both pages and in the server's
 * state; Bea resigns and both see the result; Ana's rematch swaps the sides; Bea's browser is
 * killed on her turn → her seat line counts down → the CPU plays it → the same browser profile
 * opens the link again and gets the seat back (the token it kept) → two more moves (all this
 * unless `killAndReconnect` is false: the takeover needs a server with a short one).
 * `openBrowser(name, profile?)` launches a headless Chromium (lib/chromium.mjs). Resolves with
 * Bea's page (alive, seated).
 */
export async function friendJoinsAndPlays({ ana, anaSeat, link, openBrowser, takeoverSecs, prefix, log = () => {}, killAndReconnect = true }) {
  const shot = (ui, name) => shotOf(ui, name, log);
  const beaBrowser = await openBrowser('bea');
  let bea = new Ui(beaBrowser.driver, { log });
  await bea.driver.get(link);
  await bea.waitFor((s) => s.ready && s.screen === 'room-screen', 'the room page');
  await bea.byTestid('room-join');
  await shot(bea, `${prefix}-join`);
  const beaNick = await bea.byTestid('nickname');
  await beaNick.clear();
  await beaNick.sendKeys('Bea');
  await bea.click('join');
  // Two players: the game starts as soon as the friend sits down.
  const started = await waitRoom(bea, (r) => r.room.started && r.you != null, 'the game started at Bea');
  assert.notEqual(started.you, anaSeat);
  await waitRoom(ana, (r) => r.room.started, 'the game started at Ana');
  for (const ui of [ana, bea]) await ui.waitFor((s) => s.game && s.game.busy === 'false', 'a board');
  const names = await ana.driver.executeScript("return [...document.querySelectorAll('[data-testid=room-seat-name]')].map(e => e.textContent)");
  assert.deepEqual([...names].sort(), ['Ana', 'Bea']);
  const clocks = await bea.driver.findElements(By.css('[data-testid=room-clock]'));
  assert.equal(clocks.length, 2, 'both clocks shown (5 min + 3 × 30 s)');

  // Six moves by real clicks, alternating between the two browsers.
  for (let i = 0; i < 6; i++) {
    const [mover, other] = await whoMoves(ana, bea);
    await waitMyTurn(mover);
    const m = await playOne(mover, other);
    log(`ply ${i + 1}: ${mover === ana ? 'Ana' : 'Bea'} ${m.move}`);
    if (i === 3) {
      await shot(ana, `${prefix}-board-ana`);
      await shot(bea, `${prefix}-board-bea`);
    }
  }
  const [anaState, beaState] = [await roomOf(ana), await roomOf(bea)];
  assert.deepEqual(anaState.room.view.history.map((h) => h.move.move), beaState.room.view.history.map((h) => h.move.move));
  const clockAna = anaState.room.clock.seats[anaState.you];
  assert.ok(clockAna.main_ms < 300000, `Ana's clock ran: ${clockAna.main_ms}`);

  // Bea resigns (2 players): both see the result, from their own side.
  await bea.click('resign');
  await bea.click('confirm-yes');
  const over = await waitRoom(ana, (r) => !!r.room.result, 'the result at Ana');
  assert.equal(over.room.result.reason, 'resignation');
  assert.equal(over.room.result.winner, anaState.you);
  const anaResult = await ana.waitFor((s) => s.result, 'the result dialog at Ana');
  const beaResult = await bea.waitFor((s) => s.result, 'the result dialog at Bea');
  assert.equal(anaResult.result.reason, 'resignation');
  assert.notEqual(anaResult.result.text, beaResult.result.text, 'each side is told its own result');

  // Rematch: the sides swap; the new game starts at ply 0.
  await ana.click('rematch');
  const again = await waitRoom(ana, (r) => r.room.rematch === 1, 'the rematch at Ana');
  const againBea = await waitRoom(bea, (r) => r.room.rematch === 1, 'the rematch at Bea');
  assert.equal(again.you, beaState.you, 'Ana took the other side');
  assert.equal(againBea.you, anaState.you, 'Bea took the other side');
  assert.equal(again.room.view.ply, 0);
  await bea.waitFor((s) => !s.result && s.game.ply === '0' && s.game.viewer === String(againBea.you), 'Bea\'s board turned to her new side');
  await ana.waitFor((s) => !s.result && s.game.ply === '0' && s.game.viewer === String(again.you), 'Ana\'s board turned to her new side');
  // One move each in the rematch, and one more if needed so that Bea is to move.
  for (let i = 0; i < 3; i++) {
    const now = await roomOf(bea);
    if (i >= 2 && now.room.view.to_move === againBea.you) break;
    const [mover, other] = await whoMoves(ana, bea);
    await waitMyTurn(mover);
    await playOne(mover, other);
  }

  if (!killAndReconnect) return bea;
  // Bea's browser is killed on her turn: Ana sees her seat away with the countdown, then the
  // CPU plays it.
  const beforeKill = await roomOf(ana);
  const beaSeat = againBea.you;
  assert.equal(beforeKill.room.view.to_move, beaSeat, 'Bea is to move when her browser dies');
  const plyAtKill = beforeKill.room.view.ply;
  // Chromium writes localStorage to disk in batches, and a kill -9 loses what it has not written
  // yet (as a real crash that second would): the kill waits until Bea's newest seat token is on disk.
  const token = await bea.driver.executeScript(`const rows = [];
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith('damas-room:')) rows.push(JSON.parse(localStorage.getItem(key)));
    }
    rows.sort((a, b) => b.at - a.at);
    return rows.length ? rows[0].token : null;`);
  assert.ok(token, 'Bea\'s page holds a seat token');
  const storageDir = path.join(beaBrowser.profile, 'Default', 'Local Storage');
  await waitFor(() => onDisk(storageDir, token), { timeoutMs: 20000, intervalMs: 100, what: `Bea's seat token written to disk (in ${storageDir})` });
  beaBrowser.kill();
  bea = null;
  await waitRoom(ana, (r) => r.room.seats[beaSeat].connected === false, 'Bea\'s seat disconnected');
  await ana.waitFor((s) => s.screen === 'room-screen', 'room screen');
  const awayText = await ana.driver.executeScript(`return document.querySelector('[data-testid=room-seat][data-seat="${beaSeat}"]')?.dataset.state`);
  assert.ok(['away', 'cpu_away'].includes(awayText), `Bea's seat line says ${awayText}`);
  if (awayText === 'away') await shot(ana, `${prefix}-countdown`);
  const taken = await waitRoom(ana, (r) => r.room.view.ply > plyAtKill, 'the CPU to play Bea\'s turn', (takeoverSecs + 15) * 1000);
  assert.equal(taken.room.seats[beaSeat].cpu_playing, true);
  assert.equal(taken.room.view.history[plyAtKill].seat, beaSeat);
  await ana.waitFor(() => true, '');
  const cpuLine = await ana.driver.executeScript(`return document.querySelector('[data-testid=room-seat][data-seat="${beaSeat}"]')?.dataset.state`);
  assert.equal(cpuLine, 'cpu_away');

  // Bea opens the link again in the same browser profile: her seat comes back at once.
  const beaAgain = await openBrowser('bea-again', beaBrowser.profile);
  bea = new Ui(beaAgain.driver, { log });
  await bea.driver.get(link);
  const back = await waitRoom(bea, (r) => r.you === beaSeat && r.room.started, 'Bea back in her seat', 20000);
  assert.equal(back.room.seats[beaSeat].cpu_playing, false, 'the CPU gave the seat back');
  await waitRoom(ana, (r) => r.room.seats[beaSeat].connected && !r.room.seats[beaSeat].cpu_playing, 'Ana sees Bea back');
  // They go on playing: Ana (to move now) and then Bea, by clicks.
  for (let i = 0; i < 2; i++) {
    const [mover, other] = await whoMoves(ana, bea);
    await waitMyTurn(mover);
    await playOne(mover, other);
  }
  return bea;
}

export { shotOf as shot };
