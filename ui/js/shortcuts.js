// The game screen's keyboard shortcuts, pure: a key event → the action it asks for, or null.
// Never while typing in a field, and never with Alt or the platform's other modifiers held, so
// the browser's and the system's own shortcuts keep working.

const TYPING = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/** Whether the event comes from a place where keys are text. */
export function isTyping(target) {
  if (!target) return false;
  if (TYPING.has(String(target.tagName || '').toUpperCase())) return true;
  return !!target.isContentEditable;
}

/**
 * @param {{key: string, ctrlKey?: boolean, metaKey?: boolean, altKey?: boolean, shiftKey?: boolean, target?: object}} e
 * @returns {'undo'|'redo'|'flip'|'rules'|'new'|'back'|'forward'|null}
 *   `back`/`forward` (← →) step the review.
 */
export function shortcutFor(e) {
  if (e.altKey || isTyping(e.target)) return null;
  const key = String(e.key || '');
  const lower = key.toLowerCase();
  // Ctrl on Linux and Windows, ⌘ on macOS.
  if (e.ctrlKey || e.metaKey) {
    if (lower === 'z') return e.shiftKey ? 'redo' : 'undo';
    if (lower === 'y') return 'redo';
    return null;
  }
  if (key === '?') return 'rules';
  if (lower === 'f') return 'flip';
  if (lower === 'n') return 'new';
  if (key === 'ArrowLeft') return 'back';
  if (key === 'ArrowRight') return 'forward';
  return null;
}
