// Accounts for the e2e runners: a real OpenID provider (the `oidc-provider` package of
// server/tests/oidc, with its login form) and a damas-server that keeps players and signs in
// through it, both started here on loopback; and the sign-in as a person does it in a browser
// (Settings → Sign in → the provider's login page → back signed in).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { By } from 'selenium-webdriver';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..');
export const OIDC_DIR = path.join(ROOT, 'server', 'tests', 'oidc');
const CLIENT_SECRET = 'damas-web-secret-for-e2e';

/** What is missing to start the provider, or null. */
export function providerMissing() {
  return fs.existsSync(path.join(OIDC_DIR, 'node_modules', 'oidc-provider'))
    ? null
    : 'the test OpenID provider (npm ci in server/tests/oidc; scripts/setup does it)';
}

/**
 * The provider, knowing the server's web client with `redirect` as its callback; resolves with
 * `{issuer, child}` once it serves. It stops when its standard input closes or on SIGTERM.
 */
export function startProvider(redirect) {
  const config = {
    login_form: true,
    clients: [{ client_id: 'damas-web', client_secret: CLIENT_SECRET, redirect_uris: [redirect] }],
  };
  const child = spawn('node', [path.join(OIDC_DIR, 'provider.mjs'), JSON.stringify(config)], { stdio: ['pipe', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      const m = /^ISSUER (\S+)$/.exec(line.trim());
      if (m) resolve({ issuer: m[1], child });
      else reject(new Error(`the provider did not start: ${line}`));
    });
    child.once('exit', (code) => reject(new Error(`the provider exited (${code})`)));
  });
}

/**
 * `damas-server` on `port` serving `ui`, keeping players in `data`, signing in through `issuer`;
 * `extra` are more flags. Resolves with `{base, child}` once it printed its address.
 */
export function startAccountsServer({ binary, port, ui, data, issuer, extra = [], log = () => {} }) {
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(binary, [
    '--port', String(port), '--ui', ui, '--data', data,
    '--oidc-issuer', issuer, '--oidc-client-id', 'damas-web', '--public-url', base, ...extra,
  ], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, DAMAS_OIDC_CLIENT_SECRET: CLIENT_SECRET } });
  return new Promise((resolve, reject) => {
    let out = '';
    const look = (chunk) => {
      out += chunk;
      if (process.env.E2E_SERVER_LOG) log(String(chunk).trim());
      if (out.includes(`127.0.0.1:${port}`)) resolve({ base, child });
    };
    child.stdout.on('data', look);
    child.stderr.on('data', look);
    child.once('exit', (code) => reject(new Error(`damas-server exited (${code}): ${out}`)));
  });
}

/**
 * In a browser on the server's page: Settings → "Sign in" → the provider's login page (at
 * `issuer`): types `user`, submits → back on the profile, signed in. `before(ui)` runs on the
 * settings with "Sign in" offered (checks, screenshots). Resolves with the session token kept.
 */
export async function signInInBrowser(ui, base, issuer, user, before = async () => {}) {
  await ui.driver.get(`${base}/#/settings`);
  await ui.waitFor((s) => s.ready && s.screen === 'settings-screen', 'the settings');
  await ui.driver.wait(() => ui.driver.executeScript("const b = document.querySelector('[data-testid=sign-in]'); return !!b && !b.disabled"), 10000, 'Sign in to be offered');
  await before(ui);
  await ui.click('sign-in');
  const login = await ui.driver.wait(async () => (await ui.driver.findElements(By.id('login')))[0], 15000, 'the provider\'s login page');
  assert.ok((await ui.driver.getCurrentUrl()).startsWith(issuer), 'the login page is the provider\'s');
  await login.sendKeys(user);
  await (await ui.driver.findElement(By.id('submit'))).click();
  const s = await ui.waitFor((x) => x.ready && x.screen === 'profile-screen', 'the profile after the sign-in', 20000);
  const href = await ui.driver.getCurrentUrl();
  assert.ok(!href.includes('session='), `the session token is out of the address: ${href}`);
  assert.equal(s.hash, '#/profile');
  const token = await ui.driver.executeScript("return JSON.parse(localStorage.getItem('damas.account.session')).token");
  assert.match(token, /^[A-Za-z0-9_-]{43}$/, 'the session kept on the device');
  return token;
}
