import type { ExchangeId } from '../../api/contracts/common';
import type { ExchangeEndpoints } from '../../api/contracts/config';
import { createMarketAdapter, type MarketAdapter, type MarketAdapterOptions, type MarketDataError } from '../../api/market';

/** One market an alert watches. */
export interface MarketKey {
  exchange: ExchangeId;
  symbol: string;
}

/** The last price of a market: the close of its newest 1-minute bar (`time` = that bar's open, UTC s). */
export interface PriceTick {
  price: number;
  time: number;
}

export type PriceListener = (tick: PriceTick) => void;

/** Opens one upstream price stream; returns its stop function. */
export type OpenPriceStream = (market: MarketKey, onTick: PriceListener, onError: (error: Error) => void) => () => void;

export const marketKey = (m: MarketKey): string => `${m.exchange}:${m.symbol}`;

interface Stream {
  stop: () => void;
  listeners: Set<PriceListener>;
  last: PriceTick | undefined;
}

/**
 * Live last prices, one upstream stream per distinct market however many watchers (the alert
 * monitor, the panel's form, distance columns) want it; the stream closes with its last watcher.
 * Plain TypeScript: the monitor's logic is tested without React or sockets.
 */
export class PriceFeed {
  private readonly streams = new Map<string, Stream>();
  private disposed = false;

  constructor(
    private readonly open: OpenPriceStream,
    private readonly onError: (market: MarketKey, error: Error) => void = () => undefined,
  ) {}

  /** Calls `listener` with every new price of `market` (at once with the last one, if known). */
  watch(market: MarketKey, listener: PriceListener): () => void {
    if (this.disposed) return () => undefined;
    const key = marketKey(market);
    let stream = this.streams.get(key);
    if (!stream) {
      const created: Stream = { stop: () => undefined, listeners: new Set(), last: undefined };
      this.streams.set(key, created);
      created.stop = this.open(
        market,
        (tick) => {
          if (this.streams.get(key) !== created) return;
          created.last = tick;
          for (const l of [...created.listeners]) l(tick);
        },
        (error) => this.onError(market, error),
      );
      stream = created;
    }
    // A wrapper per call, so the same function watching twice is unwatched once per call.
    const own: PriceListener = (tick) => listener(tick);
    stream.listeners.add(own);
    if (stream.last) own(stream.last);
    const owner = stream;
    return () => {
      owner.listeners.delete(own);
      if (owner.listeners.size === 0 && this.streams.get(key) === owner) {
        this.streams.delete(key);
        owner.stop();
      }
    };
  }

  last(market: MarketKey): PriceTick | undefined {
    return this.streams.get(marketKey(market))?.last;
  }

  /** The markets with an open stream (keys `exchange:symbol`). */
  openMarkets(): string[] {
    return [...this.streams.keys()];
  }

  /** The next known price: the last one at once, else the first to arrive (rejects after `timeoutMs`). */
  nextPrice(market: MarketKey, timeoutMs = 10_000): Promise<number> {
    const known = this.last(market);
    if (known) return Promise.resolve(known.price);
    return new Promise((resolve, reject) => {
      let done = false;
      const timer = setTimeout(() => {
        done = true;
        stop();
        reject(new Error(`No price for ${market.symbol} yet: try again in a moment`));
      }, timeoutMs);
      const stop = this.watch(market, (tick) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        // Deferred: `stop` is not assigned yet if the stream answers synchronously.
        queueMicrotask(() => stop());
        resolve(tick.price);
      });
    });
  }

  dispose(): void {
    this.disposed = true;
    for (const stream of this.streams.values()) stream.stop();
    this.streams.clear();
  }
}

/**
 * Prices from the exchanges' live 1-minute candle streams (the market adapters, which reconnect and
 * back-fill on their own), on the user's network.
 */
export function adapterPriceStreams(
  endpoints: Partial<Record<ExchangeId, ExchangeEndpoints>>,
  testnet: boolean,
  options: MarketAdapterOptions = {},
): OpenPriceStream {
  const adapters = new Map<ExchangeId, MarketAdapter>();
  return (market, onTick, onError) => {
    const config = endpoints[market.exchange];
    if (!config) {
      onError(new Error(`No market data address for ${market.exchange}`));
      return () => undefined;
    }
    let adapter = adapters.get(market.exchange);
    if (!adapter) {
      adapter = createMarketAdapter(market.exchange, config, options);
      adapters.set(market.exchange, adapter);
    }
    return adapter.subscribe(
      { symbol: market.symbol, interval: '1m', testnet },
      (candle) => onTick({ price: candle.close, time: candle.time }),
      { onError: (error: MarketDataError) => onError(error) },
    );
  };
}
