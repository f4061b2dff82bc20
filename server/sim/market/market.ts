import { aggregateMinutes, HourCache, merge, partialMinuteAgg, type Agg } from './aggregate';
import { CATALOGUE, findInstrument, type SimExchange, type SimInstrument } from './catalogue';
import { bucketEnd, bucketPrev, bucketStart, DAY_MS, HOUR_MS, MINUTE_MS, type BucketSpec } from './intervals';
import { InstrumentModel, type Trade } from './model';

export interface Bar extends Agg {
  /** Bucket open time, ms. */
  openTime: number;
  /** Exclusive end (next bucket's open), ms. */
  endTime: number;
  /** False for the bucket that contains `now` (its values move with every trade). */
  closed: boolean;
}

export interface BarQuery {
  /** Only bars with openTime ≥ from. */
  from?: number;
  /** Only bars with openTime ≤ to. */
  to?: number;
  limit: number;
  /** Which end of the window to fill from when more than `limit` bars qualify. */
  prefer: 'earliest' | 'latest';
}

export interface Stats24h {
  openTime: number;
  closeTime: number;
  open: number;
  agg: Agg;
  /** Price (ticks) one hour ago, for bybit's prevPrice1h. */
  open1h: number;
}

export interface SimMarketOptions {
  seed?: string | number;
  now?: () => number;
}

/**
 * The exchange-neutral simulated market: instruments, bars of any size, trades and 24 h stats,
 * all as pure functions of (seed, exchange, symbol, time) plus caches.
 */
export class SimMarket {
  readonly seed: string;
  readonly now: () => number;
  private readonly models = new Map<string, InstrumentModel>();
  private readonly hours = new HourCache();

  constructor(opts: SimMarketOptions = {}) {
    this.seed = String(opts.seed ?? 'crypto-terminal');
    this.now = opts.now ?? Date.now;
  }

  instrument(exchange: SimExchange, symbol: string): SimInstrument | undefined {
    return findInstrument(exchange, symbol);
  }

  instruments(exchange: SimExchange): SimInstrument[] {
    return CATALOGUE.filter((i) => i.exchange === exchange);
  }

  model(inst: SimInstrument): InstrumentModel {
    const key = `${inst.exchange}:${inst.symbol}`;
    let m = this.models.get(key);
    if (!m) {
      m = new InstrumentModel(inst, this.seed);
      this.models.set(key, m);
    }
    return m;
  }

  /** Aggregate of trading in [from, to) as seen at `now` (the forming minute up to `now`). */
  range(inst: SimInstrument, from: number, to: number, now = this.now()): Agg | null {
    const model = this.model(inst);
    const until = Math.min(to, now + 1);
    const fullEnd = Math.min(to, Math.floor(until / MINUTE_MS) * MINUTE_MS);
    let agg = aggregateMinutes(model, this.hours, from, fullEnd);
    if (fullEnd < to && fullEnd >= from) {
      const m = fullEnd / MINUTE_MS;
      if (m >= model.firstMinute) agg = merge(agg, partialMinuteAgg(model, m, now));
    }
    return agg;
  }

  /** The bar of `spec` opening at `openTime`, or null if nothing traded in it (before listing / future). */
  bar(inst: SimInstrument, spec: BucketSpec, openTime: number, now = this.now()): Bar | null {
    if (openTime > now) return null;
    const endTime = bucketEnd(spec, openTime);
    const agg = this.range(inst, openTime, endTime, now);
    return agg && { ...agg, openTime, endTime, closed: endTime <= now };
  }

  /** Bars in ascending open time. */
  bars(inst: SimInstrument, spec: BucketSpec, q: BarQuery, now = this.now()): Bar[] {
    const listed = bucketStart(spec, inst.listedAt);
    const newest = bucketStart(spec, now);
    let first = q.from === undefined ? listed : bucketStart(spec, q.from);
    if (q.from !== undefined && first < q.from) first = bucketEnd(spec, first);
    if (first < listed) first = listed;
    const last = q.to === undefined ? newest : Math.min(newest, bucketStart(spec, q.to));
    if (q.limit <= 0 || first > last) return [];
    const out: Bar[] = [];
    if (q.prefer === 'earliest') {
      for (let t = first; t <= last && out.length < q.limit; t = bucketEnd(spec, t)) {
        const b = this.bar(inst, spec, t, now);
        if (b) out.push(b);
      }
      return out;
    }
    for (let t = last; t >= first && out.length < q.limit; t = bucketPrev(spec, t)) {
      const b = this.bar(inst, spec, t, now);
      if (b) out.push(b);
    }
    return out.reverse();
  }

  /** Trades with after < time ≤ until, ascending. */
  trades(inst: SimInstrument, after: number, until: number): Trade[] {
    const model = this.model(inst);
    const out: Trade[] = [];
    const firstMinute = Math.max(model.firstMinute, Math.floor((after + 1) / MINUTE_MS));
    const lastMinute = Math.floor(until / MINUTE_MS);
    // Streams ask for the last few hundred ms; a long gap (a paused clock jump) is capped to 5 minutes.
    for (let m = Math.max(firstMinute, lastMinute - 5); m <= lastMinute; m++) {
      for (const t of model.ticks(m)) if (t.time > after && t.time <= until) out.push(t);
    }
    return out;
  }

  /** The latest trade at or before `at`. */
  lastTrade(inst: SimInstrument, at = this.now()): Trade | null {
    const model = this.model(inst);
    const m = Math.floor(at / MINUTE_MS);
    if (m < model.firstMinute) return null;
    const ticks = model.ticks(m);
    let last: Trade | null = null;
    for (const t of ticks) {
      if (t.time > at) break;
      last = t;
    }
    return last;
  }

  /** Rolling 24 h window ending at `now` (the way exchanges' 24 h tickers are computed). */
  stats24h(inst: SimInstrument, now = this.now()): Stats24h | null {
    const openTime = Math.floor((now - DAY_MS) / MINUTE_MS) * MINUTE_MS;
    const agg = this.range(inst, openTime, now + 1, now);
    if (!agg) return null;
    const model = this.model(inst);
    const hourAgo = Math.max(model.firstMinute, Math.floor((now - HOUR_MS) / MINUTE_MS));
    return { openTime, closeTime: now, open: agg.open, agg, open1h: model.priceTicksAt(hourAgo) };
  }
}
