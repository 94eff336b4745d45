// Play with friends with no server anywhere: the app (real window), with no room server in its
// Settings, hosts the room itself (the damas_server library in the app, rooms in memory, on
// this device's network address). The lobby's link points at that address; it serves the UI
// (the app's own embedded files) and answers /health; Bea, a browser-only friend in headless
// Chromium, joins by the link; they play by real clicks, Bea resigns, the rematch swaps sides
// (lib/rooms.mjs, without the kill: the app's takeover is the real 45 s).
import assert from 'node:assert/strict';
import { launchToHome } from '../lib/flows.mjs';
import { Browser, browserFriendReady } from '../lib/chromium.mjs';
import { friendJoinsAndPlays, shot, waitRoom } from '../lib/rooms.mjs';

export default {
  name: 'room-app-hosts',
  title: 'The app hosts a friends\' room itself; a browser friend joins by the link on the local network',
  lang: 'en_US.UTF-8',
  async run(t) {
    if (!browserFriendReady(t)) return;
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
      await ui.driver.executeScript('location.hash = "#/setup/english"');
      await ui.waitFor((s) => s.screen === 'setup-screen', 'the setup screen');
      await ui.click('mode-friends');
      const nick = await ui.byTestid('setup-nickname');
      await nick.clear();
      await nick.sendKeys('Ana');
      await ui.click('clock-5');
      await ui.click('start');
      const lobby = await waitRoom(ui, (r) => r.you != null && r.room.seats.length === 2, 'Ana seated in the hosted room', 30000);
      const link = await (await ui.byTestid('room-link')).getAttribute('value');
      const m = /^(http:\/\/[0-9.]+:\d+)\/r\/([A-Za-z0-9_-]+)$/.exec(link);
      assert.ok(m, `a link on this device's address: ${link}`);
      assert.equal(m[2], lobby.room.code);
      t.log(`hosted at ${m[1]}`);
      // The hosted server answers and serves the UI to browsers.
      assert.equal((await fetch(`${m[1]}/health`)).status, 200);
      const page = await (await fetch(link)).text();
      assert.match(page, /js\/main\.js/, 'the room link serves the UI');
      await shot(ui, '44-room-app-hosts-lobby', t.log);
      await friendJoinsAndPlays({ ana: ui, anaSeat: lobby.you, link, openBrowser, prefix: '44-room-app-hosts', log: t.log, killAndReconnect: false });
    } finally {
      for (const b of browsers) await b.close();
      for (const b of browsers) b.removeProfile();
    }
  },
};
