// "Play someone" as a test plays it, shared by the app scenario (scenarios/47-…) and any
// browser-only run: the setup's mode, the searching screen, the paired board, draw offers.
import assert from 'node:assert/strict';
import { waitRoom } from './rooms.mjs';

/** What the searching screen and a pairing's room show, read in one round trip. */
export function poolView(ui) {
  return ui.driver.executeScript(`
    const q = (s) => document.querySelector(s);
    const txt = (s) => q(s)?.textContent.trim() ?? null;
    const pool = q('[data-testid=pool-screen]');
    const offer = q('[data-testid=draw-offer]');
    return {
      pool: pool ? { phase: pool.dataset.phase, rated: pool.dataset.rated, desc: txt('[data-testid=pool-desc]'),
        waited: Number(q('[data-testid=pool-waited]')?.dataset.seconds ?? -1), waitedText: txt('[data-testid=pool-waited]'),
        message: txt('[data-testid=pool-message]') } : null,
      pairing: q('[data-testid=room-pairing]') && !q('[data-testid=room-pairing]').hidden
        ? { text: txt('[data-testid=room-pairing]'), cpu: q('[data-testid=room-pairing]').dataset.cpu, rated: q('[data-testid=room-pairing]').dataset.rated } : null,
      seats: [...document.querySelectorAll('[data-testid=room-seat]')].map((e) => ({
        seat: Number(e.dataset.seat), state: e.dataset.state, name: e.querySelector('[data-testid=room-seat-name]')?.textContent.trim(),
        rating: e.querySelector('[data-testid=room-seat-rating]')?.textContent.trim() ?? null })),
      offer: offer && !offer.hidden ? { kind: offer.dataset.offer, text: txt('[data-testid=draw-offer-text]'),
        accept: !!q('[data-testid=draw-accept]') && !q('[data-testid=draw-accept]').hidden } : null,
      offerButton: q('[data-testid=offer-draw]') ? { hidden: q('[data-testid=offer-draw]').hidden, disabled: q('[data-testid=offer-draw]').disabled, reason: q('[data-testid=offer-draw]').dataset.reason } : null,
      abort: q('[data-testid=abort]') ? !q('[data-testid=abort]').hidden : null,
      ratings: [...document.querySelectorAll('dialog[open] [data-testid=result-rating]')].map((e) => e.textContent.trim()),
      candies: (() => { const e = q('dialog[open] [data-testid=result-candies]'); return e && !e.hidden ? e.textContent.trim() : null; })(),
    };`);
}

/** Waits for `pred(poolView)`. */
export async function waitPool(ui, pred, what, timeoutMs = 20000) {
  let last = null;
  await ui.driver.wait(async () => {
    last = await poolView(ui).catch(() => null);
    return !!last && pred(last);
  }, timeoutMs, `${what}; last: ${JSON.stringify(last)}`).catch((e) => { throw new Error(`timed out waiting for ${what}; last: ${JSON.stringify(last)}`, { cause: e }); });
  return last;
}

/**
 * From the setup of `kind`: "Play someone" (the mode), the nickname, casual, "Find an
 * opponent"; resolves once the searching screen shows.
 */
export async function pressPlaySomeone(ui, { kind = 'english', nickname }) {
  await ui.driver.executeScript(`location.hash = "#/setup/${kind}"`);
  await ui.waitFor((s) => s.screen === 'setup-screen', 'the setup screen');
  await ui.click('mode-someone');
  const nick = await ui.byTestid('setup-nickname');
  await nick.clear();
  await nick.sendKeys(nickname);
  await ui.click('rated-false');
  await ui.click('start');
  await ui.waitFor((s) => s.screen === 'pool-screen', 'the searching screen');
}

/** Both pages in one started pairing's room; resolves with their `{room, you}`. */
export async function bothPaired(a, b) {
  const ra = await waitRoom(a, (r) => r.room.started && r.you != null && r.room.kind?.type === 'pool', 'the paired room (first page)', 30000);
  const rb = await waitRoom(b, (r) => r.room.started && r.you != null && r.room.code === ra.room.code, 'the same room (second page)', 30000);
  assert.notEqual(ra.you, rb.you, 'two seats');
  return [ra, rb];
}
