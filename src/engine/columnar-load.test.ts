import { describe, expect, it } from 'vitest';
import { presetDrawings, presetIndicators, presetLines } from '../../tests/harness/chart-presets';
import { generateCandles } from '../../tests/harness/ohlcv';
import { createTestChart, type TestChart } from '../../tests/harness/test-chart';
import { toCandleColumns } from './core/candle-columns';
import { SERIES_STRIDE } from './model/scene';
import type { Candle, ChartEvents } from './types';

/** Everything a user sees or hits after a paint: candle quads, axis labels, scales, hit targets, crosshair. */
function observe(t: TestChart): unknown {
  const c = t.controller;
  const s = t.scene;
  const crosshairs: Array<ChartEvents['crosshair']> = [];
  const off = c.events.on('crosshair', (p) => crosshairs.push(p));
  const hits: unknown[] = [];
  for (let x = 10; x < 780; x += 37) {
    for (let y = 10; y < 480; y += 41) {
      hits.push([c.target(x, y), c.pointAt(x, y)]);
      c.setCrosshair({ x, y });
    }
  }
  c.setCrosshair(null);
  off();
  return {
    series: Array.from(s.series.data.subarray(0, s.series.count * SERIES_STRIDE)),
    seriesCount: s.series.count,
    barsPerColumn: s.series.barsPerColumn,
    axis: s.axisTexts.items.slice(0, s.axisTexts.count).map((i) => [i.text, i.x, i.y]),
    lines: s.lineTexts.items.slice(0, s.lineTexts.count).map((i) => [i.text, i.x, i.y]),
    prices: [c.model.priceScale.min, c.model.priceScale.max],
    range: c.getVisibleRange(),
    indicators: c.getIndicatorValues(),
    hits,
    crosshairs,
  };
}

/** A chart loaded through `setCandles` and one loaded through `setCandleColumns` (over 50 other bars first). */
function pair(candles: Candle[]): [TestChart, TestChart] {
  const setup = (t: TestChart) => {
    t.controller.setDrawings(presetDrawings(candles, ['line', 'rectangle', 'fib']));
    t.controller.setLines(presetLines(candles[candles.length - 1]));
    t.controller.setIndicators(presetIndicators(['sma', 'ema', 'vwap', 'bb']));
  };
  const objects = createTestChart({ bars: 50 });
  objects.controller.setCandles(candles);
  setup(objects);
  const columns = createTestChart({ bars: 50 });
  columns.controller.setCandleColumns(toCandleColumns(candles));
  setup(columns);
  objects.paint();
  columns.paint();
  return [objects, columns];
}

describe('loading candles as columns', () => {
  const candles = generateCandles({ count: 20_000, seed: 4 });

  it('paints, scales and hit-tests exactly as the same candles given as objects', () => {
    const [objects, columns] = pair(candles);
    expect(columns.controller.model.store.length).toBe(20_000);
    expect(observe(columns)).toEqual(observe(objects));
    // Zoomed out to a level of detail that aggregates bars into columns.
    for (const t of [objects, columns]) {
      t.controller.setVisibleRange({ from: 0, to: 19_999 });
      t.paint();
    }
    expect(columns.scene.series.barsPerColumn).toBeGreaterThan(1);
    expect(observe(columns)).toEqual(observe(objects));
  });

  it('keeps the arrays it was given: no copy', () => {
    const t = createTestChart({ bars: 50 });
    const cols = toCandleColumns(candles);
    t.controller.setCandleColumns(cols);
    expect(t.controller.model.store.time).toBe(cols.time);
    expect(t.controller.model.store.close).toBe(cols.close);
  });

  it('takes live ticks and new bars after a columnar load: into spare rows, then growing', () => {
    const [objects, columns] = pair(candles);
    const cols = toCandleColumns(candles, 3);
    columns.controller.setCandleColumns(cols);
    let last = candles[candles.length - 1];
    const feed = (c: Candle) => {
      objects.controller.updateLastCandle(c);
      columns.controller.updateLastCandle(c);
    };
    feed({ ...last, close: last.close + 5, high: Math.max(last.high, last.close + 5) });
    for (let i = 1; i <= 10; i++) {
      last = { time: last.time + 60, open: last.close, high: last.close + i, low: last.close - i, close: last.close + i / 2, volume: i };
      feed(last);
      feed({ ...last, close: last.close - 1 });
      // The three spare rows are filled in place; the fourth new bar grows the columns.
      if (i <= 3) expect(columns.controller.model.store.time).toBe(cols.time);
    }
    expect(columns.controller.model.store.time).not.toBe(cols.time);
    expect(columns.controller.model.store.length).toBe(20_010);
    expect(columns.controller.model.store.candleAt(20_009)).toEqual({ ...last, close: last.close - 1 });
    // History paged in before the adopted columns (no head-room at their left) keeps every row.
    const older = generateCandles({ count: 500, seed: 5, endTime: candles[0].time - 60 });
    objects.controller.prependCandles(older);
    columns.controller.prependCandles(older);
    expect(columns.controller.model.store.candleAt(0)).toEqual(older[0]);
    objects.paint();
    columns.paint();
    expect(observe(columns)).toEqual(observe(objects));
  });

  it('refuses bad columns with an error naming the column and row, keeping the bars it had', () => {
    const t = createTestChart({ bars: 50 });
    const bad = (edit: (c: ReturnType<typeof toCandleColumns>) => void) => {
      const c = toCandleColumns(candles.slice(0, 100));
      edit(c);
      return () => t.controller.setCandleColumns(c);
    };
    expect(bad((c) => (c.volume = c.volume.subarray(0, 99)))).toThrow('setCandleColumns: column lengths differ (time 100, volume 99)');
    expect(bad((c) => (c.high[42] = NaN))).toThrow('setCandleColumns: high at row 42 is NaN');
    expect(bad((c) => (c.close[7] = Infinity))).toThrow('setCandleColumns: close at row 7 is Infinity');
    expect(bad((c) => (c.time[10] = NaN))).toThrow('setCandleColumns: time at row 10 is NaN');
    expect(bad((c) => (c.time[10] = c.time[9]))).toThrow(/time at row 10 .* is not after row 9/);
    expect(bad((c) => (c.length = 101))).toThrow("length 101 must be a whole number from 0 to the columns' length 100");
    expect(bad((c) => (c.open = new Float32Array(100) as unknown as Float64Array<ArrayBuffer>))).toThrow('open must be a Float64Array');
    expect(bad((c) => (c.low = c.high))).toThrow('high and low share memory');
    // A NaN past `length` (a spare row) is not data.
    expect(bad((c) => {
      c.length = 99;
      c.open[99] = NaN;
    })).not.toThrow();
    expect(t.controller.model.store.length).toBe(99);
    expect(bad((c) => (c.open[0] = NaN))).toThrow();
    expect(t.controller.model.store.length).toBe(99);
  });

  it('shows "No data" for empty columns', () => {
    const t = createTestChart({ bars: 50 });
    t.controller.setCandleColumns(toCandleColumns([]));
    t.paint();
    expect(t.controller.model.store.length).toBe(0);
    expect(t.scene.series.count).toBe(0);
    expect(t.scene.markTexts.items.slice(0, t.scene.markTexts.count).map((i) => i.text)).toContain('No data');
  });
});
