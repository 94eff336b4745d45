// The nickname a player last gave (rooms, pools, exports, sign-in), kept in this browser or app
// only; private browsing may refuse storage, then nothing is remembered.

const NICKNAME_KEY = 'damas-nickname';
export const savedNickname = () => { try { return globalThis.localStorage?.getItem(NICKNAME_KEY) || ''; } catch { return ''; } };
export const saveNickname = (n) => { try { globalThis.localStorage?.setItem(NICKNAME_KEY, n); } catch { /* private mode */ } };
