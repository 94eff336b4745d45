#!/usr/bin/env node
// A browser alone against the server's CPU, and accounts, with real components: a real
// `damas-server` (its own, on a free port, serving ui/, keeping players in a temporary --data
// directory, signing in through a real OpenID provider this script starts: the `oidc-provider`
// package of server/tests/oidc, with its login form) and headless Chromium.
//
//   node tests/e2e/browser-cpu-accounts.mjs --server /abs/path/to/damas-server [--ui ui/]
//
// 90: a browser opens the server's page, starts English draughts against the CPU from the setup
//     screen, plays a move by real clicks, the server's CPU answers; undo takes both back, redo
//     plays them again — each step checked against the room as the server holds it (a separate
//     socket watching it). No hint button (the browser has none). Resign, then "Play again" is a
//     new room at the same level; home lists the game to resume. The other four games start too.
// 91: Ana signs in from Settings through the provider's real login page; the address loses the
//     session token; the profile shows 1,200? in every game; Settings shows her name.
// 92: Bea signs in too; both enter the rated English pool over the room socket (the "Play
//     someone" screens are another part's: the pool is driven from the page with the protocol's
//     own messages, then the paired room opens in the page's room screen with the seat token),
//     Bea resigns, and both profiles show the Elo result (K = 40: 1,220? and 1,180?); the ranking
//     lists both, each with their own row marked.
//
// Screenshots (390×844) go to target/e2e-screenshots/: 90-browser-cpu-game, 91-settings-sign-in, 91-settings-signed-in,
// 91-profile, 92-profile-after, 92-ranking.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { By } from 'selenium-webdriver';
import WebSocket from 'ws';
import { Browser, chromiumMissing, chromiumSkipAsked, freePort } from './lib/chromium.mjs';
import { resize, screenshot, SCREENSHOT_DIR, PHONE } from './lib/page.mjs';
import { Ui } from './lib/ui.mjs';
import { waitRoom, waitMyTurn, shot as shotOf } from './lib/rooms.mjs';
import { providerMissing, signInInBrowser, startAccountsServer, startProvider } from './lib/accounts.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..', '..');

const { values: opts } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.DAMAS_SERVER },
    ui: { type: 'string', default: path.join(ROOT, 'ui') },
  },
});

const missing = chromiumMissing();
if (missing) {
  if (!chromiumSkipAsked()) {
    console.log(`browser-cpu-accounts: ${missing} not found: these tests need it (scripts/setup installs chromium and chromium-driver; DAMAS_SKIP_CHROMIUM=1 skips them)`);
    process.exit(1);
  }
  console.log(`browser-cpu-accounts: SKIPPED (DAMAS_SKIP_CHROMIUM=1): ${missing} not found`);
  process.exit(0);
}
if (!opts.server || !fs.existsSync(opts.server)) {
  console.log(`browser-cpu-accounts: no damas-server binary (--server or DAMAS_SERVER): ${opts.server}`);
  process.exit(1);
}
if (providerMissing()) {
  console.log(`browser-cpu-accounts: ${providerMissing()} is missing`);
  process.exit(1);
}

const log = (line) => console.log(`    ${line}`);
const shot = (ui, name) => shotOf(ui, name, log);
const children = [];

/** A socket of the test itself, watching room `code` as the server holds it. */
async function watchRoom(base, code) {
  const ws = new WebSocket(base.replace(/^http/, 'ws') + '/ws');
  const states = [];
  const waiters = new Set();
  ws.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type !== 'state') return;
    const room = m.room.history_from != null
      ? { ...m.room, view: { ...m.room.view, history: states.at(-1).view.history.slice(0, m.room.history_from).concat(m.room.view.history) } }
      : m.room;
    states.push(room);
    for (const w of [...waiters]) w();
  });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  ws.send(JSON.stringify({ v: 1, type: 'watch', code }));
  return {
    close: () => ws.close(),
    /** Waits for a state of the room where `pred(room)` holds. */
    until(pred, what, timeoutMs = 30000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const room = states.at(-1);
          if (room && pred(room)) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(room);
          }
        };
        const timer = setTimeout(() => { waiters.delete(check); reject(new Error(`server room: timed out waiting for ${what}; last ply ${states.at(-1)?.view.ply}`)); }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}

const gameView = (ui) => ui.driver.executeScript('const c = window.__damas.current; return c && c.debug ? c.debug.view : null;');

const results = [];
const browsers = [];
async function scenario(label, title, run) {
  console.log(`\n--- ${label}: ${title}`);
  const started = Date.now();
  try {
    await run();
    console.log(`ok   ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    results.push(true);
  } catch (e) {
    console.log(`FAIL ${label}: ${e.stack ?? e}`);
    for (const b of browsers) if (b.driver) await screenshot(b.driver, `${label}-${b.name}-FAILED`).catch(() => {});
    results.push(false);
  }
}
const open = async (name) => {
  const b = new Browser({ name, log });
  browsers.push(b);
  await b.launch();
  return new Ui(b.driver, { log });
};

const SIZES = [{ width: 360, height: 640 }, PHONE, { width: 1280, height: 800 }];

/**
 * The screen at each size: nothing wider than the window, and every control in `scope` (a CSS
 * selector) at least 44 × 44 CSS px, reachable by keyboard and named for screen readers.
 */
async function checkLayout(ui, scope, what) {
  for (const size of SIZES) {
    await resize(ui.driver, size);
    const problems = await ui.driver.executeScript(`
      const out = [];
      if (document.documentElement.scrollWidth > innerWidth + 1) out.push('page wider than the window: ' + document.documentElement.scrollWidth);
      for (const root of document.querySelectorAll(arguments[0])) {
        for (const e of root.querySelectorAll('a[href], button, input, select')) {
          const r = e.getBoundingClientRect();
          if (!r.width && !r.height) continue;
          const name = (e.getAttribute('aria-label') || e.textContent || (e.labels && e.labels[0] && e.labels[0].textContent) || '').trim();
          if (r.height < 44 || r.width < 44) out.push((e.dataset.testid || e.textContent.trim()) + ' ' + Math.round(r.width) + '×' + Math.round(r.height));
          if (!name) out.push('unnamed ' + e.outerHTML.slice(0, 80));
          if (e.tabIndex < 0 || e.disabled === undefined && e.tagName === 'A' && !e.href) out.push('not reachable ' + e.outerHTML.slice(0, 80));
          if (r.right > innerWidth + 1) out.push('off screen ' + (e.dataset.testid || e.textContent.trim()));
        }
      }
      return out;`, scope);
    assert.deepEqual(problems, [], `${what} at ${size.width}×${size.height}`);
  }
  await resize(ui.driver, PHONE);
}

/** The text of `testid` now (read in the page: the element may have been drawn again). */
const textOf = (ui, testid) => ui.driver.executeScript(`const e = document.querySelector('[data-testid="${testid}"]'); return e ? e.textContent : ''`);

async function signIn(ui, base, user, shotName = null) {
  return signInInBrowser(ui, base, issuerUrl, user, async () => {
    if (!shotName) return;
    await checkLayout(ui, '[data-testid=account-field]', 'Settings → Account (guest)');
    await ui.driver.executeScript("document.querySelector('[data-testid=account-field]').scrollIntoView({block: 'center'})");
    await shot(ui, shotName);
  });
}

/** The profile's rating rows: kind → {rating, provisional, games}. */
async function profileRatings(ui) {
  // Built afresh (the same hash again is shown again).
  await ui.driver.executeScript("__damas.go('#/profile')");
  await ui.waitFor((s) => s.screen === 'profile-screen', 'the profile');
  await ui.driver.wait(async () => (await ui.driver.findElements(By.css('[data-testid=profile-rating]'))).length === 5, 10000, 'five ratings');
  const rows = await ui.driver.executeScript(`return [...document.querySelectorAll('[data-testid=profile-rating]')].map((e) =>
    [e.dataset.kind, { rating: Number(e.dataset.rating), provisional: e.dataset.provisional === 'true', games: Number(e.dataset.games), text: e.querySelector('.profile-elo').textContent }])`);
  return { order: rows.map(([kind]) => kind), ...Object.fromEntries(rows) };
}

let issuerUrl = null;
const data = fs.mkdtempSync(path.join(os.tmpdir(), 'damas-e2e-accounts-'));
try {
  const port = await freePort();
  const provider = await startProvider(`http://127.0.0.1:${port}/auth/callback`);
  children.push(provider.child);
  issuerUrl = provider.issuer;
  const started = await startAccountsServer({ binary: path.resolve(opts.server), port, ui: path.resolve(opts.ui), data, issuer: issuerUrl, log });
  children.push(started.child);
  const base = started.base;
  log(`damas-server at ${base}, OpenID provider at ${issuerUrl}`);

  await scenario('90-browser-cpu', 'a browser alone plays the server\'s CPU, with undo and redo', async () => {
    const eva = await open('eva');
    await eva.driver.get(`${base}/#/`);
    await eva.waitFor((s) => s.ready && s.screen === 'home-screen', 'the home screen');
    const home = await eva.snapshot();
    assert.deepEqual(home.notices, [], 'no "browser demo" notice: the games are real');
    await eva.startGame('english', { level: 'easy', colour: 0 });
    const first = await gameView(eva);
    assert.equal(first.mode, 'cpu');
    assert.match(first.id, /^[0-9A-Z]{20}$/, 'the game is a room of the server');
    const s = await eva.snapshot();
    assert.equal(s.actions.hint, undefined, 'no hint button in the browser');
    assert.ok(s.actions.undo && s.actions.redo, 'undo and redo are there');
    assert.equal(s.actions.undo.disabled, true, 'nothing to undo yet');
    const server = await watchRoom(base, first.id);
    await server.until((r) => r.started && r.kind.type === 'cpu' && r.kind.level === 'easy' && r.clock === null, 'a started CPU room, no clock');
    // Ana's move by real clicks; the server's CPU answers.
    const move = first.legal_moves[0];
    await eva.playByTaps(move, { pointer: 'mouse', waitIdle: false });
    const answered = await server.until((r) => r.view.ply === 2, 'the CPU\'s reply on the server');
    assert.equal(answered.view.history[0].move.move, move.move, 'the server has the clicked move');
    await eva.waitFor((x) => x.game && x.game.ply === '2' && x.game.busy === 'false' && !x.thinking, 'the CPU\'s reply on screen', 30000);
    await eva.waitFor((x) => x.actions.undo && !x.actions.undo.disabled, 'undo enabled');
    await shot(eva, '90-browser-cpu-game');
    await eva.click('undo');
    const undone = await server.until((r) => r.view.ply === 0 && r.can_redo, 'the undo on the server');
    assert.equal(undone.view.history.length, 0);
    await eva.waitFor((x) => x.game && x.game.ply === '0' && x.actions.redo && !x.actions.redo.disabled, 'the start position again, redo enabled');
    await eva.click('redo');
    const redone = await server.until((r) => r.view.ply === 2 && !r.can_redo, 'the redo on the server');
    assert.equal(redone.view.history[0].move.move, move.move, 'redo plays the same move again');
    assert.equal(redone.view.history[1].move.move, answered.view.history[1].move.move, '… and the CPU\'s same reply');
    await eva.waitFor((x) => x.game && x.game.ply === '2' && x.game.busy === 'false', 'the redone position on screen');
    server.close();
    // Resign: the result; "Play again" starts a new game against the same CPU level.
    await eva.click('resign');
    await eva.click('confirm-yes');
    const over = await eva.waitFor((x) => x.result, 'the result dialog');
    assert.equal(over.result.reason, 'resignation');
    await eva.click('rematch');
    await eva.waitFor((x) => x.game && x.game.gameId !== first.id && x.game.ply === '0' && x.game.over === 'false', 'a new game');
    const again = await gameView(eva);
    assert.deepEqual([again.mode, again.level, again.human_seats], ['cpu', 'easy', [0]]);
    const rematched = await watchRoom(base, again.id);
    await rematched.until((r) => r.kind.type === 'cpu' && r.kind.level === 'easy' && r.view.ply === 0 && !r.result, 'the new room on the server');
    rematched.close();
    // The game is kept: home lists it, and it resumes from the server.
    await eva.driver.executeScript('location.hash = "#/"');
    const listed = await eva.waitFor((x) => x.screen === 'home-screen' && x.savedRows.length, 'the game among the unfinished ones');
    assert.deepEqual(listed.savedRows.map((r) => [r.id, r.ply]), [[again.id, 0]], 'the new game kept, the resigned one not');
    // The four other games start against the server's CPU too (local play is not offered).
    for (const [kind, players] of [['diamond', 2], ['capture', 3], ['international', undefined], ['turkish', undefined]]) {
      await eva.driver.executeScript('location.hash = "#/"');
      await eva.waitFor((x) => x.screen === 'home-screen', 'home');
      await eva.click('game-card', `[data-game="${kind}"]`);
      await eva.waitFor((x) => x.screen === 'setup-screen', 'the setup screen');
      assert.equal((await eva.driver.findElements(By.css('[data-testid=mode-local]'))).length, 0, 'no game on one device in a browser');
      await eva.startGame(kind, { players, level: 'easy', colour: 1 });
      const v = await gameView(eva);
      assert.equal(v.variant.kind, kind);
      assert.match(v.id, /^[0-9A-Z]{20}$/);
      assert.ok(v.legal_moves.length > 0, `${kind}: the player has moves`);
      log(`${kind}: a room against the CPU, ${v.variant.players} players, ply ${v.ply}`);
    }
  });

  let ana = null;
  let bea = null;
  const tokens = {};
  await scenario('91-sign-in', 'sign in through the provider\'s login page; the profile shows 1,200?', async () => {
    ana = await open('ana');
    tokens.ana = await signIn(ana, base, 'ana-sub', '91-settings-sign-in');
    const ratings = await profileRatings(ana);
    assert.deepEqual(ratings.order, ['english', 'turkish', 'international', 'diamond2', 'capture2']);
    for (const kind of ratings.order) assert.deepEqual([ratings[kind].rating, ratings[kind].provisional, ratings[kind].games], [1200, true, 0]);
    assert.equal(ratings.english.text.replace(/\D/g, ''), '1200');
    assert.ok(ratings.english.text.endsWith('?'), 'provisional mark');
    await shot(ana, '91-profile');
    // Settings: the signed-in name (the nickname she had is not asked; the server's default name),
    // rename, and it shows.
    await ana.driver.executeScript('location.hash = "#/settings"');
    await ana.waitFor((s) => s.screen === 'settings-screen', 'the settings');
    const nameInput = await ana.byTestid('account-name');
    await nameInput.clear();
    await nameInput.sendKeys('Ana');
    await ana.click('account-rename');
    await ana.driver.wait(async () => /Ana$/.test(await textOf(ana, 'signed-in-as')), 10000, 'the new name shown');
    await checkLayout(ana, '[data-testid=account-field]', 'Settings → Account (signed in)');
    await ana.driver.executeScript("document.querySelector('[data-testid=account-field]').scrollIntoView({block: 'center'})");
    await shot(ana, '91-settings-signed-in');
  });

  await scenario('92-rated-game', 'two signed-in browsers, a rated game ended by resignation, Elo in both profiles and the ranking', async () => {
    assert.ok(ana, 'needs scenario 91');
    bea = await open('bea');
    tokens.bea = await signIn(bea, base, 'bea-sub');
    await bea.driver.executeScript('location.hash = "#/settings"');
    await bea.waitFor((s) => s.screen === 'settings-screen', 'the settings');
    const nameInput = await bea.byTestid('account-name');
    await nameInput.clear();
    await nameInput.sendKeys('Bea');
    await bea.click('account-rename');
    await bea.driver.wait(async () => /Bea$/.test(await textOf(bea, 'signed-in-as')), 10000, 'Bea\'s name');
    // Both join the rated English pool over the room socket, from the page (its session, its
    // token store); the paired room then opens in the page's own room screen.
    const joinPool = (ui, nickname) => ui.driver.executeAsyncScript(`
      const [nickname, done] = arguments;
      (async () => {
        const { accountState } = await import('/js/account.js');
        const { createTokenStore } = await import('/js/room-socket.js');
        const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/ws');
        const seen = [];
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          seen.push(m.type);
          if (m.type === 'signed_in') ws.send(JSON.stringify({ v: 1, type: 'pool_join', pool: { kind: 'english', rated: true }, nickname }));
          if (m.type === 'error') done({ error: m.code, seen });
          if (m.type === 'joined') {
            createTokenStore().set(m.code, { token: m.token, seat: m.seat, nickname, kind: 'english' });
            window.__paired = { code: m.code, seat: m.seat, seen };
            ws.close();
            done(window.__paired);
          }
        };
        ws.onopen = () => ws.send(JSON.stringify({ v: 1, type: 'sign_in', session: accountState.token() }));
      })().catch((e) => done({ error: String(e) }));`, nickname);
    await ana.driver.manage().setTimeouts({ script: 60000 });
    await bea.driver.manage().setTimeouts({ script: 60000 });
    const [pa, pb] = await Promise.all([joinPool(ana, 'Ana'), joinPool(bea, 'Bea')]);
    assert.ok(!pa.error && !pb.error, `paired: ${JSON.stringify([pa, pb])}`);
    assert.equal(pa.code, pb.code, 'the same room');
    assert.ok(pa.seen.includes('pool_waiting') && pa.seen.includes('paired'), pa.seen.join());
    for (const [ui, p] of [[ana, pa], [bea, pb]]) await ui.driver.executeScript(`location.hash = "#/room/${p.code}"`);
    const room = await waitRoom(ana, (r) => r.room.started && r.you === pa.seat, 'Ana back in her seat');
    assert.equal(room.room.kind.type, 'pool');
    assert.equal(room.room.kind.rated, true, 'a rated game');
    await waitRoom(bea, (r) => r.room.started && r.you === pb.seat, 'Bea back in her seat');
    // A move each (while a side has not moved the game could only be aborted), then Bea resigns.
    const first = room.room.view.to_move === pa.seat ? [ana, bea] : [bea, ana];
    for (const [i, mover] of first.entries()) {
      await waitMyTurn(mover);
      const { room: live } = await waitRoom(mover, (r) => r.room.view.ply === i && r.room.view.legal_moves.length > 0, 'moves');
      await mover.playByTaps(live.view.legal_moves[0], { pointer: 'mouse', waitIdle: false });
      await waitRoom(ana, (r) => r.room.view.ply === i + 1, 'the move at Ana');
      await waitRoom(bea, (r) => r.room.view.ply === i + 1, 'the move at Bea');
    }
    await bea.click('resign');
    await bea.click('confirm-yes');
    const ended = await waitRoom(ana, (r) => !!r.room.result, 'the result at Ana');
    assert.equal(ended.room.result.reason, 'resignation');
    assert.equal(ended.room.result.winner, pa.seat, 'Ana wins');
    // Elo, two new accounts at 1,200, K = 40: 40 × (1 − 1/(1 + 10^0)) = 20.
    const expectA = 1200 + 40 * (1 - 1 / (1 + 10 ** ((1200 - 1200) / 400)));
    const expectB = 1200 + 40 * (0 - 1 / (1 + 10 ** ((1200 - 1200) / 400)));
    assert.equal(expectA, 1220);
    assert.equal(expectB, 1180);
    const waitRating = async (ui, want) => {
      const deadline = Date.now() + 20000;
      for (;;) {
        const r = await profileRatings(ui);
        if (r.english.games === 1) return r;
        if (Date.now() > deadline) throw new Error(`profile still ${JSON.stringify(r.english)}, want ${want}`);
      }
    };
    // Both result dialogs say each player's change once the server has written the game.
    for (const [ui, who] of [[ana, 'Ana'], [bea, 'Bea']]) {
      const lines = await ui.driver.wait(async () => {
        const found = await ui.driver.executeScript("return [...document.querySelectorAll('[data-testid=result-rating]')].map((e) => ({ seat: Number(e.dataset.seat), delta: Number(e.dataset.delta), text: e.textContent }))");
        return found.length === 2 ? found : null;
      }, 20000, `the rating changes in ${who}'s result dialog`);
      const bySeat = Object.fromEntries(lines.map((l) => [l.seat, l]));
      assert.equal(bySeat[pa.seat].delta, expectA - 1200, `${who} sees Ana's change`);
      assert.equal(bySeat[pb.seat].delta, expectB - 1200, `${who} sees Bea's change`);
      assert.match(bySeat[pa.seat].text, /1.200 → 1.220, \+20$/, `${who}: Ana's line`);
      assert.match(bySeat[pb.seat].text, /1.200 → 1.180, \u221220$/, `${who}: Bea's line (a typographic minus)`);
    }
    const ra = await waitRating(ana, expectA);
    const rb = await waitRating(bea, expectB);
    assert.deepEqual([ra.english.rating, ra.english.provisional], [expectA, true]);
    assert.deepEqual([rb.english.rating, rb.english.provisional], [expectB, true]);
    assert.equal(ra.turkish.games, 0, 'other games untouched');
    const recent = await ana.driver.executeScript("const e = document.querySelector('[data-testid=profile-game]'); return e ? { result: e.dataset.result, change: e.querySelector('[data-testid=profile-game-change]').textContent } : null");
    assert.deepEqual(recent, { result: 'win', change: '1200 → 1220, +20' });
    assert.equal((await ana.driver.findElements(By.css('[data-testid=profile-rating][data-kind=english] [data-testid=rating-chart]'))).length, 1, 'a rating chart for the one game played');
    // The game opens as its record (a browser has no engine to replay it in review).
    const pdnLink = await (await ana.byTestid('profile-game-pdn')).getAttribute('href');
    const pdn = await (await fetch(pdnLink)).text();
    // The record of this game: its two moves, Bea's resignation, the result by the colours.
    const [m1, m2] = ended.room.view.history.map((e) => e.move.move);
    const beaColour = ended.room.seats[pb.seat].color;
    assert.ok(pdn.includes(`1. ${m1} ${m2}`), pdn);
    assert.ok(pdn.includes(`[Resigned "${beaColour}"]`), pdn);
    assert.ok(pdn.includes(`[Result "${beaColour === 'white' ? '0-1' : '1-0'}"]`), pdn);
    await checkLayout(ana, '[data-testid=profile-screen]', 'the profile');
    await shot(ana, '92-profile-after');
    // The ranking lists both, Ana first; each sees their own row marked.
    for (const [ui, me] of [[ana, 'Ana'], [bea, 'Bea']]) {
      await ui.driver.executeScript('location.hash = "#/ranking/english"');
      await ui.waitFor((s) => s.screen === 'ranking-screen', 'the ranking');
      await ui.driver.wait(async () => (await ui.driver.findElements(By.css('[data-testid=ranking-row]'))).length === 2, 10000, 'two rows');
      const rows = await ui.driver.executeScript(`return [...document.querySelectorAll('[data-testid=ranking-row]')].map((e) =>
        ({ place: Number(e.dataset.place), name: e.querySelector('.rank-name').firstChild.textContent, rating: Number(e.dataset.rating), you: e.getAttribute('aria-current') === 'true' }))`);
      assert.deepEqual(rows, [
        { place: 1, name: 'Ana', rating: 1220, you: me === 'Ana' },
        { place: 2, name: 'Bea', rating: 1180, you: me === 'Bea' },
      ]);
    }
    await checkLayout(bea, '[data-testid=ranking-screen]', 'the ranking');
    await shot(bea, '92-ranking');
  });
} finally {
  for (const b of browsers) await b.close();
  for (const b of browsers) b.removeProfile();
  for (const c of children) {
    c.stdin?.end();
    c.kill('SIGTERM');
  }
  fs.rmSync(data, { recursive: true, force: true });
}

const passed = results.filter(Boolean).length;
console.log(`\nscreenshots in ${SCREENSHOT_DIR}`);
console.log(`browser-cpu-accounts: ${passed} passed, ${results.length - passed} failed`);
process.exit(results.length && passed === results.length ? 0 : 1);
