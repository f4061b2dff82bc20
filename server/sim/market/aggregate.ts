import { MINUTE_MS } from './intervals';
import { tapeTradeId, type InstrumentModel, type MinuteBar, type Trade } from './model';

/**
 * A bar of any size: the exact aggregate of the minute bars (or, for the forming minute, of the
 * trades so far) it covers. Prices in ticks, volumes in lot steps; the `*Px` sums let each format
 * derive quote volume (Σ steps·price) and, for inverse contracts, base volume (Σ steps/price).
 */
export interface Agg {
  open: number;
  high: number;
  low: number;
  close: number;
  steps: number;
  stepsPx: number;
  stepsInvPx: number;
  buySteps: number;
  buyStepsPx: number;
  trades: number;
  firstTradeId: number;
  lastTradeId: number;
}

export function minuteAgg(bar: MinuteBar): Agg {
  return {
    open: bar.open,
    high: bar.high,
    low: bar.low,
    close: bar.close,
    steps: bar.steps,
    stepsPx: bar.steps * bar.avgPrice,
    stepsInvPx: bar.steps / bar.avgPrice,
    buySteps: bar.buySteps,
    buyStepsPx: bar.buySteps * bar.avgPrice,
    trades: bar.trades,
    firstTradeId: tapeTradeId(bar.minute, 0),
    lastTradeId: tapeTradeId(bar.minute, bar.trades - 1),
  };
}

/** Appends `b` (later) to `a` (earlier) without touching either; returns a new object. */
export function merge(a: Agg | null, b: Agg | null): Agg | null {
  if (!a) return b && { ...b };
  if (!b) return { ...a };
  return accumulate({ ...a }, b);
}

/** Appends `b` (later) into `acc` in place — for loops that own `acc`. */
export function accumulate(acc: Agg, b: Agg): Agg {
  if (b.high > acc.high) acc.high = b.high;
  if (b.low < acc.low) acc.low = b.low;
  acc.close = b.close;
  acc.steps += b.steps;
  acc.stepsPx += b.stepsPx;
  acc.stepsInvPx += b.stepsInvPx;
  acc.buySteps += b.buySteps;
  acc.buyStepsPx += b.buyStepsPx;
  acc.trades += b.trades;
  acc.lastTradeId = b.lastTradeId;
  return acc;
}

const fold = (acc: Agg | null, b: Agg | null): Agg | null => (acc && b ? accumulate(acc, b) : (acc ?? (b && { ...b })));

/** The forming minute: the trades up to and including `now`, with the minute's own average price for volumes. */
export function partialMinuteAgg(model: InstrumentModel, m: number, now: number): Agg | null {
  const trades: Trade[] = model.ticks(m);
  const bar = model.minute(m);
  let agg: Agg | null = null;
  for (const t of trades) {
    if (t.time > now) break;
    const buy = t.buy ? t.steps : 0;
    const one: Agg = {
      open: t.price,
      high: t.price,
      low: t.price,
      close: t.price,
      steps: t.steps,
      stepsPx: t.steps * bar.avgPrice,
      stepsInvPx: t.steps / bar.avgPrice,
      buySteps: buy,
      buyStepsPx: buy * bar.avgPrice,
      trades: 1,
      firstTradeId: t.id,
      lastTradeId: t.id,
    };
    agg = fold(agg, one);
  }
  return agg;
}

/** Bounded FIFO cache of complete hour aggregates, shared by all instruments of one market. */
export class HourCache {
  private readonly map = new Map<string, Agg | null>();
  constructor(private readonly capacity = 200_000) {}

  get(key: string): Agg | null | undefined {
    return this.map.get(key);
  }

  set(key: string, value: Agg | null): void {
    if (this.map.size >= this.capacity) {
      const first = this.map.keys().next();
      if (!first.done) this.map.delete(first.value);
    }
    this.map.set(key, value);
  }
}

/**
 * Aggregate of the complete minutes in [from, to) (ms, minute-aligned), clipped to the listing.
 * Whole hours come from (and go into) the hour cache, so deep history is computed once.
 */
export function aggregateMinutes(model: InstrumentModel, cache: HourCache, from: number, to: number): Agg | null {
  const cacheKey = `${model.inst.exchange}:${model.inst.symbol}:`;
  let m = Math.max(Math.ceil(from / MINUTE_MS), model.firstMinute);
  const end = Math.floor(to / MINUTE_MS);
  let agg: Agg | null = null;
  while (m < end) {
    const hourEnd = (Math.floor(m / 60) + 1) * 60;
    if (m % 60 === 0 && hourEnd <= end) {
      const key = cacheKey + m;
      let hour = cache.get(key);
      if (hour === undefined) {
        hour = null;
        for (const bar of model.minutes(m, 60)) hour = fold(hour, minuteAgg(bar));
        cache.set(key, hour);
      }
      agg = fold(agg, hour);
      m = hourEnd;
    } else {
      const stop = Math.min(end, hourEnd);
      for (const bar of model.minutes(m, stop - m)) agg = fold(agg, minuteAgg(bar));
      m = stop;
    }
  }
  return agg;
}
