// Process-tree helpers over /proc: find the app under tauri-driver, sum RSS, kill by PID.
import fs from 'node:fs';

/** Map pid -> ppid for every live process. */
function parentMap() {
  const parents = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name (field 2) may hold spaces and parentheses: fields follow the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(rest[1]));
    } catch {
      // The process ended while we read it.
    }
  }
  return parents;
}

/** Every descendant of `root` (not including it), parents before children. */
export function descendants(root) {
  const parents = parentMap();
  const children = new Map();
  for (const [pid, ppid] of parents) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const out = [];
  const queue = [...(children.get(root) ?? [])];
  while (queue.length) {
    const pid = queue.shift();
    out.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return out;
}

export function exePath(pid) {
  try {
    return fs.readlinkSync(`/proc/${pid}/exe`);
  } catch {
    return null;
  }
}

export function commandName(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}

export function isAlive(pid) {
  try {
    process.kill(pid, 0);
    const state = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/\) Z /.test(state);
  } catch {
    return false;
  }
}

/** One line per process of the tree under `root` (itself included): "pid comm state cpu-s rss-MiB",
 * for a failure report (did the web process die, hang in a wait, or spin?). */
export function processReport(root) {
  const clock = 100; // USER_HZ on Linux
  return [root, ...descendants(root)].map((pid) => {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cpu = (Number(rest[11]) + Number(rest[12])) / clock;
      return `${pid} ${commandName(pid)} ${rest[0]} ${cpu.toFixed(1)} s ${(rssBytes(pid) / 1048576).toFixed(0)} MiB`;
    } catch {
      return `${pid} gone`;
    }
  });
}

/** Resident set size of one process in bytes (0 if it is gone). */
export function rssBytes(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = status.match(/^VmRSS:\s+(\d+) kB/m);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** RSS of a process together with all its descendants (the app and its WebKit processes). */
export function treeRssBytes(pid) {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + rssBytes(p), 0);
}

export function killPid(pid, signal = 'SIGKILL') {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Kill a process and everything under it, children first so none is re-parented and missed. */
export function killTree(pid, signal = 'SIGKILL') {
  const tree = descendants(pid).reverse();
  for (const p of tree) killPid(p, signal);
  killPid(pid, signal);
}

export async function waitFor(predicate, { timeoutMs = 10000, intervalMs = 50, what = 'condition' } = {}) {
  const start = Date.now();
  for (;;) {
    const value = await predicate();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
