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
// 43: a 3-player Diamond room: two browsers and "Start with the CPU in the free seats"; one
//     friend leaves and the CPU plays that seat too. (42 is the app's scenario in scenarios/.)
//
// Skips (exit 0, with a clear message) only when Chromium or chromedriver is missing and not
// under CI; CI installs them (scripts/setup). Screenshots go to target/e2e-screenshots/.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { By } from 'selenium-webdriver';
import { Browser, chromiumMissing, chromiumSkipAsked, startRoomServer } from './lib/chromium.mjs';
import { screenshot, SCREENSHOT_DIR } from './lib/page.mjs';
import { Ui } from './lib/ui.mjs';
import { roomOf, waitRoom, waitMyTurn, playOne, whoMoves, friendJoinsAndPlays, shot as shotOf } from './lib/rooms.mjs';

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
  if (!chromiumSkipAsked()) {
    console.log(`browser-rooms: ${missing} not found: these tests need it (scripts/setup installs chromium and chromium-driver; DAMAS_SKIP_CHROMIUM=1 skips them)`);
    process.exit(1);
  }
  console.log(`browser-rooms: SKIPPED (DAMAS_SKIP_CHROMIUM=1): ${missing} not found`);
  process.exit(0);
}
if (!opts.server || !fs.existsSync(opts.server)) {
  console.log(`browser-rooms: no damas-server binary (--server or DAMAS_SERVER): ${opts.server}`);
  process.exit(1);
}

const log = (line) => console.log(`    ${line}`);
const shot = (ui, name) => shotOf(ui, name, log);

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
const open = async (name, profile) => {
  const b = new Browser({ name, profile, log });
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
    assert.equal(code, lobby.room.code.replace(/(.{5})(?=.)/g, '$1-'), 'the room code in large letters, in groups of five');
    const qr = await ana.driver.executeScript("const f = document.querySelector('[data-testid=room-qr]'); return f && f.querySelector('svg path') ? f.dataset.link : null");
    assert.equal(qr, link, 'a QR code of the link');
    const seatNames = await ana.driver.findElements(By.css('[data-testid=room-seat]'));
    assert.equal(seatNames.length, 2);
    assert.equal(await (await ana.byTestid('start-cpu')).isEnabled(), true);
    await shot(ana, '40-room-lobby');

    bea = await friendJoinsAndPlays({ ana, anaSeat: lobby.you, link, openBrowser: open, takeoverSecs: TAKEOVER_SECS, prefix: '40-room', log });
  });

  await scenario('41-room-watch', 'a third browser opens the full room\'s link and watches', async () => {
    assert.ok(link && ana && bea, 'needs scenario 40');
    const carlos = new Ui((await open('carlos')).driver, { log });
    // Carlos pastes the link into "Join with a code" on the home screen.
    await carlos.driver.get(`${base}/#/`);
    await carlos.waitFor((s) => s.ready && s.screen === 'home-screen', 'the home screen');
    await (await carlos.byTestid('join-code')).sendKeys(`  ${link} `);
    await carlos.click('join-code-go');
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
    // The rules open over the room and "‹" comes back to the same live room (no new socket).
    const roomVersion = () => carlos.driver.executeScript('return __damas.current.debug.room.version');
    await carlos.click('nav-rules');
    await carlos.waitFor((x) => x.screen === 'rules-screen', 'the rules over the room');
    await carlos.driver.executeScript('history.back()');
    const back = await carlos.waitFor((x) => x.screen === 'room-screen' && x.game, 'the room again');
    assert.equal(back.hash, '#/room/' + watching.room.code);
    assert.ok((await roomVersion()) >= watching.room.version, 'the same room, live');
    // The spectator can't pick a piece.
    const s = await carlos.snapshot();
    assert.equal(s.actions.resign?.disabled ?? true, true);
    assert.equal(s.dests.length, 0);
  });

  await scenario('43-room-diamond-cpu', 'Diamond, 3 seats: two friends and the CPU; leaving hands the seat to the CPU', async () => {
    const carmen = new Ui((await open('carmen')).driver, { log });
    await carmen.driver.get(`${base}/#/setup/diamond`);
    await carmen.waitFor((s) => s.ready && s.screen === 'setup-screen', 'the setup screen');
    await carmen.click('players-3');
    await carmen.click('mode-friends');
    const nick = await carmen.byTestid('setup-nickname');
    await nick.clear();
    await nick.sendKeys('Carmen');
    await carmen.click('clock-none');
    await carmen.click('start');
    const lobby = await waitRoom(carmen, (r) => r.you === 0 && r.room.seats.length === 3, 'Carmen in the first seat (Red)');
    const diamondLink = await (await carmen.byTestid('room-link')).getAttribute('value');
    const dani = new Ui((await open('dani')).driver, { log });
    await dani.driver.get(diamondLink);
    await dani.waitFor((s) => s.ready && s.screen === 'room-screen', 'the room page');
    const daniNick = await dani.byTestid('nickname');
    await daniNick.clear();
    await daniNick.sendKeys('Dani');
    await dani.click('join');
    const seated = await waitRoom(carmen, (r) => r.room.seats[1].kind === 'human' && r.room.seats[1].nickname === 'Dani', 'Dani in the second seat');
    assert.equal(seated.room.started, false, '3 seats: no start with a seat free');
    assert.equal(seated.room.seats[2].kind, 'empty');
    await carmen.click('start-cpu');
    const started = await waitRoom(dani, (r) => r.room.started, 'the game started');
    assert.equal(started.room.seats[2].kind, 'cpu', 'the CPU took the free seat');
    assert.equal(lobby.room.code, started.room.code);
    // Red (Carmen) and Yellow (Dani) move by clicks; the CPU (Green) answers by itself.
    for (let i = 0; i < 2; i++) {
      for (const [mover, other] of [[carmen, dani], [dani, carmen]]) {
        await waitMyTurn(mover, 60000);
        await playOne(mover, other);
      }
    }
    const afterCpu = await waitRoom(carmen, (r) => r.room.view.ply >= 6, 'the CPU\'s second move', 60000);
    assert.deepEqual(afterCpu.room.view.history.slice(0, 6).map((h) => h.seat), [0, 1, 2, 0, 1, 2], 'the CPU played Green');
    // Dani leaves (3 players): the CPU plays Yellow from now on, the game goes on.
    await dani.click('room-leave');
    await dani.click('confirm-yes');
    await dani.waitFor((s) => s.screen === 'home-screen', 'Dani back home');
    const left = await waitRoom(carmen, (r) => r.room.seats[1].left, 'Dani\'s seat left');
    assert.equal(left.room.result, null);
    await carmen.waitFor(() => true, '');
    const line = await carmen.driver.executeScript("return document.querySelector('[data-testid=room-seat][data-seat=\"1\"]').dataset.state");
    assert.equal(line, 'cpu');
    await waitMyTurn(carmen, 60000);
    const plyNow = (await roomOf(carmen)).room.view.ply;
    const move = (await roomOf(carmen)).room.view.legal_moves[0];
    await carmen.playByTaps(move, { pointer: 'mouse', waitIdle: false });
    // Carmen's move, then Yellow (CPU) and Green (CPU): the turn comes back to her.
    await waitRoom(carmen, (r) => r.room.view.ply >= plyNow + 3, 'both CPU seats to answer', 60000);
    await shot(carmen, '43-room-diamond');
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
