import { describe, expect, it } from 'vitest';
import { generateCandles } from '../../../tests/harness/ohlcv';
import { SeriesStore } from './series-store';

describe('SeriesStore', () => {
  const candles = generateCandles({ count: 1000, seed: 2 });

  it('stores candles in columns and reads them back exactly', () => {
    const s = new SeriesStore();
    s.set(candles);
    expect(s.length).toBe(1000);
    expect(s.candleAt(0)).toEqual(candles[0]);
    expect(s.candleAt(999)).toEqual(candles[999]);
    expect(s.candleAt(1000)).toBeNull();
  });

  it('prepends older pages, dropping rows that overlap the first bar', () => {
    const s = new SeriesStore();
    s.set(candles.slice(600));
    const rev = s.revision;
    expect(s.prepend(candles.slice(300, 601))).toBe(300);
    expect(s.length).toBe(700);
    expect(s.candleAt(0)).toEqual(candles[300]);
    expect(s.candleAt(300)).toEqual(candles[600]);
    expect(s.revision).toBeGreaterThan(rev);
    // More than the head-room: the columns grow and keep every row.
    const big = generateCandles({ count: 40_000, seed: 2, endTime: candles[0].time - 60 });
    expect(s.prepend(big)).toBe(40_000);
    expect(s.candleAt(0)).toEqual(big[0]);
    expect(s.candleAt(40_000)).toEqual(candles[300]);
    expect(s.candleAt(s.length - 1)).toEqual(candles[999]);
    expect(s.prepend([])).toBe(0);
  });

  it('replaces the last bar, appends a later one, ignores an earlier one', () => {
    const s = new SeriesStore();
    s.set(candles.slice(0, 10));
    const last = candles[9];
    expect(s.updateLast({ ...last, close: last.close + 1 })).toBe('replaced');
    expect(s.candleAt(9)?.close).toBe(last.close + 1);
    expect(s.updateLast({ ...last, time: last.time + 60 })).toBe('appended');
    expect(s.length).toBe(11);
    expect(s.updateLast({ ...last, time: last.time - 60 })).toBe('ignored');
    for (let i = 0; i < 5000; i++) s.updateLast({ ...last, time: last.time + 120 + i * 60 });
    expect(s.length).toBe(5011);
    expect(s.candleAt(0)).toEqual(candles[0]);
  });

  it('replaces everything on set, reusing the columns for a similar size', () => {
    const s = new SeriesStore();
    s.set(candles);
    const columns = s.time;
    const other = generateCandles({ count: 900, seed: 9 });
    s.set(other);
    expect(s.time).toBe(columns);
    expect(s.length).toBe(900);
    expect(s.candleAt(0)).toEqual(other[0]);
    expect(s.candleAt(899)).toEqual(other[899]);
    expect(s.candleAt(900)).toBeNull();
  });

  it('finds the bar at or before a time', () => {
    const s = new SeriesStore();
    s.set(candles);
    expect(s.indexAtOrBefore(candles[500].time)).toBe(500);
    expect(s.indexAtOrBefore(candles[500].time + 30)).toBe(500);
    expect(s.indexAtOrBefore(candles[0].time - 1)).toBe(-1);
    expect(s.indexAtOrBefore(candles[999].time + 1e6)).toBe(999);
  });
});
