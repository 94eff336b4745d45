// "Play someone" with real clients on a real damas-server: the app (real window) and Bea, a
// browser-only player in headless Chromium, both press "Play someone" in the casual English pool
// and are paired with each other (the CPU stand-in is far off on this server); the board opens
// with both names and ratings; a few moves by real clicks (Abort only before both have moved);
// Bea offers a draw in the browser, both see the offer, the app accepts: the game ends drawn by
// agreement on both. Then Cara, alone in a browser on a second server whose CPU stands in after
// 2 s, is given the CPU: labelled CPU (its level), the game casual, and no draw offers to it.
// Screenshots at 390×844: the searching screen, the paired board, the offer banner, the result.
import assert from 'node:assert/strict';
import { launchToHome } from '../lib/flows.mjs';
import { Browser, browserFriendReady, startServerForApp } from '../lib/chromium.mjs';
import { PHONE, resize } from '../lib/page.mjs';
import { Ui } from '../lib/ui.mjs';
import { playOne, roomOf, shot, waitMyTurn, waitRoom, whoMoves } from '../lib/rooms.mjs';
import { bothPaired, poolView, pressPlaySomeone, waitPool } from '../lib/play-someone.mjs';

export default {
  name: 'play-someone',
  title: 'Play someone: the app and a browser are paired, a draw offered in the browser is accepted in the app; alone, the CPU stands in',
  lang: 'en_US.UTF-8',
  async run(t) {
    if (!browserFriendReady(t)) return;
    // Two people are paired at the first wave; the CPU would stand in only after 10 minutes.
    const people = await startServerForApp(t, ['--pool-wave-ms', '500', '--pool-cpu-after-secs', '600']);
    const lonely = await startServerForApp(t, ['--pool-wave-ms', '500', '--pool-cpu-after-secs', '2']);
    const browsers = [];
    const openBrowser = async (name) => {
      const b = new Browser({ name, log: t.log });
      browsers.push(b);
      await b.launch();
      return new Ui(b.driver, { log: t.log });
    };
    try {
      await launchToHome(t);
      const { ui } = t;
      await resize(ui.driver, PHONE);
      await ui.driver.executeScript('location.hash = "#/settings"');
      await ui.waitFor((s) => s.screen === 'settings-screen', 'the settings');
      const field = await ui.byTestid('room-server');
      await field.clear();
      await field.sendKeys(people.base);
      await ui.click('room-server-save');
      await ui.waitFor((s) => s.toast && /Room server saved/.test(s.toast), 'the address saved');

      // A guest: the rated choice is there but says why it cannot be chosen.
      await ui.driver.executeScript('location.hash = "#/setup/english"');
      await ui.waitFor((s) => s.screen === 'setup-screen', 'the setup screen');
      await ui.click('mode-someone');
      const rated = await ui.driver.executeScript(`const b = document.querySelector('[data-testid=rated-true]'), why = document.querySelector('[data-testid=rated-why]');
        return { disabled: b.disabled, describedBy: b.getAttribute('aria-describedby'), why: why.hidden ? null : why.textContent }`);
      assert.equal(rated.disabled, true, 'rated needs a sign-in');
      assert.equal(rated.describedBy, 'rated-why');
      assert.match(rated.why, /Sign in to play rated games/);

      // (a) The app searches first: the searching screen counts the time waited.
      await pressPlaySomeone(ui, { nickname: 'Ana' });
      const searching = await waitPool(ui, (v) => v.pool?.phase === 'waiting' && v.pool.waited >= 2, 'Ana waiting 2 s');
      assert.equal(searching.pool.desc, 'Casual · 5 min + 3 × 30 s');
      assert.equal(searching.pool.rated, 'false');
      assert.match(searching.pool.waitedText, /^0:0[2-9]$/);
      await shot(ui, '47-play-someone-searching', t.log);

      const bea = await openBrowser('bea');
      await bea.driver.get(people.base + '/#/');
      await bea.waitFor((s) => s.ready, 'the page served by damas-server');
      await pressPlaySomeone(bea, { nickname: 'Bea' });
      const [ana, beaRoom] = await bothPaired(ui, bea);
      assert.deepEqual(ana.room.kind, { type: 'pool', pool: 'english/casual', rated: false, cpu_level: null, accounts: ana.room.kind.accounts });
      assert.equal(ana.room.clock.settings.main_ms, 300000, 'the pool\'s clock');
      // Both names, each with the guest rating (1,200), on both screens.
      for (const [page, you] of [[ui, ana.you], [bea, beaRoom.you]]) {
        const v = await waitPool(page, (x) => x.seats.length === 2 && x.seats.every((s) => s.rating) && x.pairing, 'names and ratings').catch(async (e) => {
          await shot(page, '47-debug-' + (page === ui ? 'app' : 'bea'), t.log);
          t.log(JSON.stringify(await page.snapshot().then((s) => [s.screen, s.hash, s.toast])));
          throw e;
        });
        assert.deepEqual(v.seats.map((s) => [s.name, s.rating]).sort(), [['Ana', '1,200'], ['Bea', '1,200']]);
        assert.equal(v.seats.find((s) => s.seat === you).state, 'you');
        assert.equal(v.pairing.text, 'Casual game');
        assert.equal(v.pairing.cpu, 'false');
      }
      await ui.waitFor((s) => s.game && s.game.busy === 'false', 'the board in the app');
      assert.equal((await poolView(ui)).abort, true, 'Abort before anyone moved');
      await shot(ui, '47-play-someone-paired-app', t.log);
      await shot(bea, '47-play-someone-paired-browser', t.log);

      // Four moves by real clicks on both sides; Abort goes once both have moved.
      for (let i = 0; i < 4; i++) {
        const [mover, other] = await whoMoves(ui, bea);
        await waitMyTurn(mover);
        const m = await playOne(mover, other);
        t.log(`ply ${i + 1}: ${mover === ui ? 'Ana (app)' : 'Bea (browser)'} ${m.move}`);
      }
      assert.equal((await poolView(ui)).abort, false, 'no Abort after both moved');
      assert.equal((await poolView(bea)).abort, false);

      // (b) Bea offers a draw in the browser: she sees it sent, the app sees it with Accept.
      await bea.click('offer-draw');
      const sent = await waitPool(bea, (v) => v.offer?.kind === 'sent', 'the offer sent at Bea');
      assert.match(sent.offer.text, /You offered a draw/);
      assert.equal(sent.offer.accept, false, 'no Accept for the offerer');
      const received = await waitPool(ui, (v) => v.offer?.kind === 'received' && v.offer.accept, 'the offer at Ana');
      assert.equal(received.offer.text, 'Bea offers you a draw.');
      const offered = await roomOf(ui);
      assert.deepEqual(offered.room.draw_offer, { from: beaRoom.you, to: ana.you, ply: offered.room.view.ply });
      await shot(ui, '47-play-someone-offer-app', t.log);
      await shot(bea, '47-play-someone-offer-browser', t.log);
      await ui.click('draw-accept');
      for (const page of [ui, bea]) {
        const over = await waitRoom(page, (r) => !!r.room.result, 'the end');
        assert.deepEqual(over.room.result, { winner: null, reason: 'agreement', flagged: null });
        const s = await page.waitFor((x) => x.result, 'the result dialog');
        assert.deepEqual([s.result.text, s.result.winner, s.result.reason], ['Draw', 'draw', 'agreement']);
        const v = await poolView(page);
        assert.equal(v.offer, null, 'the offer is gone');
        assert.deepEqual(v.ratings, [], 'a casual game changes no rating');
      }
      await shot(ui, '47-play-someone-result-app', t.log);
      await shot(bea, '47-play-someone-result-browser', t.log);

      // (c) Cara is alone on a server whose CPU stands in after 2 s: she gets the CPU.
      const cara = await openBrowser('cara');
      await cara.driver.get(lonely.base + '/#/');
      await cara.waitFor((s) => s.ready, 'the second server\'s page');
      await pressPlaySomeone(cara, { nickname: 'Cara' });
      await waitPool(cara, (v) => v.pool?.phase === 'waiting', 'Cara waiting');
      const withCpu = await waitRoom(cara, (r) => r.room.started && r.room.kind?.type === 'pool', 'the CPU stands in', 30000);
      assert.equal(withCpu.room.kind.rated, false, 'a CPU game is casual');
      assert.equal(withCpu.room.kind.cpu_level, 'medium', 'the level of a 1,200 rating');
      const cpuSeat = 1 - withCpu.you;
      assert.equal(withCpu.room.seats[cpuSeat].kind, 'cpu');
      const v = await waitPool(cara, (x) => x.pairing && x.seats.length === 2 && x.offerButton, 'the CPU labelled');
      assert.equal(v.pairing.cpu, 'true');
      assert.equal(v.pairing.text, 'Casual game against the CPU (Medium): nobody was free');
      assert.equal(v.seats.find((s) => s.seat === cpuSeat).name, 'CPU');
      assert.equal(v.seats.find((s) => s.seat === cpuSeat).rating, null, 'the CPU has no rating');
      assert.deepEqual([v.offerButton.disabled, v.offerButton.reason], [true, 'cpu'], 'the CPU takes no draw offers');
      await shot(cara, '47-play-someone-cpu-browser', t.log);
    } finally {
      for (const b of browsers) await b.close();
      for (const b of browsers) b.removeProfile();
      people.child.kill('SIGTERM');
      lonely.child.kill('SIGTERM');
    }
  },
};
