import { describe, expect, it } from 'vitest';
import { SeriesStore } from '../core/series-store';
import { generateCandles } from '../../../tests/harness/ohlcv';
import { DEFAULT_BAR_SPACING, MAX_BAR_SPACING, TimeIndex, TimeScale } from './time-scale';

function scale(width = 800, count = 1000): TimeScale {
  const s = new TimeScale();
  s.setWidth(width, count);
  s.reset(count);
  return s;
}

describe('TimeScale', () => {
  it('starts with the latest bars at the default spacing', () => {
    const s = scale();
    expect(s.spacing).toBeCloseTo(DEFAULT_BAR_SPACING, 6);
    expect(s.to).toBeGreaterThan(999);
    expect(s.indexToX(999)).toBeLessThan(800);
  });

  it('maps index to x and back', () => {
    const s = scale();
    for (const i of [s.from, 900.25, 999]) expect(s.xToIndex(s.indexToX(i))).toBeCloseTo(i, 9);
  });

  it('zooms around the cursor: the bar under the pointer stays put', () => {
    const s = scale();
    const x = 300;
    const under = s.xToIndex(x);
    s.zoomAt(x, 2, 1000);
    expect(s.xToIndex(x)).toBeCloseTo(under, 9);
    expect(s.spacing).toBeCloseTo(DEFAULT_BAR_SPACING * 2, 6);
  });

  it('pans by pixels', () => {
    const s = scale();
    const from = s.from;
    s.panBy(80, 1000);
    expect(s.from).toBeCloseTo(from - 80 / DEFAULT_BAR_SPACING, 9);
  });

  it('limits zoom and keeps bars on screen', () => {
    const s = scale();
    s.zoomAt(400, 1000, 1000);
    expect(s.spacing).toBeLessThanOrEqual(MAX_BAR_SPACING + 1e-9);
    s.zoomAt(400, 1e-6, 1000);
    expect(s.to - s.from).toBeLessThanOrEqual(1000 * 1.1 + 50 + 1e-6);
    s.panBy(-1e7, 1000);
    expect(s.from).toBeLessThanOrEqual(1000);
    s.panBy(1e7, 1000);
    expect(s.to).toBeGreaterThan(0);
  });

  it('keeps the right edge and the spacing on resize', () => {
    const s = scale();
    const to = s.to;
    s.setWidth(400, 1000);
    expect(s.to).toBe(to);
    expect(s.spacing).toBeCloseTo(DEFAULT_BAR_SPACING, 6);
  });
});

describe('TimeIndex', () => {
  const store = new SeriesStore();
  store.set(generateCandles({ count: 100, seed: 3, interval: 300, endTime: 1_700_000_000 }));
  const ti = new TimeIndex(store);
  ti.refreshInterval();

  it('infers the bar interval', () => {
    expect(ti.interval).toBe(300);
  });

  it('maps bar times to indexes and extrapolates beyond the data', () => {
    expect(ti.timeToIndex(store.timeAt(10))).toBe(10);
    expect(ti.timeToIndex(store.timeAt(10) + 150)).toBeCloseTo(10.5, 9);
    expect(ti.timeToIndex(store.timeAt(99) + 900)).toBeCloseTo(102, 9);
    expect(ti.timeToIndex(store.timeAt(0) - 600)).toBeCloseTo(-2, 9);
    expect(ti.indexToTime(102)).toBe(store.timeAt(99) + 900);
    expect(ti.barTime(10.4)).toBe(store.timeAt(10));
  });
});
