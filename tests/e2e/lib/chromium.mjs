// A headless Chromium browser driven through Debian's chromedriver, for the friends' room
// tests: a browser-only player opening the room link. One chromedriver per browser, started in
// its own process group, so "the browser is killed" is SIGKILL to that whole group.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Builder } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';

export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMEDRIVER = process.env.E2E_CHROMEDRIVER ?? '/usr/bin/chromedriver';

/** What is missing to run headless Chromium here, or null. */
export function chromiumMissing() {
  for (const file of [CHROMIUM, CHROMEDRIVER]) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      return file;
    }
  }
  return null;
}

/** A free loopback port (the OS picks it; released just before use). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitForPort(port, timeoutMs = 15000) {
  const start = Date.now();
  for (;;) {
    const ok = await new Promise((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - start > timeoutMs) throw new Error(`nothing listens on ${port} after ${timeoutMs} ms`);
    await sleep(50);
  }
}

export class Browser {
  /**
   * @param {{name: string, profile?: string, width?: number, height?: number, log?: Function}} opts
   *   `profile`: the user data directory (kept across a kill, so localStorage holds the seat token).
   */
  constructor({ name, profile, width = 390, height = 844, log = () => {} }) {
    this.name = name;
    this.profile = profile ?? fs.mkdtempSync(path.join(os.tmpdir(), `damas-chromium-${name}-`));
    this.width = width;
    this.height = height;
    this.log = log;
    this.driver = null;
    this.child = null;
  }

  async launch() {
    const port = await freePort();
    this.child = spawn(CHROMEDRIVER, [`--port=${port}`], { detached: true, stdio: 'ignore' });
    this.child.unref();
    await waitForPort(port);
    const options = new chrome.Options()
      .setChromeBinaryPath(CHROMIUM)
      .addArguments(
        '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage',
        '--no-first-run', '--no-default-browser-check', '--disable-extensions',
        '--hide-crash-restore-bubble', '--password-store=basic',
        `--user-data-dir=${this.profile}`, `--window-size=${this.width},${this.height}`,
      );
    this.driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).forBrowser('chrome').setChromeOptions(options).build();
    this.log(`${this.name}: headless Chromium up (chromedriver on ${port})`);
    return this.driver;
  }

  /** SIGKILL to chromedriver and the browser under it: no goodbye to the server. */
  kill() {
    if (!this.child) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    this.child = null;
    this.driver = null;
  }

  async close() {
    if (this.driver) await this.driver.quit().catch(() => {});
    this.kill();
  }

  removeProfile() {
    fs.rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/**
 * Starts `damas-server --port 0 --ui <dir>` (plus `extra` arguments) and resolves with
 * `{base, child}` once it printed the address it listens on.
 */
export function startRoomServer(binary, uiDir, extra = [], log = () => {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, ['--port', '0', '--ui', uiDir, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`damas-server printed no address: ${out}`)), 15000);
    const look = (chunk) => {
      out += chunk;
      const m = /(127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ base: `http://${m[1]}`, child });
      }
    };
    child.stdout.on('data', look);
    child.stderr.on('data', (c) => { look(c); if (process.env.E2E_SERVER_LOG) log(String(c).trim()); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`damas-server exited (${code}): ${out}`)); });
  });
}

const UI_DIR = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..', 'ui');

/** The developer asked to skip the browser tests on a machine without Chromium. */
export const chromiumSkipAsked = () => process.env.DAMAS_SKIP_CHROMIUM === '1';

/**
 * For a scenario of the app with a browser friend: true when headless Chromium is here. Without
 * it the scenario fails, saying so (scripts/setup installs it), unless the developer opts out
 * with `DAMAS_SKIP_CHROMIUM=1`: then it is skipped with a log line.
 */
export function browserFriendReady(t) {
  const missing = chromiumMissing();
  if (!missing) return true;
  if (!chromiumSkipAsked()) throw new Error(`${missing} not found (scripts/setup installs chromium and chromium-driver; DAMAS_SKIP_CHROMIUM=1 skips)`);
  t.log(`SKIPPED (DAMAS_SKIP_CHROMIUM=1): ${missing} not found`);
  return false;
}

/**
 * A damas-server beside the app under test (or `$DAMAS_SERVER`), serving the UI for browser
 * friends and accepting the app's web view origins; `args` are more server flags.
 */
export async function startServerForApp(t, args = []) {
  const binary = process.env.DAMAS_SERVER ?? path.join(path.dirname(t.app.binary), 'damas-server');
  if (!fs.existsSync(binary)) throw new Error(`no damas-server at ${binary} (cargo build -p damas-server)`);
  return startRoomServer(binary, UI_DIR, [...args, '--origin', 'tauri://localhost', '--origin', 'http://tauri.localhost'], t.log);
}
