import { queryOptions, useQuery } from '@tanstack/react-query';
import { tradingPairListSchema, type TradingPair } from '../contracts/exchanges';
import { http } from '../client';
import { useAccessToken } from '../use-access-token';

export const allTradingPairsQueryKey = ['exchanges', 'all-trading-pairs'] as const;

/** `GET /v1/exchanges/all-trading-pairs`: every mainnet pair of every enabled exchange (SPEC §7). */
export async function getAllTradingPairs(): Promise<TradingPair[]> {
  const { data } = await http.get<unknown>('/v1/exchanges/all-trading-pairs');
  return tradingPairListSchema.parse(data);
}

/**
 * Listings change rarely (a new or delisted perpetual): kept for 10 minutes. Silent: the pair picker
 * and favourites pruning work without it, and a failed load must not prune anything (see contract).
 */
export const allTradingPairsQueryOptions = () =>
  queryOptions({
    queryKey: allTradingPairsQueryKey,
    queryFn: getAllTradingPairs,
    staleTime: 10 * 60_000,
    meta: { silent: true },
  });

export function useAllTradingPairs() {
  const token = useAccessToken();
  return useQuery({ ...allTradingPairsQueryOptions(), enabled: token !== null });
}
