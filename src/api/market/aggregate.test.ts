import { describe, expect, it } from 'vitest';
import { aggregateBucket, aggregateCandles, sortUnique } from './aggregate';
import { INTERVAL_RESOLUTION, NATIVE_INTERVALS, bucketStart, lookbackBase, planInterval, shiftBucket } from './intervals';
import { INTERVALS, type Candle } from './types';

const bar = (time: number, open: number, high: number, low: number, close: number, volume: number): Candle => ({ time, open, high, low, close, volume, symbol: 'BTCUSDT' });
const utc = (iso: string) => Date.parse(iso) / 1000;

describe('interval tables (SPEC §9)', () => {
  it('lookback bases: 1m–30m from 1-minute, 1h–12h from 60, 1d–1M from daily', () => {
    expect(INTERVALS.map(lookbackBase)).toEqual(['1m', '1m', '1m', '1m', '1m', '1h', '1h', '1h', '1h', '1h', '1h', '1d', '1d', '1d', '1d']);
  });

  it('chart resolutions cover the 13 SPEC values, none for 8h and 3d', () => {
    expect(INTERVALS.map((i) => INTERVAL_RESOLUTION[i] ?? null)).toEqual(['1', '3', '5', '15', '30', '60', '120', '240', '360', null, '720', 'D', null, 'W', 'M']);
  });

  it('missing intervals are aggregated from the lookback base, native ones are not', () => {
    expect(planInterval('binance', '8h')).toEqual({ source: '8h', wire: '8h', aggregated: false });
    expect(planInterval('bybit', '8h')).toEqual({ source: '1h', wire: '60', aggregated: true });
    expect(planInterval('bybit', '3d')).toEqual({ source: '1d', wire: 'D', aggregated: true });
    expect(planInterval('okx', '8h')).toEqual({ source: '1h', wire: '1H', aggregated: true });
    expect(planInterval('okx', '1d')).toEqual({ source: '1d', wire: '1Dutc', aggregated: false });
    expect(planInterval('bitmex', '15m')).toEqual({ source: '1m', wire: '1', aggregated: true });
    expect(planInterval('bitmex', '4h')).toEqual({ source: '1h', wire: '60', aggregated: true });
    expect(planInterval('bitmex', '1M')).toEqual({ source: '1d', wire: 'D', aggregated: true });
    expect(Object.keys(NATIVE_INTERVALS.bitmex)).toEqual(['1m', '5m', '1h', '1d']);
    // Every exchange can serve every interval one way or the other.
    for (const ex of ['binance', 'bybit', 'okx', 'bitmex'] as const) for (const i of INTERVALS) expect(() => planInterval(ex, i)).not.toThrow();
  });
});

describe('bucket alignment', () => {
  it('weeks open Monday 00:00 UTC', () => {
    expect(bucketStart(utc('2024-06-02T23:59:59Z'), '1w')).toBe(utc('2024-05-27T00:00:00Z')); // Sunday → previous Monday
    expect(bucketStart(utc('2024-06-03T00:00:00Z'), '1w')).toBe(utc('2024-06-03T00:00:00Z'));
    expect(new Date(bucketStart(utc('1970-01-01T12:00:00Z'), '1w') * 1000).toISOString()).toBe('1969-12-29T00:00:00.000Z');
  });

  it('months open on the 1st, UTC, whatever their length', () => {
    expect(bucketStart(utc('2024-02-29T23:00:00Z'), '1M')).toBe(utc('2024-02-01T00:00:00Z'));
    expect(shiftBucket(utc('2024-02-01T00:00:00Z'), '1M', 1)).toBe(utc('2024-03-01T00:00:00Z'));
    expect(shiftBucket(utc('2024-01-01T00:00:00Z'), '1M', -1)).toBe(utc('2023-12-01T00:00:00Z'));
    expect(shiftBucket(utc('2024-06-01T00:00:00Z'), '1M', -299)).toBe(utc('1999-07-01T00:00:00Z'));
  });

  it('hours and 3-day bars are epoch aligned', () => {
    expect(bucketStart(utc('2024-06-01T07:59:00Z'), '8h')).toBe(utc('2024-06-01T00:00:00Z'));
    expect(bucketStart(utc('2024-06-01T08:00:00Z'), '8h')).toBe(utc('2024-06-01T08:00:00Z'));
    expect(bucketStart(utc('2024-06-01T12:00:00Z'), '3d') % (3 * 86400)).toBe(0);
  });
});

describe('aggregateCandles', () => {
  it('open of the first, close of the last, extremes, summed volume, bucket open time', () => {
    const base = [bar(0, 10, 12, 9, 11, 1), bar(60, 11, 15, 10, 14, 2), bar(120, 14, 14, 8, 9, 3), bar(180, 9, 10, 9, 10, 4)];
    expect(aggregateCandles(base, '3m')).toEqual([bar(0, 10, 15, 8, 9, 6), bar(180, 9, 10, 9, 10, 4)]);
  });

  it('the forming bar is the partial newest bucket', () => {
    const t0 = utc('2024-06-01T08:00:00Z');
    const base = [bar(t0 - 3600, 1, 2, 1, 2, 5), bar(t0, 2, 4, 2, 3, 1), bar(t0 + 3600, 3, 3, 1, 1, 1)];
    const out = aggregateCandles(base, '8h');
    expect(out.map((c) => c.time)).toEqual([t0 - 8 * 3600, t0]);
    expect(out[1]).toEqual(bar(t0, 2, 4, 1, 1, 2));
  });

  it('daily bars fold into weeks and months at the right boundaries', () => {
    const days = Array.from({ length: 70 }, (_, i) => bar(utc('2024-01-25T00:00:00Z') + i * 86400, i, i + 1, i - 1, i + 0.5, 1));
    const weeks = aggregateCandles(days, '1w');
    expect(new Date(weeks[0]!.time * 1000).toISOString()).toBe('2024-01-22T00:00:00.000Z'); // the Monday before the 25th
    expect(weeks[1]!.volume).toBe(7);
    const months = aggregateCandles(days, '1M');
    expect(months.map((m) => new Date(m.time * 1000).toISOString().slice(0, 10))).toEqual(['2024-01-01', '2024-02-01', '2024-03-01', '2024-04-01']);
    expect(months[1]!.volume).toBe(29); // leap February
    expect(months[1]!.open).toBe(7); // 2024-02-01 is the 8th day (index 7)
  });

  it('does not mutate its input, and aggregateBucket picks one bucket', () => {
    const base = [bar(0, 1, 2, 0, 1, 1), bar(60, 1, 3, 1, 2, 1)];
    const copy = structuredClone(base);
    aggregateCandles(base, '5m');
    expect(base).toEqual(copy);
    expect(aggregateBucket(base, '1m', 60)).toEqual(base[1]);
    expect(aggregateBucket(base, '1m', 120)).toBeUndefined();
  });

  it('sortUnique sorts and keeps the later copy of a duplicated time', () => {
    const stale = bar(60, 1, 1, 1, 1, 1);
    const fresh = bar(60, 1, 5, 1, 4, 9);
    expect(sortUnique([bar(120, 1, 1, 1, 1, 1), stale, bar(0, 1, 1, 1, 1, 1), fresh]).map((c) => [c.time, c.close])).toEqual([[0, 1], [60, 4], [120, 1]]);
  });
});
