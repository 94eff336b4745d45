// The words for a shared game's record, in the player's language: the tags an imported game was
// read with (shown with its moves), and why a text did not import (the backend sends a code with
// arguments, `{code: 'bad_record', line, reason, args}`; the words are the UI's).

import { t } from './i18n.js';

/** Tags shown as they are, by their i18n label. */
const LABELLED = [['Event', 'record.event'], ['Site', 'record.site'], ['Date', 'record.date'], ['Round', 'record.round'], ['Annotator', 'record.annotator']];

const known = (value) => value != null && value.trim() !== '' && value.trim() !== '?';

/**
 * What an imported game's tags say, as `[{label, value}]` rows: event, site, date, round and
 * annotator as read, then the players (White – Black, or every seat's tag in a star game) on one
 * row. Unknown values ("?") are left out; a game started here (no tags) has no rows.
 * @param {[string, string][] | undefined} tags the view's `tags`
 */
export function recordRows(tags) {
  if (!Array.isArray(tags) || !tags.length) return [];
  const byName = new Map(tags);
  const rows = [];
  for (const [tag, key] of LABELLED) {
    const value = byName.get(tag);
    if (known(value)) rows.push({ label: t(key), value });
  }
  const players = tags.filter(([tag, value]) => isPlayerTag(tag) && known(value)).map(([, value]) => value);
  if (players.length) rows.push({ label: t('record.players'), value: players.join(' – ') });
  return rows;
}

/** White, Black and the star games' seat tags (Red, Yellow, Green; Player1 … in the capture game). */
function isPlayerTag(tag) {
  return ['White', 'Black', 'Red', 'Yellow', 'Green'].includes(tag) || /^Player\d$/.test(tag);
}

/**
 * The reason an import failed, worded in the player's language, with its line when it has one;
 * null when the error is not about the text (then the caller shows its usual error text).
 * @param {{code: string, line?: number, reason?: string, args?: Record<string, string>}} e
 */
export function importProblemText(e) {
  if (!e || e.code !== 'bad_record' || !e.reason) return null;
  const args = { ...(e.args || {}) };
  if (e.reason === 'syntax') args.what = t('import.syntax.' + args.what, args);
  const problem = t('import.problem.' + e.reason, args);
  return e.line ? t('import.problem.line', { line: e.line, problem }) : capitalised(problem);
}

function capitalised(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
