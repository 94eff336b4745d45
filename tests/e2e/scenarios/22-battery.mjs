// Battery: a selected piece costs (almost) nothing. Its destination rings appear with one
// short animation and then nothing runs: no endless CSS animation, no SVG filter. The figure — the
// WebKit web process's share of a core over 10 s, from /proc — is printed with and without a
// selection (at 390×844, animations on), on the 2D board and on the 3D star board, which
// draws no frame meanwhile.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { PHONE, resize } from '../lib/page.mjs';
import { finalScreenshot, launchToHome, setBoard } from '../lib/flows.mjs';
import { commandName, descendants } from '../lib/procs.mjs';
import { waitBoardSettled } from '../lib/board3d.mjs';

const WINDOW_S = 10;
const TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** utime + stime of a process, in clock ticks (/proc/<pid>/stat fields 14 and 15). */
function cpuTicks(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/** The share of a core the app's web process(es) use over `seconds`. */
async function webProcessLoad(appPid, seconds) {
  const pids = descendants(appPid).filter((p) => /WebKitWebProces|WebKitWebProcess/.test(commandName(p) ?? ''));
  assert.ok(pids.length > 0, `a WebKit web process under the app (pid ${appPid})`);
  const before = pids.map(cpuTicks);
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const after = pids.map(cpuTicks);
  const wall = Number(process.hrtime.bigint() - t0) / 1e9;
  const used = after.reduce((a, v, i) => a + v - before[i], 0) / TICKS;
  return (100 * used) / wall;
}

export default {
  // Alone, never beside another lane: it measures the web process's CPU while nothing changes.
  solo: true,
  name: 'battery',
  title: 'A selected piece: rings appear once, nothing animates on; web process CPU over 10 s',
  async run(t) {
    await launchToHome(t);
    const { ui } = t;
    await resize(t.driver, PHONE);
    const animations = await t.driver.executeScript('return document.documentElement.dataset.motion');
    assert.equal(animations, 'on', 'animations are on');
    const home = await webProcessLoad(t.app.pid, WINDOW_S);
    t.figures.cpuLoad(t.label, 'home screen', home, WINDOW_S);
    // The SVG board's rings and filters are checked here; the 3D board's idle figures are in 33.
    await setBoard(t, '2d');
    await ui.startGame('diamond', { players: 2, mode: 'local' });
    const idle = await webProcessLoad(t.app.pid, WINDOW_S);
    t.figures.cpuLoad(t.label, 'Diamond, nothing selected', idle, WINDOW_S);

    const view = await ui.view();
    await ui.tap(view.legal_moves[0].from);
    await ui.waitFor((s) => s.game.phase === 'selected' && s.dests.length > 0, 'a piece picked up');
    // The rings' entrance is short; after it nothing may still be running.
    await t.driver.wait(async () => (await t.driver.executeScript("return document.getAnimations().filter((a) => a.playState === 'running').length")) === 0, 3000, 'every animation to end');
    const state = await t.driver.executeScript(`
      const rings = [...document.querySelectorAll('[data-testid=dest]')];
      return {
        rings: rings.length,
        endless: document.getAnimations().filter((a) => a.effect && a.effect.getComputedTiming().iterations === Infinity).length,
        filtered: rings.filter((r) => getComputedStyle(r).filter !== 'none').length,
        filters: document.querySelectorAll('svg filter').length,
      };`);
    assert.ok(state.rings > 0);
    assert.equal(state.endless, 0, 'no endless animation');
    assert.equal(state.filtered, 0, 'no filter on the rings');
    assert.equal(state.filters, 0, 'no SVG filter on the board');
    const selected = await webProcessLoad(t.app.pid, WINDOW_S);
    t.figures.cpuLoad(t.label, 'Diamond, a piece selected', selected, WINDOW_S);
    t.log(`web process: ${idle.toFixed(1)} % of a core idle, ${selected.toFixed(1)} % with a piece selected (${WINDOW_S} s each)`);
    const s = await ui.snapshot();
    assert.equal(s.game.phase, 'selected', 'still selected after the measurement');
    await finalScreenshot(t, PHONE);

    // The 3D board at the same size: a piece lifted, its rings shown, then no frame drawn.
    await setBoard(t, '3d');
    await ui.startGame('diamond', { players: 2, mode: 'local' });
    assert.equal((await ui.snapshot()).boardKind, '3d', 'the 3D board is shown');
    await waitBoardSettled(t.driver);
    const view3d = await ui.view();
    await ui.tap(view3d.legal_moves[0].from);
    await ui.waitFor((x) => x.game.phase === 'selected' && x.dests.length > 0, 'a piece picked up on the 3D board');
    await waitBoardSettled(t.driver);
    await t.driver.wait(async () => (await t.driver.executeScript("return document.getAnimations().filter((a) => a.playState === 'running').length")) === 0, 3000, 'every animation to end');
    const framesBefore = await t.driver.executeScript('return window.__board.stats().frames');
    const selected3d = await webProcessLoad(t.app.pid, WINDOW_S);
    const framesDrawn = (await t.driver.executeScript('return window.__board.stats().frames')) - framesBefore;
    t.figures.cpuLoad(t.label, 'Diamond on the 3D board, a piece selected', selected3d, WINDOW_S);
    t.log(`3D board: ${selected3d.toFixed(1)} % of a core with a piece selected (${WINDOW_S} s), ${framesDrawn} frames drawn meanwhile`);
    assert.equal(framesDrawn, 0, 'the 3D board draws nothing while nothing changes');
    assert.equal((await ui.snapshot()).game.phase, 'selected', 'still selected after the measurement');
  },
};
