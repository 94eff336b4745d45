// How sharp the 3D board is drawn. At rest, at the device pixel ratio (at most 2). While a
// gesture moves the view on a machine whose frames come late — software GL (llvmpipe under Xvfb,
// SwiftShader), where a frame costs the pixels it fills, the triangles it sets up and the
// composite; WebKit hides the renderer's name, so lateness is the test — frames are drawn light:
// at half that ratio (a quarter of the pixels) and with coarser marbles (a fifth of the
// triangles). The detail of a board in motion is not seen, and the sharp frame follows the
// gesture's end. A machine that keeps up never draws a light frame.

export const MAX_PIXEL_RATIO = 2;
export const MOTION_PIXEL_SCALE = 0.5;
/** A frame drawn later than this after it was asked for (1.5 frames at 60 Hz) came late. */
export const LATE_FRAME_MS = 25;

/** Whether a frame is drawn light: while a gesture moves the view, once this launch's gesture frames came late. */
export function drawsLight({ moving, lateInMotion }) {
  return moving && lateInMotion;
}

/** The pixel ratio to draw with: `device` (window.devicePixelRatio) capped, lowered for a light frame. */
export function pixelRatioFor(device, motion) {
  const full = Math.min(MAX_PIXEL_RATIO, device || 1);
  return drawsLight(motion) ? full * MOTION_PIXEL_SCALE : full;
}

/** Whether a frame drawn `latencyMs` after it was asked for, while a gesture moved the view, came late. */
export function isLateMotionFrame(latencyMs, moving) {
  return moving && latencyMs > LATE_FRAME_MS;
}

/**
 * A frame at rest drawn and finished (a pixel read back) in more than this tells, before any
 * gesture, that this launch's gesture frames will come late: a device whose GL draws the board
 * in most of a 60 Hz frame at rest cannot also composite it in time.
 */
export const SLOW_PROBE_MS = 12;

/** Whether the board's timed frame at rest (its probe) says gestures will come late. */
export function probeSaysLate(probeMs) {
  return probeMs > SLOW_PROBE_MS;
}
