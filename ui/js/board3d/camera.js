// Camera math for the 3D star board, pure (no three.js, no DOM), so it is unit-tested in node.
//
// World: the board lies in the x–z plane with its top at y = 0, holes one unit apart, y up.
// The camera orbits a target on that plane: `azimuth` turns it around the y axis (0 = standing on
// +z looking towards −z), `tilt` leans it from straight above (0 = the Top view) towards the
// horizon, `zoom` shortens the distance that fits the whole board (1 = the whole board in view).
// Screen up always points away from the viewer across the board, so the Top view keeps the
// viewer's own start in front (at the bottom) exactly as the Perspective view does.

export const FOV = 38; // vertical field of view, degrees
export const VIEWS = Object.freeze({ perspective: 0.6, top: 0 }); // tilt per view, radians
export const ZOOM_MIN = 1;
export const ZOOM_MAX = 3.5;

/** The default orbit of a view for a viewer whose start point lies at `azimuth`. */
export function defaultOrbit(view, azimuth = 0) {
  return { view, azimuth, tilt: VIEWS[view] ?? VIEWS.perspective, zoom: 1, tx: 0, tz: 0 };
}

export const clampZoom = (z) => Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, Number.isFinite(z) ? z : 1));

/** Azimuth that puts the world point (x, z) straight in front of the camera (nearest to it). */
export const azimuthFacing = (x, z) => Math.atan2(x, z);

/** The signed turn (−π, π] that goes from angle `a` to angle `b` the short way. */
export function shortestTurn(a, b) {
  let d = (b - a) % (2 * Math.PI);
  if (d > Math.PI) d -= 2 * Math.PI;
  if (d <= -Math.PI) d += 2 * Math.PI;
  return d;
}

/**
 * How the camera frames a board of `radius` at `tilt`: the distance at which a disc of that radius
 * on the board's plane just fits (any turn of the board fits too), and the vertical lens shift
 * that centres its foreshortened image (the near half of a tilted disc looks bigger).
 * @returns {{distance: number, shiftY: number}}
 */
export function framing(radius, aspect, tilt, margin = 0.98) {
  const key = `${radius}|${aspect}|${tilt}|${margin}`;
  const hit = framings.get(key);
  if (hit) return hit;
  const extent = (d) => {
    const pose = rawPose({ azimuth: 0, tilt, tx: 0, tz: 0 }, d, 0, radius);
    let x = 0, y0 = Infinity, y1 = -Infinity;
    for (let i = 0; i < 72; i++) {
      const a = (i / 72) * Math.PI * 2;
      const p = project(pose, aspect, [radius * Math.cos(a), 0, radius * Math.sin(a)]);
      x = Math.max(x, Math.abs(p.x));
      y0 = Math.min(y0, p.y);
      y1 = Math.max(y1, p.y);
    }
    return { x, half: (y1 - y0) / 2, mid: (y1 + y0) / 2 };
  };
  let lo = radius * 0.5, hi = radius * 20;
  for (let i = 0; i < 40; i++) {
    const d = (lo + hi) / 2;
    const e = extent(d);
    if (e.x <= margin && e.half <= margin) hi = d;
    else lo = d;
  }
  const out = { distance: hi, shiftY: -extent(hi).mid };
  if (framings.size > 64) framings.clear();
  framings.set(key, out);
  return out;
}
const framings = new Map();

function rawPose(orbit, d, shiftY, radius) {
  const s = Math.sin(orbit.tilt), c = Math.cos(orbit.tilt);
  const sa = Math.sin(orbit.azimuth), ca = Math.cos(orbit.azimuth);
  const target = [orbit.tx || 0, 0, orbit.tz || 0];
  return {
    position: [target[0] + d * s * sa, d * c, target[2] + d * s * ca],
    target,
    up: [-sa, 0, -ca],
    fov: FOV,
    shiftY,
    near: Math.max(0.05, d - radius * 2),
    far: d + radius * 2,
    distance: d,
  };
}

/**
 * Where the camera stands and looks: {position, target, up, fov, shiftY, near, far, distance}.
 * `shiftY` is a vertical lens shift in NDC (an off-axis projection), added to every projected y.
 * @param {{azimuth:number, tilt:number, zoom:number, tx?:number, tz?:number}} orbit
 * @param {{radius:number, aspect:number}} frame the board's bounding radius and the canvas aspect
 */
export function cameraPose(orbit, { radius, aspect }) {
  const fit = framing(radius, aspect, orbit.tilt);
  return rawPose(orbit, fit.distance / clampZoom(orbit.zoom), fit.shiftY, radius);
}

// ---------- small vector helpers ----------
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => { const l = Math.hypot(a[0], a[1], a[2]) || 1; return [a[0] / l, a[1] / l, a[2] / l]; };

/** The camera's basis as three.js's lookAt builds it: right, up and back (towards the eye). */
function basis(pose) {
  const back = norm(sub(pose.position, pose.target));
  const right = norm(cross(pose.up, back));
  const up = cross(back, right);
  return { right, up, back };
}

/** Projects a world point to normalised device coordinates (x right, y up, in [−1, 1] on screen). */
export function project(pose, aspect, p) {
  const { right, up, back } = basis(pose);
  const v = sub(p, pose.position);
  const depth = -dot(v, back);
  const f = 1 / Math.tan((pose.fov * Math.PI) / 360);
  return { x: (dot(v, right) * f) / (aspect * depth), y: (dot(v, up) * f) / depth + (pose.shiftY || 0), depth };
}

/** NDC → CSS pixels in a canvas of `width` × `height` (y down). */
export const ndcToCss = (ndc, width, height) => ({ x: ((ndc.x + 1) / 2) * width, y: ((1 - ndc.y) / 2) * height });
export const cssToNdc = (p, width, height) => ({ x: (p.x / width) * 2 - 1, y: 1 - (p.y / height) * 2 });

/** Where the ray through an NDC point meets the board's plane y = `h`: [x, h, z], or null. */
export function rayToPlane(pose, aspect, ndc, h = 0) {
  const { right, up, back } = basis(pose);
  const t = Math.tan((pose.fov * Math.PI) / 360);
  const y = ndc.y - (pose.shiftY || 0);
  const dir = norm([0, 1, 2].map((i) => right[i] * ndc.x * t * aspect + up[i] * y * t - back[i]));
  if (Math.abs(dir[1]) < 1e-9) return null;
  const k = (h - pose.position[1]) / dir[1];
  if (k <= 0) return null;
  return [pose.position[0] + dir[0] * k, h, pose.position[2] + dir[2] * k];
}

/**
 * A one-finger drag turns the board around its centre like a turntable: the azimuth changes by
 * the angle the finger swept around the centre's screen position, so the point under the finger
 * follows the finger (raising the azimuth by d turns every screen angle by d; tested).
 * Near the centre the angle is meaningless, so moves within `dead` px of it turn nothing.
 */
export function dragTurn(centre, from, to, dead = 24) {
  const a = [from.x - centre.x, from.y - centre.y];
  const b = [to.x - centre.x, to.y - centre.y];
  if (Math.hypot(...a) < dead || Math.hypot(...b) < dead) return 0;
  return shortestTurn(Math.atan2(a[1], a[0]), Math.atan2(b[1], b[0]));
}

/** Wheel zoom: one notch (deltaY ≈ 100) zooms about 16 %, clamped. */
export const wheelZoom = (zoom, deltaY) => clampZoom(zoom * Math.exp(-deltaY * 0.0015));

/** Two-finger zoom: the ratio of the fingers' spread, clamped. */
export const pinchZoom = (zoom, d0, d1) => (d0 > 0 && d1 > 0 ? clampZoom(zoom * (d1 / d0)) : clampZoom(zoom));

/**
 * Zooms to `zoom` keeping the board point under the screen point `ndc` where it was (zoom about
 * the pointer), then keeps the target on the board (within `limit` of the centre).
 * Returns the new orbit.
 */
export function zoomAbout(orbit, zoom, ndc, frame, limit) {
  const before = rayToPlane(cameraPose(orbit, frame), frame.aspect, ndc);
  let next = { ...orbit, zoom: clampZoom(zoom) };
  if (next.zoom <= ZOOM_MIN + 1e-9) return { ...next, tx: 0, tz: 0 };
  const after = rayToPlane(cameraPose(next, frame), frame.aspect, ndc);
  if (before && after) next = { ...next, tx: next.tx + before[0] - after[0], tz: next.tz + before[2] - after[2] };
  return clampTarget(next, limit);
}

/** Keeps the orbit's target within `limit` of the board's centre. */
export function clampTarget(orbit, limit) {
  const d = Math.hypot(orbit.tx, orbit.tz);
  if (d <= limit) return orbit;
  return { ...orbit, tx: (orbit.tx * limit) / d, tz: (orbit.tz * limit) / d };
}

/** Eases from one orbit to another: u in [0, 1], angles the short way round. */
export function blendOrbit(a, b, u) {
  const e = u < 0.5 ? 2 * u * u : 1 - (-2 * u + 2) ** 2 / 2;
  const lerp = (x, y) => x + (y - x) * e;
  return {
    ...b,
    azimuth: a.azimuth + shortestTurn(a.azimuth, b.azimuth) * e,
    tilt: lerp(a.tilt, b.tilt),
    zoom: lerp(a.zoom, b.zoom),
    tx: lerp(a.tx, b.tx),
    tz: lerp(a.tz, b.tz),
  };
}
