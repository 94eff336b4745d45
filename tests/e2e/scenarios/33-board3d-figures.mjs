// Figures of the 3D board (printed, not asserted; docs/performance.md): time from opening a star
// game to the first 3D frame, frame times while the board is turned by a scripted drag, WebKit
// web-process RSS with the 3D board vs the 2D board, and idle CPU with a piece selected.
// Also checks the "Board: 3D / 2D" setting picks the board.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { DESKTOP, resize, settled } from '../lib/page.mjs';
import { launchToHome, setBoard } from '../lib/flows.mjs';
import { commandName, descendants, rssBytes } from '../lib/procs.mjs';
import { percentile, touchTurn, waitBoardSettled } from '../lib/board3d.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const MiB = (b) => (b / 1048576).toFixed(0);

/** The app's WebKit processes by name (WebKitWebProcess, WebKitGPUProcess, …) with the app's own. */
function processes(appPid) {
  const out = { app: [appPid] };
  for (const pid of descendants(appPid)) {
    // /proc/PID/comm keeps 15 characters: WebKitWebProces, WebKitGPUProces, WebKitNetworkPr.
    const name = (commandName(pid) || '?').replace(/^WebKitWebProces.*/, 'WebKitWebProcess').replace(/^WebKitGPUProces.*/, 'WebKitGPUProcess');
    (out[name] ||= []).push(pid);
  }
  return out;
}
const rssOf = (pids) => pids.reduce((s, p) => s + rssBytes(p), 0);

/** CPU ticks (user + system) of processes, from /proc/PID/stat. */
function ticks(pids) {
  let sum = 0;
  for (const pid of pids) {
    try {
      const rest = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      sum += Number(rest[11]) + Number(rest[12]);
    } catch {
      // gone
    }
  }
  return sum;
}
const TICK_HZ = 100; // USER_HZ on Linux

/** Share of a core used by each group of processes over the same `seconds`. */
async function cpuShares(groups, seconds) {
  const t0 = Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, ticks(pids)]));
  const w0 = Date.now();
  await sleep(seconds * 1000); // the measurement window itself, not a wait for something to happen
  const wall = (Date.now() - w0) / 1000;
  return Object.fromEntries(Object.entries(groups).map(([k, pids]) => [k, (ticks(pids) - t0[k]) / TICK_HZ / wall]));
}

/** Opens a Diamond game (3 players vs CPU) from the setup screen; returns ms to the first 3D frame. */
async function openDiamond(t, kind = '3d') {
  const { ui, driver } = t;
  await driver.executeScript('location.hash = "#/"');
  await ui.waitHome();
  await ui.click('game-card', '[data-game="diamond"]');
  await ui.waitFor((x) => x.screen === 'setup-screen', 'the setup screen');
  await ui.click('players-3');
  await ui.click('mode-cpu');
  await ui.click('level-easy');
  // As a person choosing players and level would, start once the setup screen's GL warm-up is
  // over (printed: how long that took); a start within it finishes the warm-up in the first frame.
  if (kind === '3d') {
    await driver.wait(() => driver.executeScript('return !!window.__board3dWarmUp'), 60000, 'the 3D warm-up on the setup screen');
  }
  await driver.executeScript('window.__opened = performance.now()');
  await ui.click('start');
  const s = await ui.waitIdle();
  if (s.boardKind !== '3d') return { snapshot: s, firstFrame: null };
  const first = await driver.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     const poll = () => { const st = window.__board.stats(); if (st.firstFrameAt) done({ total: st.firstFrameAt - window.__opened, made: st.created - window.__opened, build: st.buildMs, render: st.renderMs[0], warmAt: st.warmUp ? st.warmUp.startedAt - window.__opened : null, warmMs: st.warmUp ? st.warmUp.ms : null, warmBusy: st.warmUp ? st.warmUp.busyMs : null, warmLongest: st.warmUp ? st.warmUp.longestMs : null }); else setTimeout(poll, 20); };
     poll();`,
  );
  return { snapshot: s, firstFrame: first };
}

async function measureBoard(t, kind, idleSeconds) {
  const { ui, driver } = t;
  await resize(driver, DESKTOP);
  const opened = await openDiamond(t, kind);
  assert.equal(opened.snapshot.boardKind, kind, `the setting shows the ${kind} board`);
  if (kind === '3d') await waitBoardSettled(driver);
  await settled(driver);
  const gl = kind === '3d' ? await driver.executeScript('return window.__board.stats().gl') : null;
  const procs = processes(t.app.pid);
  const web = procs.WebKitWebProcess || [];
  const gpu = procs.WebKitGPUProcess || [];
  const all = Object.values(procs).flat();
  const rss = { web: rssOf(web), gpu: rssOf(gpu), all: rssOf(all) };
  // Idle with a piece selected, animations on.
  const view = await ui.view();
  await ui.tap(view.legal_moves[0].from);
  await ui.waitFor((x) => x.game.phase === 'selected', 'a piece selected');
  if (kind === '3d') await waitBoardSettled(driver);
  await settled(driver);
  const framesBefore = kind === '3d' ? (await driver.executeScript('return window.__board.stats().frames')) : null;
  const idle = await cpuShares({ web, all }, idleSeconds);
  const framesIdle = kind === '3d' ? (await driver.executeScript('return window.__board.stats().frames')) - framesBefore : null;
  return { opened, rss, gl, idle, framesIdle, procs: Object.fromEntries(Object.entries(procs).map(([k, v]) => [k, v.length])) };
}

export default {
  // Alone, never beside another lane: its frame times and memory are figures.
  solo: true,
  name: 'board3d-figures',
  title: '3D board figures: first frame, frame times while turning, web-process RSS 3D vs 2D, idle CPU with a piece selected',
  async run(t) {
    // 2D first, in its own launch, so the 3D board has never been loaded in that web process.
    await launchToHome(t);
    await setBoard(t, '2d');
    const two = await measureBoard(t, '2d', 5);
    await t.app.close();

    await launchToHome(t);
    await setBoard(t, '3d');
    const three = await measureBoard(t, '3d', 10);
    t.log(`processes: ${JSON.stringify(three.procs)}`);

    // Frame times while the board is turned by a scripted one-finger drag (120° in 30 moves,
    // one per animation frame), at 1280×800.
    await t.ui.click('panel-back').catch(() => {});
    await t.ui.driver.executeScript('document.activeElement && document.activeElement.blur && document.activeElement.blur()');
    await waitBoardSettled(t.driver);
    const r0 = await t.driver.executeScript('return window.__board.stats().renderMs.length');
    await t.driver.manage().setTimeouts({ script: 300000 });
    const lightBefore = await t.driver.executeScript('return window.__board.stats().lightFrames');
    const times = await touchTurn(t.driver, 120, { steps: 30 });
    await waitBoardSettled(t.driver);
    // A gesture's frames may be drawn light: a lower resolution, coarse marbles
    // (ui/js/board3d/resolution.js); at rest the board is sharp again: its drawing buffer at the
    // full pixel ratio, the fine marbles.
    const after = await t.driver.executeScript(
      `const s = window.__board.stats(), dpr = Math.min(2, window.devicePixelRatio || 1);
       return { ...s.resolution, full: { w: Math.floor(s.size.w * dpr), h: Math.floor(s.size.h * dpr) }, lightFrames: s.lightFrames, probeMs: s.probeMs };`,
    );
    const lightTurn = after.lightFrames - lightBefore;
    assert.equal(after.inMotion, false, 'the gesture has ended');
    assert.deepEqual(after.buffer, after.full, `at rest the drawing buffer is at the full pixel ratio: ${JSON.stringify(after)}`);
    assert.equal(after.coarseMarbles, false, 'at rest the marbles are the fine ones');
    if (after.lateInMotion) assert.ok(lightTurn > 0, `frames came late: the turn drew light frames (${lightTurn} frames)`);
    else assert.equal(lightTurn, 0, 'frames kept up: the turn drew no light frame');
    const render = (await t.driver.executeScript('return window.__board.stats().renderMs')).slice(-30);
    // The drag's frames; the last interval ends with the sharp frame drawn after the finger lifts.
    const intervals = times.slice(1).map((x, i) => x - times[i]);
    // The launch's first gesture finds out whether frames come late (its first frames are drawn
    // sharp and late); a second turn, the other way, is what turning the board feels like after.
    const timesAgain = await touchTurn(t.driver, -120, { steps: 30 });
    await waitBoardSettled(t.driver);
    const intervalsAgain = timesAgain.slice(1).map((x, i) => x - timesAgain[i]);
    // The same 30 animation frames with the board still (nothing drawn by it): the window's own
    // frame cadence under Xvfb, to tell the compositor's share of the interval from the board's.
    const framesBeforeStill = await t.driver.executeScript('return window.__board.stats().frames');
    const still = await t.driver.executeAsyncScript(
      `const done = arguments[0]; const times = [];
       const step = (now) => { times.push(now); if (times.length <= 30) requestAnimationFrame(step); else done(times); };
       requestAnimationFrame(step);`,
    );
    const stillIntervals = still.slice(1).map((x, i) => x - still[i]);
    assert.equal(await t.driver.executeScript('return window.__board.stats().frames'), framesBeforeStill, 'the board draws nothing while still, even while the page animates');
    // The board's own cost of a frame while turning: drawn and waited for, nothing composited.
    const cost = await t.driver.executeScript('return window.__board.measureFrames(30, Math.PI / 45, { inGesture: true })');
    await waitBoardSettled(t.driver);
    const costFull = await t.driver.executeScript('return window.__board.measureFrames(30, Math.PI / 45, { inGesture: false })');
    await waitBoardSettled(t.driver);

    // A second opening of a star game (three.js already loaded): the first board gave back what it
    // held, so the shared renderer holds no more than with the first board.
    const again = await openDiamond(t);
    await waitBoardSettled(t.driver);
    await settled(t.driver);
    const glAgain = await t.driver.executeScript('return window.__board.stats().gl');

    const f = (x) => (x == null ? 'n/a' : x.toFixed(1));
    const first = (x) => `${f(x.total)} ms (board made at ${f(x.made)} ms, scene built in ${f(x.build)} ms, first render call ${f(x.render)} ms; GL warm-up on the setup screen ${x.warmMs == null ? 'none or unfinished' : `begun at ${f(x.warmAt)} ms, over ${f(x.warmMs)} ms, busy ${f(x.warmBusy)} ms, longest step ${f(x.warmLongest)} ms`})`;
    t.log(`FIGURE first 3D frame after "start" (first game of the launch; three.js loaded on the setup screen): ${first(three.opened.firstFrame)}; second game: ${first(again.firstFrame)}`);
    const intervalFigure = (xs) => {
      const moving = xs.slice(0, -1);
      return `p50 ${f(percentile(moving, 50))} ms, p95 ${f(percentile(moving, 95))} ms, max ${f(Math.max(...moving))} ms; then the sharp frame after the finger lifts ${f(xs[xs.length - 1])} ms (in order: ${xs.map((x) => x.toFixed(0)).join(' ')})`;
    };
    t.log(`FIGURE frame interval while turning, the launch's first turn (${intervals.length - 1} frames, 1280x800): ${intervalFigure(intervals)}`);
    t.log(`FIGURE frame interval while turning, a second turn (${intervalsAgain.length - 1} frames): ${intervalFigure(intervalsAgain)}`);
    t.log(`FIGURE frame interval with the board still (${stillIntervals.length} frames, nothing drawn): p50 ${f(percentile(stillIntervals, 50))} ms, p95 ${f(percentile(stillIntervals, 95))} ms, max ${f(Math.max(...stillIntervals))} ms`);
    t.log(`FIGURE resolution while turning: ${after.lateInMotion ? `frames came late, ${lightTurn} of the turn's frames drawn light (lower resolution, coarse marbles)` : 'frames kept up, none drawn light'}; drawing buffer at rest ${after.buffer.w}x${after.buffer.h} px; the board's probe frame at rest ${after.probeMs == null ? 'not drawn' : `${f(after.probeMs)} ms`}`);
    t.log(`FIGURE board frame cost while turning (render call + software GL drawing it, ${cost.length} frames, no compositing, drawn light as a gesture's frames are once late): p50 ${f(percentile(cost, 50))} ms, p95 ${f(percentile(cost, 95))} ms, max ${f(Math.max(...cost))} ms`);
    t.log(`FIGURE board frame cost at rest (full resolution, fine marbles; the same, ${costFull.length} frames): p50 ${f(percentile(costFull, 50))} ms, p95 ${f(percentile(costFull, 95))} ms, max ${f(Math.max(...costFull))} ms`);
    t.log(`FIGURE render call while turning (renderer.render, JS side): p50 ${f(percentile(render, 50))} ms, p95 ${f(percentile(render, 95))} ms (${r0} frames before)`);
    t.log(`FIGURE RSS WebKitWebProcess: 3D ${MiB(three.rss.web)} MiB, 2D ${MiB(two.rss.web)} MiB, difference ${MiB(three.rss.web - two.rss.web)} MiB`);
    t.log(`FIGURE RSS WebKitGPUProcess: 3D ${MiB(three.rss.gpu)} MiB, 2D ${MiB(two.rss.gpu)} MiB; app + all WebKit processes: 3D ${MiB(three.rss.all)} MiB, 2D ${MiB(two.rss.all)} MiB, difference ${MiB(three.rss.all - two.rss.all)} MiB`);
    t.log(`FIGURE idle CPU with a piece selected (animations on), web process: 3D (10 s) ${(three.idle.web * 100).toFixed(1)} % of a core (${three.framesIdle} frames drawn), 2D (5 s) ${(two.idle.web * 100).toFixed(1)} %; app + all WebKit: 3D ${(three.idle.all * 100).toFixed(1)} %, 2D ${(two.idle.all * 100).toFixed(1)} %`);
    t.log(`FIGURE GPU resources of the shared renderer (programs, geometries, textures): first game ${JSON.stringify(three.gl)}, second game ${JSON.stringify(glAgain)}`);
    assert.equal(three.framesIdle, 0, 'no frame is drawn while nothing changes (render on demand)');
    assert.ok(glAgain.geometries <= three.gl.geometries && glAgain.textures <= three.gl.textures,
      `the first board released its geometries and textures: ${JSON.stringify(three.gl)} then ${JSON.stringify(glAgain)}`);
    assert.ok(glAgain.programs <= three.gl.programs, `no shader program is made again for the second board: ${JSON.stringify(three.gl)} then ${JSON.stringify(glAgain)}`);
  },
};
