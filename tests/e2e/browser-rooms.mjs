#!/usr/bin/env node
// Friends' rooms with real clients: a real `damas-server` (its own, on a free port, serving ui/)
// and two headless Chromium browsers playing through the real UI with real clicks.
//
//   node tests/e2e/browser-rooms.mjs --server /abs/path/to/damas-server [--ui ui/]
//
// 40: Ana opens an English draughts room from the setup screen ("Play with friends"), Bea
//     opens the link, sees the join page and joins; they play moves with real clicks on both
//     sides (each move checked against the server's state), Bea resigns, both see the result;
//     rematch swaps the sides; Bea's browser is killed → the seat shows its countdown and the
//     CPU plays it (takeover shortened by --takeover-secs) → Bea's browser comes back on the
//     link and gets her seat back with the token it kept, and plays again.
// 41: a third browser opens the link of the full room and watches read-only.
//
// Skips (exit 0, with a clear message) only when Chromium or chromedriver is missing and not
// under CI; CI installs them (scripts/setup). Screenshots go to target/e2e-screenshots/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { By } from 'selenium-webdriver';
import { Browser, chromiumMissing, startRoomServer } from './lib/chromium.mjs';
import { screenshot, SCREENSHOT_DIR } from './lib/page.mjs';
import { Ui, routeOf } from './lib/ui.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');
const TAKEOVER_SECS = 3;

const { values: opts } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.DAMAS_SERVER },
    ui: { type: 'string', default: path.join(ROOT, 'ui') },
  },
});

const missing = chromiumMissing();
if (missing) {
  if (process.env.CI) {
    console.log(`browser-rooms: ${missing} is missing under CI (scripts/setup installs chromium and chromium-driver)`);
    process.exit(1);
  }
  console.log(`browser-rooms: SKIPPED: ${missing} not found (apt-get install chromium chromium-driver, or run scripts/setup)`);
  process.exit(0);
}
if (!opts.server || !fs.existsSync(opts.server)) {
  console.log(`browser-rooms: no damas-server binary (--server or DAMAS_SERVER): ${opts.server}`);
  process.exit(1);
}

const log = (line) => console.log(`    ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The room as the server last sent it to a page, and the page's seat. */
function roomOf(ui) {
  return ui.driver.executeScript(`
    const d = window.__damas && window.__damas.current && window.__damas.current.debug;
    return d && d.room ? { room: d.room, you: d.you } : null;`);
}

/** Waits for `pred(roomState)` in a page (`{room, you}`). */
async function waitRoom(ui, pred, what, timeoutMs = 20000) {
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
async function waitMyTurn(ui, timeoutMs = 30000) {
  const s = await ui.waitFor(
    (x) => x.game && x.game.busy === 'false' && x.game.phase === 'idle' && x.game.over === 'false'
      && x.status && x.game.toMove === x.game.viewer,
    'my turn on an idle board',
    timeoutMs,
  );
  await ui.driver.wait(() => ui.driver.executeScript("return document.getAnimations().every((a) => a.playState !== 'running')"), 5000, 'the board to stop turning');
  return s;
}

async function shot(ui, name) {
  await ui.driver.executeAsyncScript('const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 200)));');
  const file = await screenshot(ui.driver, name);
  log(`screenshot ${path.relative(ROOT, file)}`);
}

/**
 * The player to move plays the first legal move the server lists, by real clicks on the board
 * (the piece, then each stop). Both pages must then show the new position: same ply, same move
 * in the history, and the move marked on the board.
 */
async function playOne(mover, other) {
  const { room } = await roomOf(mover);
  const ply = room.view.ply;
  const move = room.view.legal_moves[0];
  await mover.playByTaps(move, { pointer: 'mouse', waitIdle: false });
  for (const ui of [mover, other]) {
    const seen = await waitRoom(ui, (r) => r.room.view.ply > ply, `ply ${ply + 1} at the ${ui === mover ? 'mover' : 'other player'}`);
    assert.equal(seen.room.view.history[ply].move.move, move.move, 'the server has the clicked move');
    await ui.waitFor((s) => Number(s.game.ply) > ply && s.lastMoves.some((m) => routeOf(move).includes(m.to)), `move ${move.move} drawn`);
  }
  return move;
}

/** Plays until the player of `ui` is to move on an idle board (the other plays whatever it must). */
async function whoMoves(a, b) {
  const ra = await roomOf(a);
  return ra.room.view.to_move === ra.you ? [a, b] : [b, a];
}

const results = [];
async function scenario(label, title, run) {
  console.log(`\n--- ${label}: ${title}`);
  const started = Date.now();
  try {
    await run();
    console.log(`ok   ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    results.push(true);
  } catch (e) {
    console.log(`FAIL ${label}: ${e.stack ?? e}`);
    for (const [who, ui] of [['ana', ana], ['bea', bea]]) {
      if (ui) await screenshot(ui.driver, `${label}-${who}-FAILED`).catch(() => {});
    }
    results.push(false);
  }
}

const { base, child: server } = await startRoomServer(path.resolve(opts.server), path.resolve(opts.ui), ['--takeover-secs', String(TAKEOVER_SECS)], log);
log(`damas-server at ${base} (takeover ${TAKEOVER_SECS} s)`);
const browsers = [];
const open = async (name) => {
  const b = new Browser({ name, log });
  browsers.push(b);
  await b.launch();
  return b;
};

let link = null;
let ana = null;
let bea = null;
try {
  await scenario('40-room-two-browsers', 'create, join by link, play, resign, rematch, kill → CPU → reconnect', async () => {
    const anaBrowser = await open('ana');
    ana = new Ui(anaBrowser.driver, { log });
    await ana.driver.get(`${base}/#/setup/english`);
    await ana.waitFor((s) => s.ready && s.screen === 'setup-screen', 'the setup screen');
    await ana.click('mode-friends');
    const nick = await ana.byTestid('setup-nickname');
    await nick.clear();
    await nick.sendKeys('Ana');
    await ana.click('clock-5');
    await ana.click('start');
    await ana.waitFor((s) => s.screen === 'room-screen' && /^#\/room\/[A-Za-z0-9_-]{16,}$/.test(s.hash), 'the room lobby');
    const lobby = await waitRoom(ana, (r) => r.you != null && r.room.seats.length === 2, 'Ana seated');
    link = await (await ana.byTestid('room-link')).getAttribute('value');
    assert.equal(link, `${base}/r/${lobby.room.code}`);
    const code = await (await ana.byTestid('room-code')).getText();
    assert.equal(code, lobby.room.code, 'the room code in large letters');
    const seatNames = await ana.driver.findElements(By.css('[data-testid=room-seat]'));
    assert.equal(seatNames.length, 2);
    assert.equal(await (await ana.byTestid('start-cpu')).isEnabled(), true);
    await shot(ana, '40-room-lobby');

    const beaBrowser = await open('bea');
    bea = new Ui(beaBrowser.driver, { log });
    await bea.driver.get(link);
    await bea.waitFor((s) => s.ready && s.screen === 'room-screen', 'the room page');
    await bea.byTestid('room-join');
    await shot(bea, '40-room-join');
    const beaNick = await bea.byTestid('nickname');
    await beaNick.clear();
    await beaNick.sendKeys('Bea');
    await bea.click('join');
    // Two players: the game starts as soon as the friend sits down.
    const started = await waitRoom(bea, (r) => r.room.started && r.you != null, 'the game started at Bea');
    assert.notEqual(started.you, lobby.you);
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
        await shot(ana, '40-room-board-ana');
        await shot(bea, '40-room-board-bea');
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

    // Bea's browser is killed on her turn: Ana sees her seat away with the countdown, then the
    // CPU plays it.
    const beforeKill = await roomOf(ana);
    const beaSeat = againBea.you;
    assert.equal(beforeKill.room.view.to_move, beaSeat, 'Bea is to move when her browser dies');
    const plyAtKill = beforeKill.room.view.ply;
    beaBrowser.kill();
    bea = null;
    await waitRoom(ana, (r) => r.room.seats[beaSeat].connected === false, 'Bea\'s seat disconnected');
    await ana.waitFor((s) => s.screen === 'room-screen', 'room screen');
    const awayText = await ana.driver.executeScript(`return document.querySelector('[data-testid=room-seat][data-seat="${beaSeat}"]')?.dataset.state`);
    assert.ok(['away', 'cpu_away'].includes(awayText), `Bea's seat line says ${awayText}`);
    if (awayText === 'away') await shot(ana, '40-room-countdown');
    const taken = await waitRoom(ana, (r) => r.room.view.ply > plyAtKill, 'the CPU to play Bea\'s turn', (TAKEOVER_SECS + 15) * 1000);
    assert.equal(taken.room.seats[beaSeat].cpu_playing, true);
    assert.equal(taken.room.view.history[plyAtKill].seat, beaSeat);
    await ana.waitFor(() => true, '');
    const cpuLine = await ana.driver.executeScript(`return document.querySelector('[data-testid=room-seat][data-seat="${beaSeat}"]')?.dataset.state`);
    assert.equal(cpuLine, 'cpu_away');

    // Bea opens the link again in the same browser profile: her seat comes back at once.
    const beaAgain = new Browser({ name: 'bea-again', profile: beaBrowser.profile, log });
    browsers.push(beaAgain);
    await beaAgain.launch();
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
  });

  await scenario('41-room-watch', 'a third browser opens the full room\'s link and watches', async () => {
    assert.ok(link && ana && bea, 'needs scenario 40');
    const carlos = new Ui((await open('carlos')).driver, { log });
    await carlos.driver.get(link);
    await carlos.waitFor((s) => s.ready && s.screen === 'room-screen', 'the room page');
    const nick = await carlos.byTestid('nickname');
    await nick.sendKeys('Carlos');
    await carlos.click('join');
    await carlos.waitFor(() => true, '');
    await carlos.driver.wait(async () => !(await (await carlos.byTestid('join')).isDisplayed()), 10000, 'Join to give way to Watch');
    await carlos.click('watch');
    const watching = await waitRoom(carlos, (r) => r.room.started && r.you == null, 'Carlos watching');
    await carlos.waitFor((s) => s.game && s.game.ply === String(watching.room.view.ply), 'the live board');
    // A move at the table reaches the spectator.
    const [mover, other] = await whoMoves(ana, bea);
    await waitMyTurn(mover);
    const move = await playOne(mover, other);
    const seen = await waitRoom(carlos, (r) => r.room.view.ply > watching.room.view.ply, 'the move at the spectator');
    assert.equal(seen.room.view.history.at(-1).move.move, move.move);
    // The spectator can't pick a piece.
    const s = await carlos.snapshot();
    assert.equal(s.actions.resign?.disabled ?? true, true);
    assert.equal(s.dests.length, 0);
  });
} finally {
  for (const b of browsers) await b.close();
  for (const b of browsers) b.removeProfile();
  server.kill('SIGTERM');
}

const passed = results.filter(Boolean).length;
console.log(`\nscreenshots in ${SCREENSHOT_DIR}`);
console.log(`browser-rooms: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.length && passed === results.length ? 0 : 1);
