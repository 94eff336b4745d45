// Board geometry per family: where each cell is drawn in SVG units, and which cell a point hits.
//
// grid: x = file from the left, y = rank from the bottom as seen by seat 0; `flip` turns the board
//   for a viewer on seat 1. One square is GRID_UNIT wide; the SVG y axis points down.
// star: unit-spaced holes, y up, seat 0's start punta at the bottom. The board is turned so that
//   the viewer's start apex (F1P1 in the viewer's own names) is at the bottom.

export const GRID_UNIT = 100;
export const STAR_UNIT = 60;

/**
 * @param {{shape: {type: string, files?: number, ranks?: number, dark_only?: boolean},
 *   cells: {name: string, x: number, y: number, view_names?: string[]}[]}} layout
 * @param {{viewer?: number}} view
 */
export function makeGeometry(layout, view = {}) {
  return layout.shape.type === 'grid' ? gridGeometry(layout, view) : starGeometry(layout, view);
}

function gridGeometry(layout, { viewer = 0 }) {
  const { files, ranks } = layout.shape;
  const flip = viewer === 1;
  const pos = new Map();
  const byIndex = new Map();
  for (const c of layout.cells) {
    const col = flip ? files - 1 - c.x : c.x;
    const row = flip ? c.y : ranks - 1 - c.y;
    pos.set(c.name, { x: (col + 0.5) * GRID_UNIT, y: (row + 0.5) * GRID_UNIT });
    byIndex.set(col + ',' + row, c.name);
  }
  return {
    family: 'grid',
    files,
    ranks,
    flip,
    rotation: flip ? 180 : 0,
    unit: GRID_UNIT,
    pieceRadius: GRID_UNIT * 0.38,
    viewBox: { x: 0, y: 0, w: files * GRID_UNIT, h: ranks * GRID_UNIT },
    cells: layout.cells.map((c) => c.name),
    toSvg: (name) => pos.get(name) || null,
    cellAt(px, py) {
      const col = Math.floor(px / GRID_UNIT);
      const row = Math.floor(py / GRID_UNIT);
      return byIndex.get(col + ',' + row) || null;
    },
    /** Board squares to paint, playable or not: {col, row, dark}. */
    squares() {
      const out = [];
      for (let row = 0; row < ranks; row++) {
        for (let col = 0; col < files; col++) {
          const x = flip ? files - 1 - col : col;
          const y = flip ? row : ranks - 1 - row;
          out.push({ col, row, x, y, dark: (x + y) % 2 === 0 });
        }
      }
      return out;
    },
  };
}

/** Angle (degrees) that turns the layout so the viewer's start apex points down. */
export function starRotation(layout, viewer) {
  const apex = layout.cells.find((c) => c.view_names && c.view_names[viewer] === 'F1P1');
  if (!apex) return 0;
  const { cx, cy } = centre(layout.cells);
  const a = (Math.atan2(apex.y - cy, apex.x - cx) * 180) / Math.PI;
  return normalise(-90 - a);
}

function normalise(deg) {
  let d = Math.round(deg * 1000) / 1000;
  while (d <= -180) d += 360;
  while (d > 180) d -= 360;
  return d;
}

function centre(cells) {
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const c of cells) {
    minX = Math.min(minX, c.x); maxX = Math.max(maxX, c.x);
    minY = Math.min(minY, c.y); maxY = Math.max(maxY, c.y);
  }
  return { cx: (minX + maxX) / 2, cy: (minY + maxY) / 2 };
}

/** The shortest distance between two holes: the layout's unit, whatever its scale. */
function spacing(cells) {
  let best = Infinity;
  for (let i = 0; i < cells.length; i++) {
    for (let j = i + 1; j < cells.length; j++) {
      const d = Math.hypot(cells[i].x - cells[j].x, cells[i].y - cells[j].y);
      if (d > 1e-6 && d < best) best = d;
    }
  }
  return Number.isFinite(best) ? best : 1;
}

function starGeometry(layout, { viewer = 0 }) {
  const rotation = starRotation(layout, viewer);
  const { cx, cy } = centre(layout.cells);
  const scale = STAR_UNIT / spacing(layout.cells);
  const t = (rotation * Math.PI) / 180;
  const cos = Math.cos(t), sin = Math.sin(t);
  const pos = new Map();
  let r = 0;
  let maxX = 0, maxY = 0;
  for (const c of layout.cells) {
    const dx = c.x - cx, dy = c.y - cy;
    const x = (dx * cos - dy * sin) * scale;
    const y = -(dx * sin + dy * cos) * scale;
    pos.set(c.name, { x, y });
    r = Math.max(r, Math.hypot(x, y));
    maxX = Math.max(maxX, Math.abs(x));
    maxY = Math.max(maxY, Math.abs(y));
  }
  const margin = STAR_UNIT * 0.75;
  const hw = maxX + margin, hh = maxY + margin;
  return {
    family: 'star',
    rotation,
    unit: STAR_UNIT,
    pieceRadius: STAR_UNIT * 0.36,
    viewBox: { x: -hw, y: -hh, w: 2 * hw, h: 2 * hh },
    cells: layout.cells.map((c) => c.name),
    toSvg: (name) => pos.get(name) || null,
    cellAt(px, py) {
      let best = null, bestD = STAR_UNIT * 0.5;
      for (const [name, p] of pos) {
        const d = Math.hypot(p.x - px, p.y - py);
        if (d < bestD) { bestD = d; best = name; }
      }
      return best;
    },
    radius: r,
  };
}
