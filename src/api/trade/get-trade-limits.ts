import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../client';
import { tradeLimitsStatusSchema, type TradeLimitsStatus } from '../contracts/funded-users';
import { retryServerErrors } from '../query-meta';
import { keyPasswordHeader, NO_TRADE_KEY, tradeUrl, type TradeKey } from './trade-key';

/** Under the key's `['trade', apiKeyId]`, so every trading action (which invalidates that) reads it again. */
export const tradeLimitsQueryKey = (apiKeyId: string) => ['trade', apiKeyId, 'limits'] as const;

/** `GET /v1/trade/{apiKeyId}/limits`: today's loss against the daily loss limit, and whether new risk is locked. */
export async function getTradeLimits(k: TradeKey): Promise<TradeLimitsStatus> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/limits'), { headers: keyPasswordHeader(k) });
  return tradeLimitsStatusSchema.parse(data);
}

export const tradeLimitsQueryOptions = (k: TradeKey) =>
  queryOptions({
    queryKey: tradeLimitsQueryKey(k.apiKeyId),
    queryFn: () => getTradeLimits(k),
    retry: retryServerErrors,
    // A stop can fill with nobody watching: read again every minute (the server refreshes from the exchange).
    staleTime: 15_000,
    refetchInterval: 60_000,
    // The order routes say it themselves when they refuse; a failed poll is not worth a toast.
    meta: { silent: true },
  });

/** The lock status of the unlocked key (idle without one). */
export function useTradeLimits(k: TradeKey | null) {
  return useQuery({ ...tradeLimitsQueryOptions(k ?? NO_TRADE_KEY), enabled: k !== null });
}
