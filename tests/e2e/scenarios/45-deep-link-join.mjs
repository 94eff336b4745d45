// `damas://join/<code>` links: Bea, a browser-only friend (headless Chromium), opens an English
// room on a damas-server; the app (real window, given that server in its Settings) is started
// with the link as its argument, as the system starts it when the link is opened: it opens the
// room's join screen with the code filled in, Ana joins and the game starts at both. While the
// app runs, a second launch with another room's link hands the link to it (single instance)
// and quits; the running app shows that room's join screen. A link that is not a join link
// leaves the app on its home screen. Without Chromium it fails under CI and skips here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { launchToHome } from '../lib/flows.mjs';
import { Browser, browserFriendReady, startServerForApp } from '../lib/chromium.mjs';
import { Ui } from '../lib/ui.mjs';
import { shot, waitRoom } from '../lib/rooms.mjs';

/** Bea's browser opens an English room on `base`; resolves with its code. */
async function openRoomIn(bea, base, nickname) {
  await bea.driver.get(`${base}/#/setup/english`);
  await bea.waitFor((s) => s.ready && s.screen === 'setup-screen', 'the setup screen');
  await bea.click('mode-friends');
  const nick = await bea.byTestid('setup-nickname');
  await nick.clear();
  await nick.sendKeys(nickname);
  await bea.click('start');
  const lobby = await waitRoom(bea, (r) => r.you != null && r.room.seats.length === 2, `${nickname} seated`);
  return lobby.room.code;
}

/** The app's join screen for `code`: the room screen in its join phase, the code shown. */
async function waitJoinScreen(ui, code, what) {
  await ui.waitFor((s) => s.screen === 'room-screen' && s.hash === `#/room/${code}`, what, 20000);
  await ui.driver.wait(async () => (await ui.driver.executeScript(
    "const e = document.querySelector('[data-testid=room-screen]'); return e && e.dataset.phase")) === 'join', 10000, 'the join phase');
  const shown = await ui.driver.executeScript("return document.querySelector('[data-testid=room-join] code')?.textContent");
  // Shown as people read it: in groups of five joined by dashes.
  assert.equal(shown, code.replace(/(.{5})(?=.)/g, '$1-'), 'the join screen shows the link\'s code');
}

export default {
  name: 'deep-link-join',
  title: 'damas://join/<code>: the app started by a link opens the room\'s join screen; a second launch hands its link over',
  lang: 'en_US.UTF-8',
  async run(t) {
    if (!browserFriendReady(t)) return;
    const { base, child } = await startServerForApp(t);
    const browser = new Browser({ name: 'bea', log: t.log });
    try {
      // The app's room server, once.
      await launchToHome(t);
      await t.ui.driver.executeScript('location.hash = "#/settings"');
      await t.ui.waitFor((s) => s.screen === 'settings-screen', 'the settings');
      const field = await t.ui.byTestid('room-server');
      await field.clear();
      await field.sendKeys(base);
      await t.ui.click('room-server-save');
      await t.ui.waitFor((s) => s.toast && /Room server saved/.test(s.toast), 'the address saved');
      // Kept by the app (settings.json): it is there after a restart, even a kill.
      await t.app.kill();

      await browser.launch();
      const bea = new Ui(browser.driver, { log: t.log });
      const code = await openRoomIn(bea, base, 'Bea');
      t.log(`Bea's room ${code}`);

      // Started by the link.
      await t.launch({ args: [`damas://join/${code}`] });
      const ana = t.ui;
      await ana.driver.wait(async () => (await ana.driver.executeScript('return document.documentElement.dataset.ready')) === 'true', 20000, 'the app ready');
      await waitJoinScreen(ana, code, 'the join screen of the link\'s room');
      await shot(ana, '45-deep-link-join', t.log);
      const nick = await ana.byTestid('nickname');
      await nick.clear();
      await nick.sendKeys('Ana');
      await ana.click('join');
      const seated = await waitRoom(ana, (r) => r.you != null && r.room.started, 'Ana seated, the game started');
      await waitRoom(bea, (r) => r.room.started && r.room.seats[seated.you].nickname === 'Ana', 'Bea sees Ana in the room');

      // While the app runs: a second launch with another room's link.
      const second = await openRoomIn(bea, base, 'Bea2');
      assert.notEqual(second, code);
      const other = spawn(t.app.binary, [`damas://join/${second}`], { env: t.app.env(), stdio: 'ignore' });
      const exit = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve('still running'), 20000);
        other.once('exit', (status) => { clearTimeout(timer); resolve(status); });
      });
      assert.equal(exit, 0, 'the second launch hands its link over and quits');
      await waitJoinScreen(ana, second, 'the running app on the second link\'s join screen');

      // Not a join link: the app opens on its home screen.
      await t.app.kill();
      await t.launch({ args: ['damas://join/not-a-code!'] });
      await t.ui.waitHome();
      const hash = await t.ui.driver.executeScript('return location.hash');
      assert.ok(!hash.startsWith('#/room/'), `stays home (${hash})`);
    } finally {
      await browser.close();
      browser.removeProfile();
      child.kill('SIGTERM');
    }
  },
};
