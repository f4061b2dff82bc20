import { queryOptions, useQuery } from '@tanstack/react-query';
import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../api/contracts/common';
import type { AppConfig } from '../../api/contracts/config';
import { useConfig } from '../../api/config/get-config';
import { createMarketAdapter, type Ticker24h } from '../../api/market';
import { userSettings } from '../../state/user-settings';

/** Tickers change every trade; a 15 s refresh is plenty for a watch list and the pair picker. */
export const TICKERS_REFRESH_MS = 15_000;

export function marketTickersQueryOptions(exchange: ExchangeId, config: AppConfig | undefined, testnet: boolean) {
  return queryOptions({
    queryKey: ['market', 'tickers', exchange, testnet] as const,
    queryFn: ({ signal }) => {
      const endpoints = config?.exchanges[exchange];
      if (!endpoints) throw new Error('The exchange addresses are not loaded yet');
      return createMarketAdapter(exchange, endpoints).fetchTickers({ testnet, signal });
    },
    enabled: config !== undefined,
    staleTime: TICKERS_REFRESH_MS,
    refetchInterval: TICKERS_REFRESH_MS,
    // Suggestions and prices are extras: a failure must not toast every 15 s.
    meta: { silent: true },
  });
}

/** 24 h tickers of every pair the exchange lists (on the user's network), by symbol. */
export function useMarketTickers(exchange: ExchangeId): { tickers: ReadonlyMap<string, Ticker24h>; loaded: boolean; failed: boolean } {
  const { data: config } = useConfig();
  const { useTestnet } = useSnapshot(userSettings);
  const { data, isError } = useQuery({
    ...marketTickersQueryOptions(exchange, config, useTestnet),
    select: bySymbol,
  });
  return { tickers: data ?? EMPTY, loaded: data !== undefined, failed: isError && data === undefined };
}

const EMPTY: ReadonlyMap<string, Ticker24h> = new Map();
// Module-level so react-query memoises the selection per response instead of per render.
const bySymbol = (list: Ticker24h[]): ReadonlyMap<string, Ticker24h> => new Map(list.map((t) => [t.symbol, t]));
