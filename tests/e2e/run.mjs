#!/usr/bin/env node
// Runs the end-to-end scenarios against the real app window: one after another, or with
// `--lanes N` on N lanes side by side (each its own display, bus and driver ports; the scenarios
// marked `solo`, whose figures need the machine to themselves, then run alone).
//
//   node tests/e2e/run.mjs --app /abs/path/to/damas-app [--cli /abs/path/to/damas] [--only name] [--lanes N]
//
// Needs an X display and a D-Bus session (scripts/test runs it under xvfb-run + dbus-run-session)
// and tauri-driver on PATH. Each scenario gets a fresh temporary HOME / XDG_DATA_HOME. Ends with
// the figures and a closing line "e2e: N passed, N failed"; exits 1 if any scenario failed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { App } from './lib/app.mjs';
import { openLane, RUNNER_LANE } from './lib/lane.mjs';
import { processReport } from './lib/procs.mjs';
import { Cli } from './lib/cli.mjs';
import { Figures } from './lib/figures.mjs';
import { screenshot, SCREENSHOT_DIR } from './lib/page.mjs';
import { Ui } from './lib/ui.mjs';

// WebKit's helper processes may still be writing their caches for a moment after the app closed:
// retry, and never let a leftover temporary directory fail a scenario that passed.
function removeDataDir(dir) {
  try {
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (e) {
    console.log(`    could not remove ${dir}: ${e.message}`);
  }
}

const HERE = path.dirname(fileURLToPath(import.meta.url));

// An unhandled rejection is a failure of the scenario that is running (or last ran: a scenario
// that timed out may still have WebDriver calls in flight, which reject when its app is closed).
// It never ends the whole run; one that comes before any scenario started fails the run.
// With lanes side by side, a rejection cannot be told apart by the scenario it came from: it is
// counted against every scenario running at the time, so none is missed.
const running = new Set();
let current = null;
const strayRejections = [];
process.on('unhandledRejection', (e) => {
  const what = e?.stack ?? e?.message ?? String(e);
  const against = running.size ? [...running] : current ? [current] : [];
  if (against.length) {
    for (const r of against) r.rejections.push(e);
    console.log(`    unhandled rejection (counted against ${against.map((r) => r.label).join(', ')}): ${what}`);
  } else {
    strayRejections.push(e);
    console.log(`    unhandled rejection outside any scenario: ${what}`);
  }
});
// Time given to rejections still in flight after a scenario's app closed, so they are counted
// against it rather than against the next one.
const SETTLE_MS = 500;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
const SCENARIO_TIMEOUT_MS = Number(process.env.E2E_SCENARIO_TIMEOUT_MS ?? 240000);

const { values: opts } = parseArgs({
  options: {
    app: { type: 'string', default: process.env.DAMAS_APP },
    cli: { type: 'string', default: process.env.DAMAS_CLI },
    only: { type: 'string', multiple: true },
    keep: { type: 'boolean', default: false },
    // Lanes side by side (lib/lane.mjs); scenarios marked `solo` run alone after them.
    lanes: { type: 'string', default: process.env.E2E_LANES ?? '1' },
  },
});

function fail(msg) {
  console.error(`e2e: ${msg}`);
  console.log('e2e: 0 passed, 1 failed');
  process.exit(1);
}

if (!opts.app) fail('no app binary given (--app or DAMAS_APP)');
const binary = path.resolve(opts.app);
if (!fs.existsSync(binary)) fail(`app binary not found: ${binary}`);
if (!process.env.DISPLAY) fail('no DISPLAY: run under xvfb-run (scripts/test does)');

const scenarioDir = path.join(HERE, 'scenarios');
const files = fs
  .readdirSync(scenarioDir)
  .filter((f) => f.endsWith('.mjs'))
  .sort();
const scenarios = [];
for (const f of files) {
  const mod = await import(pathToFileURL(path.join(scenarioDir, f)).href);
  const s = mod.default;
  s.file = f;
  if (opts.only && !opts.only.some((o) => f.includes(o) || s.name.includes(o))) continue;
  scenarios.push(s);
}

const figures = new Figures();
const cli = opts.cli ? new Cli(path.resolve(opts.cli)) : null;
const results = [];

function withTimeout(promise, ms, what) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, rej) => {
      timer = setTimeout(() => rej(new Error(`${what} timed out after ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** Runs one scenario on `lane`; its lines go to `out` (live, or held back and printed whole when
 * lanes run side by side). */
async function runScenario(s, lane, out) {
  const label = s.file.replace(/\.mjs$/, '');
  out(`\n--- ${label}: ${s.title}${laneCount > 1 ? ` [lane ${lane.index}]` : ''}`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), `damas-e2e-${label}-`));
  const log = (line) => out(`    ${line}`);
  const app = new App({ binary, home, lang: s.lang ?? 'es_ES.UTF-8', log, lane });
  const started = Date.now();
  const result = { label, ok: false, rejections: [], counted: 0 };
  running.add(result);
  current = result;
  const ctx = {
    app,
    cli,
    log,
    figures,
    label,
    get driver() {
      return app.driver;
    },
    ui: null,
    /** Launch (or relaunch) the app on this scenario's data directory (`{args}`: its command
     * line); returns a fresh Ui. */
    async launch(opts) {
      const ms = await app.launch(opts);
      ctx.ui = new Ui(app.driver, { log });
      return ms;
    },
  };
  let error = null;
  try {
    await withTimeout(s.run(ctx), SCENARIO_TIMEOUT_MS, label);
  } catch (e) {
    error = e;
    if (app.pid) log(`app's processes (pid, name, state, CPU, RSS):\n      ${processReport(app.pid).join('\n      ')}`);
    if (app.driver) {
      try {
        await withTimeout(screenshot(app.driver, `${label}-FAILED`), 15000, 'failure screenshot');
        log(`failure screenshot in ${SCREENSHOT_DIR}`);
      } catch (shotError) {
        // The window may be gone; the error below says why.
        log(`no failure screenshot: ${shotError.message}`);
      }
    }
  }
  if (app.peakRss) figures.rss(label, app.peakRss);
  await app.close().catch((e) => log(`close: ${e.message}`));
  await settle();
  running.delete(result);
  if (!error && result.rejections.length) {
    error = new Error(`${result.rejections.length} unhandled rejection(s): ${result.rejections.map((e) => e?.message ?? e).join('; ')}`);
  }
  result.counted = result.rejections.length;
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  if (error) {
    out(`FAIL ${label} (${secs} s): ${error.stack ?? error}`);
    try {
      const driverLog = fs.readFileSync(app.driverLog, 'utf8').split('\n').filter(Boolean).slice(-15);
      if (driverLog.length) out(`    last lines of tauri-driver/app output:\n      ${driverLog.join('\n      ')}`);
    } catch {
      // no driver log
    }
    out(`    data directory kept: ${home}`);
  } else {
    out(`ok   ${label} (${secs} s)`);
    if (!opts.keep) removeDataDir(home);
  }
  result.ok = !error;
  results.push(result);
}

/** Runs `queue` on every lane at once, each lane taking the next scenario when it is free. */
async function runSideBySide(queue, lanes) {
  await Promise.all(
    lanes.map(async (lane) => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        const lines = [];
        await runScenario(s, lane, (line) => lines.push(line));
        console.log(lines.join('\n'));
      }
    }),
  );
}

const laneCount = Number(opts.lanes);
if (!Number.isInteger(laneCount) || laneCount < 1) fail(`--lanes must be a whole number ≥ 1, not ${opts.lanes}`);
const live = (line) => console.log(line);
if (laneCount === 1) {
  for (const s of scenarios) await runScenario(s, RUNNER_LANE, live);
} else {
  const lanes = [RUNNER_LANE];
  try {
    for (let i = 1; i < laneCount; i++) lanes.push(await openLane(i));
  } catch (e) {
    for (const lane of lanes) await lane.close();
    fail(`could not open lane ${lanes.length}: ${e.message}`);
  }
  console.log(`${lanes.length} lanes side by side; scenarios that measure run alone afterwards`);
  try {
    await runSideBySide(scenarios.filter((s) => !s.solo), lanes);
  } finally {
    for (const lane of lanes) await lane.close();
  }
  for (const s of scenarios.filter((s) => s.solo)) await runScenario(s, RUNNER_LANE, live);
}
await settle();
// Rejections that came in after their scenario was reported turn it into a failure.
for (const r of results) {
  if (r.ok && r.rejections.length > r.counted) {
    r.ok = false;
    console.log(`FAIL ${r.label}: unhandled rejection after the scenario ended: ${r.rejections.slice(r.counted).map((e) => e?.message ?? e).join('; ')}`);
  }
}

figures.print();
const passed = results.filter((r) => r.ok).length;
const failed = results.length - passed + (strayRejections.length ? 1 : 0);
if (strayRejections.length) console.log(`\nunhandled rejections outside any scenario: ${strayRejections.length}`);
if (failed) console.log(`\nfailed: ${results.filter((r) => !r.ok).map((r) => r.label).join(', ')}`);
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(failed || results.length === 0 ? 1 : 0);
