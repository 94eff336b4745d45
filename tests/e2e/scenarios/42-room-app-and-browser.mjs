// Play with friends by link, the app's side: the app (real window) is given a room server in the
// Settings, opens an English room from the setup ("Play with friends"), shows the lobby (code,
// link, QR code, seats), and Bea, a browser-only friend in headless Chromium, joins by the link;
// then the shared flow of lib/rooms.mjs: moves by real clicks on both sides, resignation, rematch
// with the sides swapped, Bea's browser killed → the CPU plays her seat → she comes back. Last,
// the app is killed and started again: the online game in progress is on its home screen (from
// rooms.json), Ana's seat comes back, and once she resigns the game is forgotten.
// The scenario starts its own damas-server (next to the app binary: target/debug/damas-server)
// on a free port; without Chromium it fails under CI and is skipped (passes with a message) here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { By } from 'selenium-webdriver';
import { launchToHome } from '../lib/flows.mjs';
import { Browser, browserFriendReady, startServerForApp } from '../lib/chromium.mjs';
import { friendJoinsAndPlays, playOne, roomOf, shot, waitMyTurn, waitRoom, whoMoves } from '../lib/rooms.mjs';

const TAKEOVER_SECS = 3;

export default {
  name: 'room-app-and-browser',
  title: 'The app opens a friends\' room; a browser-only friend joins by the link and they play',
  lang: 'en_US.UTF-8',
  async run(t) {
    if (!browserFriendReady(t)) return;
    const { base, child } = await startServerForApp(t, ['--takeover-secs', String(TAKEOVER_SECS)]);
    const browsers = [];
    const openBrowser = async (name, profile) => {
      const b = new Browser({ name, profile, log: t.log });
      browsers.push(b);
      await b.launch();
      return b;
    };
    try {
      await launchToHome(t);
      const { ui } = t;
      // Settings → Room server.
      await ui.driver.executeScript('location.hash = "#/settings"');
      await ui.waitFor((s) => s.screen === 'settings-screen', 'the settings');
      const field = await ui.byTestid('room-server');
      await field.clear();
      await field.sendKeys(base);
      await ui.click('room-server-save');
      await ui.waitFor((s) => s.toast && /Room server saved/.test(s.toast), 'the address saved');

      await ui.driver.executeScript('location.hash = "#/setup/english"');
      await ui.waitFor((s) => s.screen === 'setup-screen', 'the setup screen');
      await ui.click('mode-friends');
      const nick = await ui.byTestid('setup-nickname');
      await nick.clear();
      await nick.sendKeys('Ana');
      await ui.click('clock-5');
      await ui.click('start');
      const lobby = await waitRoom(ui, (r) => r.you != null && r.room.seats.length === 2, 'Ana seated in her room', 20000);
      await ui.waitFor((s) => s.screen === 'room-screen' && s.hash === '#/room/' + lobby.room.code, 'the lobby');
      const link = await (await ui.byTestid('room-link')).getAttribute('value');
      assert.equal(link, `${base}/r/${lobby.room.code}`, 'the link points at the room server');
      assert.equal(await (await ui.byTestid('room-code')).getText(), lobby.room.code.replace(/(.{5})(?=.)/g, '$1-'), 'in groups of five');
      assert.ok(await ui.driver.findElement(By.css('[data-testid=room-qr] svg')), 'a QR code');
      await shot(ui, '42-room-app-lobby', t.log);

      const bea = await friendJoinsAndPlays({ ana: ui, anaSeat: lobby.you, link, openBrowser, takeoverSecs: TAKEOVER_SECS, prefix: '42-room-app', log: t.log });
      const before = await roomOf(bea);
      const anaSeat = 1 - before.you;

      // The app is killed (-9) and started again: the home screen lists the online game in
      // progress (kept by the app in rooms.json, not by the web view: its storage is wiped
      // first, the room server setting with it), and tapping the row takes Ana's seat back on
      // the room's server with the token the app kept; the game goes on where it was.
      const roomsFile = () => {
        const dir = t.app.appDataDirs().find((d) => fs.existsSync(path.join(d, 'rooms.json')));
        return dir ? JSON.parse(fs.readFileSync(path.join(dir, 'rooms.json'), 'utf8')) : null;
      };
      const kept = roomsFile();
      assert.ok(kept, 'rooms.json in the app data directory');
      assert.deepEqual(kept.rooms.map((r) => [r.code, r.server, r.kind, r.nickname]), [[lobby.room.code, base, 'english', 'Ana']]);
      assert.match(kept.rooms[0].token, /^[A-Za-z0-9_-]{16,}$/);
      await ui.driver.executeScript('localStorage.clear()');
      await t.app.kill();
      await waitRoom(bea, (r) => !r.room.seats[anaSeat].connected, 'Ana\'s seat disconnected at Bea');
      await launchToHome(t);
      const again = t.ui;
      const rows = await again.driver.executeScript("return [...document.querySelectorAll('[data-testid=room-row]')].map(e => [e.dataset.code, e.dataset.game, e.textContent])");
      assert.equal(rows.length, 1, `one online game listed: ${JSON.stringify(rows)}`);
      assert.equal(rows[0][0], lobby.room.code);
      assert.equal(rows[0][1], 'english');
      assert.match(rows[0][2], /Online game in progress/);
      assert.match(rows[0][2], /Ana/);
      await shot(again, '42-room-app-home-online-game', t.log);
      await again.click('room-resume', `[href="#/room/${lobby.room.code}"]`);
      const back = await waitRoom(again, (r) => r.you === anaSeat && r.room.started, 'Ana back in her seat');
      assert.ok(back.room.view.ply >= before.room.view.ply, 'the same game');
      assert.deepEqual(back.room.view.history.slice(0, before.room.view.ply), before.room.view.history, 'the same moves');
      await waitRoom(bea, (r) => r.room.seats[anaSeat].connected && !r.room.seats[anaSeat].cpu_playing, 'Bea sees Ana back');
      // One more move each way by clicks.
      for (let i = 0; i < 2; i++) {
        const [mover, other] = await whoMoves(again, bea);
        await waitMyTurn(mover);
        await playOne(mover, other);
      }
      // Ana resigns: the game is over, and the app forgets it (the home list and rooms.json).
      await again.click('resign');
      await again.click('confirm-yes');
      const over = await waitRoom(bea, (r) => !!r.room.result, 'the result at Bea');
      assert.equal(over.room.result.winner, 1 - anaSeat);
      await again.waitFor((s) => s.result, 'the result dialog at Ana');
      await again.driver.wait(async () => (roomsFile()?.rooms ?? []).length === 0, 10000, 'the finished game forgotten in rooms.json');
      await again.click('result-home');
      await again.waitHome();
      const left = await again.driver.executeScript("return document.querySelectorAll('[data-testid=room-row]').length");
      assert.equal(left, 0, 'no online game listed once it is over');
      // Both room games are in the rewards' record, once each, from Ana's side: Bea resigned
      // the first, Ana the rematch (too short for candies: under 16 plies).
      const progressFile = path.join(t.app.appDataDirs().find((d) => fs.existsSync(path.join(d, 'progress.json'))), 'progress.json');
      const rewarded = JSON.parse(fs.readFileSync(progressFile, 'utf8')).room_results.map((r) => [r.code, r.rematch, r.result]);
      assert.deepEqual(rewarded, [[lobby.room.code, 0, 'win'], [lobby.room.code, 1, 'loss']]);
    } finally {
      for (const b of browsers) await b.close();
      for (const b of browsers) b.removeProfile();
      child.kill('SIGTERM');
    }
  },
};
