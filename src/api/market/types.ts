import type { ExchangeId } from '../contracts/common';

/** The 15 candle intervals of SPEC §9, in ascending length. `1m` is a minute, `1M` a month. */
export const INTERVALS = ['1m', '3m', '5m', '15m', '30m', '1h', '2h', '4h', '6h', '8h', '12h', '1d', '3d', '1w', '1M'] as const;
export type Interval = (typeof INTERVALS)[number];

export function isInterval(value: string): value is Interval {
  return (INTERVALS as readonly string[]).includes(value);
}

/**
 * One bar (SPEC §3 Candle). `time` is the bar's OPEN time in UTC seconds on every exchange (BitMEX's
 * bucket-end stamps are converted), prices and volume are numbers. `symbol` is the symbol the caller
 * asked for (our pair, e.g. `BTCUSDT`), so a panel can drop updates of a symbol it no longer shows.
 */
export interface Candle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
  symbol: string;
}

/** Linear (USDT/USDC-margined, quantity in base coin) or inverse (coin-margined, quantity in USD). */
export type ContractCategory = 'linear' | 'inverse';

export interface FetchCandlesParams {
  /** Our pair as the settings store keeps it (`BTCUSDT`, `XBTUSD`); adapters map it to the exchange's id. */
  symbol: string;
  interval: Interval;
  /**
   * Inclusive upper bound on bar open time, in **ms**. Omitted = the latest page, including the forming
   * bar. To page backwards pass `pageEndBefore(oldestCandle)` (= its open time − 1 ms).
   */
  endTime?: number;
  testnet: boolean;
  /** Bybit/OKX only; inferred from the symbol when omitted (`BTCUSD` → inverse). */
  category?: ContractCategory;
  signal?: AbortSignal;
}

export interface SubscribeParams {
  symbol: string;
  interval: Interval;
  testnet?: boolean;
  category?: ContractCategory;
  /**
   * Open time (seconds) of the newest bar the caller already has. The first connection back-fills
   * from it over REST, so bars that closed between the history fetch and the socket opening are not lost.
   */
  since?: number;
}

export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SubscribeOptions {
  /** Exchange errors on the stream or in the REST back-fill; the UI toasts `error.message` (SPEC §8). */
  onError?: (error: MarketDataError) => void;
  onStatus?: (status: ConnectionStatus) => void;
}

/** Called with the bar that changed: same `time` as the last one → replace it; later → append. */
export type CandleListener = (candle: Candle) => void;

/** 24 h statistics for the scanner and favourites. `changePercent` is in percent (−0.606 = −0.606 %). */
export interface Ticker24h {
  symbol: string;
  lastPrice: number;
  changePercent: number;
  high24h: number;
  low24h: number;
  /** In the exchange's own unit (base coin, or contracts for OKX/BitMEX/Bybit inverse). */
  volume24h: number;
}

export interface MarketAdapter {
  readonly exchange: ExchangeId;
  /** Up to 300 bars (SPEC §9 page size), oldest first, no duplicates; `[]` when history is exhausted. */
  fetchCandles(params: FetchCandlesParams): Promise<Candle[]>;
  /** Live bars over the exchange's public WebSocket; returns the unsubscribe function (frees everything). */
  subscribe(params: SubscribeParams, onUpdate: CandleListener, options?: SubscribeOptions): () => void;
  /** 24 h tickers of every perpetual the exchange lists (Bybit: linear and inverse), or of one category. */
  fetchTickers(params: { testnet: boolean; category?: ContractCategory; signal?: AbortSignal }): Promise<Ticker24h[]>;
}

/**
 * A market-data failure carrying the exchange's own words (SPEC §8: "Market data errors toast the server
 * msg"): Binance `msg`, Bybit `retMsg`, OKX `sMsg`/`msg`, BitMEX `error.message`, UDF `errmsg`.
 */
export class MarketDataError extends Error {
  override readonly name = 'MarketDataError';
  constructor(
    readonly exchange: ExchangeId,
    message: string,
    /** The exchange's error code (`-1121`, `10001`, `"51001"`), when it sent one. */
    readonly code?: string | number,
    /** HTTP status; 200 for Bybit/OKX business errors. */
    readonly status?: number,
  ) {
    super(message);
  }
}

/** `endTime` for the page before the one whose oldest bar is `oldest`. */
export function pageEndBefore(oldest: Pick<Candle, 'time'>): number {
  return oldest.time * 1000 - 1;
}
