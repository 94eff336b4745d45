// Battery: nothing in the stylesheet animates forever and nothing is drawn
// through an SVG filter, so a selected piece costs no frames once its rings have appeared.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const css = readFileSync(new URL('../css/app.css', import.meta.url), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
const render = readFileSync(new URL('../js/render.js', import.meta.url), 'utf8');

test('every CSS animation has a finite iteration count', () => {
  const decls = [...css.matchAll(/animation(?:-iteration-count)?\s*:\s*([^;}]+)/g)].map((m) => m[1].trim());
  assert.ok(decls.length >= 2, 'the rings and the thinking mark are animated');
  for (const d of decls) {
    if (d === 'none') continue;
    assert.doesNotMatch(d, /\binfinite\b/, `endless animation: ${d}`);
  }
});

test('destination rings play their entrance once and use no filter', () => {
  const dest = /\.dest\s*\{([^}]*)\}/.exec(css)[1];
  assert.match(dest, /animation:\s*ring-in\s+[\d.]+m?s\b[^;]*\s1\b/);
  assert.doesNotMatch(dest, /filter/);
  assert.doesNotMatch(css, /filter:\s*url\(/);
  assert.doesNotMatch(render, /feGaussianBlur|'filter'/);
});

test('scrollbars are styled by the page, so none is an overlay one that fades out', () => {
  // WebKitGTK's overlay scrollbar fades for ~3 s after every change of its scroller, redrawing
  // the window each frame (docs/performance.md, "Scrollbars"); a styled one never animates.
  assert.match(css, /::-webkit-scrollbar\s*\{[^}]*width:\s*\d+px/);
  assert.match(css, /::-webkit-scrollbar-thumb\s*\{[^}]*background/);
  // The standard properties take over from ::-webkit-scrollbar and bring the overlay back.
  assert.doesNotMatch(css, /scrollbar-(width|color)\s*:/);
});
