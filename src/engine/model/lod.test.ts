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

describe('LOD pyramid, built lazily in blocks', () => {
  /** Every entry of every level as a freshly built pyramid over the same store has it. */
  function expectSameAsFresh(store: SeriesStore, pyramid: LodPyramid, levels: number): void {
    const fresh = new LodPyramid(store);
    for (let k = 1; k <= levels; k++) {
      const want = fresh.level(k);
      const got = pyramid.level(k);
      expect(got.count).toBe(want.count);
      for (const key of ['open', 'high', 'low', 'close', 'volume'] as const) {
        expect(Array.from(got[key].subarray(0, got.count))).toEqual(Array.from(want[key].subarray(0, want.count)));
      }
    }
  }

  it('aggregates only the bars a view reaches: the last 20,000 or 160,000 of 600,000 bars read none of the older ones', () => {
    const n = 600_000;
    const { store, pyramid } = setup(n);
    // Count the reads of older bars: a view of the last 160,000 (level 2, blocks of 65,536 bars) needs none.
    const older = store.base + n - 220_000;
    let olderReads = 0;
    store.high = new Proxy(store.high, {
      get(target, key) {
        if (typeof key === 'string' && Number(key) < older) olderReads++;
        return Reflect.get(target, key);
      },
    });
    const out = createColumnData();
    for (const visible of [20_000, 160_000]) {
      buildColumns(store, pyramid, n - visible, n - 1, 1600 / visible, 1, out);
      expect(pyramid.levelFor(out.barsPerColumn)).toBe(visible === 20_000 ? 1 : 2);
      expect(out.count).toBeGreaterThan(1500);
    }
    expect(olderReads).toBe(0);
    // Zoomed out to everything, the rest is built then.
    buildColumns(store, pyramid, 0, n - 1, 1600 / n, 1, out);
    expect(olderReads).toBeGreaterThan(0);
  });

  it('equals a pyramid built whole, after views here and there, live ticks and appends across block edges', () => {
    const { candles, store, pyramid } = setup(70_000);
    const out = createColumnData();
    buildColumns(store, pyramid, 60_000, 69_999, 1600 / 10_000, 1, out);
    buildColumns(store, pyramid, 1_000, 5_000, 800 / 4_000, 1, out);
    let last = candles[candles.length - 1];
    for (let i = 0; i < 9_000; i++) {
      // Mostly ticks of the last bar, every 10th a new bar: the tail crosses block boundaries of level 1.
      last = i % 10 === 9 ? { ...last, time: last.time + 60, open: last.close, high: last.close, low: last.close, volume: 1 } : { ...last, close: last.close + ((i % 7) - 3) * 0.1, high: last.high + 0.1, volume: last.volume + 1 };
      store.updateLast(last);
      pyramid.syncTail();
      if (i % 1_000 === 0) buildColumns(store, pyramid, store.length - 10_000, store.length - 1, 1600 / 10_000, 1, out);
    }
    expectSameAsFresh(store, pyramid, 4);
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
