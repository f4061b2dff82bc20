import { bucketStart } from './intervals';
import type { Candle, Interval } from './types';

/**
 * Sorts by open time and keeps one bar per time. When a time appears twice the later occurrence wins:
 * callers append newer fetches after older ones, and a newer copy of a forming bar is the truer one.
 */
export function sortUnique(candles: readonly Candle[]): Candle[] {
  const byTime = new Map<number, Candle>();
  for (const c of candles) byTime.set(c.time, c);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}

/**
 * Builds `interval` bars from finer bars (oldest first, unique times). A bucket opens at
 * `bucketStart(time, interval)`; its open is the first constituent's open, close the last one's close,
 * high/low the extremes and volume the sum. The newest bucket may be partial: that is the forming bar.
 */
export function aggregateCandles(base: readonly Candle[], interval: Interval): Candle[] {
  const out: Candle[] = [];
  let current: Candle | undefined;
  for (const bar of base) {
    const start = bucketStart(bar.time, interval);
    if (current !== undefined && current.time === start) {
      if (bar.high > current.high) current.high = bar.high;
      if (bar.low < current.low) current.low = bar.low;
      current.close = bar.close;
      current.volume += bar.volume;
    } else {
      current = { ...bar, time: start };
      out.push(current);
    }
  }
  return out;
}

/** The bar `interval` bucket `start` made of `base` bars, or undefined when none falls in it. */
export function aggregateBucket(base: readonly Candle[], interval: Interval, start: number): Candle | undefined {
  const inside = base.filter((b) => bucketStart(b.time, interval) === start);
  return aggregateCandles(inside, interval)[0];
}
