// Ratings as shown (ui/js/rating-display.js): rounding, "?" while provisional, the signed change,
// and each language's digit grouping (Spanish "1.200", English "1,200").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatRating, ratingChange, signedChange, groupDigits } from '../js/rating-display.js';

test('rounded, grouped per language, "?" while provisional', () => {
  assert.equal(formatRating(1200, { lang: 'es' }), '1.200');
  assert.equal(formatRating(1200, { lang: 'en' }), '1,200');
  assert.equal(formatRating(1215.5, { lang: 'en' }), '1,216');
  assert.equal(formatRating(1215.49, { lang: 'es', provisional: true }), '1.215?');
  assert.equal(formatRating(987.2, { lang: 'es' }), '987');
  assert.equal(formatRating(null, { lang: 'es' }), '?');
  assert.equal(groupDigits(2345678, 'es'), '2.345.678');
});

test('a game\'s change: both ends rounded, the difference signed', () => {
  assert.deepEqual(ratingChange(1200, 1216, 'en'), { text: '1,200 → 1,216, +16', delta: 16 });
  assert.deepEqual(ratingChange(1200, 1216, 'es'), { text: '1.200 → 1.216, +16', delta: 16 });
  // Elo with K = 40 after a loss to an equal: 1200 → 1180.
  assert.deepEqual(ratingChange(1200, 1180, 'es'), { text: '1.200 → 1.180, \u221220', delta: -20 });
  // 1199.6 shows as 1,200 and 1216.4 as 1,216: the change says +16, not +16.8 or +17.
  assert.equal(ratingChange(1199.6, 1216.4, 'en').text, '1,200 → 1,216, +16');
  assert.equal(ratingChange(1000.2, 999.9, 'en').text, '1,000 → 1,000, ±0');
  assert.equal(ratingChange(undefined, 1200, 'en'), null);
});

test('signed changes', () => {
  assert.equal(signedChange(16), '+16');
  assert.equal(signedChange(-8), '\u22128');
  assert.equal(signedChange(0.3), '±0');
  assert.equal(signedChange(1234, 'es'), '+1.234');
});
