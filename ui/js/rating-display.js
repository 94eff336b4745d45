// Ratings as people read them (docs/protocol.md "Elo"): sent unrounded, shown rounded with the
// language's digit grouping ("1.200" in Spanish, "1,200" in English), "?" while provisional,
// and a game's change as "1.200 → 1.216, +16". No DOM: tested in ui/tests/rating-display.test.mjs.

const GROUP = { es: '.', en: ',' };
// A typographic minus for losses: "−8" reads better than "-8".
const MINUS = '\u2212';

/** An integer with its thousands grouped ("12.345" / "12,345"); Spanish groups 4 digits too, as
 * the seed pages write ratings ("1.200"). */
export function groupDigits(n, lang) {
  const sign = n < 0 ? MINUS : '';
  const digits = String(Math.abs(Math.round(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, GROUP[lang] ?? ',');
}

/** "1.216" / "1,216?" — `rating` rounded, "?" when provisional; "?" alone when unknown. */
export function formatRating(rating, { provisional = false, lang = 'es' } = {}) {
  if (!Number.isFinite(rating)) return '?';
  return groupDigits(rating, lang) + (provisional ? '?' : '');
}

/** A signed whole change: "+16", "−8", "±0". */
export function signedChange(delta, lang = 'es') {
  const d = Math.round(delta);
  if (d === 0) return '±0';
  return (d > 0 ? '+' : '') + groupDigits(d, lang);
}

/**
 * A rated game's change for one player: `{text, delta}` — "1.200 → 1.216, +16". Both ends are
 * rounded first and the change is their difference, so the three numbers always agree.
 */
export function ratingChange(before, after, lang = 'es') {
  if (!Number.isFinite(before) || !Number.isFinite(after)) return null;
  const from = Math.round(before);
  const to = Math.round(after);
  const delta = to - from;
  return { text: `${groupDigits(from, lang)} → ${groupDigits(to, lang)}, ${signedChange(delta, lang)}`, delta };
}
