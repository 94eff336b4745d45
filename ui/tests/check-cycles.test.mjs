// The import-cycle checker (scripts/check-cycles.mjs) on tiny trees whose cycles are known.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const checker = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'scripts', 'check-cycles.mjs');

function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'damas-cycles-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

function check(root) {
  const run = spawnSync(process.execPath, [checker, '--root', root], { encoding: 'utf8' });
  rmSync(root, { recursive: true, force: true });
  return run;
}

// Acyclic: a parent that declares and re-exports its children, children that use each other in
// one direction only, a test module that uses its own file, paths in comments and strings.
const acyclic = {
  'src/lib.rs': 'pub mod rules;\npub mod search;\n',
  'src/rules.rs': 'pub struct Board;\n',
  'src/search/mod.rs': 'mod eval;\nmod tree;\npub use tree::search;\n',
  'src/search/eval.rs': 'use crate::rules::Board;\npub fn eval(_: &Board) -> i32 { 0 }\n',
  'src/search/tree.rs':
    'use super::eval::eval;\n// crate::search is named in a comment\nconst S: &str = "super::super";\n' +
    'pub fn search(b: &crate::rules::Board) -> i32 { eval(b) }\n' +
    '#[cfg(test)]\nmod tests {\n    use super::*;\n    #[test]\n    fn t() { let _ = search(&crate::rules::Board); }\n}\n',
  'ui/js/main.js': "import { a } from './a.js';\nexport const m = () => import('./lazy.js');\n",
  'ui/js/a.js': "// import { m } from './main.js';\nexport const a = 1;\n",
  'ui/js/lazy.js': "import { a } from './a.js';\nexport default a;\n",
};

test('a tree without cycles passes', () => {
  const run = check(tree(acyclic));
  assert.equal(run.status, 0, run.stdout + run.stderr);
  assert.match(run.stdout, /no import cycles/);
});

test('a child that uses its parent, which re-exports it, is a cycle', () => {
  const files = {
    ...acyclic,
    // tree.rs now reaches back into search/mod.rs through an expression path.
    'src/search/tree.rs': 'pub fn search() -> i32 { super::helper() }\n',
    'src/search/mod.rs': 'mod eval;\nmod tree;\npub use tree::search;\npub fn helper() -> i32 { 1 }\n',
  };
  const run = check(tree(files));
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /import cycle among 2 files: src\/search\/mod\.rs, src\/search\/tree\.rs/);
  assert.match(run.stdout, /src\/search\/mod\.rs:3: pub use tree::search;/);
  assert.match(run.stdout, /src\/search\/tree\.rs:1: pub fn search\(\) -> i32 \{ super::helper\(\) \}/);
});

test('two sibling files that use each other through crate paths are a cycle', () => {
  const files = {
    ...acyclic,
    'src/rules.rs': 'pub struct Board;\npub fn score() -> i32 { crate::search::eval::eval(&Board) }\n',
    'src/search/mod.rs': 'pub mod eval;\nmod tree;\npub use tree::search;\n',
  };
  const run = check(tree(files));
  assert.equal(run.status, 1, run.stdout + run.stderr);
  assert.match(run.stdout, /import cycle among 2 files: src\/rules\.rs, src\/search\/eval\.rs/);
});

test('a dynamic import that closes a loop of modules is a cycle', () => {
  const files = { ...acyclic, 'ui/js/a.js': "export const a = 1;\nexport const back = () => import('./main.js');\n" };
  const run = check(tree(files));
  assert.equal(run.status, 1, run.stdout + run.stderr);
  // main -> lazy -> a -> main and main -> a -> main: one component of three files.
  assert.match(run.stdout, /import cycle among 3 files: ui\/js\/a\.js, ui\/js\/lazy\.js, ui\/js\/main\.js/);
  assert.match(run.stdout, /ui\/js\/a\.js:2: export const back/);
});
