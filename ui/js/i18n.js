// Looking up user-facing text: language choice, plural families and placeholders. The texts themselves
// are data, one module per language in ./i18n/ (es.js, en.js). Keys are checked: `t` throws in tests on an
// unknown key, and the test suite asserts both languages have the same keys and placeholders.

import es from './i18n/es.js';
import en from './i18n/en.js';

export const STRINGS = { es, en };
export const LANGUAGES = ['es', 'en'];

let current = 'es';
export let strict = false;
export function setStrict(v) { strict = v; }

/** The language to use: the setting, else the system's, else Spanish. */
export function resolveLanguage(setting, systemLanguages = []) {
  if (setting && STRINGS[setting]) return setting;
  for (const l of systemLanguages) {
    const base = String(l).toLowerCase().split('-')[0];
    if (STRINGS[base]) return base;
  }
  return 'es';
}

/** Whether a key has a text (for optional variants of a text). */
export function hasText(key, lang = current) { return STRINGS[lang][key] !== undefined; }

export function setLanguage(lang) { current = STRINGS[lang] ? lang : 'es'; }
export function language() { return current; }

const pluralRules = new Map();
/** The CLDR plural category of a count in a language (`one`, `other`, …). */
export function pluralCategory(n, lang = current) {
  if (!pluralRules.has(lang)) pluralRules.set(lang, new Intl.PluralRules(lang));
  return pluralRules.get(lang).select(n);
}

/**
 * A text by key. A counted text is a family `key.one` / `key.other` (one key per CLDR category the
 * language needs; a missing category, such as Spanish "many", falls back to `.other`): `t(key,
 * {n})` picks the member by `Intl.PluralRules`, so no caller can write "1 jugadas".
 * @param {string} key
 * @param {Record<string, string|number>} [params]
 */
export function t(key, params = {}, lang = current) {
  const table = STRINGS[lang];
  let s = table[key];
  if (s === undefined && typeof params.n === 'number' && table[key + '.other'] !== undefined) {
    s = table[key + '.' + pluralCategory(params.n, lang)] ?? table[key + '.other'];
  }
  if (s === undefined) {
    if (strict) throw new Error('missing i18n key ' + key);
    s = es[key] ?? key;
  }
  return s.replace(/\{(\w+)\}/g, (m, k) => (params[k] !== undefined ? String(params[k]) : m));
}

/** A counted text: `t(base, {n, …params})`. */
export function tn(base, n, params = {}, lang = current) {
  return t(base, { ...params, n }, lang);
}

/** A seat's display name from the engine's name ("red", "white", "1"…). */
export function seatName(name, lang = current) {
  if (/^\d+$/.test(String(name))) return t('seat.player', { n: name }, lang);
  const key = 'seat.' + name;
  return STRINGS[lang][key] !== undefined ? STRINGS[lang][key] : String(name);
}
