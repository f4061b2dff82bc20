import type { SimInstrument } from './catalogue';
import { bucketStart, type BucketSpec } from './intervals';
import type { Bar, SimMarket } from './market';

/**
 * Follows the bar of one interval as time passes: reports the bar that just closed (once) and the
 * forming bar whenever a trade changed it. Every exchange's kline/candle stream is built on this.
 */
export class LiveBarTracker {
  private openTime: number | null = null;
  private lastTradeId = -1;

  constructor(
    private readonly market: SimMarket,
    readonly inst: SimInstrument,
    readonly spec: BucketSpec,
  ) {}

  poll(now: number): { closed: Bar | null; current: Bar | null } {
    const cur = bucketStart(this.spec, now);
    let closed: Bar | null = null;
    if (this.openTime !== null && this.openTime < cur) {
      closed = this.market.bar(this.inst, this.spec, this.openTime, now);
      this.lastTradeId = -1;
    }
    this.openTime = cur;
    const bar = this.market.bar(this.inst, this.spec, cur, now);
    if (!bar || bar.lastTradeId === this.lastTradeId) return { closed, current: null };
    this.lastTradeId = bar.lastTradeId;
    return { closed, current: bar };
  }
}

/**
 * The public trades printed since the previous poll (none on the first poll: streams start "now"):
 * the tape's and the paper fills' prints (market/prints.ts), each once, in time order.
 */
export { PublicTradeTracker as TradeTracker } from './prints';

/** Fires at most once per `periodMs` (ticker streams that the exchanges push on a fixed cadence). */
export class Cadence {
  private next = 0;
  constructor(private readonly periodMs: number) {}

  due(now: number): boolean {
    if (now < this.next) return false;
    this.next = now + this.periodMs;
    return true;
  }
}
