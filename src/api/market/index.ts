import type { ExchangeId } from '../contracts/common';
import type { ExchangeEndpoints } from '../contracts/config';
import { createBinanceDriver } from './binance';
import { createBitmexDriver } from './bitmex';
import { createBybitDriver } from './bybit';
import type { DriverDeps, ExchangeDriver } from './driver';
import type { FetchLike } from './http';
import { planInterval } from './intervals';
import { subscribeLive } from './live';
import { createOkxDriver } from './okx';
import { fetchHistory } from './pager';
import type { MarketAdapter } from './types';
import type { BackoffOptions, HeartbeatStrategy, WebSocketCtor } from './ws-connection';

export interface MarketAdapterOptions {
  /** Default `globalThis.fetch`. */
  fetch?: FetchLike;
  /** Default `globalThis.WebSocket` (Node 20 has none: tests inject the `ws` package's). */
  WebSocket?: WebSocketCtor;
  /** Default `Date.now`. */
  now?: () => number;
  /** Default `globalThis.location` when in a browser; resolves same-origin WebSocket bases. */
  location?: { protocol: string; host: string };
  backoff?: BackoffOptions;
  /** Tests shorten heartbeat timings; production uses each exchange's own. */
  heartbeat?: Partial<HeartbeatStrategy>;
}

const DRIVERS: Record<ExchangeId, (deps: DriverDeps) => ExchangeDriver> = {
  binance: createBinanceDriver,
  bybit: createBybitDriver,
  bitmex: createBitmexDriver,
  okx: createOkxDriver,
};

/**
 * The market-data adapter for one exchange. `endpoints` are the bases `GET /v1/config` serves for it
 * (live hosts, our proxies, or `/sim/<exchange>`); the adapter appends each exchange's documented paths.
 */
export function createMarketAdapter(exchange: ExchangeId, endpoints: ExchangeEndpoints, options: MarketAdapterOptions = {}): MarketAdapter {
  const now = options.now ?? (() => Date.now());
  const browserLocation = (globalThis as { location?: { protocol: string; host: string } }).location;
  const deps: DriverDeps = {
    endpoints,
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    now,
    location: options.location ?? (browserLocation?.host ? browserLocation : undefined),
  };
  const driver = DRIVERS[exchange](deps);

  return {
    exchange,
    fetchCandles(params) {
      const plan = planInterval(exchange, params.interval);
      return fetchHistory(driver.fetchPage, plan, {
        symbol: params.symbol,
        interval: params.interval,
        endTime: params.endTime,
        testnet: params.testnet,
        category: params.category,
        signal: params.signal,
      }, now());
    },
    subscribe(params, onUpdate, subscribeOptions = {}) {
      const plan = planInterval(exchange, params.interval);
      const testnet = params.testnet ?? false;
      const spec = driver.liveSpec({ symbol: params.symbol, plan, testnet, category: params.category });
      const WebSocketImpl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
      if (!WebSocketImpl) throw new Error('No WebSocket implementation: pass options.WebSocket');
      return subscribeLive(spec, driver.fetchPage, plan, {
        symbol: params.symbol, interval: params.interval, testnet, category: params.category, since: params.since,
      }, onUpdate, subscribeOptions, { WebSocket: WebSocketImpl, now, backoff: options.backoff, heartbeat: options.heartbeat });
    },
    fetchTickers(params) {
      return driver.fetchTickers(params);
    },
  };
}

export { CANDLES_STALE_TIME_MS, candlesInfiniteQueryOptions, candlesQueryKey, candlesQueryOptions } from './queries';
export { aggregateCandles, sortUnique } from './aggregate';
export { CHART_RESOLUTIONS, INTERVAL_RESOLUTION, INTERVAL_SECONDS, NATIVE_INTERVALS, bucketStart, lookbackBase, planInterval, shiftBucket } from './intervals';
export type { ChartResolution, IntervalPlan } from './intervals';
export { fromOkxInstId, inferCategory, splitPair, toOkxInstId } from './symbols';
export { resolveWsBase } from './ws-connection';
export type { WebSocketCtor, WebSocketLike } from './ws-connection';
export { INTERVALS, MarketDataError, isInterval, pageEndBefore } from './types';
export type {
  Candle, CandleListener, ConnectionStatus, ContractCategory, FetchCandlesParams, Interval, MarketAdapter,
  SubscribeOptions, SubscribeParams, Ticker24h,
} from './types';
