import { aggregateCandles, sortUnique } from './aggregate';
import { INTERVAL_SECONDS, bucketStart, shiftBucket, type IntervalPlan } from './intervals';
import type { Candle, ContractCategory, Interval } from './types';

/** SPEC §5/§9: every candle request asks for 300 bars, and a page holds 300 bars. */
export const PAGE_SIZE = 300;

export interface NativePageRequest {
  symbol: string;
  /** The exchange's own interval name. */
  wire: string;
  /** The interval `wire` stands for. */
  source: Interval;
  /** Inclusive upper bound on open time (ms); undefined = the newest bars, forming one included. */
  endTime: number | undefined;
  /**
   * Oldest open time (ms) the caller needs. Count-based APIs (Binance, Bybit, OKX) ignore it and return
   * the 300 bars up to `endTime`; range-based ones (BitMEX UDF `from`/`to`) ask for `[startTime, endTime]`.
   */
  startTime: number;
  testnet: boolean;
  category: ContractCategory | undefined;
  signal: AbortSignal | undefined;
}

export interface NativePage {
  /** Oldest first, unique times, open times in UTC seconds. */
  candles: Candle[];
  /** Nothing older than `candles[0]` is worth asking for in this request's range. */
  exhausted: boolean;
  /** The range was empty but the exchange pointed at older data (UDF `nextTime`), in ms. */
  olderThan?: number;
}

/** One exchange's candle endpoint, reduced to "give me the native bars up to endTime". */
export type NativePageFetcher = (req: NativePageRequest) => Promise<NativePage>;

export interface HistoryRequest {
  symbol: string;
  interval: Interval;
  endTime: number | undefined;
  testnet: boolean;
  category: ContractCategory | undefined;
  signal: AbortSignal | undefined;
}

/** Bars newer than the last bar still belong to the forming bucket; a few extra requests cover clock skew. */
const EXTRA_REQUESTS = 3;
/** How many times an empty page may jump to the older data a UDF `nextTime` points at. */
const MAX_JUMPS = 3;

/**
 * One page of history for `req.interval`: up to 300 bars oldest first, every bar with open time
 * ≤ `endTime`. Missing intervals are built from the plan's lookback base, fetching base bars 300 per
 * request until the oldest of the 300 target buckets is complete, so the next page (ending 1 ms before
 * this page's oldest bar) continues without a gap or a duplicate.
 */
export async function fetchHistory(fetchPage: NativePageFetcher, plan: IntervalPlan, req: HistoryRequest, nowMs: number): Promise<Candle[]> {
  let endTime = req.endTime;
  for (let jump = 0; jump <= MAX_JUMPS; jump += 1) {
    const { candles, olderThan } = await fetchOnePage(fetchPage, plan, { ...req, endTime }, nowMs);
    if (candles.length > 0 || olderThan === undefined) return candles;
    endTime = olderThan;
  }
  return [];
}

async function fetchOnePage(
  fetchPage: NativePageFetcher,
  plan: IntervalPlan,
  req: HistoryRequest,
  nowMs: number,
): Promise<{ candles: Candle[]; olderThan?: number }> {
  const target = req.interval;
  const endSec = Math.floor((req.endTime ?? nowMs) / 1000);
  const lastBucket = bucketStart(endSec, target);
  const firstBucket = shiftBucket(lastBucket, target, -(PAGE_SIZE - 1));
  const loMs = firstBucket * 1000;
  // An aggregated bucket straddling endTime needs its base bars past endTime too (they are in the bucket).
  const hiMs = req.endTime === undefined ? undefined : plan.aggregated ? shiftBucket(lastBucket, target, 1) * 1000 - 1 : req.endTime;

  const base = { symbol: req.symbol, wire: plan.wire, source: plan.source, testnet: req.testnet, category: req.category, signal: req.signal };
  const collected: Candle[] = [];
  let cursor = hiMs;
  let olderThan: number | undefined;
  // 300 target bars need 300 × (base bars per target bar) base bars, 300 per request.
  const basePerTarget = plan.aggregated ? Math.ceil((shiftBucket(firstBucket, target, 1) - firstBucket) / INTERVAL_SECONDS[plan.source]) : 1;
  const maxRequests = basePerTarget + EXTRA_REQUESTS;
  for (let i = 0; i < maxRequests; i += 1) {
    const page = await fetchPage({ ...base, endTime: cursor, startTime: loMs });
    if (page.candles.length === 0) {
      olderThan = page.olderThan;
      break;
    }
    collected.push(...page.candles);
    const oldest = page.candles[0]!.time * 1000;
    if (!plan.aggregated || page.exhausted || oldest <= loMs) break;
    cursor = oldest - 1;
  }

  let bars = sortUnique(collected).filter((c) => hiMs === undefined || c.time * 1000 <= hiMs);
  if (plan.aggregated) {
    bars = aggregateCandles(bars.filter((c) => c.time * 1000 >= loMs), target);
  }
  if (req.endTime !== undefined) bars = bars.filter((c) => c.time * 1000 <= req.endTime!);
  const candles = bars.slice(-PAGE_SIZE);
  return candles.length > 0 ? { candles } : { candles, olderThan };
}
