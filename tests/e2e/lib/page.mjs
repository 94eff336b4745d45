// In-window helpers: synthetic touch taps, real mouse actions, window sizes, screenshots.
import fs from 'node:fs';
import path from 'node:path';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 800 };

export const SCREENSHOT_DIR = path.resolve(
  process.env.E2E_SCREENSHOT_DIR ?? path.join(path.dirname(new URL(import.meta.url).pathname), '..', '..', '..', 'target', 'e2e-screenshots'),
);

/** Resize the window and wait until the page sees the new viewport width. */
export async function resize(driver, { width, height }) {
  await driver.manage().window().setRect({ width, height });
  await driver.wait(
    async () => {
      const w = await driver.executeScript('return window.innerWidth');
      return Math.abs(w - width) <= 40;
    },
    5000,
    `window to become ${width}×${height}`,
  );
}

/**
 * Waits until the page has settled: no animation running and every element of the page where it
 * was over three frames in a row. Frames come irregularly under Xvfb, so a fixed pause is either
 * too short on a loaded machine or time wasted; this waits on what a screenshot or a measurement
 * needs. Throws if the page is still moving after `timeoutMs`.
 */
export async function settled(driver, timeoutMs = 15000) {
  const result = await driver.executeAsyncScript(
    `const [timeoutMs, done] = arguments;
     const started = performance.now();
     const layout = () => {
       let sum = innerWidth * 31 + innerHeight * 37;
       for (const el of document.body.getElementsByTagName('*')) {
         const r = el.getBoundingClientRect();
         sum = (sum * 33 + r.x * 3 + r.y * 5 + r.width * 7 + r.height * 11) % 1e12;
       }
       return sum;
     };
     let last = null;
     let still = 0;
     const frame = () => {
       const moving = document.getAnimations().some((a) => a.playState === 'running');
       const now = layout();
       still = !moving && now === last ? still + 1 : 0;
       last = now;
       if (still >= 3) done({ ok: true });
       else if (performance.now() - started > timeoutMs) done({ ok: false, moving });
       else requestAnimationFrame(frame);
     };
     requestAnimationFrame(frame);`,
    timeoutMs,
  );
  if (!result.ok) throw new Error(`the page did not settle within ${timeoutMs} ms (${result.moving ? 'an animation runs' : 'the layout keeps changing'})`);
}

export async function screenshot(driver, name) {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  const png = await driver.takeScreenshot();
  fs.writeFileSync(file, Buffer.from(png, 'base64'));
  return file;
}

/**
 * A finger tap: pointerdown/pointerup/click with pointerType "touch" at the element's centre.
 * WebKitGTK's WebDriver delivers W3C touch actions as mouse events, so the tap is synthesised in
 * the page, on the element the finger would hit (what elementFromPoint finds at that point).
 */
export async function touchTap(driver, element) {
  const result = await driver.executeScript(
    `const el = arguments[0];
     el.scrollIntoView({block: 'nearest', inline: 'nearest'});
     const r = el.getBoundingClientRect();
     const x = r.left + r.width / 2, y = r.top + r.height / 2;
     const target = document.elementFromPoint(x, y) || el;
     const base = {bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y,
                   screenX: x, screenY: y, pointerId: 7, pointerType: 'touch', isPrimary: true,
                   width: 20, height: 20, pressure: 0.5, view: window};
     target.dispatchEvent(new PointerEvent('pointerover', {...base}));
     target.dispatchEvent(new PointerEvent('pointerenter', {...base, bubbles: false}));
     target.dispatchEvent(new PointerEvent('pointerdown', {...base, button: 0, buttons: 1}));
     target.dispatchEvent(new PointerEvent('pointerup', {...base, button: 0, buttons: 0, pressure: 0}));
     target.dispatchEvent(new PointerEvent('click', {...base, button: 0, buttons: 0, pressure: 0, detail: 1}));
     target.dispatchEvent(new PointerEvent('pointerout', {...base, pressure: 0}));
     target.dispatchEvent(new PointerEvent('pointerleave', {...base, pressure: 0, bubbles: false}));
     return {hit: target === el || el.contains(target), tag: target.tagName, x, y};`,
    element,
  );
  if (!result.hit) {
    throw new Error(`touch at (${result.x.toFixed(0)}, ${result.y.toFixed(0)}) lands on <${result.tag}>, not on the intended element`);
  }
}

/**
 * A finger tap at a client point (the 3D board: a cell's projected position). The events go to
 * what is under the finger there, which must be inside `expect` (a CSS selector).
 */
export async function touchTapAt(driver, x, y, expect = null) {
  const result = await driver.executeScript(
    `const [x, y, expect] = arguments;
     const target = document.elementFromPoint(x, y);
     if (!target) return { hit: false, tag: 'nothing', x, y };
     const base = {bubbles: true, cancelable: true, composed: true, clientX: x, clientY: y,
                   screenX: x, screenY: y, pointerId: 7, pointerType: 'touch', isPrimary: true,
                   width: 20, height: 20, pressure: 0.5, view: window};
     target.dispatchEvent(new PointerEvent('pointerover', {...base}));
     target.dispatchEvent(new PointerEvent('pointerenter', {...base, bubbles: false}));
     target.dispatchEvent(new PointerEvent('pointerdown', {...base, button: 0, buttons: 1}));
     target.dispatchEvent(new PointerEvent('pointerup', {...base, button: 0, buttons: 0, pressure: 0}));
     target.dispatchEvent(new PointerEvent('click', {...base, button: 0, buttons: 0, pressure: 0, detail: 1}));
     target.dispatchEvent(new PointerEvent('pointerout', {...base, pressure: 0}));
     target.dispatchEvent(new PointerEvent('pointerleave', {...base, pressure: 0, bubbles: false}));
     return { hit: !expect || !!target.closest(expect), tag: target.tagName, x, y };`,
    x,
    y,
    expect,
  );
  if (!result.hit) {
    throw new Error(`touch at (${result.x.toFixed(0)}, ${result.y.toFixed(0)}) lands on <${result.tag}>, not on ${expect}`);
  }
}

/** Real WebDriver mouse: move over an element (hover) without clicking. */
export async function mouseHover(driver, element) {
  await driver.actions({ async: true }).move({ origin: element }).perform();
}

/** Real WebDriver mouse click on an element. */
export async function mouseClick(driver, element) {
  await driver.actions({ async: true }).move({ origin: element }).click().perform();
}

/**
 * Installs the 3D board's test instruments (ui/js/board3d/test-instruments.js) in the page: the
 * app never loads them itself. Boards made from then on are `window.__board`.
 */
export async function installBoardInstruments(driver) {
  const error = await driver.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     import(new URL('/js/board3d/test-instruments.js', location.href).href)
       .then((m) => { m.installTestInstruments(); done(null); }, (e) => done(String(e)));`,
  );
  if (error) throw new Error(`the 3D board's test instruments could not be installed: ${error}`);
}

/** Calls a Tauri command from inside the page (engine truth as the app holds it). */
export async function invoke(driver, command, args = {}) {
  const res = await driver.executeAsyncScript(
    `const done = arguments[arguments.length - 1];
     window.__TAURI__.core.invoke(arguments[0], arguments[1])
       .then(v => done({ok: v}), e => done({err: e}));`,
    command,
    args,
  );
  if ('err' in res) {
    const e = res.err;
    throw new Error(`invoke ${command} rejected: ${typeof e === 'object' ? JSON.stringify(e) : e}`);
  }
  return res.ok;
}
