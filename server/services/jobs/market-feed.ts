import type { ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { LiveFeed, type OpenStreamSocket } from '../scanner/streams';

/** A last price of one pair, by the product's symbol (`BTCUSDT`, `XBTUSD`). */
export interface PriceTick {
  symbol: string;
  price: number;
}

export interface MarketFeedWatcher {
  onPrices(ticks: PriceTick[], at: number): void;
  /** The exchange's stream is (true) or is not (false) delivering: a gap must be caught up from candles. */
  onLive?(live: boolean): void;
}

export interface MarketFeedOptions {
  instruments: (exchange: ExchangeId) => Promise<Instrument[]>;
  /** The exchange's public streams: live hosts, or the simulator in-process in sim mode. */
  open: OpenStreamSocket;
  now?: () => number;
  log?: { warn(obj: object, msg: string): void };
}

interface Entry {
  watchers: Set<MarketFeedWatcher>;
  /** The last price heard per symbol (an all-market stream sends a pair only when it changed). */
  last: Map<string, number>;
  /** When the stream last delivered anything (this feed's clock). */
  heardAt: number;
  feed: LiveFeed | null;
  live: boolean;
  starting: Promise<void> | null;
}

/**
 * One market-data connection per exchange for everything the server's jobs watch (issue 13): the
 * exchanges' all-market ticker streams the scanner already speaks (`scanner/streams.ts`), opened
 * with the first watcher and closed with the last — never one per job or per alert. It keeps the last
 * price of each pair (`lastPrice`): the pre-send checks of a key's account state read it when fresh.
 */
export class MarketFeed {
  private readonly entries = new Map<ExchangeId, Entry>();
  private readonly now: () => number;
  private closed = false;

  constructor(private readonly opts: MarketFeedOptions) {
    this.now = opts.now ?? Date.now;
  }

  watch(exchange: ExchangeId, watcher: MarketFeedWatcher): () => void {
    let entry = this.entries.get(exchange);
    if (!entry) {
      entry = { watchers: new Set(), last: new Map(), heardAt: 0, feed: null, live: false, starting: null };
      this.entries.set(exchange, entry);
    }
    entry.watchers.add(watcher);
    if (entry.live) watcher.onLive?.(true);
    if (!entry.feed && !entry.starting) entry.starting = this.start(exchange, entry);
    const e = entry;
    return () => {
      e.watchers.delete(watcher);
      if (e.watchers.size === 0) this.stopEntry(exchange, e);
    };
  }

  /**
   * The last price of `symbol` (the product's) while the exchange's stream is live and has delivered within
   * `maxAgeMs` (it sends a pair only when it changed, so an older price of a quiet pair is still the last),
   * else null. Only while someone watches the exchange (nothing is heard otherwise).
   */
  lastPrice(exchange: ExchangeId, symbol: string, maxAgeMs: number): number | null {
    const e = this.entries.get(exchange);
    if (!e?.live || this.now() - e.heardAt > maxAgeMs) return null;
    return e.last.get(symbol) ?? null;
  }

  isLive(exchange: ExchangeId): boolean {
    return this.entries.get(exchange)?.live ?? false;
  }

  close(): void {
    this.closed = true;
    for (const [exchange, e] of this.entries) this.stopEntry(exchange, e);
  }

  private stopEntry(exchange: ExchangeId, e: Entry): void {
    e.feed?.stop();
    e.feed = null;
    e.live = false;
    this.entries.delete(exchange);
  }

  private async start(exchange: ExchangeId, e: Entry): Promise<void> {
    try {
      const instruments = await this.opts.instruments(exchange);
      if (this.closed || this.entries.get(exchange) !== e || e.watchers.size === 0) {
        e.starting = null;
        return;
      }
      const symbolOf = new Map(instruments.map((i) => [i.exchangeSymbol, i.symbol]));
      const feed = new LiveFeed({
        exchange,
        instruments,
        open: this.opts.open,
        onPatch: (patch) => {
          e.heardAt = this.now();
          const ticks: PriceTick[] = [];
          for (const [exchangeSymbol, fields] of patch) {
            const symbol = symbolOf.get(exchangeSymbol);
            if (symbol && typeof fields.last === 'number' && Number.isFinite(fields.last) && fields.last > 0) ticks.push({ symbol, price: fields.last });
          }
          if (!ticks.length) return;
          const at = this.now();
          for (const t of ticks) e.last.set(t.symbol, t.price);
          for (const w of e.watchers) w.onPrices(ticks, at);
        },
        onLive: (live) => {
          e.live = live;
          for (const w of e.watchers) w.onLive?.(live);
        },
        onError: (err) => this.opts.log?.warn({ err, exchange }, 'Market feed error'),
      });
      e.feed = feed;
      feed.start();
    } catch (err) {
      this.opts.log?.warn({ err, exchange }, 'Market feed could not start (instrument list)');
      for (const w of e.watchers) w.onLive?.(false);
      e.starting = null;
      const retry = setTimeout(() => {
        if (!this.closed && this.entries.get(exchange) === e && e.watchers.size > 0 && !e.feed && !e.starting) e.starting = this.start(exchange, e);
      }, 10_000);
      retry.unref?.();
      return;
    }
    e.starting = null;
  }
}
