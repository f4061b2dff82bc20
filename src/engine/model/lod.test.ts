import { describe, expect, it } from 'vitest';
import { SeriesStore } from '../core/series-store';
import { generateCandles } from '../../../tests/harness/ohlcv';
import { buildColumns, createColumnData, LOD_BRANCH, LodPyramid } from './lod';

function setup(count: number) {
  const candles = generateCandles({ count, seed: 5 });
  const store = new SeriesStore();
  store.set(candles);
  return { candles, store, pyramid: new LodPyramid(store) };
}

describe('LOD pyramid', () => {
  it('aggregates open first, close last, high max, low min, volume sum', () => {
    const { candles, pyramid } = setup(1000);
    const l1 = pyramid.level(1);
    const l2 = pyramid.level(2);
    expect(l1.count).toBe(Math.ceil(1000 / LOD_BRANCH));
    for (const [lv, e] of [
      [l1, 3],
      [l1, l1.count - 1],
      [l2, 1],
      [l2, l2.count - 1],
    ] as const) {
      const bars = candles.slice(e * lv.size, (e + 1) * lv.size);
      expect(lv.open[e]).toBeCloseTo(bars[0].open, 1);
      expect(lv.close[e]).toBeCloseTo(bars[bars.length - 1].close, 1);
      expect(lv.high[e]).toBeCloseTo(Math.max(...bars.map((b) => b.high)), 1);
      expect(lv.low[e]).toBeCloseTo(Math.min(...bars.map((b) => b.low)), 1);
      expect(lv.volume[e]).toBeCloseTo(bars.reduce((s, b) => s + b.volume, 0), 0);
    }
  });

  it('keeps the last entries in step with live updates (O(levels))', () => {
    const { store, pyramid } = setup(1000);
    pyramid.level(2);
    const last = store.candleAt(999)!;
    store.updateLast({ ...last, high: 1e9, close: last.close + 5 });
    pyramid.syncTail();
    expect(pyramid.level(1).high[pyramid.level(1).count - 1]).toBe(1e9);
    expect(pyramid.level(2).high[pyramid.level(2).count - 1]).toBe(1e9);
    store.updateLast({ ...last, time: last.time + 60, low: -5 });
    pyramid.syncTail();
    expect(pyramid.level(1).count).toBe(Math.ceil(1001 / LOD_BRANCH));
    expect(pyramid.level(2).low[pyramid.level(2).count - 1]).toBe(-5);
  });
});

describe('buildColumns', () => {
  it('draws one column per bar when bars are at least a pixel apart, snapped to pixels', () => {
    const { store, pyramid } = setup(1000);
    const out = createColumnData();
    buildColumns(store, pyramid, 900, 1000, 8, 1, out);
    expect(out.barsPerColumn).toBe(1);
    expect(out.count).toBeGreaterThanOrEqual(100);
    for (let i = 0; i < out.count; i++) {
      expect(Number.isInteger(out.x[i])).toBe(true);
      // Body and wick share their parity so the wick sits in the middle of the body.
      expect((out.bodyWidth[i] - out.wickWidth) % 2).toBe(0);
    }
  });

  it('aggregates to one OHLC per pixel column when bars outnumber pixels, preserving extremes', () => {
    const { candles, store, pyramid } = setup(200_000);
    const out = createColumnData();
    const width = 800;
    buildColumns(store, pyramid, 0, 200_000, width / 200_000, 1, out);
    expect(out.count).toBeLessThanOrEqual(width + 1);
    expect(out.count).toBeGreaterThan(width * 0.9);
    const hi = candles.reduce((m, c) => Math.max(m, c.high), -Infinity);
    const lo = candles.reduce((m, c) => Math.min(m, c.low), Infinity);
    // Float32 levels: within a cent of the exact extremes.
    expect(Math.abs(out.maxHigh - hi)).toBeLessThan(0.01);
    expect(Math.abs(out.minLow - lo)).toBeLessThan(0.01);
    const xs = Array.from(out.x.subarray(0, out.count));
    expect(new Set(xs).size).toBe(out.count);
  });

  it('reports the last bar of every column (what indicators are drawn with), at any zoom', () => {
    const { store, pyramid } = setup(50_000);
    const out = createColumnData();
    for (const pxPerBar of [8, 1, 0.3, 1 / 64, 800 / 50_000]) {
      buildColumns(store, pyramid, 1000, 49_999, pxPerBar, 1, out);
      let prev = -1;
      for (let c = 0; c < out.count; c++) {
        const last = out.lastIndex[c];
        expect(last).toBeGreaterThan(prev);
        // The column's close is its last bar's close (Float32 in the pyramid).
        expect(Math.abs(out.close[c] - store.closeAt(last))).toBeLessThan(0.01);
        prev = last;
      }
      expect(out.lastIndex[out.count - 1]).toBe(49_999);
    }
  });

  it('reads the pyramid, not the bars, when zoomed out (O(columns))', () => {
    const n = 400_000;
    const { store, pyramid } = setup(n);
    const out = createColumnData();
    buildColumns(store, pyramid, 0, n, 1600 / n, 1, out);
    const before = Array.from(out.high.subarray(0, out.count));
    // Poison the raw bars behind the pyramid's back: a per-frame scan of the bars would see it.
    store.high.fill(Number.NaN, store.base + 1000, store.base + n - 1000);
    buildColumns(store, pyramid, 0, n, 1600 / n, 1, out);
    expect(Array.from(out.high.subarray(0, out.count))).toEqual(before);
    expect(pyramid.byteLength).toBeLessThan(store.byteLength / 10);
  });
});
