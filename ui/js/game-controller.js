// The game screen's turn state machine, headless: human input → play → CPU turns → result.
// It owns the GameView, the input state and the flags that say whether a human may act; it talks
// to the backend only through the `api` object it is given (the Tauri commands or the mock today,
// a friend-room socket later), and to the screen only through `hooks`. No DOM here, so it is
// tested in node with a fake api (ui/tests/game-controller.test.mjs).

import { initialInput, reduce, currentDestinations, panelItems } from './input.js';
import { inputContext } from './state.js';

/**
 * @param {object} api `{getGame, playMove, cpuMove, undo, redo, resign, newGame, rematch}`, each
 *   resolving with a GameView (APP-CONTRACT.md) or rejecting with `{code, message}`.
 * @param {object} view the GameView to start from
 * @param {object} hooks all optional:
 *   - `changed({now})`: the state changed; redraw now (`now`) or on the next frame.
 *   - `present({prev, next, entry, animate})`: a new view arrived; `entry` is its new history
 *     entry when exactly one move was added. Resolves when the move has been shown.
 *   - `notify(event)`: `{type: 'selected', cell, n}`, `{type: 'stopped', cell, canEnd}` (canEnd: the chain may end there), `{type: 'moved', entry}`.
 *   - `error(e)`: a backend call failed (the state stays as the backend has it).
 *   - `result()`: the game has just ended.
 */
export function createGameController(api, view, hooks = {}) {
  const changed = (now = false) => hooks.changed?.({ now });
  let input = initialInput();
  // A move is being sent or drawn: no input until the new view is shown.
  let busy = false;
  // A CPU reply is awaited.
  let thinking = false;
  // A hint is awaited.
  let hinting = false;
  // Undo, redo, resign or a new game bump the generation; a CPU reply from an older generation
  // is dropped (the backend also rejects it as `cancelled`).
  let generation = 0;
  let destroyed = false;
  let resultShown = !!view.outcome;
  let cpuCall = 0;
  let cpuGeneration = -1;
  let cpuPending = null;
  // What the CPU calls did, for tests: calls made, calls not answered yet, and how the last
  // answered one ended ('played', 'dropped' = a reply for an older generation, 'cancelled' = the
  // backend stopped the search, 'error').
  const cpuCalls = { made: 0, inFlight: 0, last: null };

  const ctx = () => inputContext(view, busy);
  // A view pushed by the backend (a friends' room) while a move was in flight or being drawn:
  // taken once that is done.
  let pushed = null;

  function dispatch(action) {
    if (action.key === '__focus') {
      // A destination button got focus by Tab or a click: preview it, as the arrows would.
      const it = panelItems(input, ctx())[action.index];
      if (it && it.kind === 'dest') {
        input = { ...input, phase: 'previewing', preview: it.cell, focus: action.index };
        changed();
      }
      return;
    }
    const before = input;
    const r = reduce(input, action, ctx());
    input = r.state;
    for (const fx of r.effects) {
      if (fx.type === 'play') send(fx.move);
      if (fx.type === 'stop') hooks.notify?.({ type: 'stopped', cell: fx.cell, canEnd: !!fx.canEnd });
    }
    if (input.phase === 'selected' && before.from !== input.from) {
      hooks.notify?.({ type: 'selected', cell: input.from, n: currentDestinations(input, ctx()).length });
    }
    changed();
  }

  async function send(move) {
    busy = true;
    changed();
    try {
      await show(await api.playMove(view.id, move.move));
    } catch (e) {
      hooks.error?.(e);
      input = initialInput();
      busy = false;
      if (pushed) takePushed();
      else await refresh();
    }
  }

  function pass() {
    const m = view.legal_moves.find((x) => x.pass);
    if (m && !busy) return send(m);
    return Promise.resolve();
  }

  /** Takes a new view: the screen shows its last move, then the CPU is asked if it is to move. */
  async function show(next, { animate = true } = {}) {
    const prev = view;
    const grew = next.history.length === prev.history.length + 1 && next.id === prev.id;
    const entry = grew ? next.history[next.history.length - 1] : null;
    view = next;
    input = initialInput();
    busy = true;
    await hooks.present?.({ prev, next, entry, animate });
    if (destroyed) return;
    if (entry) hooks.notify?.({ type: 'moved', entry });
    busy = false;
    changed(true);
    afterView();
    takePushed();
  }

  function takePushed() {
    if (!pushed || busy || destroyed) return;
    const next = pushed;
    pushed = null;
    receive(next);
  }

  /**
   * A view the backend pushed (another player's move, a seat change, a rematch). Views carrying
   * a `room_version` older than the shown one are dropped; one of the same position replaces
   * the shown view quietly (the selection stays); a new position is shown as a played move.
   */
  function receive(next) {
    if (destroyed) return;
    if (busy) {
      pushed = next;
      return;
    }
    if (next.room_version != null && view.room_version != null && next.room_version <= view.room_version) return;
    const samePosition = next.id === view.id && next.ply === view.ply && next.history.length === view.history.length
      && !!next.outcome === !!view.outcome && next.human_seats.join() === view.human_seats.join();
    if (samePosition) {
      view = next;
      changed();
      return;
    }
    show(next);
  }

  function afterView() {
    if (view.outcome) {
      if (!resultShown) {
        resultShown = true;
        hooks.result?.();
      }
      return;
    }
    resultShown = false;
    if (view.cpu_to_move) cpuPending = runCpu();
  }

  // One CPU call per generation.
  async function runCpu() {
    if (destroyed || (thinking && cpuGeneration === generation)) return;
    const g = generation;
    const call = ++cpuCall;
    cpuGeneration = g;
    thinking = true;
    changed();
    cpuCalls.made++;
    cpuCalls.inFlight++;
    let answered = false;
    try {
      const next = await api.cpuMove(view.id, view.ply);
      answered = true;
      cpuCalls.inFlight--;
      cpuCalls.last = call !== cpuCall || g !== generation || destroyed ? 'dropped' : 'played';
      if (call !== cpuCall) return;
      thinking = false;
      if (g !== generation || destroyed) return;
      await show(next);
    } catch (e) {
      if (!answered) {
        cpuCalls.inFlight--;
        cpuCalls.last = e && e.code === 'cancelled' ? 'cancelled' : 'error';
      }
      if (call !== cpuCall) return;
      thinking = false;
      if (destroyed) return;
      if (g !== generation) {
        changed();
        return;
      }
      if (e.code !== 'cancelled') hooks.error?.(e);
      await refresh();
    }
  }

  async function refresh() {
    try {
      view = await api.getGame(view.id);
    } catch (e) {
      hooks.error?.(e);
    }
    input = initialInput();
    changed();
    afterView();
  }

  async function step(what) {
    generation++;
    busy = true;
    changed();
    try {
      const next = await (what === 'undo' ? api.undo(view.id) : api.redo(view.id));
      thinking = false;
      busy = false;
      await show(next, { animate: what === 'redo' });
    } catch (e) {
      busy = false;
      hooks.error?.(e);
      await refresh();
    }
  }

  /**
   * Asks the backend for a hint (the hard CPU's move for the human to move) and previews it as a
   * tap would: the piece picked up, the furthest point of its route the board offers previewed.
   * The player still confirms it (or plays something else). Resolves with the move, or null.
   */
  async function hint() {
    if (busy || thinking || view.outcome || !api.hint) return null;
    const g = generation;
    busy = true;
    hinting = true;
    changed();
    let reply;
    try {
      reply = await api.hint(view.id);
    } catch (e) {
      busy = false;
      hinting = false;
      if (e.code !== 'cancelled') hooks.error?.(e);
      changed();
      return null;
    }
    busy = false;
    hinting = false;
    if (g !== generation || destroyed || reply.view.ply !== view.ply) {
      changed();
      return null;
    }
    view = reply.view;
    input = initialInput();
    const suggested = reply.move;
    const route = suggested.path && suggested.path.length ? suggested.path : [suggested.from, suggested.to];
    const stops = route[0] === suggested.from ? route : [suggested.from, ...route];
    dispatch({ type: 'tap', cell: suggested.from, pointer: 'touch' });
    const offered = new Set(currentDestinations(input, ctx()).map((d) => d.cell));
    const furthest = [...stops].reverse().find((cell) => offered.has(cell));
    if (furthest) dispatch({ type: 'tap', cell: furthest, pointer: 'touch' });
    return suggested;
  }

  /** Starts a game like this one; resolves with its view, or null after reporting an error. */
  async function newGame() {
    generation++;
    try {
      return await api.newGame({
        variant: view.variant,
        mode: view.mode,
        level: view.level || undefined,
        human_seats: view.mode === 'cpu' ? view.human_seats : undefined,
      });
    } catch (e) {
      hooks.error?.(e);
      return null;
    }
  }

  async function resign() {
    generation++;
    try {
      thinking = false;
      await show(await api.resign(view.id), { animate: false });
    } catch (e) {
      hooks.error?.(e);
    }
  }

  /** Resolves with the rematch's view, or null after reporting an error. */
  async function rematch() {
    try {
      return await api.rematch(view.id);
    } catch (e) {
      hooks.error?.(e);
      return null;
    }
  }

  return {
    get view() { return view; },
    get input() { return input; },
    get busy() { return busy; },
    get thinking() { return thinking; },
    get hinting() { return hinting; },
    /** Until a human may act: a move in flight or being drawn, or a CPU seat to move. */
    get waiting() { return busy || thinking || (!!view.cpu_to_move && !view.outcome); },
    /** The input reducer's context for the current view. */
    context: ctx,
    /** The CPU call in flight, if any (tests await it). */
    get cpuPending() { return cpuPending; },
    /** CPU calls made, not answered yet, and how the last answered one ended (tests read it). */
    get cpuCalls() { return { ...cpuCalls }; },
    dispatch,
    receive,
    pass,
    hint,
    undo: () => step('undo'),
    redo: () => step('redo'),
    resign,
    newGame,
    rematch,
    /**
     * Takes the input of this game from a screen built again (the language changed over it): a
     * piece picked up stays picked up. Refused while a move or a CPU reply is on its way, on a
     * finished game, or for another position (`ply`).
     */
    restoreInput(kept, ply) {
      if (!kept || ply !== view.ply || busy || thinking || hinting || view.outcome) return false;
      input = kept;
      changed();
      return true;
    },
    /** Resuming: a CPU seat to move thinks at once; a finished game shows its result once. */
    start: afterView,
    destroy() {
      destroyed = true;
      generation++;
    },
  };
}
