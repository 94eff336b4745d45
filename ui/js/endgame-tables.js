// The endgame tables' lines in the settings (app only): what each draughts game's line says and
// offers, from the `endgame_status` command's rows. Pure: the screen draws it (screens/settings.js).

/** A size in bytes as the language writes it: "850 kB", "12 MB", "1.2 GB" / "1,2 GB". */
export function formatBytes(bytes, lang) {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, Number(bytes) || 0);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = value < 10 && unit > 0 ? 1 : 0;
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: digits }).format(value);
  return `${number} ${units[unit]}`;
}

/** Percent done of a build, 0–100, rounded down (100 only when done). */
export function percentDone(done, total) {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.floor((100 * Math.max(0, done)) / total));
}

/**
 * One game's line: `{text: [key, params], percent, action}` where `percent` is null unless a
 * build runs, and `action` is 'stop' (this game builds), 'build' (none on the device),
 * 'complete' (some piece counts missing) or null (all there). A stop asked for (`row.stopping`) or a
 * build not yet under way in the backend (`row.starting`) disables it. `busy`: another game is building,
 * so no build can start (the command would answer endgame_busy); the action stays, disabled.
 */
export function endgameLine(row, lang, busy = false) {
  if (row.building) {
    const percent = percentDone(row.done, row.total);
    // A stop is heard between two slices: the largest take a minute or two. Until the backend
    // has the build (`starting`: no progress heard yet), a click would stop nothing.
    if (row.stopping) return { text: ['endgame.stopping', { percent }], percent, action: 'stop', disabled: true };
    return { text: ['endgame.building', { percent }], percent, action: 'stop', disabled: !!row.starting };
  }
  const size = formatBytes(row.bytes, lang);
  if (row.pieces >= row.offered) {
    return { text: ['endgame.ready', { pieces: row.pieces, size }], percent: null, action: null, disabled: false };
  }
  if (row.pieces >= 2) {
    return { text: ['endgame.partial', { pieces: row.pieces, size, offered: row.offered }], percent: null, action: 'complete', disabled: busy };
  }
  return { text: ['endgame.none', { offered: row.offered }], percent: null, action: 'build', disabled: busy };
}
