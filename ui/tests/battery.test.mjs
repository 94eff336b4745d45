// Battery: a selected piece costs no frames once its rings have appeared. Checked on what a real
// browser engine does with the app's stylesheet and SVG board (headless Chromium, loopback only):
// every animation that runs has a finite length and all of them are over within seconds; nothing is drawn
// through a filter; scrollbars are the page's own (an overlay one fades and redraws for seconds).
// Without Chromium the test fails with a message (`E2E_CHROMIUM` names another binary).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';
const UI_DIR = fileURLToPath(new URL('..', import.meta.url));
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2' };

// The app's stylesheet and SVG board with a piece picked up (its destination rings shown), the
// "thinking" mark of the status line and a scrolling box; the page writes what it measured.
const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="stylesheet" href="/css/app.css"></head>
<body><p class="status-line thinking" data-testid="status-line">…</p>
<div id="scroller" style="overflow: scroll; width: 120px; height: 120px"><div style="height: 600px; width: 600px"></div></div>
<div style="width: 400px; height: 400px"><svg class="board" id="board"></svg></div>
<script type="module">
import { createBoard } from '/js/render.js';
import { boardModel, geometryCache } from '/js/board-model.js';
import { initialInput, reduce } from '/js/input.js';
import { inputContext } from '/js/state.js';
import { fixtureLine, fixtureView } from '/js/replay.js';
const report = (body) => fetch('/result', { method: 'POST', body: JSON.stringify(body) });
const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
try {
  const file = await (await fetch('/tests/fixtures/diamond.json')).json();
  const view = fixtureView(file, fixtureLine(file, 'local-3'), 0);
  const context = inputContext(view, false);
  const input = reduce(initialInput(), { type: 'tap', cell: view.legal_moves[0].from, pointer: 'mouse' }, context).state;
  const svg = document.getElementById('board');
  const board = createBoard(svg, { label: 'board' });
  board.update(boardModel(view, input, { geometryFor: geometryCache() }));
  await frame();
  await frame();
  const running = document.getAnimations().map((a) => ({ name: a.animationName || a.id, iterations: a.effect.getComputedTiming().iterations, endTime: a.effect.getComputedTiming().endTime }));
  const rings = [...svg.querySelectorAll('[data-testid=dest]')].map((e) => getComputedStyle(e).filter);
  const filtered = [...document.querySelectorAll('*')].filter((e) => getComputedStyle(e).filter !== 'none' || e.hasAttribute('filter') || e.localName === 'filter').map((e) => e.localName + '.' + (e.getAttribute('class') || ''));
  const scroller = document.getElementById('scroller');
  const scrollbar = { gutter: scroller.offsetWidth - scroller.clientWidth, width: getComputedStyle(scroller).scrollbarWidth, colour: getComputedStyle(scroller).scrollbarColor };
  await report({ running, rings, filtered, scrollbar });
} catch (e) {
  await report({ error: String(e && e.stack || e) });
}
</script></body></html>`;

/** Serves ui/ and the test page; `onResult` gets the page's measurements. */
function serveUi(onResult) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://127.0.0.1').pathname);
    if (path === '/result' && req.method === 'POST') {
      let body = '';
      req.on('data', (chunk) => { body += chunk; });
      req.on('end', () => {
        res.writeHead(204);
        res.end();
        onResult(body);
      });
      return;
    }
    if (path === '/battery.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(PAGE);
    }
    const file = normalize(join(UI_DIR, path));
    if (!file.startsWith(UI_DIR) || !existsSync(file)) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The page's measurements, posted back by the page in headless Chromium (real time, no budget). */
async function measure() {
  assert.ok(existsSync(CHROMIUM), `${CHROMIUM} is missing: the battery test needs Chromium (scripts/setup installs it; E2E_CHROMIUM names another)`);
  let posted;
  const result = new Promise((resolve) => { posted = resolve; });
  const server = await serveUi(posted);
  const profile = mkdtempSync(join(tmpdir(), 'damas-battery-'));
  const url = `http://127.0.0.1:${server.address().port}/battery.html`;
  // Its own process group, so that ending it ends its helper processes too.
  const browser = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--user-data-dir=${profile}`, url], { stdio: 'ignore', detached: true });
  const exited = new Promise((resolve) => browser.once('exit', resolve));
  let timer;
  try {
    const body = await Promise.race([
      result,
      exited.then((code) => { throw new Error(`Chromium exited (${code}) before the page reported`); }),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('the page did not report within 60 s')), 60000); }),
    ]);
    const measured = JSON.parse(body);
    assert.equal(measured.error, undefined, measured.error);
    return measured;
  } finally {
    clearTimeout(timer);
    if (browser.exitCode === null) {
      try { process.kill(-browser.pid, 'SIGKILL'); } catch { /* already gone */ }
      await exited;
    }
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

let measured;
const page = () => (measured ??= measure());

// The longest: the thinking mark, 12 turns of 0.8 s while the CPU thinks.
const LONGEST_ANIMATION_MS = 12000;

test('every animation that runs has a finite length, and all are over soon', async () => {
  const { running } = await page();
  const names = running.map((a) => a.name);
  assert.ok(names.includes('ring-in'), `the destination rings play their entrance (${names})`);
  assert.ok(names.includes('spin'), `the thinking mark turns (${names})`);
  for (const a of running) {
    assert.ok(Number.isFinite(a.iterations) && Number.isFinite(a.endTime), `endless animation: ${JSON.stringify(a)}`);
    assert.ok(a.endTime <= LONGEST_ANIMATION_MS, `animation longer than ${LONGEST_ANIMATION_MS} ms: ${JSON.stringify(a)}`);
  }
});

test('destination rings and everything else are drawn without a filter', async () => {
  const { rings, filtered } = await page();
  assert.ok(rings.length >= 2, 'a picked piece shows its destination rings');
  assert.deepEqual([...new Set(rings)], ['none']);
  assert.deepEqual(filtered, []);
});

test('scrollbars are styled by the page, so none is an overlay one that fades out', async () => {
  // WebKitGTK's overlay scrollbar fades for ~3 s after every change of its scroller, redrawing
  // the window each frame (docs/performance.md, "Scrollbars"); a styled one takes its own width
  // in the layout and never animates. The standard properties would bring the overlay back.
  const { scrollbar } = await page();
  assert.equal(scrollbar.gutter, 10, 'the styled scrollbar is 10 px wide');
  assert.equal(scrollbar.width, 'auto');
  assert.equal(scrollbar.colour, 'auto');
});
