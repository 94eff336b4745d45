// What a 2-player room game adds to the board (screens/room.js): Offer draw / Abort beside
// Resign, the pending offer in a banner both players see (Accept / Decline for its receiver),
// a pairing's names with ratings — or plainly the CPU when it stood in — and the result's rating
// change. The decisions are ui/js/offers.js and ui/js/rating-display.js; this draws them.

import { h, clear } from '../dom.js';
import { t, language } from '../i18n.js';
import { announce } from '../announce.js';
import { offerState } from '../offers.js';
import { formatRating, ratingChange } from '../rating-display.js';

const actButton = (testid, icon, label, onclick) => h('button', { type: 'button', class: 'act', 'data-testid': testid, 'aria-label': label, title: label, onclick },
  h('span', { class: 'act-icon', 'aria-hidden': 'true' }, icon), h('span', { class: 'act-label' }, label));

// A pairing's opponent and ratings by room code, in this device's storage (the app keeps only the
// seat token in rooms.json): the names and ratings come back after a reload or a resume.
const PAIRING_PREFIX = 'damas-pairing:';
export function rememberPairing(code, pairing) {
  try { globalThis.localStorage?.setItem(PAIRING_PREFIX + code, JSON.stringify(pairing)); } catch { /* private mode */ }
}
export function recallPairing(code) {
  try { return JSON.parse(globalThis.localStorage?.getItem(PAIRING_PREFIX + code) || 'null'); } catch { return null; }
}

/** A seat's name as the banner says it: its nickname, "the CPU", or its colour's number. */
const nameOf = (room, seat) => room.seats[seat]?.nickname || t('room.seat.cpu');

/**
 * The offer banner and the Offer draw / Abort buttons of a room, redrawn from each state.
 * `socket`: the room socket; `app`: for confirm and error texts.
 */
export function createOfferControls(app, socket) {
  const text = h('p', { class: 'offer-text', 'data-testid': 'draw-offer-text' });
  const accept = h('button', { type: 'button', class: 'btn btn-primary', 'data-testid': 'draw-accept', onclick: () => answer(true) }, t('offer.accept'));
  const decline = h('button', { type: 'button', class: 'btn', 'data-testid': 'draw-decline', onclick: () => answer(false) }, t('offer.decline'));
  const banner = h('div', { class: 'offer-banner', 'data-testid': 'draw-offer', role: 'status', hidden: true },
    text, h('div', { class: 'offer-actions' }, accept, decline));
  const note = h('p', { class: 'hint offer-note', 'data-testid': 'offer-note', hidden: true });
  const offerBtn = actButton('offer-draw', '½', t('offer.offer'), () => offer());
  const abortBtn = actButton('abort', '✕', t('offer.abort'), () => abort());
  let last = null;
  const fail = (e) => app.toast(app.errorText(e));

  async function offer() {
    offerBtn.disabled = true;
    try { await socket.offerDraw(); } catch (e) { fail(e); }
    if (socket.room) update(socket.room, last?.you ?? null);
  }
  async function answer(yes) {
    accept.disabled = decline.disabled = true;
    try { await socket.answerDraw(yes); } catch (e) { fail(e); }
    accept.disabled = decline.disabled = false;
  }
  async function abort() {
    if (!(await app.confirm(t('offer.abort.confirm'), { detail: t('offer.abort.detail') }))) return;
    try { await socket.abort(); } catch (e) { fail(e); }
  }

  function update(room, you) {
    const s = offerState(room, you);
    const before = last?.state;
    last = { state: s, you };
    banner.hidden = s.offer === 'none';
    banner.dataset.offer = s.offer;
    accept.hidden = decline.hidden = !s.canAnswer;
    if (s.offer === 'sent') text.textContent = t('offer.sent');
    else if (s.offer === 'received') text.textContent = t('offer.received', { name: nameOf(room, s.from) });
    else if (s.offer === 'between') text.textContent = t('offer.between', { from: nameOf(room, s.from), to: nameOf(room, s.to) });
    else text.textContent = '';
    // An offer arriving for this seat is said once, for a screen reader too.
    if (s.offer === 'received' && before?.offer !== 'received') announce(text.textContent);
    offerBtn.hidden = s.offerButton === 'hidden';
    offerBtn.disabled = s.offerButton !== 'enabled';
    offerBtn.dataset.reason = s.reason || '';
    const why = s.reason === 'cpu' ? t('offer.nocpu') : s.reason === 'too_soon' ? t('offer.toosoon', { n: s.pliesLeft }) : '';
    offerBtn.title = why || t('offer.offer');
    note.textContent = why;
    note.hidden = !why;
    abortBtn.hidden = !s.canAbort;
  }

  return { banner: h('div', { class: 'offer-area' }, banner, note), actions: [offerBtn, abortBtn], update };
}

/**
 * A pairing's words beside each seat: its rating (rounded, "?" while provisional) for people;
 * nothing for the CPU, whose seat already says "CPU". `pairing`: what `paired` told this device
 * (`{opponent, rated, rating}`); null for a friends' room.
 */
export function pairingNotes(room, you, pairing) {
  const notes = new Map();
  if (!pairing || room.kind?.type !== 'pool' || you == null) return notes;
  const lang = language();
  if (Number.isFinite(pairing.rating)) notes.set(you, formatRating(pairing.rating, { provisional: !!pairing.provisional, lang }));
  const other = 1 - you;
  const opponent = pairing.opponent;
  if (opponent && !opponent.cpu && room.seats[other]?.kind === 'human') {
    notes.set(other, formatRating(opponent.rating, { provisional: opponent.provisional === true, lang }));
  }
  return notes;
}

/** The line above a pairing's seats: "Rated game", "Casual game", or that the CPU stands in. */
export function pairingLine(room) {
  const kind = room.kind;
  if (kind?.type !== 'pool') return null;
  if (kind.cpu_level) return t('pool.room.cpu', { level: t('level.' + kind.cpu_level) });
  return t(kind.rated ? 'pool.room.rated' : 'pool.room.casual');
}

/** The result dialog's lines for a rated game: each player's change, from the room's result
 * (`result.ratings`, one per seat, as the server sends them after recording the game). */
export function ratingLines(room, you) {
  const ratings = room?.result?.ratings;
  if (!Array.isArray(ratings)) return null;
  const lang = language();
  const box = h('div', { class: 'result-ratings', 'data-testid': 'result-ratings' });
  ratings.forEach((r, seat) => {
    const change = r && ratingChange(r.before, r.after, lang);
    if (!change) return;
    const who = seat === you ? t('result.you') : nameOf(room, seat);
    box.append(h('p', { class: 'result-rating', 'data-testid': 'result-rating', 'data-seat': seat, 'data-delta': change.delta }, `${who}: ${change.text}`));
  });
  return box.children.length ? box : null;
}

/** Fills `el` with the pairing line (hidden for a friends' room). */
export function showPairingLine(el, room) {
  const line = pairingLine(room);
  clear(el);
  el.hidden = !line;
  if (line) el.append(line);
  el.dataset.cpu = String(!!room.kind?.cpu_level);
  el.dataset.rated = String(!!room.kind?.rated);
}
