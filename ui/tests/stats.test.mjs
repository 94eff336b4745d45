// The statistics chart's bars.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chartBars, winRate, CHART } from '../js/stats-chart.js';

test('the chart draws wins up, losses down, draws on the middle line, oldest first', () => {
  const bars = chartBars(['win', 'loss', 'draw']);
  assert.equal(bars.length, 3);
  assert.deepEqual(bars.map((b) => b.result), ['win', 'loss', 'draw']);
  assert.ok(bars[0].x < bars[1].x && bars[1].x < bars[2].x);
  assert.equal(bars[0].y + bars[0].height, CHART.height / 2, 'a win ends on the middle line');
  assert.equal(bars[1].y, CHART.height / 2, 'a loss starts on it');
  assert.ok(bars[2].y < CHART.height / 2 && bars[2].y + bars[2].height > CHART.height / 2);
  for (const b of chartBars(Array(30).fill('win'))) assert.ok(b.x >= 0 && b.x + b.width <= CHART.width);
  assert.deepEqual(chartBars([]), []);
  assert.equal(winRate({ played: 3, wins: 2 }), 67);
  assert.equal(winRate({ played: 0, wins: 0 }), 0);
});
