#!/usr/bin/env node
// Finds import cycles between files: the Rust crates (src/, lab/src/, server/src/, src-tauri/src/)
// and the UI's ES modules (ui/js/). A cycle is a strongly connected component of the file-level
// import graph with more than one file; each is printed with the lines that make its edges, and
// the exit code is 1 if there is any.
//
//   node scripts/check-cycles.mjs [--root DIR]
//
// Rust edges: `use` trees and paths anywhere in the code that start with `crate::`, `super::`,
// `self::` or the name of a child module, resolved to the file that defines the module they
// name (a re-export in a mod.rs is an edge of that mod.rs). A `mod x;` declaration is not an
// edge. Paths into other crates (`damas::…`) are not edges: crates cannot form cycles.
// UI edges: `import … from`, `export … from`, side-effect `import '…'` and `import('…')` with a
// literal relative path.
import { readFileSync, readdirSync, existsSync, statSync } from 'node:fs';
import { join, dirname, resolve, relative, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUST_SOURCE_DIRS = ['src', 'lab/src', 'server/src', 'src-tauri/src'];
const JS_SOURCE_DIRS = ['ui/js'];

// ---- Rust ------------------------------------------------------------------------------------

/** The code with comments, string and char literals blanked (newlines kept, so offsets keep
 * their line numbers). */
export function blankRust(text) {
  const out = text.split('');
  const blank = (from, to) => {
    for (let k = from; k < to; k++) if (out[k] !== '\n') out[k] = ' ';
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '/' && text[i + 1] === '/') {
      let j = text.indexOf('\n', i);
      if (j < 0) j = n;
      blank(i, j);
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (text[j] === '/' && text[j + 1] === '*') { depth++; j += 2; }
        else if (text[j] === '*' && text[j + 1] === '/') { depth--; j += 2; }
        else j++;
      }
      blank(i, j);
      i = j;
    } else if ((c === 'r' || (c === 'b' && text[i + 1] === 'r')) && !/\w/.test(text[i - 1] ?? '')) {
      // Raw string r"…", r#"…"#, br#"…"#.
      let j = c === 'b' ? i + 2 : i + 1;
      let hashes = 0;
      while (text[j] === '#') { hashes++; j++; }
      if (text[j] === '"') {
        const close = '"' + '#'.repeat(hashes);
        let end = text.indexOf(close, j + 1);
        end = end < 0 ? n : end + close.length;
        blank(i, end);
        i = end;
      } else {
        i++;
      }
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      blank(i, j + 1);
      i = j + 1;
    } else if (c === "'") {
      // A char literal ('a', '\n', '\u{1F600}') or a lifetime ('a): only the former closes.
      if (text[i + 1] === '\\') {
        let j = i + 2;
        while (j < n && text[j] !== "'") j++;
        blank(i, j + 1);
        i = j + 1;
      } else {
        const cp = text.codePointAt(i + 1);
        const width = cp > 0xffff ? 2 : 1;
        if (text[i + 1 + width] === "'") {
          blank(i, i + 2 + width);
          i += 2 + width;
        } else {
          i++;
        }
      }
    } else {
      i++;
    }
  }
  return out.join('');
}

const lineAt = (text, offset) => {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text[k] === '\n') line++;
  return line;
};

/** Expands a `use` tree (`a::{b, c::{d, e as f}, self}`) into paths, each with the offset of its
 * last segment inside `tree`. */
export function expandUseTree(tree, base = 0) {
  const paths = [];
  const walk = (prefix, s, offset) => {
    // Split top level by commas.
    let depth = 0;
    let start = 0;
    const parts = [];
    for (let k = 0; k <= s.length; k++) {
      const ch = s[k];
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
      else if ((ch === ',' && depth === 0) || k === s.length) {
        parts.push([s.slice(start, k), offset + start]);
        start = k + 1;
      }
    }
    for (const [rawPart, partOffset] of parts) {
      const lead = rawPart.length - rawPart.trimStart().length;
      const part = rawPart.trim();
      if (!part) continue;
      const at = partOffset + lead;
      const brace = part.indexOf('{');
      if (brace >= 0) {
        const head = part.slice(0, brace).replace(/::\s*$/, '');
        const segs = head.split('::').map((x) => x.trim()).filter(Boolean);
        const inner = part.slice(brace + 1, part.lastIndexOf('}'));
        walk([...prefix, ...segs], inner, at + brace + 1);
      } else {
        const noAlias = part.replace(/\s+as\s+\w+$/, '');
        const segs = noAlias.split('::').map((x) => x.trim()).filter(Boolean);
        const full = [...prefix, ...segs];
        // `a::{self}` names `a` itself.
        if (full.length > 1 && full[full.length - 1] === 'self') full.pop();
        paths.push({ segs: full, offset: at });
      }
    }
  };
  walk([], tree, base);
  return paths;
}

/** Module declarations and inline module spans of one file's blanked code. */
function scanModules(code) {
  const decls = []; // { name, inline: [names of enclosing inline modules], offset }
  const inlineSpans = []; // { path: [names], start, end }
  const stack = []; // { name, depth, start }
  let depth = 0;
  const re = /\bmod\s+(?:r#)?(\w+)\s*([;{])/g;
  const opens = new Map();
  for (const m of code.matchAll(re)) {
    if (m[2] === ';') decls.push({ name: m[1], offset: m.index });
    else opens.set(m.index + m[0].length - 1, m[1]);
  }
  const declAt = new Map(decls.map((d) => [d.offset, d]));
  for (let k = 0; k < code.length; k++) {
    const ch = code[k];
    if (declAt.has(k)) declAt.get(k).inline = stack.map((s) => s.name);
    if (ch === '{') {
      if (opens.has(k)) stack.push({ name: opens.get(k), depth, start: k });
      depth++;
    } else if (ch === '}') {
      depth--;
      const top = stack[stack.length - 1];
      if (top && top.depth === depth) {
        inlineSpans.push({ path: stack.map((s) => s.name), start: top.start, end: k });
        stack.pop();
      }
    }
  }
  return { decls, inlineSpans };
}

/** The file of module `name` declared in `file` (inside inline modules `inline`). */
function childModuleFile(file, isDirOwner, inline, name) {
  const dir = isDirOwner ? dirname(file) : join(dirname(file), basename(file, '.rs'));
  const base = join(dir, ...inline);
  for (const candidate of [join(base, `${name}.rs`), join(base, name, 'mod.rs')]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Every module of the crate rooted at `rootFile`: Map(module path "a::b" → { file, inline }). */
function crateModules(rootFile) {
  const modules = new Map();
  const files = new Map(); // file → { modPath: [segments], code, text, spans }
  const visit = (file, modPath, isDirOwner) => {
    if (files.has(file)) return;
    const text = readFileSync(file, 'utf8');
    const code = blankRust(text);
    const { decls, inlineSpans } = scanModules(code);
    files.set(file, { modPath, code, text, spans: inlineSpans });
    modules.set(modPath.join('::'), file);
    for (const span of inlineSpans) modules.set([...modPath, ...span.path].join('::'), file);
    for (const d of decls) {
      const child = childModuleFile(file, isDirOwner, d.inline ?? [], d.name);
      if (!child) continue;
      visit(child, [...modPath, ...(d.inline ?? []), d.name], basename(child) === 'mod.rs');
    }
  };
  visit(rootFile, [], true);
  return { modules, files };
}

/** The inline module path at `offset` of a file (innermost enclosing inline `mod x { … }`). */
function inlineAt(spans, offset) {
  let best = [];
  for (const s of spans) {
    if (s.start < offset && offset < s.end && s.path.length > best.length) best = s.path;
  }
  return best;
}

/** Absolute module segments of a path written in module `here`, or null if it leaves the crate. */
function absolutePath(segs, here, childNames) {
  const [first] = segs;
  if (first === 'crate') return segs.slice(1);
  if (first === 'self') return [...here, ...segs.slice(1)];
  if (first === 'super') {
    const base = [...here];
    let k = 0;
    while (segs[k] === 'super') {
      if (base.length === 0) return null;
      base.pop();
      k++;
    }
    return [...base, ...segs.slice(k)];
  }
  if (childNames(here).has(first)) return [...here, ...segs];
  return null;
}

function rustEdges(rootDir) {
  const edges = [];
  const roots = [];
  for (const dir of RUST_SOURCE_DIRS) {
    const abs = join(rootDir, dir);
    if (!existsSync(abs)) continue;
    for (const name of ['lib.rs', 'main.rs']) if (existsSync(join(abs, name))) roots.push(join(abs, name));
    const bin = join(abs, 'bin');
    if (existsSync(bin)) {
      for (const entry of readdirSync(bin)) {
        const p = join(bin, entry);
        if (entry.endsWith('.rs')) roots.push(p);
        else if (statSync(p).isDirectory() && existsSync(join(p, 'main.rs'))) roots.push(join(p, 'main.rs'));
      }
    }
  }
  for (const root of roots) {
    const { modules, files } = crateModules(root);
    const childNames = (here) => {
      const prefix = here.length ? here.join('::') + '::' : '';
      const names = new Set();
      for (const key of modules.keys()) {
        if (key.startsWith(prefix) && key.length > prefix.length) {
          const rest = key.slice(prefix.length);
          if (!rest.includes('::')) names.add(rest);
        }
      }
      return names;
    };
    const resolveFile = (abs) => {
      for (let len = abs.length; len >= 0; len--) {
        const file = modules.get(abs.slice(0, len).join('::'));
        if (file) return file;
      }
      return null;
    };
    for (const [file, { modPath, code, text, spans }] of files) {
      const lines = text.split('\n');
      const add = (segs, offset) => {
        const here = [...modPath, ...inlineAt(spans, offset)];
        const abs = absolutePath(segs, here, childNames);
        if (!abs) return;
        const to = resolveFile(abs);
        if (!to || to === file) return;
        const line = lineAt(code, offset);
        edges.push({ from: file, to, line, text: lines[line - 1].trim() });
      };
      let rest = code;
      // `use` trees first, then blanked so the path scan below does not see them again.
      for (const m of code.matchAll(/\buse\s+([^;]+);/g)) {
        const treeStart = m.index + m[0].indexOf(m[1]);
        for (const p of expandUseTree(m[1], treeStart)) add(p.segs, p.offset);
        rest = rest.slice(0, m.index) + m[0].replace(/[^\n]/g, ' ') + rest.slice(m.index + m[0].length);
      }
      // `pub(in crate::a)` is a visibility, not a use.
      rest = rest.replace(/\bin\s+(?:crate|super|self)(?:\s*::\s*\w+)*/g, (s) => s.replace(/[^\n]/g, ' '));
      for (const m of rest.matchAll(/(?<![\w:.])(?:r#)?(\w+)((?:\s*::\s*(?:r#)?\w+)+)/g)) {
        const segs = [m[1], ...m[2].split('::').map((x) => x.trim().replace(/^r#/, '')).filter(Boolean)];
        add(segs, m.index);
      }
    }
  }
  return edges;
}

// ---- JavaScript ------------------------------------------------------------------------------

function jsFiles(dir) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsFiles(p));
    else if (/\.m?js$/.test(entry.name)) out.push(p);
  }
  return out;
}

/** Block and line comments blanked; strings and template literals kept as they are. */
function blankJsComments(text) {
  const out = text.split('');
  let i = 0;
  let quote = null;
  while (i < text.length) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i += 2;
      else { if (c === quote) quote = null; i++; }
    } else if (c === '"' || c === "'" || c === '`') {
      quote = c;
      i++;
    } else if (c === '/' && text[i + 1] === '/' && !/[\w)\]]\s*$/.test(text.slice(Math.max(0, i - 2), i))) {
      let j = text.indexOf('\n', i);
      if (j < 0) j = text.length;
      for (let k = i; k < j; k++) out[k] = ' ';
      i = j;
    } else if (c === '/' && text[i + 1] === '*') {
      let j = text.indexOf('*/', i + 2);
      j = j < 0 ? text.length : j + 2;
      for (let k = i; k < j; k++) if (out[k] !== '\n') out[k] = ' ';
      i = j;
    } else {
      i++;
    }
  }
  return out.join('');
}

function jsEdges(rootDir) {
  const edges = [];
  for (const dir of JS_SOURCE_DIRS) {
    const files = new Set(jsFiles(join(rootDir, dir)));
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const code = blankJsComments(text);
      const lines = text.split('\n');
      const patterns = [
        /^\s*(?:import|export)\s[^'"`;]*?\bfrom\s*(['"])([^'"]+)\1/gm,
        /^\s*import\s*(['"])([^'"]+)\1/gm,
        /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g,
      ];
      for (const re of patterns) {
        for (const m of code.matchAll(re)) {
          const spec = m[2];
          if (!spec.startsWith('.')) continue;
          const to = resolve(dirname(file), spec);
          if (!files.has(to) || to === file) continue;
          const line = lineAt(code, m.index + m[0].indexOf(spec));
          edges.push({ from: file, to, line, text: lines[line - 1].trim() });
        }
      }
    }
  }
  return edges;
}

// ---- Graph -----------------------------------------------------------------------------------

/** Strongly connected components (Tarjan, iterative) with more than one node. */
export function cyclicComponents(edges) {
  const adj = new Map();
  for (const e of edges) {
    if (!adj.has(e.from)) adj.set(e.from, new Set());
    if (!adj.has(e.to)) adj.set(e.to, new Set());
    adj.get(e.from).add(e.to);
  }
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let counter = 0;
  for (const start of adj.keys()) {
    if (index.has(start)) continue;
    const work = [[start, [...adj.get(start)], 0]];
    index.set(start, counter); low.set(start, counter); counter++;
    stack.push(start); onStack.add(start);
    while (work.length) {
      const frame = work[work.length - 1];
      const [v, next] = frame;
      if (frame[2] < next.length) {
        const w = next[frame[2]++];
        if (!index.has(w)) {
          index.set(w, counter); low.set(w, counter); counter++;
          stack.push(w); onStack.add(w);
          work.push([w, [...adj.get(w)], 0]);
        } else if (onStack.has(w)) {
          low.set(v, Math.min(low.get(v), index.get(w)));
        }
      } else {
        work.pop();
        if (work.length) {
          const parent = work[work.length - 1][0];
          low.set(parent, Math.min(low.get(parent), low.get(v)));
        }
        if (low.get(v) === index.get(v)) {
          const comp = [];
          let w;
          do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
          if (comp.length > 1) components.push(comp.sort());
        }
      }
    }
  }
  return components;
}

/** A shortest cycle through the first file of a component, as a list of files. */
function shortestCycle(component, edges) {
  const inside = new Set(component);
  const adj = new Map();
  for (const e of edges) {
    if (!inside.has(e.from) || !inside.has(e.to)) continue;
    if (!adj.has(e.from)) adj.set(e.from, new Set());
    adj.get(e.from).add(e.to);
  }
  const start = component[0];
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift();
    for (const w of adj.get(v) ?? []) {
      if (w === start) {
        const path = [v];
        while (prev.get(path[0]) !== null) path.unshift(prev.get(path[0]));
        return [...path, start];
      }
      if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
    }
  }
  return [start];
}

export function findCycles(rootDir) {
  const edges = [...rustEdges(rootDir), ...jsEdges(rootDir)];
  return { edges, cycles: cyclicComponents(edges) };
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const here = dirname(fileURLToPath(import.meta.url));
  const rootDir = resolve(at >= 0 ? args[at + 1] : join(here, '..'));
  const { edges, cycles } = findCycles(rootDir);
  const rel = (p) => relative(rootDir, p);
  const files = new Set(edges.flatMap((e) => [e.from, e.to]));
  if (cycles.length === 0) {
    console.log(`no import cycles (${files.size} files, ${edges.length} import lines)`);
    return 0;
  }
  for (const comp of cycles) {
    console.log(`import cycle among ${comp.length} files: ${comp.map(rel).join(', ')}`);
    const cycle = shortestCycle(comp, edges);
    for (let k = 0; k + 1 < cycle.length; k++) {
      const lines = edges.filter((e) => e.from === cycle[k] && e.to === cycle[k + 1]);
      console.log(`  ${rel(cycle[k])} -> ${rel(cycle[k + 1])}`);
      for (const e of lines.slice(0, 3)) console.log(`    ${rel(e.from)}:${e.line}: ${e.text}`);
      if (lines.length > 3) console.log(`    … and ${lines.length - 3} more lines`);
    }
  }
  console.log(`${cycles.length} import cycle(s) found`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main();
}
