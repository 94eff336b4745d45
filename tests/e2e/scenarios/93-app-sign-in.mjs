// Sign-in in the app: the app (real window) is given a damas-server that keeps accounts and signs
// in through a real OpenID provider (the `oidc-provider` package of server/tests/oidc, started
// here with its login form). The system browser's part is played by headless Chromium, which
// signs in on the server's page through the provider's login form; the app is then started with
// the `damas://signed-in#session=…` link the server sends at the end of a sign-in started with
// `to=app`, as the system starts the app for it. The app takes the session (take_signed_in),
// shows the profile (1,200? in every game, over CORS from its web view to the server), Settings
// shows the account, and "Sign out" ends the session on the server. A second launch while the
// app runs hands a sign-in link over (single instance). Without Chromium it fails under CI and
// skips here.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { launchToHome } from '../lib/flows.mjs';
import { Browser, browserFriendReady, freePort } from '../lib/chromium.mjs';
import { Ui } from '../lib/ui.mjs';
import { shot } from '../lib/rooms.mjs';
import { providerMissing, signInInBrowser, startAccountsServer, startProvider } from '../lib/accounts.mjs';

const UI_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..', 'ui');

async function sessionStatus(base, token) {
  const response = await fetch(`${base}/api/session`, { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
}

/** The app's profile: the name and each kind's rating as shown. */
async function appProfile(ui) {
  await ui.waitFor((s) => s.screen === 'profile-screen', 'the profile', 20000);
  await ui.driver.wait(async () => (await ui.driver.executeScript("return document.querySelectorAll('[data-testid=profile-rating]').length")) === 5, 15000, 'five ratings');
  return ui.driver.executeScript(`return {
    name: document.querySelector('[data-testid=profile-name]').textContent,
    rows: [...document.querySelectorAll('[data-testid=profile-rating]')].map((e) => [e.dataset.kind, Number(e.dataset.rating), e.dataset.provisional === 'true']),
  }`);
}

export default {
  name: 'app-sign-in',
  title: 'damas://signed-in: the app takes a sign-in from the system browser, shows the profile, signs out',
  lang: 'en_US.UTF-8',
  async run(t) {
    if (!browserFriendReady(t)) return;
    if (providerMissing()) {
      if (process.env.CI) throw new Error(`${providerMissing()} missing`);
      t.log(`SKIPPED: ${providerMissing()} missing`);
      return;
    }
    const binary = process.env.DAMAS_SERVER ?? path.join(path.dirname(t.app.binary), 'damas-server');
    if (!fs.existsSync(binary)) throw new Error(`no damas-server at ${binary} (cargo build -p damas-server)`);
    const port = await freePort();
    const provider = await startProvider(`http://127.0.0.1:${port}/auth/callback`);
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'damas-e2e-app-accounts-'));
    const browser = new Browser({ name: 'cai', log: t.log });
    let server = null;
    try {
      server = await startAccountsServer({
        binary, port, ui: UI_DIR, data, issuer: provider.issuer, log: t.log,
        extra: ['--origin', 'tauri://localhost', '--origin', 'http://tauri.localhost'],
      });
      const { base } = server;
      // The app's room server, once (kept in its settings).
      await launchToHome(t);
      await t.ui.driver.executeScript('location.hash = "#/settings"');
      await t.ui.waitFor((s) => s.screen === 'settings-screen', 'the settings');
      const field = await t.ui.byTestid('room-server');
      await field.clear();
      await field.sendKeys(base);
      await t.ui.click('room-server-save');
      await t.ui.waitFor((s) => s.toast && /Room server saved/.test(s.toast), 'the address saved');
      // The server keeps accounts: the app offers "Sign in".
      await t.ui.driver.executeScript('__damas.go("#/settings")');
      await t.ui.driver.wait(() => t.ui.driver.executeScript("const b = document.querySelector('[data-testid=sign-in]'); return !!b && !b.disabled && !b.hidden"), 15000, 'Sign in offered in the app');
      await t.app.kill();

      // The system browser's part: the provider's login form, the server's callback.
      await browser.launch();
      const cai = new Ui(browser.driver, { log: t.log });
      const token = await signInInBrowser(cai, base, provider.issuer, 'cai-sub');
      assert.equal(await sessionStatus(base, token), 200);

      // The app started by the sign-in link.
      await t.launch({ args: [`damas://signed-in#session=${token}`] });
      const app = t.ui;
      await app.driver.wait(async () => (await app.driver.executeScript('return document.documentElement.dataset.ready')) === 'true', 20000, 'the app ready');
      const profile = await appProfile(app);
      assert.equal(profile.name, 'Jugador', 'the new account\'s default name');
      assert.deepEqual(profile.rows.map(([kind]) => kind), ['english', 'turkish', 'international', 'diamond2', 'capture2']);
      for (const [kind, rating, provisional] of profile.rows) assert.deepEqual([rating, provisional], [1200, true], kind);
      await shot(app, '93-app-profile', t.log);
      const kept = await app.driver.executeScript("return JSON.parse(localStorage.getItem('damas.account.session'))");
      assert.equal(kept.token, token);
      assert.equal(kept.account.display_name, 'Jugador');
      // Taken once: a restart without a link keeps the session but takes nothing new.
      assert.equal(await app.driver.executeAsyncScript('const done = arguments[0]; window.__TAURI__.core.invoke("take_signed_in").then(done, (e) => done("error " + JSON.stringify(e)))'), null);

      // While the app runs, a second launch with a sign-in link hands it over and quits.
      const other = spawn(t.app.binary, [`damas://signed-in#session=${token}`], { env: t.app.env(), stdio: 'ignore' });
      const exit = await new Promise((resolve) => {
        const timer = setTimeout(() => resolve('still running'), 20000);
        other.once('exit', (status) => { clearTimeout(timer); resolve(status); });
      });
      assert.equal(exit, 0, 'the second launch hands its link over and quits');
      await app.waitFor((s) => s.screen === 'profile-screen' && s.hash === '#/profile', 'the profile again');

      // Settings: signed in; "Sign out" ends the session on the server too.
      await app.driver.executeScript('location.hash = "#/settings"');
      await app.waitFor((s) => s.screen === 'settings-screen', 'the settings');
      await app.driver.wait(async () => /Jugador$/.test(await app.driver.executeScript("const e = document.querySelector('[data-testid=signed-in-as]'); return e ? e.textContent : ''")), 10000, 'signed in as Jugador');
      await app.click('sign-out');
      await app.driver.wait(() => app.driver.executeScript("return !!document.querySelector('[data-testid=sign-in]')"), 10000, 'Sign in offered again');
      assert.equal(await sessionStatus(base, token), 401, 'the token stopped working');
      assert.equal(await app.driver.executeScript("return localStorage.getItem('damas.account.session')"), null);
    } finally {
      await browser.close();
      browser.removeProfile();
      server?.child.kill('SIGTERM');
      provider.child.stdin.end();
      provider.child.kill('SIGTERM');
      fs.rmSync(data, { recursive: true, force: true });
    }
  },
};
