import type { ExchangeId } from '../contracts/common';
import type { ExchangeEndpoints } from '../contracts/config';
import type { FetchLike } from './http';
import type { IntervalPlan } from './intervals';
import type { LiveSpec } from './live';
import type { NativePageFetcher } from './pager';
import type { ContractCategory, Ticker24h } from './types';

/** What the I/O half of an exchange adapter needs from its surroundings (all injectable for tests). */
export interface DriverDeps {
  endpoints: ExchangeEndpoints;
  fetch: FetchLike;
  now: () => number;
  /** The page's location, to resolve same-origin WebSocket bases (`/sim/okx`); absent outside a browser. */
  location: { protocol: string; host: string } | undefined;
}

export interface LiveTarget {
  symbol: string;
  plan: IntervalPlan;
  testnet: boolean;
  category: ContractCategory | undefined;
}

/** One exchange's wire: native candle pages, the live stream, and 24 h tickers. */
export interface ExchangeDriver {
  exchange: ExchangeId;
  fetchPage: NativePageFetcher;
  liveSpec(target: LiveTarget): LiveSpec;
  fetchTickers(params: { testnet: boolean; category?: ContractCategory; signal?: AbortSignal }): Promise<Ticker24h[]>;
}

export function restBase(deps: DriverDeps, testnet: boolean): string {
  return testnet ? deps.endpoints.restTestnet : deps.endpoints.rest;
}
