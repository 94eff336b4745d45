// The game screen: board, button panel, status and actions. One-way flow: a GameView from the
// backend plus the input state make a model; a model makes one batched redraw per frame.

import { api } from '../api.js';
import { h, clear } from '../dom.js';
import { t, seatName } from '../i18n.js';
import { announce } from '../announce.js';
import { playMoveSound } from '../sound.js';
import { makeGeometry } from '../geometry.js';
import { createBoard } from '../render.js';
import { routeOf, capturesAlong } from '../moves.js';
import {
  initialInput, reduce, currentDestinations, previewedDestination, currentPrefix, panelItems, selectablePieces,
} from '../input.js';
import {
  viewerSeat, inputContext, mustCapture, cellNamer, describeMove, markedMoves, kingMustGoHome, nearDraws,
  destinationLabel, outcomeText, seatLabel, passOnly, humanToMove, isStar,
} from '../state.js';
import { topBar } from './common.js';

const ICONS = { undo: '↶', redo: '↷', new: '↻', mode: '⇄', resign: '⚑' };

export async function gameScreen(app, id, initial) {
  let view = initial || (app.pendingView && app.pendingView.id === id ? app.pendingView : null) || (await api.getGame(id));
  app.pendingView = null;
  app.lastGame = id;
  let input = initialInput();
  let busy = false;
  let thinking = false;
  let generation = 0;
  let destroyed = false;
  let frame = 0;
  let viewerOverride = null;
  let lastRotation = null;
  let resultShown = !!view.outcome;

  const kind = view.variant.kind;
  const el = h('section', { class: `screen game game-${kind}`, 'data-testid': 'game-screen', 'data-game': kind });
  const title = [h('span', { class: 'title-long' }, t('game.' + kind)), h('span', { class: 'title-short' }, t('game.' + kind + '.short'))];
  el.append(topBar(app, title, {
    back: '#/',
    extra: [h('a', { class: 'icon-btn', href: '#/rules/' + kind, 'aria-label': t('nav.rules'), 'data-testid': 'nav-rules' }, h('span', { 'aria-hidden': 'true' }, '?'))],
  }));
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('data-testid', 'board');
  svg.classList.add('board');
  const board = createBoard(svg, { label: t('board.label', { game: t('game.' + kind) }) });
  const passBoard = h('button', { type: 'button', class: 'btn btn-pass board-pass', 'data-testid': 'pass-board', hidden: true, onclick: () => pass() }, t('act.pass'));
  const boardWrap = h('div', { class: 'board-wrap' + (isStar(kind) ? ' star-wrap' : '') }, svg, passBoard);
  const statusLine = h('p', { class: 'status-line', 'data-testid': 'status-line', role: 'status' });
  const lastLine = h('p', { class: 'last-line', 'data-testid': 'last-move-text' });
  const counts = h('div', { class: 'counts', 'data-testid': 'counts' });
  const alerts = h('div', { class: 'alerts' });
  const panelTitle = h('h2', { class: 'panel-title', id: 'panel-title' });
  const panelList = h('div', { class: 'panel-list', role: 'group', 'aria-labelledby': 'panel-title' });
  const panel = h('div', { class: 'panel', 'data-testid': 'panel' }, panelTitle, panelList);
  const actionBtn = (key, label, onclick) => h('button', { type: 'button', class: 'act', 'data-testid': key, 'aria-label': label, title: label, onclick },
    h('span', { class: 'act-icon', 'aria-hidden': 'true' }, ICONS[key.split('-')[0]] || ''), h('span', { class: 'act-label' }, label));
  const undoBtn = actionBtn('undo', t('act.undo'), () => act('undo'));
  const redoBtn = actionBtn('redo', t('act.redo'), () => act('redo'));
  const newBtn = actionBtn('new-game', t('act.new'), () => newGame());
  const modeBtn = actionBtn('mode-change', t('act.mode'), () => app.go('#/setup/' + kind));
  modeBtn.setAttribute('data-testid', 'change-mode');
  const resignBtn = actionBtn('resign', t('act.resign'), () => resign());
  const actions = h('nav', { class: 'actions', 'aria-label': t('nav.menu') }, undoBtn, redoBtn, newBtn, modeBtn, resignBtn);
  const movesList = h('ol', { class: 'move-list', 'data-testid': 'move-list' });
  const movesSummary = h('summary', {});
  const movesBox = h('details', { class: 'moves' }, movesSummary, movesList);
  if (globalThis.matchMedia && matchMedia('(min-width: 900px) and (min-height: 600px)').matches) movesBox.open = true;
  const side = h('aside', { class: 'side' }, h('div', { class: 'status' }, statusLine, lastLine, counts, alerts), panel, movesBox, actions);
  el.append(h('div', { class: 'game-body' }, boardWrap, side));

  // ---------- state → model ----------

  const geometries = new Map();
  function geometryFor(seat) {
    const key = `${kind}:${view.variant.players}:${seat}`;
    if (!geometries.has(key)) geometries.set(key, makeGeometry(view.layout, { viewer: seat }));
    return { key, geometry: geometries.get(key) };
  }
  const ctx = () => inputContext(view, busy);
  const seatNames = () => view.seats.map((s) => (isStar(kind) && kind === 'capture' ? 'neutral' : s.name));

  function model() {
    const seat = viewerOverride ?? viewerSeat(view);
    const { key, geometry } = geometryFor(seat);
    const c = ctx();
    const prefix = currentPrefix(input);
    const coord = (name) => view.layout.cells.find((x) => x.name === name);
    let faded = new Set();
    if (prefix.length > 1) {
      const m = c.moves.find((mv) => routeOf(mv).slice(0, prefix.length).join() === prefix.join());
      if (m) faded = new Set(capturesAlong(prefix, m.captures || [], coord));
    }
    const pv = previewedDestination(input, c);
    if (pv) {
      // The pieces the previewed route would take are shown faded, as the route so far does.
      const m = c.moves.find((mv) => routeOf(mv).slice(0, pv.path.length).join() === pv.path.join());
      if (m) for (const cell of capturesAlong(pv.path, m.captures || [], coord)) faded.add(cell);
    }
    const selPiece = input.from ? view.pieces.find((p) => p.cell === input.from) : null;
    return {
      key, geometry, layout: view.layout, family: geometry.family, cellLabel: cellNamer(view, seat),
      seatNames: seatNames(),
      zones: kind === 'diamond' ? ['red', 'yellow', 'green'] : null,
      pieces: view.pieces,
      selected: input.phase === 'idle' || input.phase === 'moving' ? (input.phase === 'moving' ? input.from : null) : input.from,
      carried: prefix.length > 1 ? { from: prefix[0], at: prefix[prefix.length - 1] } : null,
      faded,
      mustCapture: new Set(input.phase === 'idle' ? mustCapture(view) : []),
      selectable: new Set(input.phase === 'idle' ? selectablePieces(c) : []),
      dests: input.phase === 'moving' ? [] : currentDestinations(input, c),
      preview: pv ? { cell: pv.cell, path: pv.path.slice(Math.max(0, prefix.length - 1)) } : null,
      ghostPiece: selPiece,
      route: prefix.length > 1 ? prefix : null,
      last: markedMoves(view).map((e) => ({ path: routeOf(e.move) })),
    };
  }

  function schedule() {
    if (frame || destroyed) return;
    frame = requestAnimationFrame(() => { frame = 0; draw(); });
  }

  function draw() {
    if (destroyed) return;
    const m = model();
    const turned = lastRotation != null && m.geometry.rotation !== lastRotation;
    const delta = turned ? (((m.geometry.rotation - lastRotation) % 360) + 540) % 360 - 180 : 0;
    lastRotation = m.geometry.rotation;
    board.update(m);
    // On one device the star turns to the player to move: ease into the new orientation. The
    // layout's angles are counter-clockwise with y up, so on screen the turn is the opposite way.
    if (turned && delta && app.motion() && svg.animate) {
      svg.animate([{ transform: `rotate(${delta}deg)` }, { transform: 'rotate(0deg)' }], { duration: 450, easing: 'ease-in-out' });
    }
    const vb = m.geometry.viewBox;
    boardWrap.style.setProperty('--ar', (vb.w / vb.h).toFixed(4));
    drawStatus();
    drawPanel();
    el.dataset.ply = String(view.ply);
    el.dataset.toMove = String(view.to_move);
    el.dataset.phase = input.phase;
    // Busy until a human may act: a move in flight or being drawn, or a CPU seat to move.
    el.dataset.busy = String(busy || thinking || (!!view.cpu_to_move && !view.outcome));
    el.dataset.over = String(!!view.outcome);
    el.dataset.viewer = String(viewerOverride ?? viewerSeat(view));
    el.dataset.gameId = view.id;
  }

  // ---------- status ----------

  function seatChip(seat, value, testid, shown = String(value)) {
    const s = view.seats.find((x) => x.seat === seat);
    const name = s ? s.name : String(seat + 1);
    return h('span', { class: `chip seat-${kind === 'capture' ? 'player' : name}` + (seat === view.to_move && !view.outcome ? ' to-move' : ''), 'data-testid': testid, 'data-seat': seat, 'data-value': value },
      h('span', { class: 'chip-dot', 'aria-hidden': 'true' }), h('span', { class: 'chip-name' }, seatName(name)), s && s.cpu ? h('small', { class: 'chip-cpu' }, 'CPU') : null, h('b', {}, shown));
  }

  function drawStatus() {
    const toMoveName = seatLabel(view, view.to_move);
    let line;
    if (view.outcome) line = outcomeText(view);
    else if (thinking || view.cpu_to_move) line = t('status.thinking', { name: toMoveName });
    else if (view.mode === 'cpu') line = t('status.yourturn', { name: toMoveName });
    else line = t('status.turn', { name: toMoveName });
    statusLine.textContent = line;
    statusLine.classList.toggle('thinking', !view.outcome && (thinking || view.cpu_to_move));
    statusLine.dataset.thinking = String(!view.outcome && (thinking || view.cpu_to_move));
    const last = view.history[view.history.length - 1];
    lastLine.textContent = last ? describeMove(view, last) : t('status.nomoves');
    drawMoves();
    clear(counts);
    if (kind === 'diamond') {
      counts.append(h('span', { class: 'counts-label' }, t('status.home')), ...view.seats.map((s) => seatChip(s.seat, s.stats.home ?? 0, 'count-home', `${s.stats.home ?? 0}/15`)));
    } else if (kind === 'capture') {
      counts.append(h('span', { class: 'counts-label' }, t('status.captures')), ...view.seats.map((s) => seatChip(s.seat, s.stats.captures ?? 0, 'count-captures')));
    } else {
      counts.append(h('span', { class: 'counts-label' }, t('status.pieces')), ...view.seats.map((s) => seatChip(s.seat, s.stats.pieces, 'count-pieces')));
    }
    clear(alerts);
    if (!view.outcome && kingMustGoHome(view, view.to_move) && view.human_seats.includes(view.to_move)) {
      alerts.append(h('p', { class: 'alert', 'data-testid': 'king-home' }, t('status.kingtohome')));
    }
    for (const d of nearDraws(view)) {
      alerts.append(h('p', { class: 'alert alert-draw', 'data-testid': 'draw-counter', 'data-reason': d.reason, 'data-plies': d.plies_left }, t('draw.' + d.reason, { n: d.plies_left })));
    }
    const passNow = passOnly(view) && !busy;
    passBoard.hidden = !passNow;
    undoBtn.disabled = !view.can_undo || busy;
    redoBtn.disabled = !view.can_redo || busy || thinking;
    resignBtn.disabled = !!view.outcome;
  }

  // The move list, in words; rebuilt only when the history changes.
  let listed = '';
  function drawMoves() {
    const sig = view.id + ':' + view.history.length + ':' + (view.history[view.history.length - 1]?.move.move || '');
    if (sig === listed) return;
    listed = sig;
    movesSummary.textContent = t('status.moves', { n: view.history.length });
    clear(movesList);
    view.history.forEach((e, i) => {
      movesList.append(h('li', { 'data-testid': 'move-item', 'data-move': e.move.move, 'data-seat': e.seat, 'data-ply': i + 1 }, describeMove(view, e)));
    });
    movesList.scrollTop = movesList.scrollHeight;
  }

  // ---------- button panel ----------

  function drawPanel() {
    const hadFocus = panel.contains(document.activeElement);
    const c = ctx();
    const items = panelItems(input, c);
    const name = cellNamer(view);
    clear(panelList);
    const choosingDest = input.phase === 'selected' || input.phase === 'previewing';
    panelTitle.textContent = view.outcome ? t('panel.over')
      : passOnly(view) ? t('status.mustpass')
      : !humanToMove(view) ? t('panel.wait')
      : choosingDest ? t('panel.dests') : t('panel.pieces');
    if (view.outcome) {
      panelList.append(h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'panel-rematch', onclick: () => showResult() }, outcomeText(view)));
    }
    if (passOnly(view)) {
      panelList.append(h('button', { type: 'button', class: 'btn btn-pass', 'data-testid': 'pass', onclick: () => pass(), disabled: busy }, t('act.pass')));
    }
    if (!choosingDest && input.phase === 'idle' && mustCapture(view).length) {
      panelList.append(h('p', { class: 'hint' }, t('panel.mustcapture')));
    }
    const prefix = currentPrefix(input);
    if (prefix.length > 1) panelList.append(h('p', { class: 'hint', 'data-testid': 'panel-continue' }, t('panel.continue', { cell: name(prefix[prefix.length - 1]) })));
    const focus = Math.min(input.focus, items.length - 1);
    const buttons = h('div', { class: 'panel-buttons' + (choosingDest ? ' dests' : ' pieces') });
    items.forEach((it, i) => {
      let label;
      let testid;
      if (it.kind === 'piece') {
        const p = view.pieces.find((x) => x.cell === it.cell);
        label = name(it.cell) + (p && p.king ? ' · ' + t('panel.king') : '');
        testid = 'panel-piece';
      } else {
        label = destinationLabel(view, it.dest, prefix);
        testid = 'panel-dest';
      }
      const isKing = it.kind === 'piece' && view.pieces.find((x) => x.cell === it.cell)?.king;
      const b = h('button', {
        type: 'button',
        class: 'pbtn' + (isKing ? ' pbtn-king' : '') + (input.preview === it.cell && it.kind === 'dest' ? ' on' : '') + (it.dest && it.dest.stop ? ' pbtn-stop' : ''),
        tabindex: i === focus ? '0' : '-1',
        'data-testid': testid,
        'data-cell': it.cell,
        'data-index': i,
        'aria-label': label,
        onclick: () => dispatch({ type: 'panel', index: i }),
        onfocus: () => { if (input.focus !== i && it.kind === 'dest') dispatch({ type: 'key', key: '__focus', index: i }); },
      }, isKing ? h('span', { class: 'crown-mark', 'aria-hidden': 'true' }, '♛') : null, label);
      buttons.append(b);
    });
    panelList.append(buttons);
    if (choosingDest) {
      panelList.append(h('button', { type: 'button', class: 'pbtn pbtn-back', 'data-testid': 'panel-back', onclick: () => dispatch({ type: 'key', key: 'Escape' }) }, '‹ ' + t('act.back')));
    }
    if (hadFocus) {
      const target = buttons.children[focus] || panelList.querySelector('button');
      if (target) target.focus({ preventScroll: true });
      else panel.focus?.();
    }
  }

  panel.addEventListener('keydown', (e) => {
    if (['ArrowDown', 'ArrowUp', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Escape', 'Enter', ' '].includes(e.key)) {
      if ((e.key === 'Enter' || e.key === ' ') && !e.target.closest('.panel-buttons')) return;
      e.preventDefault();
      dispatch({ type: 'key', key: e.key });
    }
  });
  panel.tabIndex = -1;

  // ---------- input ----------

  function dispatch(action) {
    if (action.key === '__focus') {
      // A destination button got focus by Tab or a click: preview it, as the arrows would.
      const items = panelItems(input, ctx());
      const it = items[action.index];
      if (it && it.kind === 'dest') { input = { ...input, phase: 'previewing', preview: it.cell, focus: action.index }; schedule(); }
      return;
    }
    const before = input;
    const r = reduce(input, action, ctx());
    input = r.state;
    for (const fx of r.effects) {
      if (fx.type === 'play') send(fx.move);
      if (fx.type === 'stop') announce(t('move.stopped', { cell: cellNamer(view)(fx.cell) }));
    }
    if (input.phase === 'selected' && before.from !== input.from) {
      announce(t('move.selected', { cell: cellNamer(view)(input.from), n: currentDestinations(input, ctx()).length }));
    }
    schedule();
  }

  function cellFromEvent(e) {
    const target = e.target && e.target.closest ? e.target.closest('[data-cell]') : null;
    if (target && svg.contains(target)) return target.getAttribute('data-cell');
    if (typeof e.clientX === 'number' && (e.clientX || e.clientY)) return board.cellAtClient(e.clientX, e.clientY);
    return null;
  }

  // Pointer Events only; synthetic touch events from tests are accepted (no isTrusted check).
  svg.addEventListener('pointerdown', (e) => {
    if (e.button > 0) return;
    const cell = cellFromEvent(e);
    if (cell == null) { dispatch({ type: 'tap', cell: null, pointer: e.pointerType || 'mouse' }); return; }
    dispatch({ type: 'tap', cell, pointer: e.pointerType || 'mouse' });
  });
  svg.addEventListener('pointermove', (e) => {
    if (e.pointerType !== 'mouse') return;
    dispatch({ type: 'hover', cell: cellFromEvent(e) });
  });
  svg.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'mouse') dispatch({ type: 'hover', cell: null });
  });

  // ---------- backend calls ----------

  async function send(move) {
    busy = true;
    schedule();
    try {
      const next = await api.playMove(view.id, move.move);
      await show(next);
    } catch (e) {
      app.toast(app.errorText(e));
      input = initialInput();
      busy = false;
      await refresh();
    }
  }

  function pass() {
    const m = view.legal_moves.find((x) => x.pass);
    if (m && !busy) send(m);
  }

  /** Shows a new view: the last move is drawn sliding along its path, then the CPU is asked. */
  async function show(next, { animate = true } = {}) {
    const prev = view;
    const grew = next.history.length === prev.history.length + 1 && next.id === prev.id;
    const entry = grew ? next.history[next.history.length - 1] : null;
    const removed = entry && entry.move.captures ? prev.pieces.filter((p) => entry.move.captures.includes(p.cell)) : [];
    view = next;
    input = initialInput();
    busy = true;
    if (entry && animate && app.motion()) {
      viewerOverride = viewerSeat(prev);
      draw();
      playMoveSound(entry.move);
      await board.animate(entry.move, { removed, seatNames: seatNames(), duration: entry.move.jumps || (entry.move.captures || []).length ? 200 : 160 });
      viewerOverride = null;
    } else if (entry) playMoveSound(entry.move, 0.02);
    if (destroyed) return;
    if (entry) announce(describeMove(view, entry));
    busy = false;
    draw();
    afterView();
  }

  function afterView() {
    if (view.outcome) {
      if (!resultShown) { resultShown = true; showResult(); }
      return;
    }
    resultShown = false;
    if (view.cpu_to_move) runCpu();
  }

  // One CPU call per generation: undo, redo, resign or a new game bump the generation, and a
  // reply from an older generation is dropped (the backend also rejects it as `cancelled`).
  let cpuCall = 0;
  let cpuGeneration = -1;
  async function runCpu() {
    if (destroyed || (thinking && cpuGeneration === generation)) return;
    const g = generation;
    const call = ++cpuCall;
    cpuGeneration = g;
    thinking = true;
    schedule();
    try {
      const next = await api.cpuMove(view.id);
      if (call !== cpuCall) return;
      thinking = false;
      if (g !== generation || destroyed) return;
      await show(next);
    } catch (e) {
      if (call !== cpuCall) return;
      thinking = false;
      if (destroyed) return;
      if (g !== generation) { schedule(); return; }
      if (e.code !== 'cancelled') app.toast(app.errorText(e));
      await refresh();
    }
  }

  async function refresh() {
    try {
      view = await api.getGame(view.id);
    } catch (e) {
      app.toast(app.errorText(e));
    }
    input = initialInput();
    schedule();
    afterView();
  }

  async function act(what) {
    generation++;
    busy = true;
    schedule();
    try {
      const next = await (what === 'undo' ? api.undo(view.id) : api.redo(view.id));
      thinking = false;
      busy = false;
      await show(next, { animate: what === 'redo' });
    } catch (e) {
      busy = false;
      app.toast(app.errorText(e));
      await refresh();
    }
  }

  async function newGame() {
    generation++;
    try {
      const setup = {
        variant: view.variant, mode: view.mode,
        level: view.level || undefined,
        human_seats: view.mode === 'cpu' ? view.human_seats : undefined,
      };
      const next = await api.newGame(setup);
      app.pendingView = next;
      app.go('#/game/' + next.id);
    } catch (e) {
      app.toast(app.errorText(e));
    }
  }

  async function resign() {
    const detail = view.variant.players >= 3 && kind === 'diamond' ? t('act.resign.confirm3') : undefined;
    if (!(await app.confirm(t('act.resign.confirm'), { detail }))) return;
    generation++;
    try {
      thinking = false;
      await show(await api.resign(view.id), { animate: false });
    } catch (e) {
      app.toast(app.errorText(e));
    }
  }

  function showResult() {
    const d = app.dialog;
    clear(d);
    d.className = 'result';
    d.onclose = null;
    d.setAttribute('data-testid', 'result');
    const o = view.outcome;
    const rematchLabel = view.variant.players > 2 ? t('act.rematch.rotate') : t('act.rematch');
    d.append(
      h('p', { class: 'result-kicker' }, t('result.title')),
      h('h2', { 'data-testid': 'result-text', 'data-winner': o.winner == null ? 'draw' : o.winner, 'data-reason': o.reason }, outcomeText(view)),
      h('p', { class: 'result-reason' }, t('reason.' + o.reason)),
      h('div', { class: 'dialog-actions' },
        h('button', { type: 'button', class: 'btn', 'data-testid': 'result-close', onclick: () => d.close() }, t('act.viewboard')),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'result-home', onclick: () => { d.close(); app.go('#/'); } }, t('nav.home')),
        h('button', {
          type: 'button', class: 'btn btn-primary', 'data-testid': 'rematch', autofocus: true,
          onclick: async () => {
            d.close();
            try {
              const next = await api.rematch(view.id);
              app.pendingView = next;
              app.go('#/game/' + next.id);
            } catch (e) { app.toast(app.errorText(e)); }
          },
        }, rematchLabel)),
    );
    announce(outcomeText(view) + '. ' + t('reason.' + o.reason));
    if (!d.open) d.showModal();
  }

  draw();
  // Resuming: a CPU seat to move thinks at once; a finished game shows its board.
  setTimeout(() => afterView(), 0);

  return {
    el,
    name: 'game',
    destroy() {
      destroyed = true;
      generation++;
      if (frame) cancelAnimationFrame(frame);
    },
    // For tests and debugging in the browser console.
    debug: { get view() { return view; }, get input() { return input; } },
  };
}
