// Who is signed in to the room server, as this device remembers it: the server's own session token
// (never the provider's tokens) and the account it names. Guests have none and keep their nickname.
// The screens read and watch it here; signing in and out (talking to the server) lives elsewhere.

const SESSION_KEY = 'damas.account.session';

function safeLocalStorage() {
  try { return globalThis.localStorage || null; } catch { return null; }
}

/**
 * A small store of the signed-in account: `{token, account: {id, display_name}}` or null.
 * `storage` is injected so tests run without a browser.
 */
export function createAccountState(storage = safeLocalStorage()) {
  let current = read();
  const listeners = new Set();

  function read() {
    try {
      const raw = storage?.getItem(SESSION_KEY);
      if (!raw) return null;
      const parsed = JSON.parse(raw);
      if (typeof parsed?.token !== 'string' || !parsed.token) return null;
      const account = parsed.account && typeof parsed.account === 'object' ? parsed.account : null;
      return { token: parsed.token, account };
    } catch {
      return null;
    }
  }

  function write(value) {
    try {
      if (value) storage?.setItem(SESSION_KEY, JSON.stringify(value));
      else storage?.removeItem(SESSION_KEY);
    } catch { /* private mode: kept for this page only */ }
  }

  function notify() {
    for (const listener of [...listeners]) listener(current);
  }

  return {
    /** The signed-in session `{token, account}`, or null for a guest. */
    get: () => current,
    /** The session token to send (`sign_in`, `Authorization: Bearer`), or null. */
    token: () => current?.token ?? null,
    signedIn: () => current !== null,
    /** Remembers a session; `account` may come later (after `GET /api/session`). */
    set(token, account = null) {
      if (typeof token !== 'string' || !token) return;
      current = { token, account };
      write(current);
      notify();
    },
    /** Forgets the session (signed out, or the server said `bad_session`). */
    clear() {
      if (current === null) return;
      current = null;
      write(null);
      notify();
    },
    /** Calls `listener(session)` on every change; returns the unsubscribe function. */
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's one account state. */
export const accountState = createAccountState();
