import type { AlertCrossing } from '../alerts';
import type { RangeBar } from './candles';

/**
 * What the alert evaluator (alert-watch.ts) judges with: an alert as watched, the crossing rule, the first bar of a
 * gap that reached it, and the queued crossings cut into firing batches.
 */

export interface Watched {
  id: string;
  userId: string;
  symbol: string;
  initialPrice: number;
  triggerPrice: number;
  updatedAt: Date;
}

export const crossed = (a: Pick<Watched, 'initialPrice' | 'triggerPrice'>, price: number) =>
  a.initialPrice < a.triggerPrice ? price >= a.triggerPrice : a.initialPrice > a.triggerPrice ? price <= a.triggerPrice : price === a.triggerPrice;

/** The first bar since `from` in which the alert's price was reached: at which price, and when. */
export function firstReach(a: Watched, bars: RangeBar[], barMs: number, from: number): { price: number; at: Date } | null {
  const setAt = a.updatedAt.getTime();
  const start = Math.max(from, setAt);
  for (const b of bars) {
    if (b.time + barMs <= start) continue;
    // The bar the alert was set in may hold prices from before it: only its close counts.
    const reached = b.time < setAt ? crossed(a, b.close) : a.initialPrice < a.triggerPrice ? b.high >= a.triggerPrice : a.initialPrice > a.triggerPrice ? b.low <= a.triggerPrice : b.low <= a.triggerPrice && b.high >= a.triggerPrice;
    if (!reached) continue;
    return { price: b.time < setAt ? b.close : a.triggerPrice, at: new Date(Math.max(b.time, setAt)) };
  }
  return null;
}

export const versionOf = (a: Pick<Watched, 'id' | 'updatedAt'>) => `${a.id}:${a.updatedAt.getTime()}`;
export interface Queued {
  a: Watched;
  crossing: AlertCrossing;
}

/** Crossings per firing transaction (a user's all in one, so this may be passed by one user's). */
export const FIRE_BATCH = 200;

/** The queued crossings in batches of about `FIRE_BATCH`, each user's in one batch, in the order queued. */
export function fireBatches(queued: Queued[]): Queued[][] {
  const byUser = new Map<string, Queued[]>();
  for (const f of queued) {
    const l = byUser.get(f.a.userId);
    if (l) l.push(f);
    else byUser.set(f.a.userId, [f]);
  }
  const out: Queued[][] = [];
  let batch: Queued[] = [];
  for (const list of byUser.values()) {
    if (batch.length && batch.length + list.length > FIRE_BATCH) {
      out.push(batch);
      batch = [];
    }
    batch.push(...list);
  }
  if (batch.length) out.push(batch);
  return out;
}
export function group(list: Iterable<Watched>): Map<string, Watched[]> {
  const out = new Map<string, Watched[]>();
  for (const a of list) {
    const l = out.get(a.symbol);
    if (l) l.push(a);
    else out.set(a.symbol, [a]);
  }
  return out;
}

