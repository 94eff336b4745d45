// The statistics chart, pure: the latest results of one game and level as bars over time (oldest
// at the left): a win reaches up, a loss down, a draw is a short mark on the middle line. Looking
// beats reading: a run of wins is a row of tall bars.

export const CHART = { width: 200, height: 40, gap: 2 };

/**
 * @param {('win'|'draw'|'loss')[]} recent oldest first
 * @returns {{x: number, y: number, width: number, height: number, result: string}[]} in the chart's
 *   own units (`CHART`), y down.
 */
export function chartBars(recent, slots = 20) {
  const { width, height, gap } = CHART;
  const slot = width / Math.max(slots, recent.length, 1);
  const mid = height / 2;
  const barWidth = Math.max(1, slot - gap);
  return recent.map((result, i) => {
    const x = i * slot + (slot - barWidth) / 2;
    if (result === 'win') return { x, y: 0, width: barWidth, height: mid, result };
    if (result === 'loss') return { x, y: mid, width: barWidth, height: mid, result };
    return { x, y: mid - 3, width: barWidth, height: 6, result };
  });
}

/** Wins as a share of games, rounded (0 without games). */
export function winRate(stats) {
  return stats.played ? Math.round((100 * stats.wins) / stats.played) : 0;
}
