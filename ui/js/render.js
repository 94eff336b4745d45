// SVG board: draws a model (pieces, marks, rings, preview) and animates moves along their path.
// Static layers are built once per geometry; pieces and rings are kept in maps keyed by cell and
// updated in place, so a redraw touches only what changed. Callers batch redraws per frame.

const NS = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) if (v != null) e.setAttribute(k, String(v));
  if (parent) parent.appendChild(e);
  return e;
}

function setAttrs(e, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    const s = v == null ? null : String(v);
    if (s == null) e.removeAttribute(k);
    else if (e.getAttribute(k) !== s) e.setAttribute(k, s);
  }
}

/** A dotted arc through the landings: each leg bows sideways so the route reads as hops. */
export function arcPath(points) {
  if (points.length < 2) return '';
  let d = `M${r(points[0].x)} ${r(points[0].y)}`;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1], b = points[i];
    const mx = (a.x + b.x) / 2, my = (a.y + b.y) / 2;
    const dx = b.x - a.x, dy = b.y - a.y;
    const k = 0.22;
    d += ` Q${r(mx - dy * k)} ${r(my + dx * k)} ${r(b.x)} ${r(b.y)}`;
  }
  return d;
}
const r = (v) => Math.round(v * 10) / 10;

// Seat glyphs keep colours apart for colour-blind players: a shape as well as a hue.
const GLYPHS = {
  red: 'M0 -7 A7 7 0 1 1 0 7 A7 7 0 1 1 0 -7Z',
  yellow: 'M0 -8 L7 5 L-7 5Z',
  green: 'M-6 -6 H6 V6 H-6Z',
};
const CROWN = 'M-9 4 L-10 -5 L-5 -1 L0 -8 L5 -1 L10 -5 L9 4Z';

export function createBoard(svg, { label } = {}) {
  svg.setAttribute('role', 'img');
  if (label) svg.setAttribute('aria-label', label);
  let geom = null;
  let geomKey = '';
  const layers = {};
  const pieces = new Map();
  const rings = new Map();
  const hits = new Map();

  function build(geometry, layout, family, zones, cellLabel, goals) {
    svg.textContent = '';
    svg.classList.toggle('board-star', geometry.family === 'star');
    svg.classList.toggle('board-grid', geometry.family === 'grid');
    const vb = geometry.viewBox;
    svg.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    defs();
    // The last moves' marks go above the pieces, so a path over other pieces stays visible.
    for (const name of ['ground', 'route', 'rings', 'pieces', 'last', 'preview', 'ghost', 'hit']) {
      layers[name] = el('g', { class: 'layer-' + name }, svg);
    }
    layers.hit.setAttribute('data-testid', 'board-hit');
    pieces.clear();
    rings.clear();
    hits.clear();
    if (geometry.family === 'grid') groundGrid(geometry, layout);
    else groundStar(geometry, layout, zones, goals);
    for (const name of geometry.cells) {
      const p = geometry.toSvg(name);
      const h = geometry.family === 'grid'
        ? el('rect', { x: p.x - geometry.unit / 2, y: p.y - geometry.unit / 2, width: geometry.unit, height: geometry.unit }, layers.hit)
        : el('circle', { cx: p.x, cy: p.y, r: geometry.unit * 0.48 }, layers.hit);
      setAttrs(h, { class: 'hit', 'data-cell': name, 'data-testid': 'cell' });
      // A tooltip with the point's name as the viewer reads it (F/P on the star).
      if (cellLabel) el('title', {}, h).textContent = cellLabel(name);
      hits.set(name, h);
    }
  }

  function defs() {
    const d = el('defs', {}, svg);
    const grad = (id, stops) => {
      const g = el('radialGradient', { id, cx: '35%', cy: '30%', r: '75%' }, d);
      stops.forEach(([o, c]) => el('stop', { offset: o, class: c }, g));
    };
    for (const s of ['white', 'black', 'red', 'yellow', 'green', 'neutral']) {
      grad('pg-' + s, [['0%', `st-hi st-${s}`], ['60%', `st-mid st-${s}`], ['100%', `st-lo st-${s}`]]);
    }
  }

  function groundGrid(g, layout) {
    const G = layers.ground;
    el('rect', { x: -12, y: -12, width: g.viewBox.w + 24, height: g.viewBox.h + 24, rx: 10, class: 'frame' }, G);
    const playable = new Set(layout.cells.map((c) => c.x + ',' + c.y));
    const names = new Map(layout.cells.map((c) => [c.x + ',' + c.y, c.name]));
    for (const s of g.squares()) {
      const dark = layout.shape.dark_only ? s.dark : s.dark;
      el('rect', { x: s.col * g.unit, y: s.row * g.unit, width: g.unit, height: g.unit, class: dark ? 'sq sq-dark' : 'sq sq-light' }, G);
      if (playable.has(s.x + ',' + s.y)) {
        const t = el('text', { x: s.col * g.unit + 6, y: s.row * g.unit + 20, class: 'sq-label' }, G);
        t.textContent = names.get(s.x + ',' + s.y);
      }
    }
    if (!layout.shape.dark_only) {
      // Turkish: every square is played, so draw the lines the pieces run along.
      for (let i = 1; i < g.files; i++) el('line', { x1: i * g.unit, y1: 0, x2: i * g.unit, y2: g.viewBox.h, class: 'grid-line' }, G);
      for (let i = 1; i < g.ranks; i++) el('line', { x1: 0, y1: i * g.unit, x2: g.viewBox.w, y2: i * g.unit, class: 'grid-line' }, G);
    }
  }

  function groundStar(g, layout, zones, goals) {
    const G = layers.ground;
    const pts = layout.cells.map((c) => ({ c, p: g.toSvg(c.name) }));
    // The six apexes are the holes farthest from the centre; two triangles through them make the star.
    const far = [...pts].sort((a, b) => Math.hypot(b.p.x, b.p.y) - Math.hypot(a.p.x, a.p.y)).slice(0, 6)
      .sort((a, b) => Math.atan2(a.p.y, a.p.x) - Math.atan2(b.p.y, b.p.x));
    const grow = (p) => { const d = Math.hypot(p.x, p.y); const k = (d + g.unit * 0.7) / d; return `${r(p.x * k)},${r(p.y * k)}`; };
    // The wooden (or sugar) plate is the board frame's CSS background, so the star can turn on it.
    for (const off of [0, 1]) {
      el('polygon', { points: [0, 2, 4].map((i) => grow(far[(i + off) % 6].p)).join(' '), class: 'star-shape' }, G);
    }
    const lines = el('g', { class: 'star-lines' }, G);
    const U = g.unit;
    for (let i = 0; i < pts.length; i++) {
      for (let j = i + 1; j < pts.length; j++) {
        const a = pts[i].p, b = pts[j].p;
        if (Math.abs(Math.hypot(a.x - b.x, a.y - b.y) - U) < U * 0.05) {
          el('line', { x1: r(a.x), y1: r(a.y), x2: r(b.x), y2: r(b.y) }, lines);
        }
      }
    }
    // Diamond: the viewer's destination (a triangle of 15 holes) is tinted in its colour under the
    // holes: one polygon through its three corners, pushed out by most of a hole spacing.
    if (goals && zones) {
      const home = goals.home.map((name) => g.toSvg(name)).filter(Boolean);
      const cx = home.reduce((a, p) => a + p.x, 0) / home.length;
      const cy = home.reduce((a, p) => a + p.y, 0) / home.length;
      const corners = [...home].sort((a, b) => Math.hypot(b.x - cx, b.y - cy) - Math.hypot(a.x - cx, a.y - cy)).slice(0, 3);
      const out = (p) => { const d = Math.hypot(p.x - cx, p.y - cy) || 1; const k = (d + U * 0.75) / d; return `${r(cx + (p.x - cx) * k)},${r(cy + (p.y - cy) * k)}`; };
      el('polygon', { points: corners.map(out).join(' '), class: 'goal-home tint-' + zones[goals.viewer], 'data-testid': 'goal-home', 'data-seat': goals.viewer, 'data-cells': goals.home.join(' ') }, G);
    }
    for (const { c, p } of pts) {
      const zone = c.zone != null && zones ? zones[c.zone] : null;
      el('circle', { cx: r(p.x), cy: r(p.y), r: U * 0.2, class: 'hole' + (zone ? ' zone-' + zone : '') }, G);
    }
    // ◎ on every destination apex, in the colour of the player whose king goes there.
    if (goals && zones) {
      for (const a of goals.apexes) {
        const p = g.toSvg(a.cell);
        if (!p) continue;
        const mark = el('g', { class: 'goal-apex tint-' + zones[a.seat], 'data-testid': 'goal-apex', 'data-cell': a.cell, 'data-seat': a.seat, transform: `translate(${r(p.x)} ${r(p.y)})` }, G);
        el('circle', { r: U * 0.4, class: 'goal-ring' }, mark);
        el('circle', { r: U * 0.13, class: 'goal-dot' }, mark);
      }
    }
  }

  function pieceNode(cell) {
    let n = pieces.get(cell);
    if (n) return n;
    n = el('g', { class: 'piece', 'data-testid': 'piece', 'data-cell': cell }, layers.pieces);
    const lift = el('g', { class: 'lift' }, n);
    el('circle', { class: 'shadow', r: geom.pieceRadius, cx: 2, cy: 4 }, lift);
    el('circle', { class: 'body', r: geom.pieceRadius }, lift);
    el('circle', { class: 'rim', r: geom.pieceRadius * 0.72 }, lift);
    el('path', { class: 'glyph' }, lift);
    el('path', { class: 'crown', d: CROWN }, lift);
    pieces.set(cell, n);
    return n;
  }

  function drawPiece(n, cell, piece, seatNames, extra) {
    const p = geom.toSvg(cell);
    const seatName = piece.seat == null ? 'neutral' : seatNames[piece.seat] || 'neutral';
    setAttrs(n, {
      transform: `translate(${r(p.x)} ${r(p.y)})`,
      class: ['piece', 'seat-' + seatName, piece.king ? 'king' : '', ...extra].filter(Boolean).join(' '),
      'data-seat': piece.seat == null ? null : piece.seat,
      'data-king': piece.king ? 'true' : null,
    });
    const body = n.querySelector('.body');
    setAttrs(body, { fill: `url(#pg-${seatName})` });
    const glyph = n.querySelector('.glyph');
    const star = geom.family === 'star';
    setAttrs(glyph, { d: star && GLYPHS[seatName] ? GLYPHS[seatName] : '', transform: `scale(${geom.pieceRadius / 20})` });
    setAttrs(n.querySelector('.crown'), { transform: `scale(${geom.pieceRadius / (star ? 16 : 22)})` });
  }

  /**
   * @param {object} m model: {geometry, layout, key, seatNames, zones, goals, pieces, selected,
   *   carried, faded, mustCapture, selectable, dests, preview, route, last}
   */
  function update(m) {
    if (m.key !== geomKey) {
      geom = m.geometry;
      geomKey = m.key;
      build(m.geometry, m.layout, m.family, m.zones, m.cellLabel, m.goals);
    }
    // Pieces: a piece carried along a stopped capture is drawn at its stop, not at its origin.
    const want = new Map();
    for (const p of m.pieces) want.set(p.cell, p);
    let carriedPiece = null;
    if (m.carried && m.carried.at !== m.carried.from) {
      carriedPiece = want.get(m.carried.from);
      want.delete(m.carried.from);
      if (carriedPiece) want.set(m.carried.at, carriedPiece);
    }
    for (const [cell, n] of pieces) if (!want.has(cell)) { n.remove(); pieces.delete(cell); }
    for (const [cell, p] of want) {
      const extra = [];
      const isSel = m.selected && (cell === (m.carried ? m.carried.at : m.selected));
      if (isSel) extra.push('selected');
      if (m.mustCapture.has(cell) && !m.selected) extra.push('must-capture');
      if (m.selectable.has(cell)) extra.push('selectable');
      if (m.faded.has(cell)) extra.push('taken');
      drawPiece(pieceNode(cell), cell, p, m.seatNames, extra);
    }
    // Destination rings.
    const destCells = new Set(m.dests.map((d) => d.cell));
    for (const [cell, n] of rings) if (!destCells.has(cell)) { n.remove(); rings.delete(cell); }
    for (const d of m.dests) {
      let n = rings.get(d.cell);
      if (!n) {
        n = el('circle', { 'data-testid': 'dest', 'data-cell': d.cell }, layers.rings);
        rings.set(d.cell, n);
      }
      const p = geom.toSvg(d.cell);
      setAttrs(n, { cx: r(p.x), cy: r(p.y), r: geom.pieceRadius * (d.stop ? 1.38 : 1.08), class: 'dest' + (d.stop ? ' dest-stop' : '') + (m.preview && m.preview.cell === d.cell ? ' dest-on' : '') });
    }
    // Route so far (stopped capture), preview path and ghost.
    drawPath(layers.route, m.route && m.route.length > 1 ? m.route : null, 'route', 'route');
    drawPath(layers.preview, m.preview ? m.preview.path : null, 'preview-path', 'path');
    layers.ghost.textContent = '';
    if (m.preview && m.ghostPiece) {
      const p = geom.toSvg(m.preview.cell);
      const gh = el('g', { class: 'ghost', 'data-testid': 'ghost', 'data-cell': m.preview.cell, transform: `translate(${r(p.x)} ${r(p.y)})` }, layers.ghost);
      el('circle', { r: geom.pieceRadius, class: 'body', fill: `url(#pg-${m.ghostPiece.seat == null ? 'neutral' : m.seatNames[m.ghostPiece.seat]})` }, gh);
      if (m.ghostPiece.king) el('path', { class: 'crown', d: CROWN, transform: `scale(${geom.pieceRadius / (geom.family === 'star' ? 16 : 22)})` }, gh);
    }
    // Last move(s) since your turn: a ring on the origin, the dotted route above the pieces, and
    // the piece that arrived marked (a solid ring round it); older moves fainter.
    layers.last.textContent = '';
    m.last.forEach((mv, i) => {
      const older = i < m.last.length - 1;
      const to = mv.path[mv.path.length - 1];
      const g = el('g', { class: 'last' + (older ? ' last-older' : ''), 'data-testid': 'last-move', 'data-from': mv.path[0], 'data-to': to, 'data-seat': mv.seat ?? null }, layers.last);
      const o = geom.toSvg(mv.path[0]);
      if (o) el('circle', { cx: r(o.x), cy: r(o.y), r: geom.pieceRadius * 1.02, class: 'last-from', 'data-testid': 'last-from', 'data-cell': mv.path[0] }, g);
      const pts = mv.path.map((c) => geom.toSvg(c)).filter(Boolean);
      el('path', { d: arcPath(pts), class: 'last-path', 'data-testid': 'last-path' }, g);
      const d = geom.toSvg(to);
      if (d) el('circle', { cx: r(d.x), cy: r(d.y), r: geom.pieceRadius * 1.16, class: 'last-to', 'data-testid': 'last-to', 'data-cell': to }, g);
    });
  }

  function drawPath(layer, cells, cls, testid) {
    layer.textContent = '';
    if (!cells) return;
    const pts = cells.map((c) => geom.toSvg(c)).filter(Boolean);
    el('path', { d: arcPath(pts), class: cls, 'data-testid': testid, 'data-cells': cells.join(' ') }, layer);
  }

  /** Slides the piece now standing on the move's landing along its route. Resolves when done. */
  function animate(move, { duration = 170, removed = [], seatNames = [] } = {}) {
    if (!geom || !move || move.pass) return Promise.resolve();
    const route = (move.path && move.path.length ? move.path : [move.from, move.to]);
    const full = route[0] === move.from ? route : [move.from, ...route];
    const pts = full.map((c) => geom.toSvg(c)).filter(Boolean);
    const node = pieces.get(move.to);
    if (!node || pts.length < 2) return Promise.resolve();
    // Captured pieces linger as fading copies until the mover passes them.
    const ghosts = removed.map((p) => {
      const n = el('g', { class: 'piece taking seat-' + (p.seat == null ? 'neutral' : seatNames[p.seat]) }, layers.pieces);
      const q = geom.toSvg(p.cell);
      n.setAttribute('transform', `translate(${r(q.x)} ${r(q.y)})`);
      el('circle', { r: geom.pieceRadius, class: 'body', fill: `url(#pg-${p.seat == null ? 'neutral' : seatNames[p.seat]})` }, n);
      return n;
    });
    layers.pieces.appendChild(node);
    node.classList.add('flying');
    const legs = pts.length - 1;
    const total = duration * legs;
    return new Promise((resolve) => {
      const t0 = performance.now();
      const frame = (now) => {
        const f = Math.max(0, Math.min(1, (now - t0) / total));
        const leg = Math.min(legs - 1, Math.floor(f * legs));
        const u = f * legs - leg;
        const a = pts[leg], b = pts[leg + 1];
        const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
        const hop = Math.sin(Math.PI * u) * 0.18 * (legs > 1 || move.jumps ? 1 : 0.4);
        node.setAttribute('transform', `translate(${r(a.x + (b.x - a.x) * e)} ${r(a.y + (b.y - a.y) * e)}) scale(${1 + hop})`);
        ghosts.forEach((g, i) => { if (f * legs > i + 0.5 || legs === 1 && f > 0.5) g.style.opacity = '0'; });
        if (f < 1) requestAnimationFrame(frame);
        else {
          const p = pts[pts.length - 1];
          node.setAttribute('transform', `translate(${r(p.x)} ${r(p.y)})`);
          node.classList.remove('flying');
          ghosts.forEach((g) => g.remove());
          resolve();
        }
      };
      requestAnimationFrame(frame);
    });
  }

  /** The cell under a client point (taps that miss a hit target by a hair). */
  function cellAtClient(x, y) {
    if (!geom) return null;
    const ctm = svg.getScreenCTM();
    if (!ctm) return null;
    const pt = new DOMPoint(x, y).matrixTransform(ctm.inverse());
    return geom.cellAt(pt.x, pt.y);
  }

  return { update, animate, cellAtClient, get geometry() { return geom; } };
}
