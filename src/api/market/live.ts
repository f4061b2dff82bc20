import type { ExchangeId } from '../contracts/common';
import { aggregateCandles, sortUnique } from './aggregate';
import { bucketStart, type IntervalPlan } from './intervals';
import type { NativePageFetcher } from './pager';
import { MarketDataError, type Candle, type CandleListener, type ContractCategory, type Interval, type SubscribeOptions } from './types';
import { openReconnectingSocket, type BackoffOptions, type HeartbeatStrategy, type WebSocketCtor } from './ws-connection';

/** What one exchange's stream frame means for the live bar. */
export type LiveEvent =
  /** The full current state of a source-interval bar (Binance/Bybit/OKX klines, BitMEX closed bins). */
  | { kind: 'bar'; bar: Candle }
  /** One trade (BitMEX builds its forming bar from trades, trap 3). `time` in ms, `size` in volume units. */
  | { kind: 'trade'; time: number; price: number; size: number }
  | { kind: 'error'; error: MarketDataError };

/** The wire side of a subscription, supplied by each exchange adapter. */
export interface LiveSpec {
  exchange: ExchangeId;
  url: string;
  heartbeat: HeartbeatStrategy;
  isPong: (text: string) => boolean;
  subscribeMessages: string[];
  parse: (text: string) => LiveEvent[];
}

export interface LiveDeps {
  WebSocket: WebSocketCtor;
  now: () => number;
  backoff?: BackoffOptions;
  /** Tests shorten the exchange's heartbeat timings. */
  heartbeat?: Partial<HeartbeatStrategy>;
}

export interface LiveRequest {
  symbol: string;
  interval: Interval;
  testnet: boolean;
  category: ContractCategory | undefined;
  since: number | undefined;
}

/** A back-fill walks back at most this many 300-bar pages (100 h of 1-minute bars). */
const MAX_BACKFILL_REQUESTS = 20;

/**
 * Live bars for `req.interval`: the exchange stream carries `plan.source` bars (or trades), which are
 * folded into the target bar. On every (re)connection the bars since the last one emitted are fetched
 * over REST first; stream frames arriving meanwhile are held back and replayed afterwards, so updates
 * never go back in time and a disconnection leaves no hole. Returns the unsubscribe function.
 */
export function subscribeLive(
  spec: LiveSpec,
  fetchPage: NativePageFetcher,
  plan: IntervalPlan,
  req: LiveRequest,
  onUpdate: CandleListener,
  options: SubscribeOptions,
  deps: LiveDeps,
): () => void {
  const target = req.interval;
  /** Source bars of the newest target bucket, by open time (seconds). */
  let bases = new Map<number, Candle>();
  let last: Candle | undefined;
  let buffer: LiveEvent[] | undefined;
  let generation = 0;
  let disposed = false;
  /** BitMEX: trades up to this time (ms) are already inside the REST bars. */
  let tradeCutoff = -Infinity;

  const emit = (c: Candle) => {
    if (disposed || (last !== undefined && c.time < last.time)) return;
    last = c;
    onUpdate(c);
  };

  function emitBucket(start: number) {
    const inside = [...bases.values()].filter((b) => bucketStart(b.time, target) === start).sort((a, b) => a.time - b.time);
    const bar = aggregateCandles(inside, target)[0];
    if (bar) emit(bar);
  }

  function applyBar(bar: Candle) {
    const start = bucketStart(bar.time, target);
    if (last !== undefined && start < last.time) return; // a late frame for a bar already superseded
    if (last !== undefined && start > last.time) bases = new Map([...bases].filter(([t]) => bucketStart(t, target) >= start));
    bases.set(bar.time, bar);
    emitBucket(start);
  }

  function applyTrade(time: number, price: number, size: number) {
    if (time <= tradeCutoff) return;
    const baseTime = bucketStart(Math.floor(time / 1000), plan.source);
    const prev = bases.get(baseTime);
    const bar: Candle = prev
      ? { ...prev, high: Math.max(prev.high, price), low: Math.min(prev.low, price), close: price, volume: prev.volume + size }
      : { time: baseTime, open: price, high: price, low: price, close: price, volume: size, symbol: req.symbol };
    applyBar(bar);
  }

  function apply(ev: LiveEvent) {
    if (ev.kind === 'error') options.onError?.(ev.error);
    else if (ev.kind === 'bar') applyBar(ev.bar);
    else applyTrade(ev.time, ev.price, ev.size);
  }

  async function backfill(gen: number) {
    const nowMs = deps.now();
    const from = last?.time ?? req.since;
    try {
      const bars = await fetchSince(fetchPage, plan, req, from, nowMs);
      if (gen !== generation || disposed) return;
      tradeCutoff = nowMs;
      const fromBucket = last?.time ?? (from !== undefined ? bucketStart(from, target) : undefined);
      for (const bucket of aggregateCandles(bars, target)) {
        if (fromBucket === undefined || bucket.time >= fromBucket) emit(bucket);
      }
      if (last !== undefined) {
        const newest = last.time;
        bases = new Map(bars.filter((b) => bucketStart(b.time, target) === newest).map((b) => [b.time, b]));
      }
    } catch (err) {
      if (gen !== generation || disposed) return;
      options.onError?.(err instanceof MarketDataError ? err : new MarketDataError(spec.exchange, err instanceof Error ? err.message : String(err)));
    } finally {
      if (gen === generation && !disposed) {
        const held = buffer ?? [];
        buffer = undefined;
        for (const ev of held) apply(ev);
      }
    }
  }

  const socket = openReconnectingSocket({
    url: spec.url,
    WebSocket: deps.WebSocket,
    heartbeat: { ...spec.heartbeat, ...deps.heartbeat },
    backoff: deps.backoff,
    isPong: spec.isPong,
    // Nothing reaches the caller after unsubscribe, not even the final 'closed'.
    onStatus: (status) => {
      if (!disposed) options.onStatus?.(status);
    },
    onOpen: (send) => {
      for (const m of spec.subscribeMessages) send(m);
      generation += 1;
      buffer = [];
      void backfill(generation);
    },
    onMessage: (text) => {
      let events: LiveEvent[];
      try {
        events = spec.parse(text);
      } catch (err) {
        if (err instanceof MarketDataError) options.onError?.(err);
        return;
      }
      for (const ev of events) {
        if (buffer && ev.kind !== 'error') buffer.push(ev);
        else apply(ev);
      }
    },
  });

  return () => {
    if (disposed) return;
    disposed = true;
    generation += 1;
    buffer = undefined;
    bases.clear();
    socket.close();
  };
}

/**
 * Source bars with open time ≥ the target bucket of `from` (seconds), newest pages first, oldest first
 * in the result. Without `from`, the bucket of the newest bar the exchange returns (its forming bar).
 */
export async function fetchSince(
  fetchPage: NativePageFetcher,
  plan: IntervalPlan,
  req: Pick<LiveRequest, 'symbol' | 'interval' | 'testnet' | 'category'>,
  from: number | undefined,
  nowMs: number,
): Promise<Candle[]> {
  let fromMs = from !== undefined ? bucketStart(from, req.interval) * 1000 : undefined;
  const collected: Candle[] = [];
  let cursor: number | undefined;
  for (let i = 0; i < MAX_BACKFILL_REQUESTS; i += 1) {
    const startTime = fromMs ?? bucketStart(Math.floor(nowMs / 1000), req.interval) * 1000;
    const page = await fetchPage({
      symbol: req.symbol, wire: plan.wire, source: plan.source, endTime: cursor, startTime,
      testnet: req.testnet, category: req.category, signal: undefined,
    });
    if (page.candles.length === 0) break;
    collected.push(...page.candles);
    fromMs ??= bucketStart(page.candles[page.candles.length - 1]!.time, req.interval) * 1000;
    const oldest = page.candles[0]!.time * 1000;
    if (oldest <= fromMs || page.exhausted) break;
    cursor = oldest - 1;
  }
  return sortUnique(collected).filter((c) => fromMs === undefined || c.time * 1000 >= fromMs);
}
