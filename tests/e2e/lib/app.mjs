// Starts the real desktop app through tauri-driver (which drives WebKitWebDriver) and stops it.
//
// tauri-driver passes its environment down to WebKitWebDriver and from there to the app, so the
// per-test data directory is chosen by the environment tauri-driver is started with: one driver
// per App, restarted with the same environment when a test restarts the app.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { WebDriver, Capabilities } from 'selenium-webdriver';
import http from 'selenium-webdriver/http/index.js';
import { RUNNER_LANE } from './lane.mjs';
import { descendants, exePath, isAlive, killPid, killTree, treeRssBytes, waitFor } from './procs.mjs';

function portOpen(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether some process on the session bus holds the app's single-instance name
 * (`<identifier>.SingleInstance…`, tauri-plugin-single-instance). False when the bus cannot be
 * asked: without a session bus there is no name to meet. */
function singleInstanceNameHeld(env) {
  try {
    const names = execFileSync(
      'dbus-send',
      ['--session', '--print-reply', '--dest=org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus.ListNames'],
      { encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'], env },
    );
    return names.includes('app.damas.board.SingleInstance');
  } catch {
    return false;
  }
}

/** Waits until the ended app's single-instance name is gone from the bus: the bus releases it
 * only when it notices the dead connection, and a new app meeting it would hand its arguments
 * to the dead instance and exit ("NoReply"), as seen under heavy load. */
async function singleInstanceReleased(env) {
  await waitFor(() => !singleInstanceNameHeld(env), { timeoutMs: 10000, intervalMs: 100, what: 'the single-instance D-Bus name to be released' });
}

/**
 * One app under test, bound to a data directory. `launch()` may be called again after `kill()` or
 * `close()` to restart the app on the same data.
 */
export class App {
  /**
   * @param {object} opts
   * @param {string} opts.binary absolute path of the app executable
   * @param {string} opts.home a fresh temporary directory owned by this test
   * @param {string} [opts.lang] LANG for the app (the UI language follows the system)
   * @param {(line: string) => void} [opts.log]
   * @param {{ports: {driver: number, native: number}, env: object}} [opts.lane] the display, bus
   *   and driver ports to use (lib/lane.mjs); the runner's own by default
   */
  constructor({ binary, home, lang = 'es_ES.UTF-8', log = () => {}, lane = RUNNER_LANE }) {
    this.binary = path.resolve(binary);
    this.home = home;
    this.dataHome = path.join(home, 'data');
    this.lang = lang;
    this.log = log;
    this.lane = lane;
    this.driverProc = null;
    this.driver = null;
    this.pid = null;
    this.peakRss = 0;
    this.sampler = null;
    this.driverLog = path.join(home, 'tauri-driver.log');
  }

  /** Where the app keeps its files (app_data_dir = $XDG_DATA_HOME/<bundle identifier>). */
  appDataDirs() {
    if (!fs.existsSync(this.dataHome)) return [];
    return fs.readdirSync(this.dataHome).map((d) => path.join(this.dataHome, d));
  }

  env() {
    for (const d of ['data', 'config', 'cache', 'runtime']) fs.mkdirSync(path.join(this.home, d), { recursive: true, mode: 0o700 });
    return {
      ...process.env,
      ...this.lane.env,
      HOME: this.home,
      XDG_DATA_HOME: this.dataHome,
      XDG_CONFIG_HOME: path.join(this.home, 'config'),
      XDG_CACHE_HOME: path.join(this.home, 'cache'),
      LANG: this.lang,
      LANGUAGE: this.lang.split('.')[0],
      LC_ALL: '',
      NO_AT_BRIDGE: '1',
    };
  }

  async startDriver() {
    const { driver: port, native } = this.lane.ports;
    if (await portOpen(port)) {
      throw new Error(`port ${port} is already in use (a leftover tauri-driver?)`);
    }
    const out = fs.openSync(this.driverLog, 'a');
    this.driverProc = spawn('tauri-driver', ['--port', String(port), '--native-port', String(native)], {
      env: this.env(),
      stdio: ['ignore', out, out],
    });
    fs.closeSync(out);
    const proc = this.driverProc;
    let exited = null;
    proc.once('exit', (code, signal) => {
      exited = { code, signal };
    });
    await waitFor(async () => exited || (await portOpen(port)), { timeoutMs: 15000, what: 'tauri-driver to listen' });
    if (exited) throw new Error(`tauri-driver exited at start (${JSON.stringify(exited)}); see ${this.driverLog}`);
  }

  async stopDriver() {
    const proc = this.driverProc;
    this.driverProc = null;
    if (!proc) return;
    killTree(proc.pid, 'SIGKILL');
    await waitFor(() => !isAlive(proc.pid), { timeoutMs: 5000, what: 'tauri-driver to end' }).catch(() => {});
    const { driver: port, native } = this.lane.ports;
    await waitFor(async () => !(await portOpen(port)) && !(await portOpen(native)), {
      timeoutMs: 5000,
      what: 'driver ports to close',
    }).catch(() => {});
  }

  /** Launches the app (with `args` on its command line, e.g. a damas:// link); resolves when
   * the WebDriver session is open. Returns ms taken. */
  async launch({ args = [] } = {}) {
    await this.startDriver();
    const started = Date.now();
    const executor = new http.Executor(new http.HttpClient(`http://127.0.0.1:${this.lane.ports.driver}/`));
    // Only tauri:options; WebKitWebDriver refuses a browserName it does not know.
    const options = { application: this.binary };
    if (args.length) options.args = args;
    const caps = new Capabilities({ 'tauri:options': options });
    this.driver = WebDriver.createSession(executor, caps);
    await this.driver.getSession();
    this.pid = await waitFor(() => this.findAppPid(), { timeoutMs: 10000, what: 'the app process' });
    this.startSampler();
    this.log(`app started, pid ${this.pid}, session in ${Date.now() - started} ms`);
    return Date.now() - started;
  }

  findAppPid() {
    if (!this.driverProc) return null;
    const want = fs.realpathSync(this.binary);
    for (const pid of descendants(this.driverProc.pid)) {
      const exe = exePath(pid);
      if (exe && exe.replace(/ \(deleted\)$/, '') === want) return pid;
    }
    return null;
  }

  startSampler() {
    this.stopSampler();
    const sample = () => {
      if (this.pid && isAlive(this.pid)) this.peakRss = Math.max(this.peakRss, treeRssBytes(this.pid));
    };
    sample();
    this.sampler = setInterval(sample, 100);
    this.sampler.unref();
  }

  stopSampler() {
    if (this.sampler) clearInterval(this.sampler);
    this.sampler = null;
  }

  /** SIGKILL the app process by PID, as a crash or an OS kill would, then drop the session. */
  async kill() {
    this.stopSampler();
    const pid = this.pid;
    if (pid) {
      // The app first, so it gets no chance to write anything; then its WebKit children.
      const children = descendants(pid);
      killPid(pid, 'SIGKILL');
      await waitFor(() => !isAlive(pid), { timeoutMs: 5000, what: `app pid ${pid} to die` });
      for (const c of children) killPid(c, 'SIGKILL');
      await singleInstanceReleased(this.env());
    }
    this.pid = null;
    this.driver = null; // the session died with the app; nothing to quit
    await this.stopDriver();
  }

  /** Ends the session the normal way (the window closes), then the driver. */
  async close() {
    this.stopSampler();
    const pid = this.pid;
    const tree = pid ? [pid, ...descendants(pid)] : [];
    if (this.driver) {
      try {
        await Promise.race([this.driver.quit(), new Promise((_, rej) => setTimeout(() => rej(new Error('quit timeout')), 10000))]);
      } catch (e) {
        this.log(`session quit failed: ${e.message}`);
      }
    }
    this.driver = null;
    if (pid && isAlive(pid)) killTree(pid, 'SIGKILL');
    // A restart must not meet this instance (see `singleInstanceReleased`): when the quit above
    // times out under heavy load, the app may still be alive.
    for (const p of tree) killPid(p, 'SIGKILL');
    await waitFor(() => tree.every((p) => !isAlive(p)), { timeoutMs: 5000, what: `app pid ${pid} and its children to end` });
    if (pid) await singleInstanceReleased(this.env());
    this.pid = null;
    await this.stopDriver();
  }
}
