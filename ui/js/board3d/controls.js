// Pointer, wheel and key handling of the 3D board. A press that moves less than a few pixels is
// a tap (acted on at pointerup, since a drag starts with the same pointerdown); a longer move
// with one finger or the mouse turns the board around its centre; two fingers zoom (and pan)
// about their midpoint; the wheel zooms about the pointer. Synthetic events are accepted (tests).

const TAP_SLOP = { mouse: 4, pen: 8, touch: 10 };
// A wheel has no end event: its zoom has ended when no notch came for this long.
export const WHEEL_SETTLE_MS = 150;

/**
 * @param {HTMLElement} el the element that receives the events (the canvas)
 * @param {object} h handlers, every point in CSS pixels relative to `el`
 * @param {() => {x: number, y: number}} h.centre the board centre on screen
 * @param {(centre: {x,y}, from: {x,y}, to: {x,y}) => void} h.turnFrom one pointer dragged
 * @param {(factor: number, at: {x: number, y: number}) => void} h.zoom multiply the zoom about a point
 * @param {(from: {x,y}, to: {x,y}) => void} h.pan move the board with two fingers
 * @param {(at: {x: number, y: number}, pointerType: string) => void} h.tap
 * @param {(at: {x: number, y: number}|null) => void} h.hover mouse only
 * @param {(key: string) => boolean} h.key keyboard on the canvas; true when handled
 * @param {(moving: boolean) => void} [h.gesture] a turn, pinch or wheel zoom begins (true) or ends (false)
 */
export function attachControls(el, h) {
  const pointers = new Map();
  let gesture = null; // {kind: 'press'|'turn'|'pinch', ...}
  // Whether a gesture moves the view (turn, pinch, wheel): told once as it begins, once as it ends.
  let moving = false;
  let wheelEnd = 0;
  const setMoving = (on) => {
    if (on === moving) return;
    moving = on;
    h.gesture?.(on);
  };

  const local = (e) => {
    const r = el.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const spread = () => {
    const [a, b] = [...pointers.values()];
    return { d: Math.hypot(a.x - b.x, a.y - b.y), mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
  };

  function down(e) {
    if (e.pointerType === 'mouse' && e.button > 0) return;
    const p = local(e);
    pointers.set(e.pointerId, p);
    try { el.setPointerCapture?.(e.pointerId); } catch { /* synthetic pointers cannot be captured */ }
    if (pointers.size === 1) gesture = { kind: 'press', start: p, last: p, type: e.pointerType || 'mouse' };
    else if (pointers.size === 2) {
      gesture = { kind: 'pinch', ...spread() };
      setMoving(true);
    }
    e.preventDefault?.();
  }

  function move(e) {
    const p = local(e);
    if (!pointers.has(e.pointerId)) {
      if ((e.pointerType || 'mouse') === 'mouse' && !e.buttons) h.hover(p);
      return;
    }
    pointers.set(e.pointerId, p);
    if (!gesture) return;
    if (gesture.kind === 'pinch' && pointers.size === 2) {
      const now = spread();
      if (gesture.d > 0 && now.d > 0) h.zoom(now.d / gesture.d, now.mid);
      h.pan(gesture.mid, now.mid);
      gesture = { kind: 'pinch', ...now };
      return;
    }
    if (gesture.kind === 'press') {
      const slop = TAP_SLOP[gesture.type] ?? 8;
      if (Math.hypot(p.x - gesture.start.x, p.y - gesture.start.y) <= slop) return;
      gesture = { kind: 'turn', last: gesture.start };
      setMoving(true);
    }
    if (gesture.kind === 'turn') {
      const c = h.centre();
      h.turnFrom(c, gesture.last, p);
      gesture.last = p;
    }
  }

  function up(e) {
    const had = pointers.delete(e.pointerId);
    if (!had) return;
    const g = gesture;
    if (pointers.size === 0) {
      gesture = null;
      setMoving(false);
    } else if (g && g.kind === 'pinch') gesture = { kind: 'turn-done' }; // the other finger lifts later
    if (g && g.kind === 'press') h.tap(local(e), g.type);
  }

  function cancel(e) {
    pointers.delete(e.pointerId);
    if (pointers.size === 0) {
      gesture = null;
      setMoving(false);
    }
  }

  function leave(e) {
    if ((e.pointerType || 'mouse') === 'mouse' && !pointers.size) h.hover(null);
  }

  function wheel(e) {
    e.preventDefault();
    const scale = e.deltaMode === 1 ? 33 : e.deltaMode === 2 ? 400 : 1;
    if (!pointers.size) {
      setMoving(true);
      clearTimeout(wheelEnd);
      wheelEnd = setTimeout(() => { if (!pointers.size) setMoving(false); }, WHEEL_SETTLE_MS);
    }
    h.zoom(Math.exp(-e.deltaY * scale * 0.0015), local(e));
  }

  function keydown(e) {
    if (h.key(e.key)) e.preventDefault();
  }

  el.addEventListener('pointerdown', down);
  el.addEventListener('pointermove', move);
  el.addEventListener('pointerup', up);
  el.addEventListener('pointercancel', cancel);
  el.addEventListener('pointerleave', leave);
  el.addEventListener('wheel', wheel, { passive: false });
  el.addEventListener('keydown', keydown);
  return () => {
    clearTimeout(wheelEnd);
    el.removeEventListener('pointerdown', down);
    el.removeEventListener('pointermove', move);
    el.removeEventListener('pointerup', up);
    el.removeEventListener('pointercancel', cancel);
    el.removeEventListener('pointerleave', leave);
    el.removeEventListener('wheel', wheel);
    el.removeEventListener('keydown', keydown);
  };
}
