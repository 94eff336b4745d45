// A friends' room (#/room/<code>, or #/room/new right after "Open the room" in the setup):
// the join page for a visitor (nickname, "Join", or "Watch" when the seats are taken), the lobby
// (seats, the link with Copy/Share, the code in large letters, "Start with the CPU in the free
// seats") and, once the game starts, the offline game screen on the room's backend with the seat
// list (connection, takeover countdown, clocks) beside the board. The socket comes from api.js.

import { api, inApp, openRoom, roomServerFor } from '../api.js';
import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { topBar } from './common.js';
import { gameScreen } from './game.js';
import {
  roomGameView, seatState, seatLine, clockFace, formatClock, roomLink, hasFreeSeat, cleanNickname, roomResultFor,
  normaliseCode, formatCode,
} from '../rooms.js';
import { renderSVG } from '../../vendor/uqr/index.mjs';
import { savedNickname, saveNickname } from '../nickname.js';
import { createOfferControls, pairingNotes, ratingLines, showPairingLine, rememberPairing, recallPairing } from './room-play.js';

/** The seat list of a room: one line per seat, redrawn on each state and each second. */
export function createSeatList({ notes = () => new Map() } = {}) {
  const list = h('ol', { class: 'room-seats', 'data-testid': 'room-seats', 'aria-label': t('room.seats') });
  const banner = h('p', { class: 'room-banner', 'data-testid': 'room-connection', role: 'status', hidden: true });
  const el = h('div', { class: 'room-seat-list' }, banner, list);
  function update(room, you, status) {
    const noteOf = notes(room, you);
    banner.hidden = status === 'open';
    banner.textContent = status === 'open' ? '' : t(status === 'connecting' ? 'room.connecting' : 'room.reconnecting');
    banner.dataset.status = status;
    clear(list);
    const toMove = room.started && !room.result ? room.view.to_move : null;
    for (const seat of room.seats) {
      const state = seatState(room, seat.seat, you);
      const words = seatLine(room, seat.seat, you);
      const clock = clockFace(room, seat.seat);
      let clockText = null;
      if (clock) {
        clockText = clock.byoyomi
          ? `${t('room.clock.byoyomi', { n: clock.periods })} · ${formatClock(clock.period_ms)}`
          : `${formatClock(clock.main_ms)} ${clock.periods ? t('room.clock.periods', { n: clock.periods, s: Math.round(room.clock.settings.period_ms / 1000) }) : ''}`.trim();
      }
      list.append(h('li', {
        class: `room-seat seat-${room.game.kind === 'capture' ? 'player' : seat.color}` + (seat.seat === toMove ? ' to-move' : '') + (seat.seat === you ? ' mine' : ''),
        'data-testid': 'room-seat', 'data-seat': seat.seat, 'data-state': state, 'data-connected': String(seat.connected),
      },
      h('span', { class: 'chip-dot', 'aria-hidden': 'true' }),
      h('span', { class: 'room-seat-colour' }, words.colour),
      h('b', { class: 'room-seat-name', 'data-testid': 'room-seat-name' }, words.name),
      noteOf.has(seat.seat) ? h('span', { class: 'room-seat-rating', 'data-testid': 'room-seat-rating' }, noteOf.get(seat.seat)) : null,
      words.state ? h('small', { class: 'room-seat-state', 'data-testid': 'room-seat-state' }, words.state) : null,
      clockText ? h('span', { class: 'room-clock' + (clock.running ? ' running' : '') + (clock.byoyomi ? ' byoyomi' : ''), 'data-testid': 'room-clock', 'data-main-ms': clock.main_ms, 'data-periods': clock.periods }, clockText) : null));
    }
  }
  return { el, update };
}

/** Something in the seat list changes by itself (a running clock, a takeover countdown). */
function ticking(room) {
  if (room.clock && room.clock.running != null && !room.result) return true;
  return room.seats.some((s) => s.takeover_at != null && !s.cpu_playing && !s.connected && !s.left);
}

export async function roomScreen(app, code) {
  // A link or a typed route may carry the code in another case or in groups.
  if (code !== 'new') code = normaliseCode(code) ?? code;
  const el = h('section', { class: 'screen room', 'data-testid': 'room-screen' });
  const body = h('div', { class: 'scroll room-body' });
  el.append(topBar(app, t('room.title'), { back: '#/' }), body);
  const screen = {
    el, name: 'room', home: '#/room/' + code, destroy, redraw: () => game?.redraw?.(), carry: () => game?.carry?.() ?? null,
    // For tests and the browser console: the server's last state and this device's seat.
    debug: { get room() { return socket?.room ?? null; }, get you() { return you; } },
  };
  let socket = null;

  // Paired from a pool (screens/pool.js): that socket already holds the seat.
  const handoff = app.roomHandoff && app.roomHandoff.code === code ? app.roomHandoff : null;
  app.roomHandoff = null;
  let server = handoff ? handoff.server : null;
  try {
    // A game in progress goes back to the server its seat is on.
    if (!handoff) server = await roomServerFor(code);
  } catch (e) {
    app.toast(app.errorText(e));
  }
  if (!server) {
    body.append(h('p', { class: 'hint', 'data-testid': 'room-noserver' }, t('room.noserver')),
      h('a', { class: 'btn', href: '#/settings' }, t('nav.settings')));
    return screen;
  }
  const opened = handoff ? handoff.opened : await openRoom(server);
  socket = opened.socket;
  const backend = opened.backend;
  const tokens = opened.tokens;
  let you = null;
  let game = null;
  let gameEl = null;
  let lastRematch = null;
  let destroyed = false;
  let tick = 0;
  // A pairing's opponent and ratings, kept with the seat token for a reload.
  const pairing = handoff?.pairing ?? recallPairing(code);
  if (handoff) rememberPairing(code, pairing);
  const seats = createSeatList({ notes: (room, seat) => pairingNotes(room, seat, pairing) });
  const pairingEl = h('p', { class: 'room-pairing', 'data-testid': 'room-pairing', hidden: true });
  const offers = createOfferControls(app, socket);
  const ratingSlot = h('div', { class: 'result-ratings-slot' });
  const off = [];

  off.push(socket.on('state', ({ you: seat, room }) => {
    you = seat;
    showRoom(room);
  }));
  off.push(socket.on('status', () => { if (socket.room) seats.update(socket.room, you, socket.status); }));
  off.push(socket.on('error', (e) => app.toast(app.errorText(e))));
  off.push(socket.on('closed', () => { app.toast(app.errorText({ code: 'no_such_room' })); app.go('#/'); }));
  off.push(socket.on('replaced', () => { app.toast(t('room.replaced')); app.go('#/'); }));
  socket.connect();

  // How this device comes into the room: creating it, taking its seat back, or as a visitor.
  const creating = code === 'new' ? app.roomToCreate : null;
  app.roomToCreate = null;
  if (code === 'new' && !creating) {
    // A reload of #/room/new: nothing to create any more.
    destroy();
    app.go('#/');
    return screen;
  }
  const held = code !== 'new' ? tokens.get(code) : null;
  try {
    if (handoff) {
      // Shown at the end of this function, once everything showRoom uses is set up.
      you = socket.place?.seat ?? null;
    } else if (creating) {
      const joined = await socket.create(creating.game, creating.nickname, creating.clock);
      code = joined.code;
      screen.home = '#/room/' + code;
      history.replaceState(null, '', '#/room/' + code);
    } else if (held && held.token) {
      await socket.resume(code, held.token);
    } else {
      // An unknown code is said at once, before a nickname is asked; a code typed in another
      // form comes back canonical.
      const info = await socket.lookup(code);
      if (info.code && info.code !== code) {
        code = info.code;
        screen.home = '#/room/' + code;
        history.replaceState(null, '', '#/room/' + code);
      }
      showJoin();
    }
  } catch (e) {
    if (e.code === 'bad_token' || e.code === 'no_such_room' || held) {
      if (e.code === 'no_such_room') {
        app.toast(app.errorText(e));
        destroy();
        app.go('#/');
        return screen;
      }
      showJoin();
    } else {
      app.toast(app.errorText(e));
    }
  }

  function showJoin() {
    clear(body);
    const input = h('input', {
      type: 'text', id: 'nickname', maxlength: '24', autocomplete: 'nickname', 'data-testid': 'nickname',
      value: savedNickname(), autofocus: true, enterkeyhint: 'go',
    });
    const message = h('p', { class: 'hint', 'data-testid': 'join-message', role: 'status' });
    const joinBtn = h('button', { type: 'button', class: 'btn btn-primary btn-big', 'data-testid': 'join' }, t('room.join'));
    const watchBtn = h('button', { type: 'button', class: 'btn btn-big', 'data-testid': 'watch' }, t('room.watch'));
    const join = async () => {
      const nickname = cleanNickname(input.value);
      if (!nickname) {
        message.textContent = t('room.nickname.bad');
        input.focus();
        return;
      }
      saveNickname(nickname);
      joinBtn.disabled = true;
      try {
        await socket.join(code, nickname);
      } catch (e) {
        joinBtn.disabled = false;
        if (e.code === 'room_full') {
          message.textContent = t('room.full');
          joinBtn.hidden = true;
          watchBtn.classList.add('btn-primary');
          watchBtn.focus();
        } else message.textContent = app.errorText(e);
      }
    };
    joinBtn.addEventListener('click', join);
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') join(); });
    watchBtn.addEventListener('click', async () => {
      try { await socket.watch(code); } catch (e) { message.textContent = app.errorText(e); }
    });
    body.append(h('div', { class: 'room-join setup-form', 'data-testid': 'room-join' },
      h('h2', {}, t('room.join.title')),
      h('p', { class: 'room-code-small' }, t('room.code') + ': ', h('code', {}, formatCode(code))),
      h('label', { class: 'field', for: 'nickname' }, h('h2', {}, t('setup.nickname')), input),
      message, joinBtn, watchBtn));
    el.dataset.phase = 'join';
    root()?.querySelector('#nickname')?.focus();
  }

  function root() { return el.isConnected ? el : null; }

  function showLobby(room) {
    const link = roomLink(server.link, room.code);
    const seated = you != null;
    clear(body);
    const copy = h('button', {
      type: 'button', class: 'btn', 'data-testid': 'copy-link',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
          app.toast(t('room.copied'));
        } catch {
          linkField.select();
        }
      },
    }, t('room.copy'));
    const linkField = h('input', { type: 'text', readonly: true, value: link, 'data-testid': 'room-link', 'aria-label': t('room.link'), onfocus: (e) => e.target.select() });
    const share = navigator.share ? h('button', {
      type: 'button', class: 'btn', 'data-testid': 'share-link',
      onclick: () => navigator.share({ title: t('app.title'), url: link }).catch(() => {}),
    }, t('room.share')) : null;
    body.append(h('div', { class: 'room-lobby setup-form', 'data-testid': 'room-lobby', 'data-code': room.code },
      h('h2', {}, t('game.' + room.game.kind)),
      h('div', { class: 'field' }, h('h2', {}, t('room.code')), h('p', { class: 'room-code', 'data-testid': 'room-code' }, formatCode(room.code))),
      h('div', { class: 'field' }, h('h2', {}, t('room.link')), h('div', { class: 'room-link-row' }, linkField, copy, share)),
      // The QR code of the link, for a friend's phone camera (uqr, vendored; its own SVG markup).
      h('figure', { class: 'room-qr', 'data-testid': 'room-qr', 'data-link': link, role: 'img', 'aria-label': t('room.qr'), html: renderSVG(link, { border: 2 }) }),
      h('div', { class: 'field' }, h('h2', {}, t('room.seats')), seats.el),
      h('p', { class: 'hint' }, t('room.waiting')),
      seated ? h('button', {
        type: 'button', class: 'btn btn-primary btn-big', 'data-testid': 'start-cpu', disabled: !hasFreeSeat(room),
        onclick: () => socket.startCpu().catch((e) => app.toast(app.errorText(e))),
      }, t('room.startcpu')) : h('p', { class: 'hint' }, t('room.spectator')),
      seated ? h('button', {
        type: 'button', class: 'btn btn-big', 'data-testid': 'leave-room',
        onclick: async () => { try { await socket.leave(); } catch { /* gone anyway */ } app.go('#/'); },
      }, t('room.leave.lobby')) : null));
    el.dataset.phase = 'lobby';
  }

  async function showGame(room) {
    const view = roomGameView(room, you);
    const actions = [];
    if (room.game.players > 2) {
      actions.push(h('button', {
        type: 'button', class: 'act', 'data-testid': 'room-leave', 'aria-label': t('room.leave'), title: t('room.leave'),
        onclick: async () => {
          if (!(await app.confirm(t('room.leave.confirm')))) return;
          try { await socket.leave(); } catch (e) { app.toast(app.errorText(e)); return; }
          app.go('#/');
        },
      }, h('span', { class: 'act-icon', 'aria-hidden': 'true' }, '⇥'), h('span', { class: 'act-label' }, t('room.leave'))));
    }
    const two = room.game.players === 2;
    game = await gameScreen(app, room.code, view, {
      room: {
        backend: backend(() => you),
        seats: h('div', { class: 'room-side' }, pairingEl, seats.el, two ? offers.banner : null),
        actions: two ? offers.actions : actions,
        keepResign: two,
        resultNote: () => ratingSlot,
        rematch: async () => { try { await socket.rematch(); } catch (e) { app.toast(app.errorText(e)); } },
        // After this seat's result is recorded (or found already there): what it gave.
        candies: inApp() ? async () => {
          await recording;
          return api.getCandies(-new Date().getTimezoneOffset());
        } : null,
      },
    });
    if (destroyed) { game.destroy(); return; }
    // The game screen brings its own top bar; the room's goes.
    clear(el);
    gameEl = game.el;
    el.append(gameEl);
    el.classList.add('room-playing');
    el.dataset.phase = 'game';
    gameEl.querySelector('h1')?.focus({ preventScroll: true });
    // States that came while the screen was being built.
    if (socket.room && socket.room.version !== room.version) game.receive(roomGameView(socket.room, you));
  }

  let mounting = null;
  async function showRoom(room) {
    if (destroyed) return;
    seats.update(room, you, socket.status);
    showPairingLine(pairingEl, room);
    offers.update(room, you);
    ratingSlot.replaceChildren(...[ratingLines(room, you)].filter(Boolean));
    el.dataset.you = you == null ? 'spectator' : String(you);
    el.dataset.code = room.code;
    el.dataset.started = String(room.started);
    el.dataset.rematch = String(room.rematch);
    // Recorded before the game screen sees the end, so its result dialog finds it.
    recordResult(room);
    if (!room.started) {
      // Built once (focus and selection stay); later states only redraw the seats.
      if (!game && el.dataset.phase !== 'lobby') showLobby(room);
      else if (!game) {
        const startCpu = body.querySelector('[data-testid=start-cpu]');
        if (startCpu) startCpu.disabled = !hasFreeSeat(room);
      }
    } else if (!game) {
      if (!mounting) mounting = showGame(room);
    } else {
      if (lastRematch != null && room.rematch !== lastRematch && app.dialog.open && app.dialog.className === 'result') app.dialog.close();
      game.receive(roomGameView(room, you));
    }
    lastRematch = room.rematch;
    if (!tick && ticking(room)) tick = setInterval(onTick, 1000);
    if (tick && !ticking(room)) { clearInterval(tick); tick = 0; }
  }

  // The app's rewards: each room game this device finished in its seat, once (the app also
  // refuses a second record of the same room code and rematch number).
  const recorded = new Set();
  // The last recording sent, for the result dialog's candies.
  let recording = Promise.resolve();
  function recordResult(room) {
    const game = inApp() ? roomResultFor(room, you) : null;
    if (!game || recorded.has(game.rematch)) return;
    recorded.add(game.rematch);
    recording = api.recordRoomResult(game).catch(() => recorded.delete(game.rematch));
  }

  function onTick() {
    if (socket.room) seats.update(socket.room, you, socket.status);
  }

  function destroy() {
    destroyed = true;
    if (tick) clearInterval(tick);
    tick = 0;
    for (const f of off) f();
    game?.destroy();
    socket.close();
  }

  // Paired from a pool: the room's state came on the pool's socket already.
  if (handoff && socket.room && !destroyed) showRoom(socket.room);
  return screen;
}
