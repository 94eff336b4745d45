// A small in-browser stand-in for the Tauri commands (APP-CONTRACT.md), for development and headless
// screenshots when the page runs outside the app. Rules are simplified where the screens do not
// care (no draw rules, no repetition, a random CPU); the real rules live in the Rust engine.

const SQ3 = Math.sqrt(3) / 2;
const STAR_ROWS = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
const STAR_SEATS = ['red', 'yellow', 'green'];
// Start punta direction of each Diamond seat (degrees, y up), clockwise from Red at the bottom.
const START_ANGLE = [270, 150, 30];

const key = (x, y) => Math.round(x * 2) + ',' + Math.round(y / SQ3);

function rotate(x, y, deg) {
  const t = (deg * Math.PI) / 180;
  return [x * Math.cos(t) - y * Math.sin(t), x * Math.sin(t) + y * Math.cos(t)];
}

function buildStar(seatsWithNames) {
  const holes = [];
  STAR_ROWS.forEach((w, i) => {
    for (let j = 0; j < w; j++) holes.push({ x: j - (w - 1) / 2, y: (i - 8) * SQ3 });
  });
  const nameIn = (h, seat) => {
    const [x, y] = rotate(h.x, h.y, 270 - START_ANGLE[seat]);
    const row = Math.round(y / SQ3) + 9;
    const inRow = holes
      .map((o) => rotate(o.x, o.y, 270 - START_ANGLE[seat]))
      .filter(([, oy]) => Math.round(oy / SQ3) + 9 === row)
      .map(([ox]) => ox)
      .sort((a, b) => a - b);
    const pos = inRow.findIndex((ox) => Math.abs(ox - x) < 1e-6) + 1;
    return 'F' + row + 'P' + pos;
  };
  const cells = holes.map((h) => {
    const view_names = [];
    for (let s = 0; s < seatsWithNames; s++) view_names.push(nameIn(h, s));
    const cell = { name: view_names[0] || nameIn(h, 0), x: h.x, y: h.y, view_names };
    for (let s = 0; s < 3; s++) {
      for (const off of [0, 180]) {
        const [, ry] = rotate(h.x, h.y, 270 - START_ANGLE[s] + off);
        if (ry < -3.9 * SQ3 - 0.3) cell.zone = s;
      }
    }
    return cell;
  });
  return cells;
}

const DIRS6 = [[1, 0], [-1, 0], [0.5, SQ3], [-0.5, SQ3], [0.5, -SQ3], [-0.5, -SQ3]];

function starIndex(cells) {
  const at = new Map();
  for (const c of cells) at.set(key(c.x, c.y), c);
  const step = (c, d, n = 1) => at.get(key(c.x + d[0] * n, c.y + d[1] * n)) || null;
  return { at, step };
}

// ---------- draughts ----------

const DRAUGHTS = {
  english: { files: 8, ranks: 8, dark: true, rows: 3, seats: ['black', 'white'], diag: true, manBack: false, flying: false, majority: false, immediate: false },
  international: { files: 10, ranks: 10, dark: true, rows: 4, seats: ['white', 'black'], diag: true, manBack: true, flying: true, majority: true, immediate: false },
  turkish: { files: 8, ranks: 8, dark: false, rows: 2, seats: ['white', 'black'], diag: false, manBack: false, flying: true, majority: true, immediate: true },
};

function gridLayout(kind) {
  const r = DRAUGHTS[kind];
  const cells = [];
  if (kind === 'turkish') {
    for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) cells.push({ name: 'abcdefgh'[x] + (y + 1), x, y });
  } else {
    // Numbered from seat 0's far left, row by row, as printed diagrams do.
    let n = 1;
    for (let y = r.ranks - 1; y >= 0; y--) {
      for (let x = 0; x < r.files; x++) if ((x + y) % 2 === 0) cells.push({ name: String(n++), x, y });
    }
  }
  return { shape: { type: 'grid', files: r.files, ranks: r.ranks, dark_only: r.dark }, cells };
}

function draughtsStart(kind, layout) {
  const r = DRAUGHTS[kind];
  const board = new Map();
  for (const c of layout.cells) {
    if (kind === 'turkish') {
      if (c.y === 1 || c.y === 2) board.set(c.name, { seat: 0, king: false });
      if (c.y === 5 || c.y === 6) board.set(c.name, { seat: 1, king: false });
    } else {
      if (c.y < r.rows) board.set(c.name, { seat: 0, king: false });
      if (c.y >= r.ranks - r.rows) board.set(c.name, { seat: 1, king: false });
    }
  }
  return board;
}

function draughtsMoves(kind, layout, board, seat) {
  const r = DRAUGHTS[kind];
  const at = new Map(layout.cells.map((c) => [c.x + ',' + c.y, c]));
  const cellOf = new Map(layout.cells.map((c) => [c.name, c]));
  const fwd = seat === 0 ? 1 : -1;
  const dirs = r.diag ? [[1, 1], [-1, 1], [1, -1], [-1, -1]] : [[1, 0], [-1, 0], [0, 1], [0, -1]];
  const lastRank = seat === 0 ? r.ranks - 1 : 0;
  const caps = [];
  const steps = [];
  for (const [name, p] of board) {
    if (p.seat !== seat) continue;
    const c = cellOf.get(name);
    const manCap = dirs.filter(([, dy]) => r.manBack || dy !== -fwd);
    const walk = (pos, king, path, taken, lastDir, removed) => {
      let found = false;
      for (const d of king ? dirs : manCap) {
        if (r.immediate && lastDir && d[0] === -lastDir[0] && d[1] === -lastDir[1]) continue;
        const occ = (cc) => {
          if (!cc) return 'off';
          if (cc.name === name) return 'empty';
          if (removed.has(cc.name)) return 'empty';
          const q = board.get(cc.name);
          return q ? (q.seat === seat ? 'own' : taken.includes(cc.name) ? 'taken' : 'enemy') : 'empty';
        };
        let n = 1;
        let over = at.get(pos.x + d[0] + ',' + (pos.y + d[1]));
        if (king && r.flying) while (occ(over) === 'empty') { n++; over = at.get(pos.x + d[0] * n + ',' + (pos.y + d[1] * n)); }
        if (occ(over) !== 'enemy') continue;
        let m = n + 1;
        for (;;) {
          const land = at.get(pos.x + d[0] * m + ',' + (pos.y + d[1] * m));
          if (occ(land) !== 'empty') break;
          found = true;
          const nt = [...taken, over.name];
          const nr = r.immediate ? new Set([...removed, over.name]) : removed;
          const crowned = !king && kind === 'english' && land.y === lastRank;
          if (crowned || !walk(land, king, [...path, land.name], nt, d, nr)) caps.push({ from: name, path: [...path, land.name], captures: nt });
          if (!(king && r.flying)) break;
          m++;
        }
      }
      return found;
    };
    walk(c, p.king, [name], [], null, new Set());
    const stepDirs = p.king ? dirs : dirs.filter(([dx, dy]) => (r.diag ? dy === fwd : dy === fwd || dy === 0));
    for (const d of stepDirs) {
      for (let n = 1; ; n++) {
        const to = at.get(c.x + d[0] * n + ',' + (c.y + d[1] * n));
        if (!to || board.has(to.name)) break;
        steps.push({ from: name, path: [name, to.name], captures: [] });
        if (!(p.king && r.flying)) break;
      }
    }
  }
  let list = caps.length ? caps : steps;
  if (caps.length && r.majority) {
    const most = Math.max(...caps.map((m) => m.captures.length));
    list = caps.filter((m) => m.captures.length === most);
  }
  return list.map((m) => ({
    move: m.path.join(m.captures.length ? 'x' : '-'),
    from: m.from,
    to: m.path[m.path.length - 1],
    path: m.path,
    jumps: m.captures.length,
    captures: [...m.captures].sort(),
  }));
}

// ---------- star games ----------

function diamondStart(cells, players) {
  const board = new Map();
  for (let s = 0; s < players; s++) {
    for (const c of cells) {
      const v = c.view_names[s];
      const [, f, p] = v.match(/F(\d+)P(\d+)/).map(Number);
      if (f <= 4 || (f === 5 && p >= 5 && p <= 9)) board.set(c.name, { seat: s, king: v === 'F1P1' });
    }
  }
  return board;
}

function diamondHome(cells, seat) {
  return cells.filter((c) => {
    const [, f, p] = c.view_names[seat].match(/F(\d+)P(\d+)/).map(Number);
    return f >= 14 || (f === 13 && p >= 5 && p <= 9);
  });
}

function diamondMoves(cells, board, seat) {
  const { step } = starIndex(cells);
  const allowed = (c) => c && !board.has(c.name) && (c.zone === undefined || c.zone === seat);
  const out = [];
  for (const c of cells) {
    const p = board.get(c.name);
    if (!p || p.seat !== seat) continue;
    const empty = (h) => h && (h.name === c.name || !board.has(h.name));
    for (const d of DIRS6) {
      const n = step(c, d);
      if (allowed(n)) out.push({ move: c.name + '-' + n.name, from: c.name, to: n.name, path: [c.name, n.name], jumps: 0, captures: [] });
    }
    // Breadth-first over jump landings: the first route found to a landing is a shortest one.
    const seen = new Map([[c.name, [c.name]]]);
    const queue = [c];
    while (queue.length) {
      const h = queue.shift();
      for (const d of DIRS6) {
        let run = 0;
        let q = step(h, d);
        while (q && !empty(q) && !board.get(q.name).king && (p.king || run < 1)) { run++; q = step(h, d, run + 1); }
        if (run === 0 || !q || !empty(q)) continue;
        if (q.zone !== undefined && q.zone !== seat) continue;
        if (seen.has(q.name)) continue;
        const path = [...seen.get(h.name), q.name];
        seen.set(q.name, path);
        queue.push(q);
        out.push({ move: c.name + '-' + q.name, from: c.name, to: q.name, path, jumps: path.length - 1, captures: [] });
      }
    }
  }
  return out;
}

function captureMoves(cells, board) {
  const { step } = starIndex(cells);
  const out = [];
  const walk = (from, h, path, taken, depth) => {
    if (depth > 6) return;
    for (const d of DIRS6) {
      const over = step(h, d);
      const land = step(h, d, 2);
      if (!over || !land || taken.includes(over.name) || !board.has(over.name)) continue;
      if (land.name !== from && board.has(land.name) && !taken.includes(land.name)) continue;
      const np = [...path, land.name];
      const nt = [...taken, over.name];
      out.push({ move: np.join('-'), from, to: land.name, path: np, jumps: nt.length, captures: [...nt].sort() });
      walk(from, land, np, nt, depth + 1);
    }
  };
  for (const c of cells) if (board.has(c.name)) walk(c.name, c, [c.name], [], 1);
  return out;
}

// ---------- games ----------

function makeGame(variant) {
  const kind = variant.kind;
  if (DRAUGHTS[kind]) {
    const layout = gridLayout(kind);
    return { layout, board: draughtsStart(kind, layout), seatNames: DRAUGHTS[kind].seats };
  }
  if (kind === 'diamond') {
    const cells = buildStar(3);
    return { layout: { shape: { type: 'star' }, cells }, board: diamondStart(cells, variant.players), seatNames: STAR_SEATS.slice(0, variant.players) };
  }
  const cells = buildStar(1).map(({ zone, ...c }) => c);
  const board = new Map();
  const hexagon = buildStar(3).filter((c) => c.zone === undefined && (Math.abs(c.x) > 1e-6 || Math.abs(c.y) > 1e-6));
  for (const h of hexagon) board.set(h.name, { seat: null, king: false });
  return { layout: { shape: { type: 'star' }, cells }, board, seatNames: Array.from({ length: variant.players }, (_, i) => String(i + 1)) };
}

function legal(g, variant, toMove) {
  if (DRAUGHTS[variant.kind]) return draughtsMoves(variant.kind, g.layout, g.board, toMove);
  if (variant.kind === 'diamond') {
    const m = diamondMoves(g.layout.cells, g.board, toMove);
    return m.length ? m : [{ move: 'pass', from: '', to: '', path: [], jumps: 0, captures: [], pass: true }];
  }
  return captureMoves(g.layout.cells, g.board);
}

function apply(g, variant, toMove, m, caps) {
  if (m.pass) return;
  const piece = g.board.get(m.from);
  g.board.delete(m.from);
  for (const c of m.captures) g.board.delete(c);
  if (variant.kind === 'capture') caps[toMove] += m.captures.length;
  const cell = g.layout.cells.find((c) => c.name === m.to);
  const r = DRAUGHTS[variant.kind];
  const crown = r && cell.y === (toMove === 0 ? r.ranks - 1 : 0);
  g.board.set(m.to, { ...piece, king: piece.king || !!crown });
}

/** Replays a game record into a view. */
function replay(rec) {
  const v = rec.variant;
  const g = makeGame(v);
  const caps = Array(v.players).fill(0);
  let toMove = 0;
  const history = [];
  for (const text of rec.moves) {
    const m = legal(g, v, toMove).find((x) => x.move === text);
    if (!m) break;
    apply(g, v, toMove, m, caps);
    history.push({ seat: toMove, move: m });
    toMove = (toMove + 1) % v.players;
  }
  let moves = legal(g, v, toMove);
  let outcome = null;
  if (rec.resigned != null) outcome = { winner: (rec.resigned + 1) % v.players, reason: 'resignation' };
  else if (DRAUGHTS[v.kind] && !moves.length) outcome = { winner: (toMove + 1) % v.players, reason: 'no_legal_moves' };
  else if (v.kind === 'capture' && !moves.length) {
    const most = Math.max(...caps);
    const top = caps.map((c, i) => (c === most ? i : -1)).filter((i) => i >= 0);
    outcome = { winner: top.length === 1 ? top[0] : null, reason: 'no_jumps_left' };
  } else if (v.kind === 'diamond') {
    for (let s = 0; s < v.players; s++) {
      const home = diamondHome(g.layout.cells, s);
      const king = home.find((c) => c.view_names[s] === 'F17P1');
      if (home.every((c) => g.board.has(c.name)) && g.board.get(king.name)?.seat === s && g.board.get(king.name)?.king) {
        outcome = { winner: s, reason: 'destination_reached' };
      }
    }
  }
  if (outcome) moves = [];
  const human = rec.mode === 'local' ? g.seatNames.map((_, i) => i) : rec.human_seats;
  const seats = g.seatNames.map((name, seat) => {
    const own = [...g.board.values()].filter((p) => p.seat === seat);
    const stats = { seat, name, pieces: own.length, kings: own.filter((p) => p.king).length };
    if (v.kind === 'diamond') stats.home = diamondHome(g.layout.cells, seat).filter((c) => g.board.get(c.name)?.seat === seat).length;
    if (v.kind === 'capture') stats.captures = caps[seat];
    return { seat, name, cpu: !human.includes(seat), stats };
  });
  return {
    id: rec.id,
    variant: v,
    mode: rec.mode,
    level: rec.level,
    human_seats: human,
    seats,
    to_move: toMove,
    ply: history.length,
    layout: g.layout,
    pieces: [...g.board].map(([cell, p]) => ({ cell, seat: p.seat, king: p.king })),
    legal_moves: moves,
    history,
    outcome,
    draw_counters: v.kind === 'english' && history.length > 60 ? [{ reason: 'move_limit', plies_left: 400 - history.length }] : [],
    can_undo: rec.moves.length > 0,
    can_redo: rec.redo.length > 0,
    cpu_to_move: !outcome && !human.includes(toMove),
    last_played: rec.last_played,
    created: rec.created ?? rec.last_played,
  };
}

// ---------- commands ----------

const STORE = 'damas-mock';

function load() {
  try {
    return JSON.parse(globalThis.localStorage?.getItem(STORE) || 'null') || { games: {}, settings: null };
  } catch {
    return { games: {}, settings: null };
  }
}

export function createMock({ delay = 250, random = Math.random } = {}) {
  const db = load();
  const save = () => { try { globalThis.localStorage?.setItem(STORE, JSON.stringify(db)); } catch { /* private mode */ } };
  const fail = (code, message) => Promise.reject({ code, message });
  const get = (id) => db.games[id];
  const touch = (rec) => { rec.last_played = Date.now(); save(); return replay(rec); };
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const generation = new Map();

  const commands = {
    async new_game({ setup }) {
      const v = { kind: setup.variant.kind, players: setup.variant.players || 2, long_jump: !!setup.variant.long_jump };
      if (!['english', 'international', 'turkish', 'diamond', 'capture'].includes(v.kind)) return fail('unknown_game', v.kind);
      const id = 'g' + Date.now().toString(36) + Math.floor(random() * 1e6).toString(36);
      db.games[id] = { id, variant: v, mode: setup.mode, level: setup.mode === 'cpu' ? setup.level || 'medium' : null, human_seats: setup.human_seats || [0], moves: [], redo: [], resigned: null, last_played: Date.now(), created: Date.now() };
      generation.set(id, 0);
      return touch(db.games[id]);
    },
    async get_game({ id }) {
      const rec = get(id);
      return rec ? replay(rec) : fail('no_such_game', id);
    },
    async play_move({ id, moveText }) {
      const rec = get(id);
      if (!rec) return fail('no_such_game', id);
      const view = replay(rec);
      if (view.outcome) return fail('game_over', 'over');
      if (view.cpu_to_move) return fail('not_your_turn', 'cpu');
      if (!view.legal_moves.some((m) => m.move === moveText)) return fail('illegal_move', moveText);
      rec.moves.push(moveText);
      rec.redo = [];
      return touch(rec);
    },
    async cpu_move({ id }) {
      const rec = get(id);
      if (!rec) return fail('no_such_game', id);
      const gen = generation.get(id) || 0;
      await sleep(delay);
      if ((generation.get(id) || 0) !== gen || !db.games[id]) return fail('cancelled', 'cancelled');
      const view = replay(rec);
      if (!view.cpu_to_move) return fail('not_your_turn', 'human');
      const moves = view.legal_moves;
      const best = Math.max(...moves.map((m) => m.captures.length + m.jumps));
      const pool = moves.filter((m) => m.captures.length + m.jumps === best || random() < 0.3);
      rec.moves.push(pool[Math.floor(random() * pool.length)].move);
      rec.redo = [];
      return touch(rec);
    },
    async undo({ id }) {
      const rec = get(id);
      if (!rec) return fail('no_such_game', id);
      if (!rec.moves.length) return fail('nothing_to_undo', id);
      generation.set(id, (generation.get(id) || 0) + 1);
      rec.resigned = null;
      const human = rec.mode === 'local' ? null : rec.human_seats;
      const players = rec.variant.players;
      do {
        rec.redo.push(rec.moves.pop());
      } while (human && rec.moves.length && !human.includes((rec.moves.length) % players));
      return touch(rec);
    },
    async redo({ id }) {
      const rec = get(id);
      if (!rec) return fail('no_such_game', id);
      if (!rec.redo.length) return fail('nothing_to_redo', id);
      const human = rec.mode === 'local' ? null : rec.human_seats;
      const players = rec.variant.players;
      do {
        rec.moves.push(rec.redo.pop());
      } while (human && rec.redo.length && !human.includes(rec.moves.length % players));
      return touch(rec);
    },
    async resign({ id }) {
      const rec = get(id);
      if (!rec) return fail('no_such_game', id);
      const view = replay(rec);
      rec.resigned = rec.mode === 'local' ? view.to_move : rec.human_seats[0];
      return touch(rec);
    },
    async rematch({ id }) {
      const rec = get(id);
      if (!rec) return fail('no_such_game', id);
      const n = rec.variant.players;
      const human = rec.mode === 'cpu' && DRAUGHTS[rec.variant.kind] ? [1 - rec.human_seats[0]] : rec.human_seats;
      return commands.new_game({ setup: { variant: rec.variant, mode: rec.mode, level: rec.level, human_seats: human, players: n } });
    },
    async list_saved() {
      return Object.values(db.games)
        .filter((rec) => rec.moves.length || rec.redo.length || rec.resigned != null)
        .map((rec) => {
          const v = replay(rec);
          return { id: rec.id, variant: rec.variant, mode: rec.mode, level: rec.level, ply: v.ply, to_move_name: v.seats[v.to_move].name, finished: !!v.outcome, last_played: rec.last_played };
        })
        .sort((a, b) => b.last_played - a.last_played);
    },
    async delete_saved({ id }) {
      generation.set(id, (generation.get(id) || 0) + 1);
      delete db.games[id];
      save();
      return null;
    },
    async get_settings() {
      return db.settings || { language: null, skin: 'wood', sound: true, animations: true };
    },
    async set_settings({ settings }) {
      db.settings = { ...settings };
      save();
      return db.settings;
    },
    async take_startup_notices() {
      return [];
    },
  };
  return {
    invoke(name, args = {}) {
      const f = commands[name];
      return f ? f(args) : fail('bad_input', 'unknown command ' + name);
    },
  };
}

export { buildStar, gridLayout, draughtsMoves, draughtsStart, diamondMoves, captureMoves, replay };
