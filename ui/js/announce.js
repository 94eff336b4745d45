// An ARIA live region: moves and selections are spoken by screen readers.

let region = null;

export function attachAnnouncer(el) {
  region = el;
}

export function announce(text) {
  if (!region || !text) return;
  // Clearing first makes a repeated sentence be read again.
  region.textContent = '';
  requestAnimationFrame(() => { region.textContent = text; });
}
