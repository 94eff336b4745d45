// Memory does not grow with the games played: 20 games (five rounds of the 3D star boards and the
// 2D draughts boards against the CPU) started, played a move by taps and left for the home screen.
// - Every game screen left is let go: after the page has allocated enough to collect, none of
//   them (its element, its controller, its board) is still reachable (WeakRefs).
// - The app with its WebKit processes holds at most 10 % more at home after the twentieth game
//   than after the first game, and than after the first round of four (one game of each kind).
//   Without a GPU the web process paints with the CPU (src-tauri/src/web_process_env.rs): the
//   ratio to the first game is 1.03–1.07 so; it was 1.05–1.12 while software GL painted
//   (docs/performance.md, "Memory across games").
import assert from 'node:assert/strict';
import { PHONE, resize } from '../lib/page.mjs';
import { finalScreenshot, launchToHome } from '../lib/flows.mjs';
import { commandName, descendants, rssBytes, treeRssBytes } from '../lib/procs.mjs';

const ROUNDS = 5;
const KINDS = [
  ['diamond', { players: 2, mode: 'cpu', level: 'easy' }],
  ['english', { mode: 'cpu', level: 'easy', colour: 0 }],
  ['capture', { players: 2, mode: 'cpu', level: 'easy' }],
  ['international', { mode: 'cpu', level: 'easy', colour: 0 }],
];
const MiB = (b) => (b / 1048576).toFixed(0);
/** Each process's share: "damas-app=168 WebKitWebProces=402 …" MiB. */
const breakdown = (pid) => [pid, ...descendants(pid)].map((p) => `${commandName(p)}=${MiB(rssBytes(p))}`).join(' ');

/** RSS at home once it has drawn: the lowest of a few samples a frame apart (a sample can land
 * on a collection in progress; the low one is what stays held). */
async function rssAtHome(t) {
  await t.ui.waitHome();
  let low = Infinity;
  for (let i = 0; i < 5; i++) {
    await t.driver.executeAsyncScript('const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 200)));');
    low = Math.min(low, treeRssBytes(t.app.pid));
  }
  return low;
}

// Allocates garbage every 100 ms until the page has collected every left screen, for at most
// 25 s (under the driver's script timeout); answers which screens are still reachable.
// The garbage lives a few rounds before it is dropped: garbage that dies young is swept by the
// young-generation collections alone, and only a growing old generation makes JSC run the full
// collections that reach the left screens (which are old by now).
const COLLECT = `
  const done = arguments[0];
  const started = Date.now();
  const held = [];
  let rounds = 0;
  const step = () => {
    const junk = [];
    for (let i = 0; i < 100000; i++) junk.push({ i, s: 'x' + i, a: [i, i + 1] });
    held.push(junk);
    if (held.length > 8) held.shift();
    rounds++;
    const alive = window.__leftScreens.map((r, n) => ({ n, game: r.game, el: !!r.el.deref(), controller: !!r.debug.deref(), board: !!r.board.deref() }))
      .filter((r) => r.el || r.controller || r.board);
    if (Date.now() - started > 25000 || alive.length === 0) { held.length = 0; done({ rounds, ms: Date.now() - started, alive }); }
    else setTimeout(step, 100);
  };
  step();`;

export default {
  // Alone, never beside another lane: it measures memory across games.
  solo: true,
  name: 'memory-many-games',
  title: 'Games left are let go; RSS after 20 games ≤ after the first game + 10 % (and the first round of four)',
  async run(t) {
    await launchToHome(t);
    const { ui, driver } = t;
    await resize(driver, PHONE);
    let firstGame = 0;
    let firstRound = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [kind, opts] of KINDS) {
        await ui.startGame(kind, opts);
        const view = await ui.view();
        await ui.playByTaps(view.legal_moves.find((m) => !m.pass), { waitIdle: false });
        await ui.waitIdle();
        const id = await ui.gameId();
        await driver.executeScript(`(window.__leftScreens ||= []).push({ game: arguments[0],
          el: new WeakRef(window.__damas.current.el), debug: new WeakRef(window.__damas.current.debug),
          board: new WeakRef(document.querySelector('svg[data-testid=board], [data-testid=board3d]')) });`, kind);
        // Left by the game's "‹"; its unfinished game is deleted, so home lists the same games.
        await ui.click('nav-back');
        await ui.waitHome();
        await driver.executeAsyncScript('const [id, done] = arguments; window.__TAURI__.core.invoke("delete_saved", { id }).then(() => done(), () => done());', id);
        await driver.executeScript('location.hash = "#/stats"');
        await ui.waitFor((s) => s.screen === 'stats-screen', 'the statistics');
        await driver.executeScript('location.hash = "#/"');
        if (round === 0 && kind === KINDS[0][0]) {
          firstGame = await rssAtHome(t);
          t.log(`FIGURE RSS at home after 1 game: ${MiB(firstGame)} MiB (${breakdown(t.app.pid)})`);
        }
      }
      if (round === 0) {
        firstRound = await rssAtHome(t);
        t.log(`FIGURE RSS at home after ${KINDS.length} games (one of each): ${MiB(firstRound)} MiB (${breakdown(t.app.pid)})`);
      }
    }
    const last = await rssAtHome(t);
    const ratio = last / firstRound;
    t.log(`FIGURE RSS at home after ${ROUNDS * KINDS.length} games: ${MiB(last)} MiB, ${ratio.toFixed(3)} × after the first round, ${(last / firstGame).toFixed(3)} × after the first game (${breakdown(t.app.pid)})`);

    const collected = await driver.executeAsyncScript(COLLECT);
    t.log(`left screens: ${collected.alive.length} still reachable after ${collected.rounds} rounds of garbage in ${collected.ms} ms`);
    assert.deepEqual(collected.alive, [], 'every game screen left is let go (element, controller, board)');
    await finalScreenshot(t, PHONE);
    assert.ok(last <= firstGame * 1.1, `RSS after ${ROUNDS * KINDS.length} games ${MiB(last)} MiB > after the first game ${MiB(firstGame)} MiB + 10 %`);
    assert.ok(ratio <= 1.1, `RSS after ${ROUNDS * KINDS.length} games ${MiB(last)} MiB > after the first round ${MiB(firstRound)} MiB + 10 %`);
  },
};
