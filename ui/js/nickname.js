// The nickname the player last gave (rooms, pairing pools, exported games' players), kept in the
// page's local storage.

const NICKNAME_KEY = 'damas-nickname';

export const savedNickname = () => { try { return globalThis.localStorage?.getItem(NICKNAME_KEY) || ''; } catch { return ''; } };
export const saveNickname = (n) => { try { globalThis.localStorage?.setItem(NICKNAME_KEY, n); } catch { /* private mode */ } };
