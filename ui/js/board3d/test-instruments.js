// The 3D board's test instruments: what end-to-end tests read off a board that draws on a canvas,
// and the figures they print. The app never loads this module; a test harness imports it into the
// page and calls `installTestInstruments()` before a board is made (tests/e2e/lib/ui.mjs). It
// imports nothing, so installing it does not load three.js early.
//
// Installed, it sets `globalThis.__board3dInstruments`, which each new board (index.js) hands its
// insides to; the board on screen is then `globalThis.__board` (docs/ui.md, "The 3D board"), and
// `globalThis.__board3dWarmUp` is set once the setup screen's GL warm-up is over.

/** Frame times kept per board (the newest). */
const FRAMES_KEPT = 600;

/** Installs the instruments in this page (idempotent). */
export function installTestInstruments(global = globalThis) {
  if (global.__board3dInstruments) return global.__board3dInstruments;
  const instruments = {
    board: (inside) => watchBoard(inside, global),
    warmedUp(figures) { global.__board3dWarmUp = { ...figures }; },
  };
  global.__board3dInstruments = instruments;
  return instruments;
}

/** Keeps one board's figures and makes it `__board`; returns the watcher index.js calls. */
function watchBoard(inside, global) {
  // buildMs: the first update (the scene made from the model), before the first frame.
  // lightFrames: a gesture's frames drawn light (lower resolution, coarse marbles: resolution.js).
  const figures = { created: performance.now(), firstFrameAt: 0, buildMs: 0, frames: 0, lightFrames: 0, probeMs: null, frameAt: [], renderMs: [] };
  const hook = Object.assign(Object.create(inside.api), {
    describe: () => describe(inside),
    stats: () => stats(inside, figures),
    measureFrames: (n, step, opts) => measureFrames(inside, n, step, opts),
    /** Where a cell is on screen, client CSS px; null before the board's first frame. */
    cellScreenPosition(cell) {
      // Before its first frame the board has no size on screen: nothing is where it will be.
      if (!inside.boardScene.drawn.world || !inside.state.framesDrawn) return null;
      inside.poseCamera();
      const p = inside.screenOf(cell);
      return p ? inside.toClient(p) : null;
    },
    /** Where the board's turning centre is on screen, client CSS px. */
    centreScreenPosition: () => inside.toClient(inside.centreOnCanvas()),
  });
  global.__board = hook;
  return {
    built(ms) { figures.buildMs = ms; },
    probed(ms) { figures.probeMs = ms; },
    frameDrawn({ at, drawnAt, renderMs, light }) {
      figures.frames++;
      if (light) figures.lightFrames++;
      if (!figures.firstFrameAt) figures.firstFrameAt = drawnAt;
      figures.frameAt.push(at);
      figures.renderMs.push(renderMs);
      if (figures.frameAt.length > FRAMES_KEPT) { figures.frameAt.shift(); figures.renderMs.shift(); }
      inside.el.dataset.frames = String(figures.frames);
    },
    destroyed() {
      if (global.__board === hook) delete global.__board;
    },
  };
}

/** What the board shows, read from its three.js objects. */
function describe(inside) {
  const cls = (n) => [n.userData.selected && 'selected', n.userData.selectable && 'selectable', n.userData.faded && 'taken'].filter(Boolean);
  const { orbit } = inside.state;
  const { marbles, rings, previewLine, routeLine, layers, drawn: { ghost, ground, tint } } = inside.boardScene;
  return {
    view: orbit.view,
    orbit: { ...orbit },
    pieces: [...marbles.values()].map((n) => ({ cell: n.userData.cell, seat: n.userData.seat ?? null, king: !!n.userData.king, classes: cls(n), lifted: n.position.y > inside.REST_Y + 0.1 })),
    dests: [...rings.values()].map((r) => ({ cell: r.userData.cell, classes: ['dest', r.userData.stop && 'dest-stop', r.userData.on && 'dest-on'].filter(Boolean) })),
    ghost: ghost ? ghost.userData.cell : null,
    previewPath: previewLine.mesh.visible ? previewLine.mesh.userData.cells : null,
    route: routeLine.mesh.visible ? routeLine.mesh.userData.cells : null,
    lastMoves: layers.last.children.map((g) => ({ from: g.userData.from, to: g.userData.to })),
    kingHomes: ground ? ground.group.children.filter((c) => c.name === 'king-home').map((c) => c.userData) : [],
    destinationTint: tint ? tint.userData.cells : null,
  };
}

/** The board's figures: frames drawn and their times, its state of motion, its resolution, the GPU's load. */
function stats(inside, figures) {
  const { renderer, canvas, launch, state } = inside;
  return {
    ...figures, frameAt: [...figures.frameAt], renderMs: [...figures.renderMs], size: { ...state.size },
    warmUp: launch.warmUp ? { ...launch.warmUp } : null, pending: !!state.raf, easing: !!state.ease, flying: state.flights.size,
    // The drawing buffer now (device px), whether a gesture moves the view, whether this launch lowers gestures' frames.
    resolution: { pixelRatio: renderer.getPixelRatio(), buffer: { w: canvas.width, h: canvas.height }, inMotion: state.inMotion, lateInMotion: launch.lateInMotion, coarseMarbles: state.coarseMarbles, batchParts: inside.boardScene.marbleBatch.parts },
    // What the shared renderer holds on the GPU now (shader programs, geometries, textures).
    gl: { programs: renderer.info.programs ? renderer.info.programs.length : 0, geometries: renderer.info.memory.geometries, textures: renderer.info.memory.textures },
  };
}

/**
 * The board's own cost of a frame while turning, without the page's compositing: `n` frames drawn
 * at once, each turned by `step` radians and waited for (a one-pixel read waits until software GL
 * has drawn it all), at a gesture's resolution (`inGesture`: lower once this launch's gestures drew
 * late frames) or at rest. Returns their times (ms); the view and the resolution are restored.
 */
function measureFrames(inside, n = 30, step = Math.PI / 90, { inGesture = false } = {}) {
  const { state } = inside;
  if (state.destroyed || !state.sized) return [];
  const gl = inside.renderer.getContext();
  const keep = state.orbit;
  const keepMotion = state.inMotion;
  state.inMotion = inGesture;
  inside.applySize();
  inside.applyMarbleDetail();
  const out = [];
  for (let i = 1; i <= n; i++) {
    const t0 = performance.now();
    state.orbit = { ...keep, azimuth: keep.azimuth + i * step };
    inside.poseCamera();
    inside.drawScene();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    out.push(performance.now() - t0);
  }
  state.orbit = keep;
  state.inMotion = keepMotion;
  inside.applySize();
  inside.applyMarbleDetail();
  inside.requestRender();
  return out;
}
