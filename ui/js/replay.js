// The in-browser stand-in for the backend, used when the UI runs outside the app (a plain browser,
// headless screenshots). It replays the engine's own recordings, `ui/tests/fixtures/<game>.json`
// (written by tests/ui_fixtures.rs), and never judges a move: a new game starts the first recorded
// line that fits the setup, and a command is answered only when it is that line's next recorded
// step; anything else is refused with `not_recorded` and the game stays as it was.

const KINDS = ['english', 'international', 'turkish', 'diamond', 'capture'];
const STORE = 'damas-replay';

/** A fixture line's view at `index`, with its layout put back (fixtures store it once). */
export function fixtureView(file, line, index = line.views.length - 1) {
  const view = line.views[index];
  return { ...view, layout: file.layouts[String(view.variant.players)] };
}

/** The line of a fixture file by name. */
export function fixtureLine(file, name) {
  const line = file.lines.find((l) => l.name === name);
  if (!line) throw new Error(`no line ${name} in the ${file.kind} fixtures`);
  return line;
}

/** The fixture file of a game in the browser, next to this module's folder. */
export function fetchFixture(kind) {
  return fetch(new URL(`../tests/fixtures/${kind}.json`, import.meta.url)).then((r) => {
    if (!r.ok) throw new Error(`fixtures for ${kind}: HTTP ${r.status}`);
    return r.json();
  });
}

function storage() {
  try {
    return globalThis.localStorage || null;
  } catch {
    return null;
  }
}

/**
 * @param {{load?: (kind: string) => Promise<object>, delay?: number, persist?: boolean}} opts
 *   `load` reads a game's fixture file; `delay` is the CPU's pretend thinking time in ms.
 * @returns {{invoke: (name: string, args?: object) => Promise<any>}}
 */
export function createReplay({ load = fetchFixture, delay = 250, persist = true } = {}) {
  const files = new Map();
  const store = persist ? storage() : null;
  const saved = (() => {
    try {
      return JSON.parse(store?.getItem(STORE) || 'null') || { games: {}, settings: null };
    } catch {
      return { games: {}, settings: null };
    }
  })();
  // id → {kind, line, index, last_played}; `version` bumps on every change (a CPU reply computed
  // before a change is `cancelled`, as the app's backend does).
  const games = saved.games;
  const versions = new Map();
  let counter = 0;
  const save = () => { try { store?.setItem(STORE, JSON.stringify(saved)); } catch { /* private mode */ } };
  const fail = (code, message = '') => Promise.reject({ code, message });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  function fileOf(kind) {
    if (!files.has(kind)) files.set(kind, Promise.resolve(load(kind)));
    return files.get(kind);
  }

  async function current(id) {
    const game = games[id];
    if (!game) return null;
    const file = await fileOf(game.kind);
    const line = fixtureLine(file, game.line);
    return { game, file, line, view: { ...fixtureView(file, line, game.index), id, last_played: game.last_played } };
  }

  /** Takes the line's next step if it is `action` (and `move`), else refuses. */
  async function advance(id, action, move) {
    const at = await current(id);
    if (!at) return fail('no_such_game', id);
    const next = at.line.steps[at.game.index];
    if (!next || next.action !== action || (move !== undefined && next.move !== move)) {
      return fail('not_recorded', move ?? action);
    }
    at.game.index += 1;
    at.game.last_played = Date.now();
    versions.set(id, (versions.get(id) || 0) + 1);
    save();
    return (await current(id)).view;
  }

  function fits(line, setup) {
    const first = line.views[0];
    const variant = setup.variant || {};
    return (line.setup.position ?? null) === (setup.position ?? null)
      && first.mode === setup.mode
      && (variant.players == null || first.variant.players === Number(variant.players))
      && !!first.variant.long_jump === !!variant.long_jump;
  }

  const commands = {
    async new_game({ setup }) {
      const kind = setup?.variant?.kind;
      if (!KINDS.includes(kind)) return fail('unknown_game', String(kind));
      const file = await fileOf(kind);
      // The line asked for, else any recorded game of that kind from the standard start.
      const line = file.lines.find((l) => fits(l, setup)) || file.lines.find((l) => !l.setup.position);
      if (!line) return fail('not_recorded', kind);
      const id = `${line.name}-${Date.now().toString(36)}${(counter++).toString(36)}`;
      games[id] = { kind, line: line.name, index: 0, last_played: Date.now() };
      save();
      return (await current(id)).view;
    },
    async get_game({ id }) {
      const at = await current(id);
      return at ? at.view : fail('no_such_game', id);
    },
    /** The recorded view with `ply` moves, read-only (the app's `view_at`). */
    async view_at({ id, ply }) {
      const at = await current(id);
      if (!at) return fail('no_such_game', id);
      const view = at.line.views.slice(0, at.game.index + 1).reverse().find((v) => v.history.length === ply);
      if (!view) return fail('bad_input', `ply ${ply}`);
      const shown = { ...view, layout: at.view.layout, id, legal_moves: [], must_capture: [], can_undo: false, can_redo: false, cpu_to_move: false, review_ply: ply };
      return shown;
    },
    play_move: ({ id, moveText }) => advance(id, 'play', moveText),
    async cpu_move({ id, ply }) {
      const at = await current(id);
      if (at && ply !== undefined && ply !== at.view.ply) return fail('cancelled', 'cancelled');
      const version = versions.get(id) || 0;
      await sleep(delay);
      if ((versions.get(id) || 0) !== version) return fail('cancelled', 'cancelled');
      return advance(id, 'cpu');
    },
    undo: ({ id }) => advance(id, 'undo'),
    redo: ({ id }) => advance(id, 'redo'),
    resign: ({ id }) => advance(id, 'resign'),
    rematch: () => fail('not_recorded', 'rematch'),
    async list_saved() {
      const rows = [];
      for (const id of Object.keys(games)) {
        const { view } = await current(id);
        rows.push({
          id, variant: view.variant, mode: view.mode, level: view.level, ply: view.ply,
          to_move_name: view.seats[view.to_move].name, finished: !!view.outcome, last_played: view.last_played,
        });
      }
      return rows.sort((a, b) => b.last_played - a.last_played);
    },
    async delete_saved({ id }) {
      versions.set(id, (versions.get(id) || 0) + 1);
      delete games[id];
      save();
      return null;
    },
    async get_settings() {
      return saved.settings || { language: null, skin: 'wood', sound: true, animations: true };
    },
    async set_settings({ settings }) {
      saved.settings = { ...settings };
      save();
      return saved.settings;
    },
    async get_stats() {
      return [];
    },
    async get_candies() {
      return { today: 0, total: 0, budget: 60, last_due: 0, last_earned: 0 };
    },
    async take_startup_notices() {
      return [{ code: 'mock', message: '' }];
    },
  };

  return {
    invoke(name, args = {}) {
      const command = commands[name];
      return command ? command(args) : fail('bad_input', 'unknown command ' + name);
    },
  };
}
