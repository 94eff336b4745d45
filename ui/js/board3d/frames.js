// Frames on demand for a 3D board: nothing is drawn while nothing changes. `requestRender`
// schedules at most one frame, asked for by the controls, the model, a camera ease or a move in
// flight, and an ease or a move asks for the next frame only until it ends. Also the resolution
// of the moment (the drawing buffer's size, light frames while a gesture moves the view), the
// hidden warm-up after a board's first frame and the launch's probe at rest (resolution.js).
// Reads and writes the board state's `raf`, `askedAt`, `framesDrawn`, `inMotion`,
// `coarseMarbles` and `warm`; steps `orbit` through its ease and the moves in `flights`.

import * as THREE from '../../vendor/three/three.module.js';
import { makeMarble, setFaded, setCoarse } from './pieces.js';
import { dottedLine, makeDestRing } from './marks.js';
import { pixelRatioFor, drawsLight, isLateMotionFrame, probeSaysLate } from './resolution.js';
import { poseCamera, stepEase } from './view.js';

/**
 * @param {object} o
 * @param {import('./board-state.js').BoardState} o.state
 * @param {ReturnType<import('./scene.js').makeBoardScene>} o.boardScene
 * @param {{renderer: THREE.WebGLRenderer, lateInMotion: boolean, probed?: boolean}} o.launch the shared renderer (shared-renderer.js)
 */
export function makeFrames({ state, boardScene, launch }) {
  const { renderer } = launch;
  const canvas = renderer.domElement;
  const { scene, camera, marbles, drawn, marbleBatch, pieceGeoms, ringGeoms, materials, textures } = boardScene;

  function requestRender() {
    if (state.raf || state.destroyed) return;
    state.askedAt = performance.now();
    state.raf = requestAnimationFrame(frame);
  }

  function frame(now) {
    state.raf = 0;
    // Nothing is drawn before the board has its size on screen (the resize observer asks again).
    if (state.destroyed || !state.sized) return;
    if (!launch.lateInMotion && isLateMotionFrame(performance.now() - state.askedAt, state.inMotion)) {
      launch.lateInMotion = true;
      applySize();
    }
    let more = stepEase(state, now);
    for (const f of state.flights) if (f(now)) more = true;
    poseCamera(state, boardScene);
    applyMarbleDetail();
    // The ground's picture is made where gestures draw light: by the probe at rest, else in the
    // board's first gesture frame once this launch's came late (never in a board's first frame).
    if (launch.lateInMotion && state.inMotion && drawn.groundImage && !drawn.groundImage.baked) drawn.groundImage.bake(renderer, scene);
    const t0 = performance.now();
    drawScene();
    const t1 = performance.now();
    state.framesDrawn++;
    if (state.framesDrawn === 1) setTimeout(warmUp, 0);
    if (state.watch) {
      const light = state.coarseMarbles && renderer.getPixelRatio() < pixelRatioFor(globalThis.devicePixelRatio, { moving: false, lateInMotion: false });
      state.watch.frameDrawn({ at: now, drawnAt: t1, renderMs: t1 - t0, light });
    }
    if (state.warm && state.framesDrawn > 1) {
      scene.remove(state.warm);
      state.warm.userData.dispose();
      state.warm = null;
      if (!launch.probed) {
        launch.probed = true;
        setTimeout(probe, 0);
      }
    }
    if (more) requestRender();
  }

  /** Draws now, in place of a pending frame (a resize cleared the canvas). */
  function drawNow() {
    if (state.raf) { cancelAnimationFrame(state.raf); state.raf = 0; }
    frame(performance.now());
  }

  /** Sizes the drawing buffer for the board's size on screen and the resolution of the moment. */
  function applySize() {
    const { size } = state;
    const ratio = pixelRatioFor(globalThis.devicePixelRatio, { moving: state.inMotion, lateInMotion: launch.lateInMotion });
    // Setting a canvas's size clears it and reallocates its buffers, even to the same size.
    const same = ratio === renderer.getPixelRatio() && canvas.width === Math.floor(size.w * ratio) && canvas.height === Math.floor(size.h * ratio);
    if (same) return;
    renderer.setPixelRatio(ratio);
    renderer.setSize(size.w, size.h, false);
  }

  /** A light frame draws the marbles merged and the ground as its picture; any other the scene as it is. */
  function drawScene() {
    if (!state.coarseMarbles) {
      renderer.render(scene, camera);
      return;
    }
    const draw = () => marbleBatch.draw(() => renderer.render(scene, camera));
    if (drawn.groundImage) drawn.groundImage.draw(draw);
    else draw();
  }

  /** Coarse marbles for a light frame; every marble again each light frame (a move may add one). */
  function applyMarbleDetail() {
    const light = drawsLight({ moving: state.inMotion, lateInMotion: launch.lateInMotion });
    if (!light && !state.coarseMarbles) return;
    state.coarseMarbles = light;
    for (const m of marbles.values()) setCoarse(m, pieceGeoms, light);
  }

  /** A gesture starts or ends moving the view. */
  function setInMotion(on) {
    if (on === state.inMotion) return;
    state.inMotion = on;
    if (!launch.lateInMotion || !state.sized || state.destroyed) return;
    // The frame asked for here is drawn before the canvas, cleared by the new size, is painted.
    applySize();
    requestRender();
  }

  /**
   * Right after the first frame, draws once, hidden under the board, what appears only later
   * (rings and their glow, dotted arcs, the ghost, faded marbles): software GL compiles a shader
   * variant on its first draw, and that would stall the first tap by a frame of ~0.5 s.
   */
  function warmUp() {
    if (state.destroyed) return;
    const warm = new THREE.Group();
    const dots = dottedLine(materials.flat('--path'), 0.05, 'warm');
    dots.show([{ x: 0, y: 0, z: 0 }, { x: 0.3, y: 0, z: 0 }]);
    warm.add(makeDestRing(ringGeoms, materials, textures.glow, true), dots.mesh, makeMarble(pieceGeoms, materials, { seatName: 'red', king: true, ghost: true }));
    ['red', 'yellow', 'green', 'neutral'].forEach((n, i) => {
      const m = makeMarble(pieceGeoms, materials, { seatName: n, king: false });
      setFaded(m, materials, true);
      m.position.x = i * 0.2;
      warm.add(m);
    });
    warm.userData.dispose = () => dots.dispose();
    warm.position.y = -1.5;
    scene.add(warm);
    state.warm = warm;
    requestRender();
  }

  /**
   * Once a launch, after a board's first frames (its shader variants made): one frame at rest,
   * timed until drawn. If it is slow, this launch's gestures will come late, so light frames start
   * with the first gesture, and what the first light frame would make (the ground's picture, the
   * merged marbles, the smaller drawing buffer) is made now, at rest, instead of costing the
   * frames that find it out (the first gesture's first frames, ~100 ms under software GL).
   */
  function probe() {
    if (state.destroyed || !state.sized || launch.lateInMotion) return;
    const gl = renderer.getContext();
    const t0 = performance.now();
    drawScene();
    gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    const probeMs = performance.now() - t0;
    if (state.watch) state.watch.probed(probeMs);
    if (!probeSaysLate(probeMs)) return;
    launch.lateInMotion = true;
    if (drawn.groundImage && !drawn.groundImage.baked) drawn.groundImage.bake(renderer, scene);
    // A light frame, then the frame of the moment again, in one task: only the last one is shown.
    for (const moving of [true, state.inMotion]) {
      state.inMotion = moving;
      applySize();
      applyMarbleDetail();
      drawScene();
    }
  }

  return { requestRender, drawNow, applySize, drawScene, applyMarbleDetail, setInMotion };
}
