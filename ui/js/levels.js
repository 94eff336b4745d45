// The CPU levels the setup screen offers, and expert's thinking time (the `movetime` setting,
// checked again by the backend: 500–5000 ms, 1000 by default).

export const LEVELS = ['easy', 'medium', 'hard', 'expert'];

export const MOVETIME = { min: 500, max: 5000, default: 1000 };

/** The thinking times offered, in milliseconds, shortest first. */
export const MOVETIME_CHOICES = [500, 1000, 2000, 3000, 5000];

/** The level choices: `{ value, label }` for each level, labels from `t`. */
export function levelOptions(t) {
  return LEVELS.map((level) => ({ value: level, label: t('level.' + level) }));
}

/** Only expert thinks for a set time: the control shows for it alone. */
export function showsThinkingTime(level) {
  return level === 'expert';
}

/** A saved thinking time, or the default when it is missing, not an integer or out of range. */
export function validMovetime(ms) {
  return Number.isInteger(ms) && ms >= MOVETIME.min && ms <= MOVETIME.max ? ms : MOVETIME.default;
}

/** The thinking-time choices: `{ value, label }`, labelled in seconds ("0.5 s" / "0,5 s"). */
export function movetimeOptions(t, lang) {
  return MOVETIME_CHOICES.map((ms) => ({
    value: ms,
    label: t('setup.movetime.seconds', { s: (ms / 1000).toLocaleString(lang) }),
  }));
}
