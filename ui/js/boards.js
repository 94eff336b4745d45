// Which board the game screen shows, behind one interface (`el`, `kind`, `aspect`, `update`,
// `animate`, `destroy`): the 3D board (board3d/) for Diamond and the capture game when the setting
// says 3D and WebGL works, else the SVG board (render.js). Draughts keep the SVG board. three.js
// is loaded only when a 3D board is made; any failure (no WebGL, a module that does not load, a
// context lost for good) falls back to the SVG board, so a game is always playable.

import { createBoard } from './render.js';
import { boardTap } from './tap.js';
import { isStar } from './state.js';

/** The setting's value for a game: '3d' only for the star games, when not set to '2d'. */
export function boardKindFor(kind, setting) {
  return isStar(kind) && setting !== '2d' ? '3d' : '2d';
}

/**
 * @param {object} opts
 * @param {string} opts.kind the game (variant kind)
 * @param {string} [opts.setting] the "Board: 3D / 2D" setting ('3d' | '2d')
 * @param {string} opts.label accessible name of the board
 * @param {(cell: string|null, pointer: string) => void} opts.onTap
 * @param {(cell: string|null) => void} opts.onHover mouse only
 * @param {() => number} opts.motion
 * @param {(board: object) => void} [opts.onSwap] the 3D board failed after it was shown: this is
 *   the SVG board now in its place (the caller draws it)
 */
export async function createGameBoard(opts) {
  if (boardKindFor(opts.kind, opts.setting) === '3d') {
    const board = await create3d(opts);
    if (board) return board;
  }
  return createSvgBoard(opts);
}

let board3dModule = null;
// A failed load is forgotten, so the next game tries again.
const loadBoard3d = () => (board3dModule ||= import('./board3d/index.js').catch((e) => { board3dModule = null; throw e; }));

/**
 * Starts loading the 3D board (three.js) ahead of a star game, e.g. on its setup screen, so the
 * game opens sooner. A failure here is ignored: making the board retries and falls back.
 */
export function preloadBoard(kind, setting) {
  if (boardKindFor(kind, setting) !== '3d') return;
  loadBoard3d().then((m) => {
    // Next task, so that the setup screen is drawn first. The GL context and the board's shader
    // programs are made now rather than on the first frame of the game (see board3d/shared-renderer.js).
    setTimeout(() => {
      try { m.prewarmBoard3d(); } catch (e) { console.warn('3D warm-up failed:', e && e.message ? e.message : e); }
    }, 0);
  }).catch(() => {});
}

async function create3d(opts) {
  try {
    const { createBoard3d } = await loadBoard3d();
    let board = null;
    board = createBoard3d({
      label: opts.label,
      onTap: opts.onTap,
      onHover: opts.onHover,
      motion: opts.motion,
      onFail: () => {
        // The WebGL context was lost and not given back: the same game on the SVG board.
        if (!board || !board.el.isConnected) return;
        const flat = createSvgBoard(opts);
        board.el.replaceWith(flat.el);
        board.destroy();
        opts.onSwap?.(flat);
      },
    });
    return board;
  } catch (e) {
    // No WebGL here (three.js: "Error creating WebGL context") or three.js did not load.
    console.warn('3D board unavailable, using the 2D board:', e && e.message ? e.message : e);
    return null;
  }
}

/** The SVG board with its pointer handling: a tap resolves to a cell by the shared tap rule. */
export function createSvgBoard({ label, onTap, onHover }) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('data-testid', 'board');
  svg.classList.add('board');
  const board = createBoard(svg, { label });
  let model = null;

  function cellFromEvent(e) {
    const target = e.target && e.target.closest ? e.target.closest('[data-cell]') : null;
    if (target && svg.contains(target)) return target.getAttribute('data-cell');
    if (typeof e.clientX === 'number' && (e.clientX || e.clientY)) return board.cellAtClient(e.clientX, e.clientY);
    return null;
  }

  /** Where a cell is drawn on screen (client CSS px). */
  function screenOf(cell) {
    const ctm = svg.getScreenCTM();
    if (!ctm || !model) return null;
    const p = model.geometry.toSvg(cell);
    const q = new DOMPoint(p.x, p.y).matrixTransform(ctm);
    return { x: q.x, y: q.y };
  }

  // Pointer Events only; synthetic touch events from tests are accepted (no isTrusted check).
  svg.addEventListener('pointerdown', (e) => {
    if (e.button > 0) return;
    const hit = cellFromEvent(e);
    const cell = typeof e.clientX === 'number' ? boardTap(model, hit, { x: e.clientX, y: e.clientY }, screenOf) : hit;
    onTap(cell, e.pointerType || 'mouse');
  });
  svg.addEventListener('pointermove', (e) => {
    if (e.pointerType === 'mouse') onHover(cellFromEvent(e));
  });
  svg.addEventListener('pointerleave', (e) => {
    if (e.pointerType === 'mouse') onHover(null);
  });

  return {
    el: svg,
    kind: '2d',
    /** Width / height of the frame the board wants: the geometry's. */
    get aspect() {
      const vb = model && model.geometry.viewBox;
      return vb ? vb.w / vb.h : 1;
    },
    update(m) {
      model = m;
      board.update(m);
    },
    animate: (move, o) => board.animate(move, o),
    cellAtClient: (x, y) => board.cellAtClient(x, y),
    destroy() {},
  };
}
