// The game screen: the wiring of board, button panel, status and actions around the headless
// controller (game-controller.js). One-way flow: the controller's GameView plus input state make a
// board model (board-model.js); a model makes one batched redraw per frame. The board itself is
// the 3D or the SVG one (boards.js); both draw the same model and report taps as cells.

import { api, features } from '../api.js';
import { h, clear, add } from '../dom.js';
import { t } from '../i18n.js';
import { announce } from '../announce.js';
import { playMoveSound } from '../sound.js';
import { createGameBoard } from '../boards.js';
import { createGameController } from '../game-controller.js';
import { boardModel, boardSeatNames, geometryCache } from '../board-model.js';
import {
  viewerSeat, cellNamer, describeMove, describeRecentMoves, outcomeText, outcomeReason, resultFigures, passOnly,
  humanToMove, isStar, isDraughts, candiesNote,
} from '../state.js';
import { topBar } from './common.js';
import { createStatusView } from './game-status.js';
import { createPanelView } from './game-panel.js';
import { createMoveListView, createReviewBar } from './game-review.js';
import { reviewStep } from '../review.js';
import { shortcutFor } from '../shortcuts.js';
import { showExport } from './share.js';
import { initialInput } from '../input.js';

const ICONS = { undo: '↶', redo: '↷', new: '↻', mode: '⇄', resign: '⚑', hint: '✧' };

// The Diamond goal line shows in a player's games until the first Diamond game ends on screen.
const GOAL_HINT_KEY = 'damas.diamond-goal-seen';
const goalHintSeen = () => { try { return globalThis.localStorage?.getItem(GOAL_HINT_KEY) === '1'; } catch { return false; } };
const markGoalHintSeen = () => { try { globalThis.localStorage?.setItem(GOAL_HINT_KEY, '1'); } catch { /* private mode */ } };

/**
 * @param {{review?: number, room?: object}} [opts] `review`: open on the position after that many
 * moves. `room` (a friends' room game, screens/room.js): `{backend, seats, actions, rematch}` — the
 * controller's backend (api.js `openRoom`), the seat list element for the side panel, the room's
 * own action buttons (they replace undo, redo, new game and change mode), and what "Rematch" does.
 */
export async function gameScreen(app, id, initial, opts = {}) {
  const room = opts.room || null;
  const backend = room ? room.backend : api;
  const first = initial || (app.pendingView && app.pendingView.id === id ? app.pendingView : null) || (await backend.getGame(id));
  app.pendingView = null;
  // What the backend offers (a browser's games against the server's CPU have no hints, no past
  // positions and no export): those controls are left out rather than shown broken.
  const offers = room ? { hint: false, review: false, export: true } : await features();
  let destroyed = false;
  let frame = 0;
  let viewerOverride = null;
  let lastRotation = null;
  // Draughts: the flip button turns the board round; the setting turns it to the player to move.
  let flipped = false;
  // Review: the ply shown (null: the live game) and its read-only view from the backend.
  let shown = null;
  let reviewView = null;
  let reviewCall = 0;
  const viewOpts = () => ({ flipped, turnToPlayer: !!app.settings.turn_board });

  const game = createGameController(backend, first, {
    changed: ({ now }) => {
      // Moves taken back under the reviewed position: back to the live game.
      if (shown != null && shown > game.view.history.length) review({ type: 'live' });
      return now ? draw() : schedule();
    },
    present,
    notify,
    error: (e) => app.toast(app.errorText(e)),
    result: () => showResult({ fresh: true }),
  });

  // Built again for a language change: what the player was doing with this game goes on.
  const carried = app.carriedInput && app.carriedInput.id === id ? app.carriedInput : null;
  app.carriedInput = null;

  const kind = first.variant.kind;
  const el = h('section', { class: `screen game game-${kind}`, 'data-testid': 'game-screen', 'data-game': kind });
  const title = [h('span', { class: 'title-long' }, t('game.' + kind)), h('span', { class: 'title-short' }, t('game.' + kind + '.short'))];
  el.append(topBar(app, title, {
    back: '#/',
    extra: [
      isDraughts(kind) ? h('button', {
        type: 'button', class: 'icon-btn', 'data-testid': 'flip', 'aria-label': t('act.flip'), title: t('act.flip'), 'aria-pressed': 'false',
        onclick: () => flip(),
      }, h('span', { 'aria-hidden': 'true' }, '⇅')) : null,
      offers.export === false ? null : h('button', {
        type: 'button', class: 'icon-btn', 'data-testid': 'export', 'aria-label': t('share.open'), title: t('share.open'), onclick: () => showExport(app, game.view.id),
      }, h('span', { 'aria-hidden': 'true' }, '⤴')),
      h('a', { class: 'icon-btn', href: '#/rules/' + kind, 'aria-label': t('nav.rules'), 'data-testid': 'nav-rules' }, h('span', { 'aria-hidden': 'true' }, '?')),
    ],
  }));
  const boardOptions = (setting) => ({
    kind,
    setting,
    label: t('board.label', { game: t('game.' + kind) }),
    // A position under review is read-only.
    onTap: (cell, pointer) => { if (shown == null) game.dispatch({ type: 'tap', cell, pointer }); },
    onHover: (cell) => { if (shown == null) game.dispatch({ type: 'hover', cell }); },
    motion: () => app.motion(),
    onSwap: (flat) => { board = flat; boardWrap.classList.remove('board-3d'); boardWrap.dataset.board = flat.kind; draw(); },
  });
  // The "Board: 3D / 2D" setting the board was made for (changed in the settings over the game:
  // the board is made again, see `applyBoardSetting`).
  let boardSetting = app.settings.board;
  let board = await createGameBoard(boardOptions(boardSetting));
  const passBoard = h('button', { type: 'button', class: 'btn btn-pass board-pass', 'data-testid': 'pass-board', hidden: true, onclick: () => game.pass() }, t('act.pass'));
  const boardWrap = h('div', { class: 'board-wrap' + (isStar(kind) ? ' star-wrap' : '') + (board.kind === '3d' ? ' board-3d' : ''), 'data-board': board.kind }, board.el, passBoard);
  const status = createStatusView();
  const panel = createPanelView({ dispatch: game.dispatch, pass: game.pass, showResult, currentInput: () => game.input });
  const actionBtn = (key, label, onclick) => h('button', { type: 'button', class: 'act', 'data-testid': key, 'aria-label': label, title: label, onclick },
    h('span', { class: 'act-icon', 'aria-hidden': 'true' }, ICONS[key.split('-')[0]] || ''), h('span', { class: 'act-label' }, label));
  const undoBtn = actionBtn('undo', t('act.undo'), () => game.undo());
  const redoBtn = actionBtn('redo', t('act.redo'), () => game.redo());
  const newBtn = actionBtn('new-game', t('act.new'), () => newGame());
  const modeBtn = actionBtn('mode-change', t('act.mode'), async () => { if (await mayLeave()) app.go('#/setup/' + kind); });
  modeBtn.setAttribute('data-testid', 'change-mode');
  const resignBtn = actionBtn('resign', t('act.resign'), () => resign());
  // Hints only against the CPU: the hard CPU's move, previewed for the player to confirm.
  const hintBtn = first.mode === 'cpu' && offers.hint !== false ? actionBtn('hint', t('act.hint'), () => { if (shown == null) game.hint(); }) : null;
  const actions = room
    ? h('nav', { class: 'actions', 'aria-label': t('nav.menu') }, room.actions.length ? room.actions : resignBtn)
    : h('nav', { class: 'actions', 'aria-label': t('nav.menu') }, hintBtn, undoBtn, redoBtn, newBtn, modeBtn, resignBtn);
  const moveList = createMoveListView({
    open: !!(globalThis.matchMedia && matchMedia('(min-width: 900px) and (min-height: 600px)').matches),
    go: (ply) => review({ type: 'go', ply }),
  });
  const reviewBar = createReviewBar({ step: (type) => review({ type }) });
  // A friends' room has no past positions to ask for (the room server keeps the moves only).
  const canReview = typeof backend.viewAt === 'function' && offers.review !== false;
  reviewBar.el.hidden = !canReview;
  // On a phone the review buttons sit beside the move list's title rather than on a row of their
  // own, which the board needs more (app.css `.moves-row`); on a wide screen they stack.
  const movesRow = h('div', { class: 'moves-row' }, moveList.el, reviewBar.el);
  const side = h('aside', { class: 'side' }, room ? room.seats : null, status.el, reviewBar.banner, panel.el, movesRow, actions);
  el.append(h('div', { class: 'game-body' }, h('div', { class: 'board-area' }, boardWrap), side));

  // ---------- review ----------

  /** Shows another ply (review.js decides which); the position comes from the backend. */
  async function review(action) {
    if (!canReview) return;
    const next = reviewStep(shown, action, game.view.history.length);
    const call = ++reviewCall;
    if (next == null) {
      shown = null;
      reviewView = null;
      schedule();
      return;
    }
    try {
      const view = await backend.viewAt(game.view.id, next);
      if (call !== reviewCall || destroyed) return;
      shown = next;
      reviewView = view;
      announce(t('review.banner', { ply: next, total: game.view.history.length }));
    } catch (e) {
      app.toast(app.errorText(e));
    }
    schedule();
  }

  function flip() {
    if (!isDraughts(kind)) return;
    flipped = !flipped;
    el.querySelector('[data-testid=flip]')?.setAttribute('aria-pressed', String(flipped));
    schedule();
  }

  /** The board setting changed while the game was shown: the other board takes its place now. */
  async function applyBoardSetting() {
    const setting = app.settings.board;
    if (setting === boardSetting || destroyed) return;
    boardSetting = setting;
    const next = await createGameBoard(boardOptions(setting));
    if (destroyed || boardSetting !== setting) {
      next.destroy();
      return;
    }
    const old = board;
    board = next;
    old.el.replaceWith(next.el);
    old.destroy();
    boardWrap.classList.toggle('board-3d', next.kind === '3d');
    boardWrap.dataset.board = next.kind;
    lastRotation = null;
    draw();
  }

  // ---------- drawing ----------

  const geometryFor = geometryCache();

  function schedule() {
    if (frame || destroyed) return;
    frame = requestAnimationFrame(() => { frame = 0; draw(); });
  }

  function draw() {
    if (destroyed) return;
    const view = game.view;
    // A reviewed position is drawn read-only: no selection, no moves.
    const m = reviewView
      ? boardModel(reviewView, initialInput(), { busy: true, seat: viewerSeat(view, viewOpts()), geometryFor })
      : boardModel(view, game.input, { busy: game.busy, seat: viewerOverride ?? viewerSeat(view, viewOpts()), geometryFor });
    const turned = lastRotation != null && m.geometry.rotation !== lastRotation;
    const delta = turned ? (((m.geometry.rotation - lastRotation) % 360) + 540) % 360 - 180 : 0;
    lastRotation = m.geometry.rotation;
    board.update(m);
    // On one device the star turns to the player to move: ease into the new orientation (the 3D
    // board turns its camera itself). The layout's angles are counter-clockwise with y up, so on
    // screen the turn is the opposite way.
    if (turned && delta && app.motion() && board.kind === '2d' && board.el.animate) {
      board.el.animate([{ transform: `rotate(${delta}deg)` }, { transform: 'rotate(0deg)' }], { duration: 450, easing: 'ease-in-out' });
    }
    el.style.setProperty('--ar', board.aspect.toFixed(4));
    status.update(view, { thinking: game.thinking, hinting: game.hinting, goalHint: kind === 'diamond' && !goalHintSeen() });
    moveList.update(view, shown);
    reviewBar.update(view.history.length, shown);
    el.classList.toggle('reviewing', shown != null);
    el.dataset.review = shown == null ? 'live' : String(shown);
    panel.el.hidden = shown != null;
    passBoard.hidden = !(passOnly(view) && !game.busy) || shown != null;
    undoBtn.disabled = !view.can_undo || game.busy;
    redoBtn.disabled = !view.can_redo || game.busy || game.thinking;
    resignBtn.disabled = !!view.outcome || (room && !view.human_seats.length);
    if (hintBtn) {
      hintBtn.disabled = !!view.outcome || game.waiting || !humanToMove(view) || shown != null;
      hintBtn.dataset.hints = String(view.hints || 0);
      const label = view.hints ? t('act.hint.count', { n: view.hints }) : t('act.hint');
      hintBtn.setAttribute('aria-label', label);
      hintBtn.title = label;
      hintBtn.querySelector('.act-label').textContent = view.hints ? t('act.hint') + ' · ' + view.hints : t('act.hint');
    }
    panel.update(view, game.input, game.context(), { busy: game.busy });
    el.dataset.ply = String(view.ply);
    el.dataset.toMove = String(view.to_move);
    el.dataset.phase = game.input.phase;
    el.dataset.busy = String(game.waiting);
    el.dataset.over = String(!!view.outcome);
    el.dataset.viewer = String(viewerOverride ?? viewerSeat(view, viewOpts()));
    el.dataset.gameId = view.id;
    el.dataset.board = board.kind;
  }

  /** Draws the last move sliding along its path, seen from the side that played it. */
  async function present({ prev, next, entry, animate }) {
    if (entry && animate && app.motion()) {
      // The taken pieces fade one by one as the mover passes them: in the order of the legs.
      const before = new Map(prev.pieces.map((p) => [p.cell, p]));
      const removed = (entry.move.legs || []).map((leg) => before.get(leg.captured)).filter(Boolean);
      viewerOverride = viewerSeat(prev, viewOpts());
      draw();
      playMoveSound(entry.move);
      await board.animate(entry.move, { removed, seatNames: boardSeatNames(next), duration: entry.move.jumps || (entry.move.captures || []).length ? 200 : 160 });
      viewerOverride = null;
    } else if (entry) playMoveSound(entry.move, 0.02);
  }

  function notify(event) {
    const name = cellNamer(game.view);
    if (event.type === 'selected') announce(t('move.selected', { cell: name(event.cell), n: event.n }));
    if (event.type === 'stopped') announce(t(event.canEnd ? 'chainstop.stopped' : 'move.stopped', { cell: name(event.cell) }));
    // When the turn comes back to a human after several moves, all of them are said at once.
    if (event.type === 'moved') announce(humanToMove(game.view) ? describeRecentMoves(game.view).join('. ') : describeMove(game.view, event.entry));
  }

  // ---------- actions that leave the screen or ask first ----------

  /** Leaving an unfinished game with moves asks first (it stays among the unfinished games). */
  async function mayLeave() {
    const view = game.view;
    if (view.outcome || (view.ply === 0 && !view.can_redo)) return true;
    return app.confirm(t('act.abandon.confirm'), { detail: t('act.abandon.detail') });
  }

  async function newGame() {
    if (!(await mayLeave())) return;
    const next = await game.newGame();
    if (!next) return;
    app.pendingView = next;
    app.go('#/game/' + next.id);
  }

  async function resign() {
    const view = game.view;
    const detail = view.variant.players >= 3 && kind === 'diamond' ? t('act.resign.confirm3') : undefined;
    if (!(await app.confirm(t('act.resign.confirm'), { detail }))) return;
    await game.resign();
  }

  /** The result dialog; `fresh`: the game has just ended on this screen (its candies are said). */
  function showResult({ fresh = false } = {}) {
    const view = game.view;
    if (kind === 'diamond') markGoalHintSeen();
    const d = app.dialog;
    clear(d);
    d.className = 'result';
    d.onclose = null;
    d.setAttribute('data-testid', 'result');
    const o = view.outcome;
    const rematchLabel = view.variant.players > 2 ? t('act.rematch.rotate') : t('act.rematch');
    const candyLine = h('p', { class: 'result-candies', 'data-testid': 'result-candies', role: 'status', hidden: true });
    add(d,
      h('p', { class: 'result-kicker' }, t('result.title')),
      h('h2', { 'data-testid': 'result-text', 'data-winner': o.winner == null ? 'draw' : o.winner, 'data-reason': o.reason }, outcomeText(view)),
      h('p', { class: 'result-reason', 'data-testid': 'result-reason' }, outcomeReason(view)),
      h('dl', { class: 'result-figures', 'data-testid': 'result-figures' },
        resultFigures(view).map((f) => h('div', { class: 'result-figure', 'data-testid': 'result-figure', 'data-key': f.key }, h('dt', {}, f.label), h('dd', {}, f.value)))),
      candyLine,
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'result-close', onclick: () => d.close() }, t('act.viewboard')),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'result-home', onclick: () => { d.close(); app.go('#/'); } }, t('nav.home')),
        h('button', {
          type: 'button', class: 'btn btn-primary', 'data-testid': 'rematch', autofocus: true,
          // A room's spectator has no seat to play again with.
          hidden: !!room && !view.human_seats.length,
          onclick: async () => {
            d.close();
            if (room) return room.rematch(game);
            const next = await game.rematch();
            if (!next) return;
            app.pendingView = next;
            app.go('#/game/' + next.id);
          },
        }, rematchLabel)),
    );
    announce(outcomeText(view) + '. ' + outcomeReason(view));
    app.openModal();
    // Candies: the backend has recorded a game against the CPU before its last view came; a
    // friends' room records its result itself (room.candies waits for that).
    const candies = !fresh ? null : room ? room.candies : view.mode === 'cpu' ? () => api.getCandies(-new Date().getTimezoneOffset()) : null;
    candies?.().then((c) => {
      const note = candiesNote(c);
      if (!note || !candyLine.isConnected) return;
      candyLine.textContent = note;
      candyLine.hidden = false;
    }).catch(() => {});
  }

  // ---------- keyboard shortcuts (shortcuts.js) ----------

  function onKey(e) {
    if (e.defaultPrevented || app.dialog.open || el.inert || !el.isConnected) return;
    const action = shortcutFor(e);
    if (!action) return;
    e.preventDefault();
    if (action === 'undo' && !undoBtn.disabled) game.undo();
    else if (action === 'redo' && !redoBtn.disabled) game.redo();
    else if (action === 'flip') flip();
    else if (action === 'rules') app.go('#/rules/' + kind);
    else if (action === 'new') newGame();
    else if (action === 'back') review({ type: 'prev' });
    else if (action === 'forward') review({ type: 'next' });
  }
  document.addEventListener('keydown', onKey);

  if (carried) game.restoreInput(carried.input, carried.ply);
  draw();
  // Resuming: a CPU seat to move thinks at once; a finished game shows its board.
  setTimeout(() => game.start(), 0);
  if (Number.isInteger(opts.review)) review({ type: 'go', ply: opts.review });

  return {
    el,
    name: 'game',
    destroy() {
      destroyed = true;
      document.removeEventListener('keydown', onKey);
      game.destroy();
      board.destroy();
      if (frame) cancelAnimationFrame(frame);
    },
    /** Draws again (back from the settings overlay: the board may turn, or change to 3D or 2D). */
    redraw: () => {
      schedule();
      applyBoardSetting();
    },
    // For tests and debugging in the browser console.
    debug: { get view() { return game.view; }, get input() { return game.input; }, get board() { return board.kind; }, get review() { return reviewView; }, get cpuCalls() { return game.cpuCalls; } },
    /** What the player is doing (a piece picked up), for the screen built again in another language. */
    carry: () => ({ id: game.view.id, ply: game.view.ply, input: game.input }),
    /** A friends' room pushes each new view here. */
    receive: (view) => game.receive(view),
    get view() { return game.view; },
  };
}
