import { describe, expect, it } from 'vitest';
import { createTestChart } from '../../../tests/harness/test-chart';
import { LINE_BREAK_Y, LINE_STRIDE } from '../model/view/line-list';
import type { Indicator } from '../types';

const SMA: Indicator = { id: 'sma', kind: 'sma', period: 50, source: 'close', color: '#ff0000' };
const BB: Indicator = { id: 'bb', kind: 'bollinger', period: 20, stdDev: 2, source: 'close', color: '#00ff00' };

/** The polylines of the scene as arrays of [x, y] (device px), split at break points. */
function polylines(data: Float32Array, count: number): Array<Array<[number, number]>> {
  const lines: Array<Array<[number, number]>> = [];
  let current: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    const x = data[i * LINE_STRIDE];
    const y = data[i * LINE_STRIDE + 1];
    if (y <= LINE_BREAK_Y) {
      if (current.length) lines.push(current);
      current = [];
    } else current.push([x, y]);
  }
  if (current.length) lines.push(current);
  return lines;
}

describe('indicator lines', () => {
  it('draw one point per drawn column with the value at the column’s last bar, at every level of detail', () => {
    const t = createTestChart({ bars: 100_000, width: 800 });
    t.controller.setIndicators([SMA, BB]);
    const m = t.controller.model;
    for (const range of [{ from: 99_800, to: 99_900 }, { from: 50_000, to: 52_000 }, { from: 0, to: 100_000 }]) {
      t.controller.setVisibleRange(range);
      t.paint();
      const cols = m.columns;
      const lines = polylines(t.scene.indicatorLines.data, t.scene.indicatorLines.count);
      // SMA, then the three Bollinger lines; each over every column (the windows are full here).
      expect(lines).toHaveLength(4);
      const ps = m.priceScale;
      for (const [line, [entry, index]] of [[lines[0], [0, 0]], [lines[2], [1, 1]]] as const) {
        expect(line).toHaveLength(cols.count);
        for (const c of [0, Math.floor(cols.count / 2), cols.count - 1]) {
          const e = m.indicators.entries[entry];
          const v = e.calc.value(e.cols, index, m.store.base + cols.lastIndex[c]);
          expect(line[c][1]).toBeCloseTo(ps.priceToY(v), 2);
          expect(line[c][0]).toBeCloseTo(cols.x[c] + cols.wickWidth / 2, 5);
        }
      }
    }
  });

  it('leave a gap where an indicator has no value yet and draw nothing without indicators', () => {
    const t = createTestChart({ bars: 300 });
    t.controller.setIndicators([{ ...SMA, period: 200 }]);
    t.controller.setVisibleRange({ from: 150, to: 250 });
    t.paint();
    const [line] = polylines(t.scene.indicatorLines.data, t.scene.indicatorLines.count);
    const cols = t.controller.model.columns;
    const firstWithValue = Array.from(cols.lastIndex.subarray(0, cols.count)).findIndex((i) => i >= 199);
    expect(line).toHaveLength(cols.count - firstWithValue);
    t.controller.setIndicators([]);
    t.paint();
    expect(t.scene.indicatorLines.count).toBe(0);
  });
});
