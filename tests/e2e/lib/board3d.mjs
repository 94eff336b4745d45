// The 3D star board as a test sees it: its state through the test hook (window.__board), and
// gestures on its canvas — synthetic touch drags and wheel turns, or real WebDriver mouse drags.
import assert from 'node:assert/strict';
import { By } from 'selenium-webdriver';

/** The board's state: orbit, view, frames drawn, whether a frame or an ease is pending. */
export function board3dState(driver) {
  return driver.executeScript(
    `const b = window.__board;
     if (!b || !document.querySelector('[data-testid=board3d]')) return null;
     const s = b.stats(), d = b.describe(), el = document.querySelector('[data-testid=board3d]');
     // After a window resize the board knows its new size only once its resize observer ran.
     const sized = s.size.w === Math.max(1, el.clientWidth) && s.size.h === Math.max(1, el.clientHeight);
     return { view: d.view, orbit: d.orbit, frames: s.frames, pending: s.pending, easing: s.easing, flying: s.flying, sized,
              firstFrameMs: s.firstFrameAt ? s.firstFrameAt - s.created : null };`,
  );
}

/** Waits until the board has drawn everything asked of it (no ease, no move in flight, no frame due). */
export async function waitBoardSettled(driver, timeoutMs = 20000) {
  const start = Date.now();
  for (;;) {
    const s = await board3dState(driver);
    if (s && s.frames > 0 && s.sized && !s.pending && !s.easing && !s.flying) return s;
    if (Date.now() - start > timeoutMs) throw new Error(`the 3D board did not settle: ${JSON.stringify(s)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Canvas centre and size, client CSS px. */
export function canvasBox(driver) {
  return driver.executeScript(
    `const r = document.querySelector('.board3d-canvas').getBoundingClientRect();
     return { x: r.left + r.width / 2, y: r.top + r.height / 2, w: r.width, h: r.height, left: r.left, top: r.top };`,
  );
}

/**
 * A one-finger drag sweeping `degrees` clockwise around the board's turning centre on screen, in `steps`
 * pointermoves, each in its own animation frame (as a finger would). Returns the frame intervals.
 */
export function touchTurn(driver, degrees, { steps = 24, radiusFraction = 0.33 } = {}) {
  return driver.executeAsyncScript(
    `const [degrees, steps, k, done] = arguments;
     const el = document.querySelector('.board3d-canvas');
     const r = el.getBoundingClientRect();
     const c = window.__board.centreScreenPosition();
     const cx = c.x, cy = c.y, rad = Math.min(r.width, r.height) * k;
     const at = (a) => ({ clientX: cx + rad * Math.cos(a), clientY: cy + rad * Math.sin(a) });
     const base = { bubbles: true, cancelable: true, pointerId: 11, pointerType: 'touch', isPrimary: true };
     const a0 = -Math.PI / 2, a1 = a0 + degrees * Math.PI / 180;
     el.dispatchEvent(new PointerEvent('pointerdown', { ...base, ...at(a0), button: 0, buttons: 1 }));
     const times = [];
     let i = 0;
     const step = (now) => {
       times.push(now);
       i++;
       el.dispatchEvent(new PointerEvent('pointermove', { ...base, ...at(a0 + (a1 - a0) * i / steps), buttons: 1 }));
       if (i < steps) requestAnimationFrame(step);
       else {
         el.dispatchEvent(new PointerEvent('pointerup', { ...base, ...at(a1), button: 0 }));
         requestAnimationFrame((t) => { times.push(t); done(times); });
       }
     };
     requestAnimationFrame(step);`,
    degrees,
    steps,
    radiusFraction,
  );
}

/** Wheel notches over the canvas centre (negative deltaY zooms in). */
export function wheel(driver, deltaY, times = 1) {
  return driver.executeScript(
    `const [deltaY, times] = arguments;
     const el = document.querySelector('.board3d-canvas');
     const r = el.getBoundingClientRect();
     for (let i = 0; i < times; i++) {
       el.dispatchEvent(new WheelEvent('wheel', { bubbles: true, cancelable: true, deltaY, deltaMode: 0,
         clientX: r.left + r.width / 2, clientY: r.top + r.height / 2 }));
     }`,
    deltaY,
    times,
  );
}

/** Two fingers spreading apart from `d0` to `d1` px around the canvas centre (a pinch zoom). */
export function pinch(driver, d0, d1, steps = 8) {
  return driver.executeScript(
    `const [d0, d1, steps] = arguments;
     const el = document.querySelector('.board3d-canvas');
     const r = el.getBoundingClientRect();
     const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
     const ev = (type, id, d, buttons) => new PointerEvent(type, { bubbles: true, cancelable: true, pointerId: id, pointerType: 'touch',
       isPrimary: id === 21, clientX: cx + (id === 21 ? -d / 2 : d / 2), clientY: cy, button: 0, buttons });
     el.dispatchEvent(ev('pointerdown', 21, d0, 1));
     el.dispatchEvent(ev('pointerdown', 22, d0, 1));
     for (let i = 1; i <= steps; i++) {
       const d = d0 + (d1 - d0) * i / steps;
       el.dispatchEvent(ev('pointermove', 21, d, 1));
       el.dispatchEvent(ev('pointermove', 22, d, 1));
     }
     el.dispatchEvent(ev('pointerup', 21, d1, 0));
     el.dispatchEvent(ev('pointerup', 22, d1, 0));`,
    d0,
    d1,
    steps,
  );
}

/** A real mouse drag (WebDriver pointer actions) from one canvas point to another (offsets from its centre). */
export async function mouseDrag(driver, from, to, steps = 6) {
  const canvas = await driver.findElement(By.css('.board3d-canvas'));
  let a = driver.actions({ async: true }).move({ origin: canvas, x: Math.round(from.x), y: Math.round(from.y) }).press();
  for (let i = 1; i <= steps; i++) {
    a = a.move({ origin: canvas, x: Math.round(from.x + ((to.x - from.x) * i) / steps), y: Math.round(from.y + ((to.y - from.y) * i) / steps), duration: 30 });
  }
  await a.release().perform();
}

/**
 * Asserts that `seat`'s start apex (its F1P1) is drawn in front: centred, lowest on screen.
 * `layout` is the game's layout (GameView.layout).
 */
export async function assertStartInFront(driver, layout, seat, what) {
  const apex = layout.cells.find((c) => c.view_names && c.view_names[seat] === 'F1P1').name;
  const pts = await driver.executeScript(
    `const b = window.__board; return arguments[0].map((c) => [c, b.cellScreenPosition(c)]);`,
    layout.cells.map((c) => c.name),
  );
  const box = await canvasBox(driver);
  const at = Object.fromEntries(pts);
  const lowest = pts.reduce((a, b) => (b[1].y > a[1].y ? b : a));
  assert.equal(lowest[0], apex, `${what}: the start apex ${apex} of seat ${seat} is the lowest point on screen (lowest: ${lowest[0]})`);
  assert.ok(Math.abs(at[apex].x - box.x) < 2, `${what}: ${apex} is centred (${at[apex].x.toFixed(1)} vs ${box.x.toFixed(1)})`);
}

/** Percentile of numbers (nearest rank). */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : NaN;
}
