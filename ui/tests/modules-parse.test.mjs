// Every module the app loads parses as an ES module. The unit tests import only the pure modules;
// a screen that does not parse (a stray merge marker, a syntax slip) would otherwise show up only
// as a blank window in the end-to-end suite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const jsRoot = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'js');

function modules(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return modules(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

/** The parser's complaint about `source` as a module, or null. */
function parseError(source) {
  const result = spawnSync(process.execPath, ['--input-type=module', '--check'], { input: source, encoding: 'utf8' });
  return result.status === 0 ? null : (result.stderr || `exit ${result.status}`);
}

test('the checker refuses a module with a merge marker', () => {
  assert.notEqual(parseError("<<<<<<< HEAD\nimport { a } from './a.js';\n"), null);
  assert.equal(parseError("import { a } from './a.js';\nexport const b = a;\n"), null);
});

test('every module of ui/js parses', () => {
  const files = modules(jsRoot);
  assert.ok(files.length > 50, `found ${files.length} modules under ${jsRoot}`);
  const broken = files
    .map((file) => [path.relative(jsRoot, file), parseError(fs.readFileSync(file, 'utf8'))])
    .filter(([, error]) => error !== null)
    .map(([file, error]) => `${file}: ${error.split('\n').slice(0, 3).join(' ')}`);
  assert.deepEqual(broken, []);
});
