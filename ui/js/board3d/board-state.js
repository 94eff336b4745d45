// What a 3D board is at a moment, in one object that every part of the board is handed: the view
// (view.js) writes the orbit and its ease, frames on demand (frames.js) the pending frame and the
// drawing buffer's state, picking (picking.js) the hovered cell and the last tap off the board,
// and the board (index.js) the model, its size on screen and the moves in flight. The test
// instruments (test-instruments.js) read it, and drive `orbit` and `inMotion` to time frames.

import { defaultOrbit } from './camera.js';

/**
 * @typedef {object} BoardState
 * @property {object|null} model the render model last drawn (render.js, game.js: model())
 * @property {number|null} viewerAz the azimuth that puts the viewer's seat at the bottom
 * @property {object} orbit the camera's orbit now (camera.js)
 * @property {{from: object, to: object, t0: number}|null} ease an orbit easing towards another
 * @property {Set<(now: number) => boolean>} flights moves in the air: each steps per frame until it lands
 * @property {{w: number, h: number}} size the board's size on screen, CSS px
 * @property {boolean} sized the board has had its size on screen (nothing is drawn before)
 * @property {boolean} inMotion a gesture is moving the view
 * @property {boolean} coarseMarbles the marbles are drawn with the coarse sphere (a light frame)
 * @property {number} raf the pending animation frame's id, 0 when none is asked for
 * @property {number} askedAt when the pending frame was asked for (performance.now())
 * @property {number} framesDrawn frames drawn by this board
 * @property {object|null} warm the hidden warm-up group drawn after the first frame (frames.js)
 * @property {boolean} built the first update has made the scene
 * @property {string|null|undefined} hovered the cell under the pointer, as last told
 * @property {number} lastEmptyTap when the last tap off the board was (a second one restores the view)
 * @property {boolean} destroyed the board is gone: nothing is drawn or asked for any more
 * @property {object|null} watch the test instruments' watcher of this board, when installed
 */

/** @returns {BoardState} a board's state before its first model. */
export function makeBoardState() {
  return {
    model: null,
    viewerAz: null,
    orbit: defaultOrbit('perspective', 0),
    ease: null,
    flights: new Set(),
    size: { w: 1, h: 1 },
    sized: false,
    inMotion: false,
    coarseMarbles: false,
    raf: 0,
    askedAt: 0,
    framesDrawn: 0,
    warm: null,
    built: false,
    hovered: undefined,
    lastEmptyTap: 0,
    destroyed: false,
    watch: null,
  };
}
