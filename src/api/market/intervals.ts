import type { ExchangeId } from '../contracts/common';
import type { Interval } from './types';

const MIN = 60;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
/** 1970-01-01 was a Thursday; the first Monday 00:00 UTC is 4 days later. Weeks open on Monday (UTC). */
const FIRST_MONDAY = 4 * DAY;

/** Fixed length in seconds; `1M` is calendar-aligned and has no fixed length (31 days is its upper bound). */
export const INTERVAL_SECONDS: Record<Interval, number> = {
  '1m': MIN, '3m': 3 * MIN, '5m': 5 * MIN, '15m': 15 * MIN, '30m': 30 * MIN,
  '1h': HOUR, '2h': 2 * HOUR, '4h': 4 * HOUR, '6h': 6 * HOUR, '8h': 8 * HOUR, '12h': 12 * HOUR,
  '1d': DAY, '3d': 3 * DAY, '1w': WEEK, '1M': 31 * DAY,
};

/** SPEC §9 chart resolutions (TradingView-style names). 8h and 3d have none. */
export const CHART_RESOLUTIONS = ['1', '3', '5', '15', '30', '60', '120', '240', '360', '720', 'D', 'W', 'M'] as const;
export type ChartResolution = (typeof CHART_RESOLUTIONS)[number];

export const INTERVAL_RESOLUTION: Partial<Record<Interval, ChartResolution>> = {
  '1m': '1', '3m': '3', '5m': '5', '15m': '15', '30m': '30',
  '1h': '60', '2h': '120', '4h': '240', '6h': '360', '12h': '720',
  '1d': 'D', '1w': 'W', '1M': 'M',
};

/** SPEC §9 "Lookback": the bars a missing interval is built from. */
export function lookbackBase(interval: Interval): '1m' | '1h' | '1d' {
  const s = INTERVAL_SECONDS[interval];
  if (s < HOUR) return '1m';
  if (s < DAY) return '1h';
  return '1d';
}

/**
 * Each exchange's own name for the intervals it serves natively (REST and WS use the same names).
 * - Binance: all 15.
 * - Bybit: no 8h, no 3d.
 * - OKX: no 8h; the UTC-aligned names (`6Hutc`, `1Dutc`, …) because plain `1D` opens at 16:00 UTC (trap 7).
 * - BitMEX: only 1m/5m/1h/1d; these are UDF `resolution` values.
 */
export const NATIVE_INTERVALS: Record<ExchangeId, Partial<Record<Interval, string>>> = {
  binance: {
    '1m': '1m', '3m': '3m', '5m': '5m', '15m': '15m', '30m': '30m', '1h': '1h', '2h': '2h', '4h': '4h',
    '6h': '6h', '8h': '8h', '12h': '12h', '1d': '1d', '3d': '3d', '1w': '1w', '1M': '1M',
  },
  bybit: {
    '1m': '1', '3m': '3', '5m': '5', '15m': '15', '30m': '30', '1h': '60', '2h': '120', '4h': '240',
    '6h': '360', '12h': '720', '1d': 'D', '1w': 'W', '1M': 'M',
  },
  okx: {
    '1m': '1m', '3m': '3m', '5m': '5m', '15m': '15m', '30m': '30m', '1h': '1H', '2h': '2H', '4h': '4H',
    '6h': '6Hutc', '12h': '12Hutc', '1d': '1Dutc', '3d': '3Dutc', '1w': '1Wutc', '1M': '1Mutc',
  },
  bitmex: { '1m': '1', '5m': '5', '1h': '60', '1d': 'D' },
};

/** How one interval is served on one exchange: natively, or aggregated from the lookback base. */
export interface IntervalPlan {
  /** The interval the wire carries (the target itself when native). */
  source: Interval;
  /** The exchange's name for `source`. */
  wire: string;
  aggregated: boolean;
}

export function planInterval(exchange: ExchangeId, interval: Interval): IntervalPlan {
  const native = NATIVE_INTERVALS[exchange][interval];
  if (native !== undefined) return { source: interval, wire: native, aggregated: false };
  const source = lookbackBase(interval);
  const wire = NATIVE_INTERVALS[exchange][source];
  if (wire === undefined) throw new Error(`${exchange} lacks the ${source} lookback base`);
  return { source, wire, aggregated: true };
}

/** Open time (UTC seconds) of the `interval` bar containing `time`. Weeks open Monday, months on the 1st. */
export function bucketStart(time: number, interval: Interval): number {
  if (interval === '1M') {
    const d = new Date(time * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) / 1000;
  }
  if (interval === '1w') return Math.floor((time - FIRST_MONDAY) / WEEK) * WEEK + FIRST_MONDAY;
  // Everything else (incl. 3d) is aligned to the Unix epoch, as Binance aligns its own 3d bars.
  const size = INTERVAL_SECONDS[interval];
  return Math.floor(time / size) * size;
}

/** Open time of the bar `steps` bars after (positive) or before (negative) the bar opening at `start`. */
export function shiftBucket(start: number, interval: Interval, steps: number): number {
  if (interval === '1M') {
    const d = new Date(start * 1000);
    return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + steps, 1) / 1000;
  }
  return start + steps * INTERVAL_SECONDS[interval];
}
