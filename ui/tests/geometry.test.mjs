// Board geometry: cell ↔ SVG coordinates round trip, grid flip and star rotation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { makeGeometry, starRotation, GRID_UNIT } from '../js/geometry.js';
import { fixture } from './fixtures.mjs';

// Layouts as the engine sends them.
const gridLayout = (kind) => fixture(kind, 'vs-cpu', 0).layout;
const starLayout = () => fixture('diamond', 'vs-cpu', 0).layout;

function roundTrip(geom) {
  for (const name of geom.cells) {
    const p = geom.toSvg(name);
    assert.equal(geom.cellAt(p.x, p.y), name, `${name} at ${p.x},${p.y}`);
    // A tap a little off centre still finds the cell.
    assert.equal(geom.cellAt(p.x + geom.unit * 0.2, p.y - geom.unit * 0.2), name);
  }
}

for (const kind of ['english', 'international', 'turkish']) {
  test(`${kind}: every square round-trips, for both viewers`, () => {
    const layout = gridLayout(kind);
    for (const viewer of [0, 1]) roundTrip(makeGeometry(layout, { viewer }));
  });
}

test('grid: seat 0 sees rank 0 at the bottom-left, seat 1 sees it turned half round', () => {
  const layout = { shape: { type: 'grid', files: 8, ranks: 8, dark_only: true }, cells: [{ name: 'a1', x: 0, y: 0 }, { name: 'h8', x: 7, y: 7 }] };
  const g0 = makeGeometry(layout, { viewer: 0 });
  assert.deepEqual(g0.toSvg('a1'), { x: GRID_UNIT / 2, y: 7.5 * GRID_UNIT });
  assert.deepEqual(g0.toSvg('h8'), { x: 7.5 * GRID_UNIT, y: GRID_UNIT / 2 });
  const g1 = makeGeometry(layout, { viewer: 1 });
  assert.deepEqual(g1.toSvg('a1'), { x: 7.5 * GRID_UNIT, y: GRID_UNIT / 2 });
  assert.equal(g1.cellAt(10, 790), 'h8', 'h8 is bottom-left for seat 1');
  assert.equal(g1.cellAt(790, 10), 'a1');
  assert.equal(g0.cellAt(150, 750), null, 'a light square is not a cell');
});

test('grid: squares() paints every square with a1 dark', () => {
  const g = makeGeometry(gridLayout('international'), { viewer: 0 });
  const sq = g.squares();
  assert.equal(sq.length, 100);
  assert.equal(sq.filter((s) => s.dark).length, 50);
  assert.ok(sq.find((s) => s.x === 0 && s.y === 0).dark);
});

test('star: 121 holes round-trip for each viewer', () => {
  const layout = starLayout();
  assert.equal(layout.cells.length, 121);
  for (const viewer of [0, 1, 2]) roundTrip(makeGeometry(layout, { viewer }));
});

test("star: the viewer's start apex is drawn at the bottom centre and the destination apex on top", () => {
  const layout = starLayout();
  for (const viewer of [0, 1, 2]) {
    const g = makeGeometry(layout, { viewer });
    const named = (n) => layout.cells.find((c) => c.view_names[viewer] === n).name;
    const start = g.toSvg(named('F1P1'));
    const dest = g.toSvg(named('F17P1'));
    const lowest = Math.max(...g.cells.map((c) => g.toSvg(c).y));
    // The engine sends f32 coordinates: equal to a thousandth of an SVG unit (holes are 60 apart).
    const eps = 1e-3;
    assert.ok(Math.abs(start.x) < eps, `viewer ${viewer} start x ${start.x}`);
    assert.ok(Math.abs(start.y - lowest) < eps, `viewer ${viewer} start is lowest`);
    assert.ok(dest.y < 0 && Math.abs(dest.x) < eps);
    // Row F5 runs left to right: P1 is drawn left of P13.
    assert.ok(g.toSvg(named('F5P1')).x < g.toSvg(named('F5P13')).x);
  }
  assert.equal(starRotation(layout, 0), 0);
  assert.notEqual(starRotation(layout, 1), 0);
});

test('star: a layout without F/P names is drawn unrotated', () => {
  const cells = starLayout().cells.map(({ view_names, ...c }) => c);
  assert.equal(starRotation({ cells }, 3), 0);
});
