// Draw offers and abort in a 2-player room, seen from one seat (docs/protocol.md "Draw offers,
// abort"): which buttons show for whom, and what the banner says. No DOM: tested in
// ui/tests/offers.test.mjs.

/**
 * From a room `state`'s `room` and this device's seat (`you`, null for a spectator):
 * - `offer`: `none`, `sent` (this seat's offer waits), `received` (the opponent's waits for this
 *   seat), `between` (a spectator sees an offer: `from` → `to`).
 * - `offerButton`: `hidden` (no seat, not 2 players, game not in play, or an offer waits — the
 *   banner has the buttons then), `enabled`, or `disabled` with `reason` `cpu` (the CPU plays
 *   the opponent's seat: it takes no offers) or `too_soon` (`pliesLeft` until it may offer
 *   again, after a declined or lapsed offer).
 * - `canAnswer`: Accept / Decline show (an offer waits for this seat).
 * - `canAbort`: the game may still end without a result (a side has not moved: ply < 2).
 */
export function offerState(room, you) {
  const none = { offer: 'none', from: null, to: null, offerButton: 'hidden', reason: null, pliesLeft: 0, canAnswer: false, canAbort: false };
  if (!room || !room.started || room.game?.players !== 2 || room.result) return none;
  const seated = you === 0 || you === 1;
  const mine = seated && room.seats[you] && !room.seats[you].left;
  const offer = room.draw_offer || null;
  const state = { ...none };
  if (offer) {
    state.from = offer.from;
    state.to = offer.to;
    state.offer = !mine ? 'between' : offer.from === you ? 'sent' : 'received';
  }
  if (!mine) return state;
  state.canAnswer = state.offer === 'received';
  const ply = room.view?.ply ?? 0;
  state.canAbort = ply < 2;
  if (offer) return state;
  const other = room.seats[1 - you];
  const next = Array.isArray(room.next_draw_offer_ply) ? room.next_draw_offer_ply[you] ?? 0 : 0;
  if (!other || other.kind === 'cpu' || other.left || other.cpu_playing) {
    state.offerButton = 'disabled';
    state.reason = 'cpu';
  } else if (ply < next) {
    state.offerButton = 'disabled';
    state.reason = 'too_soon';
    state.pliesLeft = next - ply;
  } else {
    state.offerButton = 'enabled';
  }
  return state;
}
