// The 3D star board's pure parts: cell → world mapping, the camera of each view and viewer,
// turning and zooming, and picking (screen point → board plane → hole).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fixture, fixtureFile } from './fixtures.mjs';
import {
  defaultOrbit, cameraPose, project, rayToPlane, ndcToCss, cssToNdc, dragTurn, wheelZoom, pinchZoom,
  zoomAbout, clampZoom, shortestTurn, blendOrbit, ZOOM_MIN, ZOOM_MAX,
} from '../js/board3d/camera.js';
import { starWorld, starOutline, nearestCell, viewerAzimuth, standardStarWorld, holesKey } from '../js/board3d/cells.js';

// The engine's own 3-player star layout (ui/tests/fixtures, written by tests/ui_fixtures.rs).
const layout = fixture('diamond', 'local-3', 0).layout;
const world = starWorld(layout);
const cellsByView = (seat, name) => layout.cells.find((c) => c.view_names[seat] === name).name;
const at = (name) => { const p = world.cells.get(name); return [p.x, 0, p.z]; };
// The layout's coordinates come from the engine as f32 (about 7 significant digits).
const F32_EPS = 1e-5;
const close = (a, b, eps, what) => assert.ok(Math.abs(a - b) <= eps, `${what}: ${a} vs ${b}`);

test('world: 121 holes one unit apart, seat 0 start towards +z, centred', () => {
  assert.equal(world.cells.size, 121);
  const pts = [...world.cells.values()];
  let nearest = Infinity;
  for (const a of pts) for (const b of pts) if (a !== b) nearest = Math.min(nearest, Math.hypot(a.x - b.x, a.z - b.z));
  close(nearest, 1, 1e-9, 'hole spacing');
  const sum = pts.reduce((s, p) => [s[0] + p.x, s[1] + p.z], [0, 0]);
  close(sum[0] / 121, 0, 1e-9, 'centre x');
  close(sum[1] / 121, 0, 1e-9, 'centre z');
  const apex = world.cells.get(cellsByView(0, 'F1P1'));
  close(apex.x, 0, 1e-9, 'seat 0 apex x');
  close(apex.z, 8 * Math.sqrt(3) / 2, F32_EPS, 'seat 0 apex 8 rows in front');
  close(world.radius, 8 * Math.sqrt(3) / 2, F32_EPS, 'radius = apex distance');
});

test('outline: a hexagram of 12 corners with every hole inside', () => {
  const poly = world.outline;
  assert.equal(poly.length, 12);
  const inside = (x, z) => {
    let c = false;
    for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
      const a = poly[i], b = poly[j];
      if ((a.z > z) !== (b.z > z) && x < ((b.x - a.x) * (z - a.z)) / (b.z - a.z) + a.x) c = !c;
    }
    return c;
  };
  for (const [name, p] of world.cells) assert.ok(inside(p.x, p.z), `${name} inside the star`);
  assert.ok(!inside(0, world.radius + 1), 'beyond an apex is outside');
  // Inner corners sit where the two triangles cross: r/√3 from the centre.
  const r = Math.hypot(poly[0].x, poly[0].z);
  close(Math.hypot(poly[1].x, poly[1].z), r / Math.sqrt(3), 1e-9, 'inner corner');
  assert.deepEqual(starOutline([{ x: 0, z: 1 }, { x: 1, z: 0 }, { x: 0, z: -1 }, { x: -1, z: 0 }, { x: 2, z: 2 }, { x: -2, z: -2 }], 0).length, 12);
});

for (const view of ['perspective', 'top']) {
  for (const seat of [0, 1, 2]) {
    test(`${view}, seat ${seat}: own start apex in front at the bottom, destination apex at the top`, () => {
      const orbit = defaultOrbit(view, viewerAzimuth(layout, world, seat));
      const pose = cameraPose(orbit, { radius: world.radius + 0.8, aspect: 1 });
      const start = project(pose, 1, at(cellsByView(seat, 'F1P1')));
      const goal = project(pose, 1, at(cellsByView(seat, 'F17P1')));
      close(start.x, 0, 1e-9, 'start apex centred');
      close(goal.x, 0, 1e-9, 'goal apex centred');
      for (const name of world.cells.keys()) {
        const p = project(pose, 1, at(name));
        assert.ok(p.y >= start.y - 1e-9, `${name} is not below the start apex`);
        assert.ok(p.y <= goal.y + 1e-9, `${name} is not above the goal apex`);
        if (view === 'perspective') assert.ok(p.depth >= start.depth - 1e-9, `${name} is not nearer than the start apex`);
      }
    });
  }
}

test('zoom 1 shows the whole board, filling and centred, on a phone and a desktop canvas, both views', () => {
  for (const aspect of [0.8, 1, 1.6]) {
    for (const view of ['perspective', 'top']) {
      for (const az of [0, 1, 2.5]) {
        const pose = cameraPose({ ...defaultOrbit(view, az) }, { radius: world.radius + 0.8, aspect });
        let x = 0, y0 = Infinity, y1 = -Infinity;
        for (const name of world.cells.keys()) {
          const p = project(pose, aspect, at(name));
          assert.ok(Math.abs(p.x) < 1 && Math.abs(p.y) < 1, `${view} aspect ${aspect} az ${az}: ${name} on screen (${p.x}, ${p.y})`);
          x = Math.max(x, Math.abs(p.x));
          y0 = Math.min(y0, p.y);
          y1 = Math.max(y1, p.y);
        }
        // The holes' extent fills most of the canvas one way or the other, centred vertically.
        assert.ok(Math.max(x, (y1 - y0) / 2) > 0.7, `${view} aspect ${aspect} az ${az}: fills the view (${x}, ${y0}..${y1})`);
        assert.ok(Math.abs(y0 + y1) < 0.2, `${view} aspect ${aspect} az ${az}: centred (${y0}..${y1})`);
      }
    }
  }
});

test('top view: the board is seen flat (every neighbouring pair equally far apart on screen)', () => {
  const pose = cameraPose(defaultOrbit('top', 0.7), { radius: 8, aspect: 1.2 });
  const pts = [...world.cells.values()];
  let min = Infinity, max = 0;
  for (const a of pts) {
    for (const b of pts) {
      if (Math.hypot(a.x - b.x, a.z - b.z) > 1.01 || a === b) continue;
      const pa = project(pose, 1.2, [a.x, 0, a.z]), pb = project(pose, 1.2, [b.x, 0, b.z]);
      const d = Math.hypot((pa.x - pb.x) * 1.2, pa.y - pb.y);
      min = Math.min(min, d); max = Math.max(max, d);
    }
  }
  close(max / min, 1, F32_EPS, 'uniform scale');
});

test('picking: a tap at any hole\'s screen position finds that hole, after turning and zooming', () => {
  const frame = { radius: world.radius + 0.8, aspect: 390 / 420 };
  const W = 390, H = 420;
  const orbits = [
    defaultOrbit('perspective', 0),
    { ...defaultOrbit('perspective', 2.1), zoom: 1.7, tx: 1.2, tz: -0.8 },
    { ...defaultOrbit('top', -1.3), zoom: 2.4, tx: -2, tz: 1 },
  ];
  for (const orbit of orbits) {
    const pose = cameraPose(orbit, frame);
    for (const name of world.cells.keys()) {
      const css = ndcToCss(project(pose, frame.aspect, at(name)), W, H);
      const hit = rayToPlane(pose, frame.aspect, cssToNdc(css, W, H));
      assert.equal(nearestCell(world.cells, hit[0], hit[2]), name);
    }
  }
});

test('nearestCell: within half the spacing only', () => {
  const name = cellsByView(0, 'F9P5');
  const p = world.cells.get(name);
  assert.equal(nearestCell(world.cells, p.x + 0.3, p.z - 0.2), name);
  assert.equal(nearestCell(world.cells, p.x + 0.5, p.z, 0.45), null, 'halfway between two holes is neither');
  assert.equal(nearestCell(world.cells, 0, world.radius + 2), null, 'off the board');
});

test('a drag turns the board so the point under the finger follows it', () => {
  const frame = { radius: 8, aspect: 1 };
  const W = 400, H = 400;
  for (const view of ['top', 'perspective']) {
    let orbit = defaultOrbit(view, 0.4);
    const pose0 = cameraPose(orbit, frame);
    const centre = ndcToCss(project(pose0, 1, [0, 0, 0]), W, H);
    const name = cellsByView(0, 'F5P1');
    const from = ndcToCss(project(pose0, 1, at(name)), W, H);
    // The finger sweeps 40° clockwise on screen around the centre.
    const a = Math.atan2(from.y - centre.y, from.x - centre.x) + (40 * Math.PI) / 180;
    const r = Math.hypot(from.x - centre.x, from.y - centre.y);
    const to = { x: centre.x + r * Math.cos(a), y: centre.y + r * Math.sin(a) };
    const turn = dragTurn(centre, from, to);
    close(turn, (40 * Math.PI) / 180, 1e-9, 'swept angle');
    orbit = { ...orbit, azimuth: orbit.azimuth + turn };
    const after = ndcToCss(project(cameraPose(orbit, frame), 1, at(name)), W, H);
    if (view === 'top') {
      close(after.x, to.x, 1e-6, 'x under the finger');
      close(after.y, to.y, 1e-6, 'y under the finger');
    } else {
      // Foreshortened: not exactly under the finger, but turned the same way, near it.
      const angle = Math.atan2(after.y - centre.y, after.x - centre.x) - Math.atan2(from.y - centre.y, from.x - centre.x);
      assert.ok(shortestTurn(0, angle) > 0.2, `turned clockwise on screen (${angle})`);
      assert.ok(Math.hypot(after.x - to.x, after.y - to.y) < r * 0.5, 'near the finger');
    }
  }
  assert.equal(dragTurn({ x: 0, y: 0 }, { x: 5, y: 5 }, { x: -5, y: 5 }), 0, 'no turn near the centre');
});

test('zoom: wheel and pinch are clamped; zooming keeps the point under the pointer', () => {
  assert.equal(wheelZoom(1, 100000), ZOOM_MIN);
  assert.equal(wheelZoom(1, -100000), ZOOM_MAX);
  assert.ok(wheelZoom(1, -100) > 1.1 && wheelZoom(1, -100) < 1.25, 'one notch zooms in ~16 %');
  assert.equal(pinchZoom(1, 100, 200), 2);
  assert.equal(pinchZoom(2, 100, 10), ZOOM_MIN);
  assert.equal(pinchZoom(2, 0, 10), 2, 'no spread: no change');
  assert.equal(clampZoom(NaN), 1);
  const frame = { radius: 8, aspect: 1 };
  const orbit = defaultOrbit('perspective', 0.3);
  const ndc = { x: 0.3, y: -0.2 };
  const before = rayToPlane(cameraPose(orbit, frame), 1, ndc);
  const z = zoomAbout(orbit, 2, ndc, frame, 8);
  assert.equal(z.zoom, 2);
  const after = rayToPlane(cameraPose(z, frame), 1, ndc);
  close(after[0], before[0], 1e-6, 'x kept');
  close(after[2], before[2], 1e-6, 'z kept');
  const back = zoomAbout(z, 0.5, ndc, frame, 8);
  assert.deepEqual([back.zoom, back.tx, back.tz], [ZOOM_MIN, 0, 0], 'zoomed out fully: centred again');
  const far = zoomAbout({ ...orbit, zoom: 3 }, 3.5, { x: 0.99, y: 0.99 }, frame, 1);
  assert.ok(Math.hypot(far.tx, far.tz) <= 1 + 1e-9, 'the target stays on the board');
});

test('view changes ease the short way round', () => {
  const a = { ...defaultOrbit('perspective', 3), zoom: 2 };
  const b = defaultOrbit('top', -3);
  const mid = blendOrbit(a, b, 0.5);
  close(Math.abs(shortestTurn(mid.azimuth, Math.PI)), 0, 1e-9, 'through π, not through 0');
  close(mid.tilt, (a.tilt + b.tilt) / 2, 1e-9, 'tilt halfway');
  assert.deepEqual(blendOrbit(a, b, 1).tilt, b.tilt);
  close(blendOrbit(a, b, 0).azimuth, 3, 1e-9, 'starts where it was');
});

test('dotted arcs: every landing on the route at rest height, jumps arc higher than steps', async () => {
  const { arcPoints } = await import('../js/board3d/marks.js');
  const route = [{ x: 0, z: 0 }, { x: 2, z: 0 }, { x: 3, z: 0 }]; // a jump, then a step
  const pts = arcPoints(route, { base: 0.2, spacing: 0.25, stepHeight: 0.4, jumpHeight: 0.9 });
  for (const r of route) assert.ok(pts.some((p) => Math.hypot(p.x - r.x, p.z - r.z) < 1e-9 && Math.abs(p.y - 0.2) < 1e-9), `a dot on (${r.x}, ${r.z}) at rest height`);
  const peak = (x0, x1) => Math.max(...pts.filter((p) => p.x > x0 && p.x < x1).map((p) => p.y));
  close(peak(0, 2), 1.1, 1e-9, 'the jump peaks 0.9 above');
  close(peak(2, 3), 0.6, 1e-9, 'the step peaks 0.4 above');
  for (let i = 1; i < pts.length; i++) assert.ok(Math.hypot(pts[i].x - pts[i - 1].x, pts[i].z - pts[i - 1].z) > 1e-9, 'no dot twice');
  assert.deepEqual(arcPoints([{ x: 0, z: 0 }]), [], 'no route, no dots');
});

test('the standard star (the warm-up plate) has the holes of every star layout', () => {
  const standard = standardStarWorld();
  assert.equal(standard.cells.size, 121);
  assert.equal(holesKey(standard), holesKey(world));
  close(standard.radius, world.radius, F32_EPS, 'radius');
  standard.outline.forEach((p, i) => {
    close(p.x, world.outline[i].x, 1e-4, `outline ${i} x`);
    close(p.z, world.outline[i].z, 1e-4, `outline ${i} z`);
  });
  for (const [kind, name] of [['diamond', 'local-2'], ['capture', null]]) {
    const file = fixtureFile(kind);
    const l = name ? file.lines.find((x) => x.name === name) : file.lines[0];
    if (!l) continue;
    const other = starWorld(fixture(kind, l.name, 0).layout);
    assert.equal(holesKey(other), holesKey(standard), `${kind} ${l.name}`);
  }
});

test('plate: the top faces up, with an open hole at every cell, and its wood in world units', async () => {
  const { plateGeometry, HOLE_RADIUS } = await import('../js/board3d/ground.js');
  const plate = plateGeometry(world);
  const pos = plate.attributes.position.array, nrm = plate.attributes.normal.array, uv = plate.attributes.uv.array;
  const idx = plate.index.array;
  const [top, edge] = plate.groups;
  assert.equal(top.materialIndex, 0);
  assert.equal(edge.materialIndex, 1);
  assert.equal(top.count + edge.count, idx.length);
  const at = (i) => [pos[i * 3], pos[i * 3 + 1], pos[i * 3 + 2]];
  const inTriangle = (p, a, b, c) => {
    const s = (u, v, w) => (v[0] - u[0]) * (w[2] - u[2]) - (v[2] - u[2]) * (w[0] - u[0]);
    const d1 = s(a, b, p), d2 = s(b, c, p), d3 = s(c, a, p);
    return (d1 > 1e-9 && d2 > 1e-9 && d3 > 1e-9) || (d1 < -1e-9 && d2 < -1e-9 && d3 < -1e-9);
  };
  const holes = [...world.cells.values()];
  let area = 0;
  for (let t = top.start; t < top.start + top.count; t += 3) {
    const [a, b, c] = [idx[t], idx[t + 1], idx[t + 2]].map(at);
    assert.ok(a[1] === 0 && b[1] === 0 && c[1] === 0, 'the top is at y = 0');
    // Front face up: counter-clockwise seen from +y (three.js draws front faces only).
    const cross = (b[2] - a[2]) * (c[0] - a[0]) - (b[0] - a[0]) * (c[2] - a[2]);
    assert.ok(cross >= -1e-6, `triangle ${t / 3} faces up`); // (float32: a degenerate one may be −3e-8)
    area += cross / 2;
    for (const h of holes) assert.ok(!inTriangle([h.x, 0, h.z], a, b, c), `no triangle of the top covers the hole at ${h.x}, ${h.z}`);
  }
  for (let i = 0; i < top.count; i++) {
    const v = idx[top.start + i];
    assert.deepEqual([nrm[v * 3], nrm[v * 3 + 1], nrm[v * 3 + 2]], [0, 1, 0]);
    close(uv[v * 2], pos[v * 3], 1e-6, 'u = x');
    close(uv[v * 2 + 1], -pos[v * 3 + 2], 1e-6, 'v = −z');
  }
  // The star's area less the 121 holes (each a 20-gon of radius HOLE_RADIUS).
  const poly = world.outline;
  const star = Math.abs(poly.reduce((s, p, i) => { const q = poly[(i + 1) % poly.length]; return s + p.x * q.z - q.x * p.z; }, 0)) / 2;
  const hole = (20 / 2) * HOLE_RADIUS * HOLE_RADIUS * Math.sin((2 * Math.PI) / 20);
  close(area, star - 121 * hole, 1e-3, 'top area');
  assert.ok(plate.attributes.position.count < 4000, `a light plate (${plate.attributes.position.count} vertices)`);
});

test('textures: computed pixels (no 2D canvas), the wood in the skin colour, the glow a ring', async () => {
  const THREE = await import('../vendor/three/three.module.js');
  const { woodTexture, glowTexture } = await import('../js/board3d/palette.js');
  const base = new THREE.Color('#e3bd84');
  const wood = woodTexture(base);
  assert.equal(wood.image.width, 512);
  assert.equal(wood.colorSpace, THREE.SRGBColorSpace);
  assert.equal(wood.wrapS, THREE.RepeatWrapping);
  const d = wood.image.data;
  let r = 0, a = 255;
  for (let i = 0; i < d.length; i += 4) { r += d[i]; a = Math.min(a, d[i + 3]); }
  assert.equal(a, 255, 'the wood is opaque');
  assert.ok(Math.abs(r / (d.length / 4) - 0xe3) < 12, `the grain keeps the base colour on average (${(r / (d.length / 4)).toFixed(1)})`);
  assert.deepEqual(woodTexture(base).image.data, d, 'the same grain every time');
  const glow = glowTexture(64);
  const alpha = (x, y) => glow.image.data[(y * 64 + x) * 4 + 3];
  assert.ok(alpha(32, 32) <= 2, 'clear at the centre');
  assert.equal(alpha(0, 0), 0, 'clear in the corners');
  // Brightest at 0.72 of the radius (the ring), fading both ways.
  const ring = alpha(32 + Math.round(0.72 * 32), 32);
  assert.ok(ring > 150 && ring > alpha(32 + 12, 32) && ring > alpha(32 + 30, 32), `glow profile ${ring}`);
});

test('resolution: full ratio at rest and in motion until frames come late, then half in motion only', async () => {
  const { pixelRatioFor, isLateMotionFrame, LATE_FRAME_MS, MAX_PIXEL_RATIO } = await import('../js/board3d/resolution.js');
  assert.equal(pixelRatioFor(1, { moving: true, lateInMotion: false }), 1);
  assert.equal(pixelRatioFor(3, { moving: false, lateInMotion: true }), MAX_PIXEL_RATIO, 'capped at rest');
  assert.equal(pixelRatioFor(3, { moving: true, lateInMotion: true }), MAX_PIXEL_RATIO / 2);
  assert.equal(pixelRatioFor(1, { moving: true, lateInMotion: true }), 0.5);
  assert.equal(pixelRatioFor(undefined, { moving: false, lateInMotion: false }), 1, 'no devicePixelRatio: 1');
  assert.equal(isLateMotionFrame(LATE_FRAME_MS + 1, true), true);
  assert.equal(isLateMotionFrame(LATE_FRAME_MS + 1, false), false, 'a slow frame at rest (a shader compiled, a move landing) is not a gesture\'s');
  assert.equal(isLateMotionFrame(17, true), false, 'one frame at 60 Hz keeps up');
  const { probeSaysLate, SLOW_PROBE_MS } = await import('../js/board3d/resolution.js');
  assert.equal(probeSaysLate(18), true, 'a 714 px board drawn by llvmpipe at rest (17-29 ms) says gestures will come late');
  assert.equal(probeSaysLate(3), false, 'a GPU drawing the board in a few ms keeps up');
  assert.equal(probeSaysLate(SLOW_PROBE_MS), false);
  assert.ok(SLOW_PROBE_MS < LATE_FRAME_MS, 'the probe times the drawing alone, a late frame adds the compositing');
});

test('light frames: only a gesture\'s, once frames came late; a light frame\'s marble is the coarse sphere, at rest the fine one again', async () => {
  const { drawsLight } = await import('../js/board3d/resolution.js');
  assert.equal(drawsLight({ moving: true, lateInMotion: true }), true);
  assert.equal(drawsLight({ moving: true, lateInMotion: false }), false, 'a machine that keeps up');
  assert.equal(drawsLight({ moving: false, lateInMotion: true }), false, 'at rest');
  const { makePieceGeometries, makeMarble, setCoarse } = await import('../js/board3d/pieces.js');
  const THREE = await import('../vendor/three/three.module.js');
  const geoms = makePieceGeometries();
  const material = new THREE.MeshBasicMaterial();
  const materials = { marble: () => material, glyph: () => material, crown: () => material };
  const marble = makeMarble(geoms, materials, { seatName: 'red', king: false });
  const body = marble.getObjectByName('body');
  const triangles = (g) => g.index.count / 3;
  assert.equal(body.geometry, geoms.sphere, 'a new marble is fine');
  setCoarse(marble, geoms, true);
  assert.equal(body.geometry, geoms.coarseSphere);
  assert.ok(triangles(geoms.coarseSphere) * 4 <= triangles(geoms.sphere), `coarse ${triangles(geoms.coarseSphere)} vs fine ${triangles(geoms.sphere)} triangles`);
  assert.equal(geoms.coarseSphere.parameters.radius, geoms.sphere.parameters.radius, 'the same size');
  setCoarse(marble, geoms, false);
  assert.equal(body.geometry, geoms.sphere);
  geoms.dispose();
});

test('controls: a drag, a pinch and wheel notches each tell one gesture start and one end; a tap none', async () => {
  const { attachControls, WHEEL_SETTLE_MS } = await import('../js/board3d/controls.js');
  const el = new EventTarget();
  el.getBoundingClientRect = () => ({ left: 0, top: 0, width: 400, height: 400 });
  const log = [];
  attachControls(el, {
    centre: () => ({ x: 200, y: 200 }),
    turnFrom: () => log.push('turn'),
    zoom: () => log.push('zoom'),
    pan: () => {},
    tap: () => log.push('tap'),
    hover: () => {},
    key: () => false,
    gesture: (on) => log.push(on ? 'start' : 'end'),
  });
  const pointer = (type, id, x, y) => Object.assign(new Event(type), { pointerId: id, pointerType: 'touch', clientX: x, clientY: y, button: 0, buttons: 1 });
  // A tap: the finger moves within its slop.
  el.dispatchEvent(pointer('pointerdown', 1, 100, 100));
  el.dispatchEvent(pointer('pointermove', 1, 103, 102));
  el.dispatchEvent(pointer('pointerup', 1, 103, 102));
  assert.deepEqual(log, ['tap']);
  // A drag.
  log.length = 0;
  el.dispatchEvent(pointer('pointerdown', 1, 100, 100));
  for (let i = 1; i <= 4; i++) el.dispatchEvent(pointer('pointermove', 1, 100 + 20 * i, 100));
  el.dispatchEvent(pointer('pointerup', 1, 180, 100));
  assert.deepEqual(log, ['start', 'turn', 'turn', 'turn', 'turn', 'end']);
  // A pinch, one finger lifting after the other.
  log.length = 0;
  el.dispatchEvent(pointer('pointerdown', 1, 100, 100));
  el.dispatchEvent(pointer('pointerdown', 2, 200, 200));
  el.dispatchEvent(pointer('pointermove', 2, 220, 220));
  el.dispatchEvent(pointer('pointerup', 2, 220, 220));
  assert.equal(log.filter((x) => x === 'end').length, 0, 'one finger still down');
  el.dispatchEvent(pointer('pointerup', 1, 100, 100));
  assert.deepEqual(log.filter((x) => x === 'start' || x === 'end'), ['start', 'end']);
  assert.ok(log.includes('zoom'));
  // Wheel notches: one gesture, ended once they stop coming.
  log.length = 0;
  const notch = () => el.dispatchEvent(Object.assign(new Event('wheel', { cancelable: true }), { deltaY: -100, deltaMode: 0, clientX: 200, clientY: 200 }));
  notch();
  notch();
  assert.deepEqual(log, ['start', 'zoom', 'zoom']);
  await new Promise((r) => setTimeout(r, WHEEL_SETTLE_MS / 2));
  notch();
  assert.ok(!log.includes('end'), 'notches still coming');
  await new Promise((r) => setTimeout(r, WHEEL_SETTLE_MS + 50));
  assert.deepEqual(log.filter((x) => x === 'start' || x === 'end'), ['start', 'end']);
});

test('batch: a group\'s visible meshes drawn as one mesh per material, in world space, and back in place after the frame', async () => {
  const THREE = await import('../vendor/three/three.module.js');
  const { makeBatch } = await import('../js/board3d/batch.js');
  const red = new THREE.MeshBasicMaterial();
  const gold = new THREE.MeshBasicMaterial();
  const source = new THREE.Group();
  const box = new THREE.BoxGeometry(1, 1, 1);
  const disc = new THREE.CircleGeometry(0.5, 6);
  const a = new THREE.Mesh(box, red);
  a.position.set(1, 2, 3);
  const holder = new THREE.Group();
  holder.position.set(-4, 0, 0);
  holder.rotation.y = Math.PI / 2; // turns +x normals to -z
  const b = new THREE.Mesh(box, red);
  holder.add(b);
  const c = new THREE.Mesh(disc, gold);
  const hidden = new THREE.Mesh(box, gold);
  hidden.visible = false;
  source.add(a, holder, c, hidden);
  const batch = makeBatch(source);
  let seen = null;
  batch.draw(() => {
    seen = {
      sourceVisible: source.visible,
      parts: batch.group.children.filter((m) => m.visible).map((m) => ({ material: m.material, vertices: m.geometry.attributes.position.count, indices: m.geometry.index.count })),
      first: m0(batch.group.children[0]),
    };
  });
  function m0(mesh) {
    const p = mesh.geometry.attributes.position, n = mesh.geometry.attributes.normal;
    const v = box.attributes.position.count;
    return {
      a: [p.getX(0), p.getY(0), p.getZ(0)],
      b: [p.getX(v), p.getY(v), p.getZ(v)],
      bNormal: [n.getX(v), n.getY(v), n.getZ(v)],
      bIndex: mesh.geometry.index.getX(box.index.count),
    };
  }
  assert.equal(seen.sourceVisible, false, 'the originals are not drawn meanwhile');
  assert.equal(source.visible, true, 'and are back afterwards');
  assert.equal(batch.group.visible, false);
  assert.deepEqual(seen.parts.map((x) => x.material), [red, gold], 'one mesh per material; the hidden mesh is left out');
  assert.equal(seen.parts[0].vertices, 2 * box.attributes.position.count);
  assert.equal(seen.parts[0].indices, 2 * box.index.count);
  assert.equal(seen.parts[1].vertices, disc.attributes.position.count);
  assert.equal(batch.parts, 2);
  const near = (x, y, what) => x.forEach((v, i) => assert.ok(Math.abs(v - y[i]) < 1e-6, `${what}: ${x} vs ${y}`));
  const p0 = [box.attributes.position.getX(0), box.attributes.position.getY(0), box.attributes.position.getZ(0)];
  near(seen.first.a, [p0[0] + 1, p0[1] + 2, p0[2] + 3], 'a moved by its position');
  near(seen.first.b, [p0[2] - 4, p0[1], -p0[0]], 'b turned and moved with its parent');
  const n0 = [box.attributes.normal.getX(0), box.attributes.normal.getY(0), box.attributes.normal.getZ(0)];
  near(seen.first.bNormal, [n0[2], n0[1], -n0[0]], 'b\'s normals turned');
  assert.equal(seen.first.bIndex, box.index.getX(0) + box.attributes.position.count, 'b\'s indices offset past a\'s vertices');
  // A mesh moves: the next frame follows it; one goes: its material's part shrinks; a material unused: its part is not drawn.
  a.position.x += 10;
  c.visible = false;
  holder.remove(b);
  batch.draw(() => {
    seen = { parts: batch.group.children.filter((m) => m.visible).map((m) => ({ material: m.material, vertices: m.geometry.attributes.position.count })), x: batch.group.children[0].geometry.attributes.position.getX(0) };
  });
  assert.deepEqual(seen.parts, [{ material: red, vertices: box.attributes.position.count }]);
  assert.ok(Math.abs(seen.x - (p0[0] + 11)) < 1e-6);
  batch.dispose();
});

test('the test instruments: installed only on request, a board made then is __board with its figures', async () => {
  const { installTestInstruments } = await import('../js/board3d/test-instruments.js');
  const page = {};
  const board = { setView() {}, get geometry() { return 'star'; } };
  const { makeBoardState } = await import('../js/board3d/board-state.js');
  const state = { ...makeBoardState(), size: { w: 10, h: 20 } };
  const inside = {
    api: board, el: { dataset: {} }, state,
    renderer: { getPixelRatio: () => 1, info: { programs: [1, 2], memory: { geometries: 3, textures: 4 } } },
    canvas: { width: 10, height: 20 }, launch: { warmUp: null, lateInMotion: false },
    boardScene: { drawn: { world: null }, marbleBatch: { parts: 0 } },
  };
  const instruments = installTestInstruments(page);
  assert.equal(page.__board3dInstruments, instruments);
  assert.equal(installTestInstruments(page), instruments, 'installing twice keeps the first');
  const watch = instruments.board(inside);
  assert.equal(Object.getPrototypeOf(page.__board), board, 'the hook is the board with its instruments');
  assert.equal(page.__board.geometry, 'star');
  assert.equal(page.__board.cellScreenPosition('a'), null, 'no position before the first frame');
  watch.built(7);
  watch.frameDrawn({ at: 100, drawnAt: 105, renderMs: 5, light: false });
  watch.frameDrawn({ at: 120, drawnAt: 130, renderMs: 10, light: true });
  const s = page.__board.stats();
  assert.deepEqual([s.frames, s.lightFrames, s.firstFrameAt, s.buildMs], [2, 1, 105, 7]);
  assert.deepEqual(s.frameAt, [100, 120]);
  assert.deepEqual(s.renderMs, [5, 10]);
  assert.deepEqual(s.gl, { programs: 2, geometries: 3, textures: 4 });
  assert.deepEqual([s.size, s.pending, s.easing, s.flying], [{ w: 10, h: 20 }, false, false, 0], 'read off the board state');
  assert.equal(inside.el.dataset.frames, '2');
  instruments.warmedUp({ ms: 9 });
  assert.deepEqual(page.__board3dWarmUp, { ms: 9 });
  watch.destroyed();
  assert.equal(page.__board, undefined);
});

test('a move in flight: from its origin along each leg, taken marbles vanish as the mover passes, then it lands', async () => {
  const { makeFlight } = await import('../js/board3d/flight.js');
  const { REST_Y } = await import('../js/board3d/pieces.js');
  const at = [];
  const node = { position: { set: (x, y, z) => at.push([x, y, z]) } };
  const taken = [{ visible: true }, { visible: true }];
  const points = [{ x: 0, z: 0 }, { x: 2, z: 0 }, { x: 2, z: 2 }];
  const fly = makeFlight({ node, points, taken, jumping: true, legMs: 100, startedAt: 1000 });
  // Two legs of 100 ms × 1.6: 320 ms in all.
  assert.equal(fly(1000), true);
  assert.deepEqual(at.pop(), [0, REST_Y, 0], 'on its origin at the start');
  assert.deepEqual(taken.map((n) => n.visible), [true, true]);
  assert.equal(fly(1080), true);
  const [x, y, z] = at.pop();
  assert.ok(x === 1 && z === 0 && y > REST_Y + 0.8, `half way up the first leg's hop: ${[x, y, z]}`);
  assert.equal(fly(1200), true);
  assert.deepEqual(taken.map((n) => n.visible), [false, true], 'the first taken marble is gone once passed');
  assert.equal(fly(1320), false, 'landed');
  assert.deepEqual(at.pop(), [2, REST_Y, 2]);
  assert.deepEqual(taken.map((n) => n.visible), [false, false]);
});

test('picking: a point of the canvas is the hole drawn there, and a hole is drawn where it is picked', async () => {
  const THREE = await import('../vendor/three/three.module.js');
  const { makePicker } = await import('../js/board3d/picking.js');
  const camera = new THREE.PerspectiveCamera(40, 1, 0.1, 100);
  camera.position.set(0, 20, 0.001);
  camera.lookAt(0, 0, 0);
  camera.updateProjectionMatrix();
  camera.updateMatrixWorld();
  const picker = makePicker(camera);
  const size = { w: 400, h: 400 };
  const noMarbles = new Map();
  for (const cell of [...world.cells.keys()].slice(0, 20)) {
    const p = world.cells.get(cell);
    const drawn = picker.canvasPoint(p.x, 0, p.z, size);
    assert.equal(picker.cellAt(drawn, world, noMarbles, size), cell, `hole ${cell}`);
  }
  assert.deepEqual(picker.canvasPoint(0, 0, 0, size), { x: 200, y: 200 }, 'the centre under a camera looking straight down');
  assert.equal(picker.cellAt({ x: 1, y: 1 }, world, noMarbles, size), null, 'a corner far off the star');
});

test('the view writes the board state: a key turns the orbit, a view keeps the turn, reset goes back to the viewer', async () => {
  const { makeBoardState } = await import('../js/board3d/board-state.js');
  const { makeView } = await import('../js/board3d/view.js');
  const { defaultOrbit } = await import('../js/board3d/camera.js');
  const state = makeBoardState();
  state.viewerAz = 0.5;
  const pressed = {};
  const button = (v) => ({ setAttribute: (k, value) => { pressed[v] = value; } });
  const el = { dataset: {} };
  let frames = 0;
  const boardScene = { radius: () => 7, drawn: { world: null }, marbles: new Map() };
  const view = makeView({ state, boardScene, el, viewButtons: { perspective: button('perspective'), top: button('top') }, motion: () => 0, requestRender: () => frames++ });
  const az = state.orbit.azimuth;
  assert.equal(view.gestures.key('ArrowRight'), true);
  assert.ok(Math.abs(state.orbit.azimuth - (az + Math.PI / 12)) < 1e-12, 'a quarter of a quarter turn');
  assert.equal(state.ease, null, 'no ease without motion');
  view.setView('top');
  assert.deepEqual([state.orbit.view, el.dataset.view, pressed.top, pressed.perspective], ['top', 'top', 'true', 'false']);
  assert.ok(Math.abs(state.orbit.azimuth - (az + Math.PI / 12)) < 1e-12, 'the top view keeps the turn');
  assert.equal(view.gestures.key('0'), true);
  assert.deepEqual(state.orbit, defaultOrbit('top', 0.5), 'reset: the viewer at the bottom, in the view shown');
  assert.equal(view.gestures.key('x'), false, 'other keys are not the view\'s');
  assert.ok(frames >= 3, 'each change asks for a frame');
});

test('picking writes the board state: a double tap off the board resets the view, a hover is told once', async () => {
  const THREE = await import('../vendor/three/three.module.js');
  const { makeBoardState } = await import('../js/board3d/board-state.js');
  const { makeBoardPicking } = await import('../js/board3d/picking.js');
  const state = makeBoardState();
  state.model = { dests: [], selected: null };
  state.size = { w: 400, h: 400 };
  state.orbit = { ...state.orbit, view: 'top' };
  const boardScene = { camera: new THREE.PerspectiveCamera(40, 1, 0.1, 100), radius: () => 7, drawn: { world: null }, marbles: new Map() };
  const taps = [];
  const hovers = [];
  let resets = 0;
  const picking = makeBoardPicking({ state, boardScene, onTap: (c) => taps.push(c), onHover: (c) => hovers.push(c), resetView: () => resets++ });
  picking.tap({ x: 1, y: 1 }, 'mouse');
  assert.equal(resets, 0);
  assert.ok(state.lastEmptyTap > 0, 'the first tap off the board is remembered');
  picking.tap({ x: 1, y: 1 }, 'mouse');
  assert.deepEqual([resets, state.lastEmptyTap, taps], [1, 0, [null, null]]);
  picking.hover({ x: 5, y: 5 });
  picking.hover({ x: 6, y: 6 });
  assert.deepEqual(hovers, [null], 'the same cell (none) is told once');
  assert.equal(state.hovered, null);
});
