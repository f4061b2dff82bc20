import type { ExchangeId } from '../../../src/api/contracts/common';
import { cmp, dec, type Decimal } from '../../../src/api/contracts/decimal';
import type { MarketFeed } from './market-feed';

/** How old the feed's price may be for a guard (the feed sends a pair about once a second while it moves). */
const MAX_AGE_MS = 5000;

/**
 * A bracket guard's last price (break-even, trail): the jobs' ticker feed (`MarketFeed`, mainnet) while it is
 * live and heard within 5 s — as the pre-send checks read it — else the exchange's `lastPrice` over REST.
 * So a guard waiting for its break-even price asks the exchange nothing while the feed is live.
 */
export class GuardPrice {
  private streamed: { price: number; at: number } | null = null;
  private unwatch: () => void = () => undefined;
  /** REST last-price reads (tests count them). */
  restReads = 0;
  /** The last `allowsStop` said no: the guard waits for its price. */
  private waiting = false;

  constructor(
    private readonly feed: Pick<MarketFeed, 'watch' | 'lastPrice' | 'isLive'> | undefined,
    private readonly exchange: ExchangeId,
    private readonly symbol: string,
    private readonly mainnet: boolean,
    private readonly rest: () => Promise<string>,
  ) {}

  /** Watches the feed (mainnet only); `onTick` on each price of the symbol. */
  watch(onTick: () => void): void {
    if (!this.feed || !this.mainnet) return;
    this.unwatch = this.feed.watch(this.exchange, {
      onPrices: (ticks) => {
        for (const t of ticks) if (t.symbol === this.symbol) this.streamed = { price: t.price, at: Date.now() };
        onTick();
      },
    });
  }

  /** The feed's price while it is live and fresh, else null. */
  fed(): Decimal | null {
    const live = this.mainnet ? this.feed?.lastPrice(this.exchange, this.symbol, MAX_AGE_MS) : null;
    if (live) return dec(live);
    const s = this.streamed;
    // The stream's number, through its shortest text (exponents too: 1e-7 reads as 0.0000001).
    return s && Date.now() - s.at < MAX_AGE_MS && (!this.feed || this.feed.isLive(this.exchange)) ? dec(s.price) : null;
  }

  /** The exchange's own last price (REST). */
  async exchangeLast(): Promise<Decimal> {
    this.restReads += 1;
    return dec(await this.rest());
  }

  /** The feed's price, else the exchange's. */
  async last(): Promise<Decimal> {
    return this.fed() ?? this.exchangeLast();
  }

  /**
   * Whether a stop at `stop` is on the right side of the price now (below it for a long, above for a short).
   * The exchange's own price decides the first time (the feed may lag the move that filled the target) and
   * whenever the feed allows the stop or is not live (the stop must be valid there); once waiting, the feed's
   * price says "not yet" (a waiting guard asks the exchange nothing while the feed is live).
   */
  async allowsStop(stop: Decimal, long: boolean): Promise<{ ok: boolean; now: Decimal }> {
    const ok = (now: Decimal) => (long ? cmp(stop, now) < 0 : cmp(stop, now) > 0);
    const fed = this.waiting ? this.fed() : null;
    const now = fed && !ok(fed) ? fed : await this.exchangeLast();
    this.waiting = !ok(now);
    return { ok: !this.waiting, now };
  }

  close(): void {
    this.unwatch();
  }
}
