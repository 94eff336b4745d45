// Home: the five games, the unfinished games to resume or delete, and the online games in
// progress this device holds a seat in (kept by the app in rooms.json, api.js `roomGames`).

import { api, roomGames } from '../api.js';
import { h } from '../dom.js';
import { t } from '../i18n.js';
import { seatName } from '../i18n.js';
import { GAMES, topBar, gameIcon, miniBoard, relativeTime } from './common.js';
import { codeFromInput } from '../rooms.js';
import { showImport } from './share.js';

// Finished games listed for replay: the most recent ones.
const FINISHED_SHOWN = 10;
// Rows of a list shown before its "Show all" button: the latest few.
const ROWS_SHOWN = 3;

export async function homeScreen(app) {
  let saved = [];
  let finished = [];
  try {
    const all = await api.listSaved();
    saved = all.filter((g) => !g.finished);
    finished = all.filter((g) => g.finished).slice(0, FINISHED_SHOWN);
  } catch (e) {
    app.toast(app.errorText(e));
  }
  // Each row's position and seats, for its picture and "you play …" (a row whose game cannot be
  // read is still listed, without them).
  const views = await Promise.all(saved.map((g) => api.getGame(g.id).catch(() => null)));
  const el = h('section', { class: 'screen home', 'data-testid': 'home-screen' });
  el.append(topBar(app, t('app.title'), { back: null }));
  const main = h('div', { class: 'scroll' });
  el.append(main);
  for (const n of app.notices) {
    const box = h('div', { class: 'notice', role: 'alert', 'data-testid': 'notice', 'data-code': n.code },
      h('p', {}, t('notice.' + n.code) !== 'notice.' + n.code ? t('notice.' + n.code) : n.message),
      n.message ? h('p', { class: 'notice-detail' }, n.message) : null,
      h('button', { type: 'button', class: 'btn', onclick: () => { app.notices = app.notices.filter((x) => x !== n); box.remove(); } }, t('act.ok')));
    main.append(box);
  }
  // Right after launch, the last game played is offered first.
  if (app.offerLastGame && saved.length) {
    app.offerLastGame = false;
    const g = saved[0];
    const offer = h('div', { class: 'resume-offer', role: 'region', 'aria-labelledby': 'resume-offer-title', 'data-testid': 'resume-last', 'data-id': g.id },
      views[0] ? miniBoard(views[0]) : gameIcon(g.variant.kind),
      h('div', { class: 'saved-info' },
        h('strong', { id: 'resume-offer-title' }, t('home.lastgame', { game: t('game.' + g.variant.kind) })),
        h('span', {}, rowDetails(g, views[0]))),
      h('div', { class: 'saved-actions' },
        h('a', { class: 'btn btn-primary', href: '#/game/' + g.id, 'data-testid': 'resume-last-go', autofocus: true }, t('home.resume')),
        h('button', { type: 'button', class: 'btn', 'data-testid': 'resume-last-dismiss', onclick: () => offer.remove() }, t('home.notnow'))));
    main.append(offer);
  }
  main.append(h('p', { class: 'tagline' }, t('app.tagline')));
  // Rewards: today's candies (games of at least 16 moves: CPU wins, friends' room games; within a
  // daily budget).
  const candies = await api.getCandies(-new Date().getTimezoneOffset()).catch(() => null);
  if (candies && candies.total > 0) {
    main.append(h('p', { class: 'candies', 'data-testid': 'candies', 'data-today': candies.today, 'data-total': candies.total },
      h('span', { class: 'candy-mark', 'aria-hidden': 'true' }), t('home.candies', { today: candies.today, budget: candies.budget, total: candies.total })));
  }
  // New game first: the five games come before the lists (a player with many unfinished games
  // still starts one without scrolling past them).
  const cards = h('ul', { class: 'game-cards', 'aria-labelledby': 'games-title' });
  for (const kind of GAMES) {
    cards.append(h('li', {},
      h('a', { class: 'game-card', href: '#/setup/' + kind, 'data-testid': 'game-card', 'data-game': kind },
        gameIcon(kind),
        h('span', { class: 'game-name' }, t('game.' + kind)),
        h('span', { class: 'game-blurb' }, t('game.' + kind + '.blurb'))),
      h('a', { class: 'rules-link', href: '#/rules/' + kind, 'data-testid': 'rules-link', 'data-game': kind }, t('home.rules'))));
  }
  main.append(h('h2', { id: 'games-title', 'data-testid': 'games-title' }, t('home.games')), cards);
  const rooms = await roomGames().catch(() => []);
  if (rooms.length) {
    const roomList = h('ul', { class: 'saved-list', 'data-testid': 'room-list' });
    for (const r of rooms) {
      const kind = GAMES.includes(r.kind) ? r.kind : null;
      const game = kind ? t('game.' + kind) : t('room.title');
      // Tapping resumes: the room screen takes the seat back with the kept token.
      roomList.append(h('li', { class: 'saved-row', 'data-testid': 'room-row', 'data-code': r.code, 'data-game': kind || '' },
        gameIcon(kind || 'diamond'),
        h('div', { class: 'saved-info' },
          h('strong', {}, t('home.room.inprogress')),
          h('span', {}, game),
          h('span', {}, [r.nickname, r.code].filter(Boolean).join(' · ')),
          r.at ? h('span', {}, relativeTime(r.at)) : null),
        h('div', { class: 'saved-actions' },
          h('a', { class: 'btn btn-primary', href: '#/room/' + r.code, 'data-testid': 'room-resume', 'aria-label': t('home.room.inprogress') + ': ' + game }, t('home.resume')))));
    }
    main.append(h('h2', {}, t('home.rooms')), roomList, showAll(roomList, 'rooms-all'));
  }
  const list = h('ul', { class: 'saved-list', 'data-testid': 'saved-list' });
  if (!saved.length) list.append(h('li', { class: 'empty' }, t('home.none')));
  saved.forEach((g, i) => {
    const view = views[i];
    const played = new Date(g.last_played);
    const row = h('li', { class: 'saved-row', 'data-testid': 'saved-row', 'data-id': g.id, 'data-game': g.variant.kind, 'data-ply': g.ply },
      view ? miniBoard(view) : gameIcon(g.variant.kind),
      h('div', { class: 'saved-info' },
        h('strong', {}, t('game.' + g.variant.kind)),
        h('span', { 'data-testid': 'saved-seat' }, seatDetails(g, view)),
        h('span', {}, [t('home.moves', { n: g.ply }), t('home.turn', { name: seatName(g.to_move_name) })].join(' · ')),
        h('time', { datetime: played.toISOString(), title: played.toLocaleString(document.documentElement.lang, { dateStyle: 'medium', timeStyle: 'short' }), 'data-testid': 'saved-when' }, relativeTime(g.last_played))),
      h('div', { class: 'saved-actions' },
        h('a', { class: 'btn btn-primary', href: '#/game/' + g.id, 'data-testid': 'resume', 'aria-label': t('home.resume') + ': ' + t('game.' + g.variant.kind) }, t('home.resume')),
        h('button', {
          type: 'button', class: 'btn', 'data-testid': 'delete', 'aria-label': t('home.delete') + ': ' + t('game.' + g.variant.kind),
          onclick: async () => {
            if (!(await app.confirm(t('home.delete.confirm')))) return;
            try { await api.deleteSaved(g.id); row.remove(); fillShown(list); } catch (e) { app.toast(app.errorText(e)); }
          },
        }, t('home.delete'))));
    list.append(row);
  });
  main.append(h('h2', {}, t('home.unfinished')), list, showAll(list, 'saved-all'));
  main.append(joinWithCode(app));
  if (finished.length) {
    const done = h('ul', { class: 'saved-list finished-list', 'data-testid': 'finished-list' });
    for (const g of finished) {
      done.append(h('li', { class: 'saved-row', 'data-testid': 'finished-row', 'data-id': g.id, 'data-game': g.variant.kind, 'data-ply': g.ply },
        gameIcon(g.variant.kind),
        h('div', { class: 'saved-info' },
          h('strong', {}, t('game.' + g.variant.kind)),
          h('span', {}, [seatDetails(g, null), t('home.moves', { n: g.ply }), relativeTime(g.last_played)].join(' · '))),
        h('div', { class: 'saved-actions' },
          h('a', { class: 'btn', href: '#/game/' + g.id + '?review=0', 'data-testid': 'replay', 'aria-label': t('home.replay') + ': ' + t('game.' + g.variant.kind) }, t('home.replay')))));
    }
    main.append(h('h2', {}, t('home.finished')), done, showAll(done, 'finished-all'));
  }
  main.append(h('p', { class: 'home-import' },
    h('button', { type: 'button', class: 'btn', 'data-testid': 'import-open', onclick: () => showImport(app) }, t('import.open')),
    ' ',
    h('a', { class: 'btn', href: '#/stats', 'data-testid': 'stats-link' }, t('stats.open')),
    ' ',
    h('a', { class: 'btn', href: '#/profile', 'data-testid': 'profile-link' }, t('profile.title')),
    ' ',
    h('a', { class: 'btn', href: '#/ranking/english', 'data-testid': 'ranking-link' }, t('ranking.title'))));
  return { el, name: 'home' };
}

/**
 * Keeps a list compact: its rows after the first few are hidden behind a "Show all (N)" button,
 * which shows them and moves the focus to the first one it revealed. Null when all fit.
 */
function showAll(list, testid) {
  const rows = () => [...list.children].filter((r) => !r.classList.contains('empty'));
  if (rows().length <= ROWS_SHOWN) return null;
  for (const r of rows().slice(ROWS_SHOWN)) r.hidden = true;
  const button = h('button', {
    type: 'button', class: 'btn show-all', 'data-testid': testid,
    onclick: () => {
      const hidden = rows().filter((r) => r.hidden);
      for (const r of hidden) r.hidden = false;
      button.remove();
      hidden[0]?.querySelector('a, button')?.focus();
    },
  }, t('home.showall', { n: rows().length }));
  return button;
}

/** A row of a compact list deleted: the next hidden one comes into view, the count follows. */
function fillShown(list) {
  const button = list.nextElementSibling?.classList.contains('show-all') ? list.nextElementSibling : null;
  if (!button) return;
  const rows = [...list.children].filter((r) => !r.classList.contains('empty'));
  const missing = ROWS_SHOWN - rows.filter((r) => !r.hidden).length;
  rows.filter((r) => r.hidden).slice(0, Math.max(0, missing)).forEach((r) => { r.hidden = false; });
  if (rows.some((r) => r.hidden)) button.textContent = t('home.showall', { n: rows.length });
  else button.remove();
}

/** Who plays what: "Tú: Rojo · contra la CPU (medio)" or "En este dispositivo · 3 jugadores". */
function seatDetails(g, view) {
  if (g.mode === 'cpu') {
    const level = t('level.' + (g.level || 'medium')).toLowerCase();
    const mine = view ? view.human_seats.map((s) => seatName(view.seats[s]?.name ?? String(s + 1))).join(', ') : null;
    return [mine ? t('home.you', { seat: mine }) : null, t('mode.cpu', { level }), g.variant.players > 2 ? t('home.players', { n: g.variant.players }) : null].filter(Boolean).join(' · ');
  }
  return [t('mode.local'), t('home.players', { n: g.variant.players })].join(' · ');
}

function rowDetails(g, view) {
  return [seatDetails(g, view), t('home.moves', { n: g.ply }), relativeTime(g.last_played)].join(' · ');
}

/** "Join with a code": a room code or a pasted room link opens that room's join page. */
function joinWithCode(app) {
  const input = h('input', { type: 'text', id: 'join-code', 'data-testid': 'join-code', autocomplete: 'off', spellcheck: 'false', placeholder: t('home.joincode.placeholder') });
  const go = () => {
    const code = codeFromInput(input.value);
    if (!code) {
      app.toast(t('home.joincode.bad'));
      input.focus();
      return;
    }
    app.go('#/room/' + code);
  };
  input.addEventListener('keydown', (e) => { if (e.key === 'Enter') go(); });
  return h('div', { class: 'field join-code' },
    h('label', { for: 'join-code' }, h('h2', {}, t('home.joincode'))),
    h('div', { class: 'room-link-row' }, input, h('button', { type: 'button', class: 'btn', 'data-testid': 'join-code-go', onclick: go }, t('room.join'))));
}
