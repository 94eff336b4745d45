// The app's screens as a test sees them: read what is drawn (data-testid / data-cell attributes and
// text; on the 3D board, its test hook window.__board), act as a person would (taps, clicks, keys,
// at a cell's drawn position on the 3D board), and fetch the backend's state to compare.
import assert from 'node:assert/strict';
import { By } from 'selenium-webdriver';
import { installBoardInstruments, invoke, mouseClick, mouseHover, settled, touchTap, touchTapAt } from './page.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Everything the tests read off the screen, in one round trip.
const SNAPSHOT = `
  const q = (s, r = document) => [...r.querySelectorAll(s)];
  const one = (s) => document.querySelector(s);
  const text = (s) => { const e = one(s); return e ? e.textContent.trim() : null; };
  // The top screen: an overlay (rules or settings over a game) before the screen under it.
  const screen = one('#app > .overlay > .screen') || one('#app > .screen');
  const game = one('[data-testid=game-screen]');
  const board = one('svg[data-testid=board]');
  // The 3D board draws on a canvas: what it shows is read from its test hook.
  const d3 = !board && one('[data-testid=board3d]') && window.__board ? window.__board.describe() : null;
  const cls = (e) => (e.getAttribute('class') || '').split(/\\s+/).filter(Boolean);
  const pieces = d3 ? d3.pieces : board ? q('[data-testid=piece]', board).map((e) => ({
    cell: e.getAttribute('data-cell'),
    seat: e.hasAttribute('data-seat') ? Number(e.getAttribute('data-seat')) : null,
    king: e.getAttribute('data-king') === 'true',
    classes: cls(e),
  })) : [];
  const chips = (id) => q('[data-testid=' + id + ']').map((e) => ({ seat: Number(e.dataset.seat), value: e.dataset.value, name: e.querySelector('.chip-name')?.textContent.trim() ?? null, text: e.textContent.trim() }));
  const active = document.activeElement;
  return {
    ready: document.documentElement.dataset.ready === 'true',
    lang: document.documentElement.lang,
    screen: screen ? screen.getAttribute('data-testid') : null,
    hash: location.hash,
    game: game ? { ...game.dataset } : null,
    pieces,
    boardKind: d3 ? '3d' : board ? '2d' : null,
    view3d: d3 ? d3.view : null,
    dests: d3 ? d3.dests : board ? q('[data-testid=dest]', board).map((e) => ({ cell: e.getAttribute('data-cell'), classes: cls(e) })) : [],
    ghost: d3 ? d3.ghost : board && one('[data-testid=ghost]') ? one('[data-testid=ghost]').getAttribute('data-cell') : null,
    previewPath: d3 ? d3.previewPath : board && one('[data-testid=path]') ? one('[data-testid=path]').getAttribute('data-cells').split(' ') : null,
    route: d3 ? d3.route : board && one('[data-testid=route]') ? one('[data-testid=route]').getAttribute('data-cells').split(' ') : null,
    lastMoves: d3 ? d3.lastMoves : board ? q('[data-testid=last-move]', board).map((e) => ({ from: e.getAttribute('data-from'), to: e.getAttribute('data-to') })) : [],
    status: text('[data-testid=status-line]'),
    thinking: one('[data-testid=status-line]') ? one('[data-testid=status-line]').dataset.thinking === 'true' : false,
    lastText: text('[data-testid=last-move-text]'),
    home: chips('count-home'),
    captures: chips('count-captures'),
    pieceCounts: chips('count-pieces'),
    panel: q('[data-testid=panel] button').map((e) => ({ testid: e.dataset.testid, cell: e.dataset.cell || null, label: e.getAttribute('aria-label') || e.textContent.trim(), disabled: e.disabled, focused: e === active, tabindex: e.getAttribute('tabindex') })),
    panelContinue: text('[data-testid=panel-continue]'),
    selected: pieces.filter((p) => p.classes.includes('selected')).map((p) => p.cell),
    actions: Object.fromEntries(q('nav.actions button').map((e) => [e.dataset.testid, { disabled: e.disabled, label: e.getAttribute('aria-label') }])),
    notices: q('[data-testid=notice]').map((e) => ({ code: e.dataset.code, text: e.textContent.trim() })),
    savedRows: q('[data-testid=saved-row]').map((e) => ({ id: e.dataset.id, game: e.dataset.game, ply: Number(e.dataset.ply), text: e.textContent.trim() })),
    toast: text('[data-testid=toast]'),
    result: one('dialog[open] [data-testid=result-text]') ? { text: text('[data-testid=result-text]'), winner: one('[data-testid=result-text]').dataset.winner, reason: one('[data-testid=result-text]').dataset.reason } : null,
    activeTestid: active ? active.dataset?.testid || null : null,
    activeCell: active ? active.dataset?.cell || null : null,
    viewport: [innerWidth, innerHeight],
    h1: screen ? (screen.querySelector('h1')?.textContent.trim() ?? null) : null,
    instruments: !!window.__board3dInstruments,
  };
`;

/** Sorted "cell:seat:king" strings: a board position to compare. */
export function piecesKey(pieces) {
  return pieces.map((p) => `${p.cell}:${p.seat ?? '-'}:${p.king ? 'K' : ''}`).sort();
}

export class Ui {
  constructor(driver, { log = () => {} } = {}) {
    this.driver = driver;
    this.log = log;
  }

  /** What the screen shows. The first one on a page installs the 3D board's test instruments
   * there (the page must have them before a board is made: read through `window.__board`). */
  async snapshot() {
    const s = await this.driver.executeScript(SNAPSHOT);
    if (s.instruments) return s;
    await installBoardInstruments(this.driver);
    return this.driver.executeScript(SNAPSHOT);
  }

  /** Waits until `pred(snapshot)` holds; returns that snapshot. */
  async waitFor(pred, what, timeoutMs = 20000) {
    const start = Date.now();
    let last = null;
    for (;;) {
      try {
        last = await this.snapshot();
        if (pred(last)) return last;
        // Not what SNAPSHOT returns: keep what the driver answered for the report.
        if (last === null || typeof last !== 'object' || !('ready' in last)) last = { error: `the driver answered ${JSON.stringify(last)?.slice(0, 300)}` };
      } catch (e) {
        // The page may be between screens.
        last = { error: e.message };
      }
      if (Date.now() - start > timeoutMs) {
        throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last screen: ${JSON.stringify(brief(last))}`);
      }
      await sleep(40);
    }
  }

  /** The screen once the page has settled (page.mjs): for asserting that an input changed nothing. */
  async settled() {
    await settled(this.driver);
    return this.snapshot();
  }

  /** After a launch: the app has started and shows its home screen. */
  waitHome(timeoutMs = 30000) {
    return this.waitFor((s) => s.ready && s.screen === 'home-screen', 'the home screen', timeoutMs);
  }

  /** The human may act on the board now: nothing animating, no CPU thinking, nothing selected. */
  waitIdle(timeoutMs = 60000) {
    return this.waitFor(
      (s) => s.screen === 'game-screen' && s.game && s.game.busy === 'false' && s.game.phase === 'idle' && !s.thinking,
      'an idle board',
      timeoutMs,
    );
  }

  async byTestid(testid, extra = '') {
    return this.driver.findElement(By.css(`[data-testid="${testid}"]${extra}`));
  }

  /** A click as a person would do it with the mouse (real WebDriver pointer actions). */
  async click(testid, extra = '') {
    const el = await this.byTestid(testid, extra);
    await this.driver.executeScript('arguments[0].scrollIntoView({block: "center", inline: "nearest"})', el);
    await el.click();
  }

  /** Home → game card → setup choices → start; resolves when the board is ready for the human. */
  async startGame(kind, { players, mode = 'cpu', level = 'medium', colour = 0, longJump = false } = {}) {
    let s = await this.snapshot();
    if (s.screen !== 'home-screen') {
      await this.driver.executeScript('location.hash = "#/"');
      s = await this.waitHome();
    }
    await this.click('game-card', `[data-game="${kind}"]`);
    await this.waitFor((x) => x.screen === 'setup-screen', 'the setup screen');
    if (players != null) await this.click(`players-${players}`);
    await this.click(`mode-${mode}`);
    if (mode === 'cpu') {
      await this.click(`level-${level}`);
      if (['english', 'international', 'turkish'].includes(kind)) await this.click(`colour-${colour}`);
    }
    if (kind === 'capture') {
      const box = await this.byTestid('long-jump');
      if ((await box.isSelected()) !== longJump) await box.click();
    }
    await this.click('start');
    return this.waitIdle();
  }

  async gameId() {
    const s = await this.snapshot();
    assert.ok(s.game && s.game.gameId, 'a game is on screen');
    return s.game.gameId;
  }

  /** The backend's GameView of the game on screen (the app's own truth). */
  async view() {
    return invoke(this.driver, 'get_game', { id: await this.gameId() });
  }

  /** The hit target of a cell on the SVG board (what a finger or pointer lands on). */
  cellTarget(cell) {
    return this.driver.findElement(By.css(`svg[data-testid=board] [data-testid=cell][data-cell="${cell}"]`));
  }

  /**
   * On the 3D board: where `cell` is drawn, client CSS px, once the board has drawn a frame and
   * stands still at its size on screen; null when the SVG board is shown.
   */
  async cellOn3d(cell, timeoutMs = 10000) {
    const start = Date.now();
    for (;;) {
      const at = await this.driver.executeScript(
        `if (document.querySelector('svg[data-testid=board]') || !document.querySelector('[data-testid=board3d]')) return { flat: true };
         // A finger aims at a still board: not while the view eases or a marble flies.
         const b = window.__board, s = b.stats(), el = document.querySelector('[data-testid=board3d]');
         if (s.easing || s.flying || s.size.w !== Math.max(1, el.clientWidth) || s.size.h !== Math.max(1, el.clientHeight)) return { at: null };
         return { at: b.cellScreenPosition(arguments[0]) };`,
        cell,
      );
      if (at.flat) return null;
      if (at.at) return at.at;
      if (Date.now() - start > timeoutMs) throw new Error(`the 3D board has no screen position for ${cell}`);
      await sleep(40);
    }
  }

  /** A finger tap on a cell (synthetic touch PointerEvents; see page.mjs). */
  async tap(cell) {
    const at = await this.cellOn3d(cell);
    if (at) await touchTapAt(this.driver, at.x, at.y, '.board3d-canvas');
    else await touchTap(this.driver, await this.cellTarget(cell));
  }

  /** Real WebDriver mouse over a cell of the 3D board: an offset from the canvas centre. */
  async mouseOn3d(cell, click) {
    const at = await this.cellOn3d(cell);
    if (!at) return false;
    const canvas = await this.driver.findElement(By.css('.board3d-canvas'));
    const c = await this.driver.executeScript('const r = arguments[0].getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 };', canvas);
    let a = this.driver.actions({ async: true }).move({ origin: canvas, x: Math.round(at.x - c.x), y: Math.round(at.y - c.y) });
    if (click) a = a.click();
    await a.perform();
    return true;
  }

  async mouseClickCell(cell) {
    if (!(await this.mouseOn3d(cell, true))) await mouseClick(this.driver, await this.cellTarget(cell));
  }

  async hoverCell(cell) {
    if (!(await this.mouseOn3d(cell, false))) await mouseHover(this.driver, await this.cellTarget(cell));
  }

  /**
   * Plays a legal move with taps (finger by default, or real mouse clicks): the piece, then each
   * stop the board makes along the route — with a finger, tapped twice (preview, then confirm).
   * Resolves with the snapshot once the ply advanced and the board settled.
   */
  async playByTaps(move, { pointer = 'touch', waitIdle = true } = {}) {
    const press = (cell) => (pointer === 'touch' ? this.tap(cell) : this.mouseClickCell(cell));
    const before = await this.snapshot();
    const ply = Number(before.game.ply);
    const route = routeOf(move);
    await press(move.from);
    await this.waitFor((s) => s.game.phase === 'selected' && s.dests.length > 0, `${move.from} to be picked up`);
    let at = 0;
    while (at < route.length - 1) {
      const s = await this.snapshot();
      const offered = new Set(s.dests.map((d) => d.cell));
      // The furthest point of the route the board offers now.
      let next = -1;
      for (let i = route.length - 1; i > at; i--) {
        if (offered.has(route[i])) {
          next = i;
          break;
        }
      }
      assert.ok(next > 0, `board offers none of ${route.slice(at + 1).join(',')} for ${move.move}; it offers ${[...offered].join(',')}`);
      const cell = route[next];
      let standsThere = false;
      if (pointer === 'touch') {
        await press(cell);
        const previewed = await this.waitFor((x) => x.game.phase === 'previewing' && x.ghost === cell, `preview of ${cell}`);
        // The capture game, where the chain could end or go on: one tap already stopped the piece
        // there ("stop here" previewed); a second tap would end the move.
        standsThere = !!previewed.route && previewed.route[previewed.route.length - 1] === cell;
      }
      if (!(standsThere && next < route.length - 1)) await press(cell);
      at = next;
      if (at < route.length - 1) {
        await this.waitFor((x) => (x.game.phase === 'selected' || x.game.phase === 'previewing') && x.route && x.route[x.route.length - 1] === cell, `the piece to stop on ${cell}`);
      }
    }
    const done = waitIdle ? (s) => Number(s.game.ply) > ply && s.game.busy === 'false' : (s) => Number(s.game.ply) > ply;
    return this.waitFor(done, `move ${move.move} to be played`);
  }

  async pressKeys(...keys) {
    const actions = this.driver.actions({ async: true });
    for (const k of keys) actions.keyDown(k).keyUp(k);
    await actions.perform();
  }
}

/** A move's landings from its origin, origin included. */
export function routeOf(move) {
  const path = move.path && move.path.length ? move.path : [move.from, move.to];
  return path[0] === move.from ? path : [move.from, ...path];
}

/** A short form of a snapshot for error messages. */
export function brief(s) {
  if (!s || s.error) return s;
  return {
    screen: s.screen,
    hash: s.hash,
    game: s.game,
    status: s.status,
    dests: s.dests?.map((d) => d.cell),
    ghost: s.ghost,
    toast: s.toast,
    notices: s.notices,
  };
}
