// A room's clock runs out: the app (real window, Ana, given a damas-server in its Settings) opens
// an English room with a short clock (4 s main time, no byo-yomi: the protocol's custom clock,
// asked through the room screen's test hook `__damas.roomToCreate`, as the setup screen asks
// for its presets), Bea joins by the link in headless Chromium, and nobody moves: the seat to
// move loses on time. Both sides see it: the server's result (`time`, the flagged seat), each
// page's result dialog with the reason, told from its own side, and the flagged clock at 0:00.
// Without Chromium it fails under CI and skips here.
import assert from 'node:assert/strict';
import { launchToHome } from '../lib/flows.mjs';
import { Browser, browserFriendReady, startServerForApp } from '../lib/chromium.mjs';
import { Ui } from '../lib/ui.mjs';
import { shot, waitRoom } from '../lib/rooms.mjs';

const MAIN_MS = 4000;

export default {
  name: 'room-clock-runs-out',
  title: 'A friends\' room with a short clock: the player to move loses on time, both sides see it',
  lang: 'en_US.UTF-8',
  async run(t) {
    if (!browserFriendReady(t)) return;
    const { base, child } = await startServerForApp(t);
    const browser = new Browser({ name: 'bea', log: t.log });
    try {
      await launchToHome(t);
      const ana = t.ui;
      await ana.driver.executeScript('location.hash = "#/settings"');
      await ana.waitFor((s) => s.screen === 'settings-screen', 'the settings');
      const field = await ana.byTestid('room-server');
      await field.clear();
      await field.sendKeys(base);
      await ana.click('room-server-save');
      await ana.waitFor((s) => s.toast && /Room server saved/.test(s.toast), 'the address saved');

      await ana.driver.executeScript(`
        window.__damas.roomToCreate = { game: { kind: 'english', players: 2, long_jump: false }, nickname: 'Ana',
          clock: { main_ms: ${MAIN_MS}, periods: 0, period_ms: 1000 } };
        location.hash = '#/room/new';`);
      const lobby = await waitRoom(ana, (r) => r.you != null && r.room.seats.length === 2, 'Ana seated in her room', 20000);
      assert.deepEqual(lobby.room.clock.settings, { main_ms: MAIN_MS, periods: 0, period_ms: 1000 });
      const link = await (await ana.byTestid('room-link')).getAttribute('value');

      await browser.launch();
      const bea = new Ui(browser.driver, { log: t.log });
      await bea.driver.get(link);
      await bea.waitFor((s) => s.ready && s.screen === 'room-screen', 'the room page');
      const nick = await bea.byTestid('nickname');
      await nick.clear();
      await nick.sendKeys('Bea');
      await bea.click('join');
      const started = await waitRoom(bea, (r) => r.room.started && r.you != null, 'the game started at Bea');
      const toMove = started.room.view.to_move;
      assert.equal(started.room.clock.running, toMove, 'the clock of the seat to move runs');

      // Nobody moves: the seat to move runs out of time.
      const [atAna, atBea] = [
        await waitRoom(ana, (r) => !!r.room.result, 'the flag at Ana', MAIN_MS + 15000),
        await waitRoom(bea, (r) => !!r.room.result, 'the flag at Bea', MAIN_MS + 15000),
      ];
      for (const seen of [atAna, atBea]) {
        assert.equal(seen.room.result.reason, 'time');
        assert.equal(seen.room.result.flagged, toMove);
        assert.equal(seen.room.result.winner, 1 - toMove);
        assert.equal(seen.room.view.ply, 0, 'no move was played');
        assert.equal(seen.room.clock.seats[toMove].main_ms, 0);
      }
      const anaResult = await ana.waitFor((s) => s.result, 'the result dialog at Ana');
      const beaResult = await bea.waitFor((s) => s.result, 'the result dialog at Bea');
      for (const r of [anaResult.result, beaResult.result]) {
        assert.equal(r.reason, 'time');
        assert.equal(r.winner, String(1 - toMove));
      }
      assert.notEqual(anaResult.result.text, beaResult.result.text, 'each side is told its own result');
      const reasons = await Promise.all([ana, bea].map((ui) => ui.driver.executeScript("return document.querySelector('[data-testid=result-reason]')?.textContent")));
      const loser = atAna.you === toMove ? 0 : 1;
      assert.match(reasons[loser], /You ran out of time/);
      assert.match(reasons[1 - loser], /Your opponent ran out of time/);
      // Behind the dialog, the flagged seat's clock line says 0:00.
      const flaggedClock = await ana.driver.executeScript(`return document.querySelector('[data-testid=room-seat][data-seat="${toMove}"] [data-testid=room-clock]')?.dataset.mainMs`);
      assert.equal(flaggedClock, '0');
      await shot(ana, '46-room-clock-ana', t.log);
      await shot(bea, '46-room-clock-bea', t.log);
    } finally {
      await browser.close();
      browser.removeProfile();
      child.kill('SIGTERM');
    }
  },
};
