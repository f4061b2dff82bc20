import type { ExchangeId } from '../../api/contracts/common';
import { pageEndBefore, type Candle, type Interval, type MarketAdapter } from '../../api/market';
import type { ChartEngine } from '../../engine';

/** What a chart shows: one market on one interval, on mainnet or testnet. */
export interface FeedMarket {
  exchange: ExchangeId;
  symbol: string;
  interval: Interval;
  testnet: boolean;
}

export type FeedStatus = 'idle' | 'loading' | 'ready' | 'empty' | 'error';

export interface FeedEvents {
  /** Loading / ready / empty / error of the market shown now. */
  onStatus?: (status: FeedStatus) => void;
  /** A failure to show (the exchange's own words, SPEC §8). Called once per market and kind of failure. */
  onError?: (error: Error, market: FeedMarket) => void;
  /** The last price moved (the newest bar's close). */
  onPrice?: (price: number) => void;
  /** How many bars are loaded (history pages and new live bars add to it). */
  onBars?: (bars: number) => void;
}

/** The part of the engine the feed drives. */
export type FeedTarget = Pick<ChartEngine, 'setCandles' | 'prependCandles' | 'updateLastCandle'>;

/** History pages that fail are tried again after these delays; then the left edge says "no more". */
export const HISTORY_RETRY_MS = [1000, 2000, 4000] as const;

const isAbort = (error: unknown) => error instanceof Error && error.name === 'AbortError';

/**
 * Feeds one chart engine with candles: the latest page, older pages when the engine asks
 * (`needHistory`), live bars from the exchange's stream. `show(market)` switches market; everything
 * of the previous one is dropped at once — its requests aborted, its stream closed — and every
 * answer is checked against the market it was asked for, so a slow response for the old pair is
 * never applied to the new one (the stale-response guard). Plain TypeScript, unit-tested with a
 * fake adapter and engine.
 */
export class ChartFeed {
  private generation = 0;
  private market: FeedMarket | null = null;
  private abort: AbortController | null = null;
  private stopLive: (() => void) | null = null;
  private historyBusy = false;
  private historyRetry: ReturnType<typeof setTimeout> | null = null;
  private lastTime = -Infinity;
  private bars = 0;
  private reported = new Set<string>();
  private disposed = false;

  constructor(
    private readonly target: FeedTarget,
    /** The market-data adapter of an exchange (null when the app has no address for it). */
    private readonly adapterFor: (exchange: ExchangeId) => MarketAdapter | null,
    private readonly events: FeedEvents = {},
  ) {}

  /** The market shown (or being loaded). */
  current(): FeedMarket | null {
    return this.market;
  }

  /** Shows `market`: a no-op when it is already shown. */
  show(market: FeedMarket): void {
    if (this.disposed) return;
    const m = this.market;
    if (m && m.exchange === market.exchange && m.symbol === market.symbol && m.interval === market.interval && m.testnet === market.testnet) return;
    this.stop();
    this.market = { ...market };
    this.reported = new Set();
    const generation = ++this.generation;
    const adapter = this.adapterFor(market.exchange);
    this.target.setCandles([]);
    if (!adapter) {
      this.fail(new Error(`No market data address for ${market.exchange}`), 'load');
      return;
    }
    this.events.onStatus?.('loading');
    const abort = new AbortController();
    this.abort = abort;
    adapter
      .fetchCandles({ symbol: market.symbol, interval: market.interval, testnet: market.testnet, signal: abort.signal })
      .then((candles) => {
        if (generation !== this.generation) return; // a newer market is shown: drop it
        this.target.setCandles(candles);
        this.bars = candles.length;
        const last = candles[candles.length - 1];
        this.lastTime = last?.time ?? -Infinity;
        this.events.onBars?.(this.bars);
        if (last) this.events.onPrice?.(last.close);
        this.events.onStatus?.(candles.length ? 'ready' : 'empty');
        this.goLive(adapter, market, generation, last?.time);
      })
      .catch((error: unknown) => {
        if (generation !== this.generation || isAbort(error)) return;
        this.fail(error, 'load');
      });
  }

  /**
   * Loads the market shown again from the start — the panel's Retry after the exchange was
   * unreachable or had no bars. Failures are reported again (a new attempt, a new message).
   */
  reload(): void {
    const market = this.market;
    if (this.disposed || !market) return;
    this.market = null;
    this.show(market);
  }

  /** The engine's `needHistory`: loads the page before `beforeTime` (unix s of the oldest loaded bar). */
  loadHistory(beforeTime: number, attempt = 0): void {
    const market = this.market;
    if (this.disposed || !market || this.historyBusy) return;
    const adapter = this.adapterFor(market.exchange);
    if (!adapter) return;
    const generation = this.generation;
    this.historyBusy = true;
    const signal = this.abort?.signal;
    adapter
      .fetchCandles({ symbol: market.symbol, interval: market.interval, testnet: market.testnet, endTime: pageEndBefore({ time: beforeTime }), signal })
      .then((candles) => {
        if (generation !== this.generation) return;
        this.historyBusy = false;
        // Rows at or after the oldest loaded bar are dropped by the engine; an empty page means "no more".
        this.target.prependCandles(candles);
        this.bars += candles.filter((c) => c.time < beforeTime).length;
        this.events.onBars?.(this.bars);
      })
      .catch((error: unknown) => {
        if (generation !== this.generation || isAbort(error)) return;
        this.historyBusy = false;
        const delay = HISTORY_RETRY_MS[attempt];
        if (delay === undefined) {
          this.fail(error, 'history');
          this.target.prependCandles([]); // clears the loading mark; scrolling stops at the oldest bar loaded
          return;
        }
        this.historyRetry = setTimeout(() => {
          this.historyRetry = null;
          if (generation === this.generation) this.loadHistory(beforeTime, attempt + 1);
        }, delay);
      });
  }

  /** Bars loaded for the market shown. */
  barCount(): number {
    return this.bars;
  }

  dispose(): void {
    this.disposed = true;
    this.generation++;
    this.stop();
    this.market = null;
  }

  private goLive(adapter: MarketAdapter, market: FeedMarket, generation: number, since: number | undefined): void {
    this.stopLive = adapter.subscribe(
      { symbol: market.symbol, interval: market.interval, testnet: market.testnet, since },
      (candle: Candle) => {
        // The adapter closes the stream on stop; this guards frames already queued, and another symbol.
        if (generation !== this.generation || candle.symbol !== market.symbol) return;
        this.target.updateLastCandle(candle);
        if (candle.time > this.lastTime) {
          this.lastTime = candle.time;
          this.bars += 1;
          this.events.onBars?.(this.bars);
        }
        this.events.onPrice?.(candle.close);
      },
      {
        onError: (error) => {
          if (generation === this.generation) this.fail(error, 'live');
        },
      },
    );
  }

  private fail(error: unknown, kind: 'load' | 'history' | 'live'): void {
    const market = this.market;
    if (!market) return;
    const err = error instanceof Error ? error : new Error(String(error));
    if (kind === 'load') this.events.onStatus?.('error');
    // One report per failure kind and message while this market is shown: a stream that keeps
    // failing on reconnect must not toast every few seconds.
    const key = `${kind}:${err.message}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.events.onError?.(err, market);
  }

  private stop(): void {
    this.abort?.abort();
    this.abort = null;
    this.stopLive?.();
    this.stopLive = null;
    if (this.historyRetry !== null) clearTimeout(this.historyRetry);
    this.historyRetry = null;
    this.historyBusy = false;
    this.lastTime = -Infinity;
    this.bars = 0;
  }
}
