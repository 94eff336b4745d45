// The engine-made fixtures (ui/tests/fixtures/<game>.json, written by tests/ui_fixtures.rs) for
// node tests: real GameViews of chosen positions and move sequences.
import { readFileSync } from 'node:fs';
import { fixtureLine, fixtureView } from '../js/replay.js';

const cache = new Map();

/** A game's fixture file. */
export function fixtureFile(kind) {
  if (!cache.has(kind)) cache.set(kind, JSON.parse(readFileSync(new URL(`./fixtures/${kind}.json`, import.meta.url), 'utf8')));
  return cache.get(kind);
}

/** The view of line `name` after `index` steps (default: after all of them), layout included. */
export function fixture(kind, name, index) {
  const file = fixtureFile(kind);
  return fixtureView(file, fixtureLine(file, name), index);
}

/** The line itself: `{name, setup, steps, views}`. */
export function line(kind, name) {
  return fixtureLine(fixtureFile(kind), name);
}

/** A loader for `createReplay` in node. */
export const loadFixture = async (kind) => fixtureFile(kind);
