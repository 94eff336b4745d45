// Figures the suite prints (measured, not asserted).

/** RSS of a minimal Tauri 2 app on this kind of machine, the yardstick the app's memory is compared with. */
export const MINIMAL_TAURI_RSS = 450 * 1024 * 1024;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};

export class Figures {
  constructor() {
    this.coldStarts = []; // {label, toHome, toBoard}
    this.peaks = []; // {label, bytes}
    this.replies = new Map(); // game -> [ms]
    this.cpuLoads = []; // {label, what, percent, seconds}
  }

  /** Share of one core the web process used over a window (from /proc, utime + stime). */
  cpuLoad(label, what, percent, seconds) {
    this.cpuLoads.push({ label, what, percent, seconds });
  }

  coldStart(label, msToHome, msToBoard) {
    this.coldStarts.push({ label, toHome: msToHome, toBoard: msToBoard });
  }

  rss(label, bytes) {
    this.peaks.push({ label, bytes });
  }

  cpuReply(game, ms) {
    if (!this.replies.has(game)) this.replies.set(game, []);
    this.replies.get(game).push(ms);
  }

  print() {
    console.log('\n=== e2e figures (measured, not asserted) ===');
    for (const c of this.coldStarts) {
      const board = c.toBoard == null ? '' : `, to an interactive board ${c.toBoard} ms`;
      console.log(`cold start [${c.label}]: launch to interactive home ${c.toHome} ms${board}`);
    }
    if (this.peaks.length) {
      const max = this.peaks.reduce((a, b) => (b.bytes > a.bytes ? b : a));
      const mib = (b) => (b / 1048576).toFixed(0);
      console.log(
        `peak RSS, app + WebKit children: ${mib(max.bytes)} MiB [${max.label}] = ` +
          `${(max.bytes / MINIMAL_TAURI_RSS).toFixed(2)} × a minimal Tauri 2 app (450 MiB)`,
      );
      console.log(`  per scenario: ${this.peaks.map((p) => `${p.label.split('-')[0]} ${mib(p.bytes)}`).join(', ')} MiB`);
    }
    for (const c of this.cpuLoads) {
      console.log(`web process CPU [${c.label}] ${c.what}: ${c.percent.toFixed(1)} % of a core over ${c.seconds} s`);
    }
    for (const [game, ms] of this.replies) {
      console.log(
        `second tap → CPU reply drawn [${game}]: median ${median(ms).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms over ${ms.length}`,
      );
    }
  }
}
