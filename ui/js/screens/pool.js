// "Play someone" searching (#/pool/<game>?rated=1): waits in the server's pairing pool with the
// game, casual or rated, and its clock on screen, the time waited (ticking once a second while the
// page is seen), and Cancel. Paired, the room screen takes over the same socket (app.roomHandoff)
// and shows both names and ratings, or plainly the CPU when it stood in. docs/protocol.md
// "Pairing pools"; the state itself is ui/js/pool.js.

import { openRoom, roomServer } from '../api.js';
import { accountState } from '../account.js';
import { h } from '../dom.js';
import { t, language } from '../i18n.js';
import { announce } from '../announce.js';
import { topBar } from './common.js';
import { savedNickname } from '../nickname.js';
import {
  initialSearch, searchStep, searchTicks, waitedSeconds, formatWaited, hasPool, POOL_CLOCKS, opponentOf, ratedKind,
} from '../pool.js';
import { formatRating } from '../rating-display.js';

const clockText = (kind) => t(POOL_CLOCKS[kind].main_ms === 300000 ? 'setup.clock.5' : 'setup.clock.10');

export async function poolScreen(app, kind, rated) {
  if (!hasPool(kind)) kind = 'english';
  const asked = app.poolToJoin && app.poolToJoin.kind === kind ? app.poolToJoin : null;
  app.poolToJoin = null;
  const nickname = asked?.nickname || savedNickname();
  if (!nickname) {
    // A reload with no nickname kept: choose one in the setup first.
    app.go('#/setup/' + kind);
    return null;
  }
  let state = initialSearch(kind, rated);
  const el = h('section', { class: 'screen pool', 'data-testid': 'pool-screen', 'data-game': kind, 'data-rated': String(!!rated) });
  const waited = h('p', { class: 'pool-waited', 'data-testid': 'pool-waited', 'data-seconds': '0' }, formatWaited(0));
  const rating = h('p', { class: 'pool-rating', 'data-testid': 'pool-rating', hidden: true });
  const message = h('p', { class: 'hint pool-message', 'data-testid': 'pool-message', role: 'status' }, t('pool.connecting'));
  const cancel = h('button', { type: 'button', class: 'btn btn-big', 'data-testid': 'pool-cancel', onclick: () => leave() }, t('pool.cancel'));
  const retry = h('button', { type: 'button', class: 'btn btn-primary btn-big', 'data-testid': 'pool-retry', hidden: true, onclick: () => join() }, t('pool.retry'));
  const signIn = h('a', { class: 'btn btn-big', href: '#/settings', 'data-testid': 'pool-sign-in', hidden: true }, t('pool.signin'));
  el.append(topBar(app, t('pool.title'), { back: '#/setup/' + kind }),
    h('div', { class: 'scroll setup-form pool-body' },
      h('div', { class: 'pool-card' },
        h('h2', { 'data-testid': 'pool-game' }, t('game.' + kind)),
        h('p', { class: 'pool-desc', 'data-testid': 'pool-desc' }, [t(rated ? 'pool.rated' : 'pool.casual'), clockText(kind)].join(' · ')),
        // The time waited is read out on request (it is a timer), not every second.
        h('div', { class: 'pool-wait', role: 'timer', 'aria-label': t('pool.waited') }, h('span', { class: 'pool-wait-label', 'aria-hidden': 'true' }, t('pool.waited')), waited),
        rating,
        message,
        h('p', { class: 'hint' }, t('pool.cpu.hint'))),
      retry, signIn, cancel));
  const screen = { el, name: 'pool', destroy };

  let socket = null;
  // Whether this account's rating in the game is still provisional (from `signed_in`).
  let provisional = false;
  let handedOff = false;
  let destroyed = false;
  let timer = 0;
  const off = [];

  function set(event) {
    state = searchStep(state, event);
    draw();
  }

  function draw() {
    el.dataset.phase = state.phase;
    const seconds = waitedSeconds(state, Date.now());
    waited.textContent = formatWaited(seconds);
    waited.dataset.seconds = String(seconds);
    if (state.rating != null && rated) {
      rating.textContent = t('pool.yourrating', { rating: formatRating(state.rating, { provisional, lang: language() }) });
      rating.hidden = false;
    }
    const texts = {
      joining: t('pool.connecting'),
      waiting: t('pool.searching'),
      left: t('pool.cancelled'),
      paired: t('pool.paired'),
      failed: app.errorText({ code: state.error }),
    };
    message.textContent = texts[state.phase];
    retry.hidden = state.phase !== 'failed' || state.error === 'sign_in_required' || state.error === 'bad_session';
    signIn.hidden = !(state.phase === 'failed' && (state.error === 'sign_in_required' || state.error === 'bad_session'));
    cancel.hidden = state.phase === 'paired';
    cancel.textContent = state.phase === 'failed' || state.phase === 'left' ? t('nav.back') : t('pool.cancel');
    syncTimer();
  }

  // Once a second while searching and while the page is seen; nothing runs otherwise.
  function syncTimer() {
    const on = !destroyed && searchTicks(state, document.visibilityState !== 'hidden');
    if (on && !timer) timer = setInterval(draw, 1000);
    if (!on && timer) { clearInterval(timer); timer = 0; }
  }
  const onVisibility = () => draw();
  document.addEventListener('visibilitychange', onVisibility);

  async function join() {
    if (destroyed || !socket) return;
    set({ type: 'rejoin' });
    try {
      if (rated) {
        const session = accountState.token();
        if (!session) { set({ type: 'error', code: 'sign_in_required' }); return; }
        try {
          const signed = await socket.signIn(session);
          const own = (signed.ratings || []).find((r) => r.kind === ratedKind(kind));
          provisional = !!own?.provisional;
        } catch (e) {
          if (e.code === 'bad_session') accountState.clear();
          throw e;
        }
      }
      const m = await socket.poolJoin({ kind, rated: !!rated }, nickname);
      set({ type: 'waiting', pool: m.pool, rating: m.rating, cpu_at: m.cpu_at, at: Date.now() });
    } catch (e) {
      if (e.code === 'bad_session') accountState.clear();
      // A dropped connection asks again by itself when it is back.
      if (e.code !== 'disconnected') set({ type: 'error', code: e.code });
    }
  }

  async function leave() {
    if (state.phase === 'waiting' || state.phase === 'joining') {
      try {
        const m = await socket.poolLeave();
        if (m.type === 'paired') return; // paired meanwhile: the pairing stands and opens
      } catch { /* not in the pool any more: gone anyway */ }
      set({ type: 'left' });
    }
    app.go('#/setup/' + kind);
  }

  function onPool(m) {
    if (m.type !== 'paired' || destroyed) return;
    set({ type: 'paired', code: m.code, opponent: m.opponent, rated: m.rated });
    const opponent = opponentOf(m.opponent);
    announce(opponent.cpu ? t('pool.paired.cpu', { level: t('level.' + opponent.level) }) : t('pool.paired.with', { name: opponent.nickname }));
  }

  function onState({ room }) {
    // The pairing's room, joined: the room screen goes on with this socket.
    if (state.phase !== 'paired' || room.code !== state.code || destroyed) return;
    handedOff = true;
    app.roomHandoff = {
      code: room.code, opened, server,
      pairing: { opponent: state.opponent, rated: state.rated, rating: state.rating, provisional, kind },
    };
    app.go('#/room/' + room.code);
  }

  let opened = null;
  let server = null;
  try {
    server = await roomServer();
    if (!server) {
      set({ type: 'error', code: 'no_server' });
      return screen;
    }
    opened = await openRoom(server);
  } catch (e) {
    set({ type: 'error', code: e.code || 'unknown' });
    return screen;
  }
  socket = opened.socket;
  off.push(socket.on('pool', onPool));
  off.push(socket.on('state', onState));
  let dropped = false;
  off.push(socket.on('status', (status) => {
    if (status === 'reconnecting') dropped = true;
    // Back after a drop: the server forgot the player's place in the pool; ask again.
    if (status === 'open' && dropped && state.phase !== 'paired' && state.phase !== 'left') {
      dropped = false;
      join();
    }
  }));
  socket.connect();
  join();
  draw();

  function destroy() {
    destroyed = true;
    document.removeEventListener('visibilitychange', onVisibility);
    if (timer) clearInterval(timer);
    timer = 0;
    for (const f of off) f();
    if (!socket || handedOff) return;
    // Leaving the screen leaves the pool (closing the socket does too).
    if (state.phase === 'waiting' || state.phase === 'joining') socket.poolLeave().catch(() => {});
    socket.close();
  }

  return screen;
}
