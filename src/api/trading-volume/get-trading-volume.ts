import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { ExchangeId, Network } from '../contracts/common';
import { tradingVolumeResponseSchema, type TradingVolumeResponse, type TradingVolumeSort } from '../contracts/trading-volume';
import { http } from '../client';

export interface TradingVolumeFilter {
  /** Months `YYYY-MM`, inclusive. */
  from?: string;
  to?: string;
  exchange?: ExchangeId;
  network?: Network;
  userId?: string;
  sort: TradingVolumeSort;
  order: 'asc' | 'desc';
}

export const tradingVolumeQueryKey = (f: TradingVolumeFilter) => ['trading-volume', f] as const;

/** `GET /v1/trading-volume` (admin): one page of rows, plus totals and the monthly series. */
export async function getTradingVolume(f: TradingVolumeFilter, cursor?: string): Promise<TradingVolumeResponse> {
  const params: Record<string, string> = { sort: f.sort, order: f.order };
  for (const key of ['from', 'to', 'exchange', 'network', 'userId'] as const) {
    const value = f[key];
    if (value) params[key] = value;
  }
  if (cursor) params.cursor = cursor;
  const { data } = await http.get<unknown>('/v1/trading-volume', { params });
  return tradingVolumeResponseSchema.parse(data);
}

export const tradingVolumeQueryOptions = (f: TradingVolumeFilter) =>
  infiniteQueryOptions({
    queryKey: tradingVolumeQueryKey(f),
    queryFn: ({ pageParam }) => getTradingVolume(f, pageParam ?? undefined),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.meta.nextCursor,
    meta: { errorMessage: 'Unable to fetch trading volume' },
  });

export function useTradingVolume(f: TradingVolumeFilter) {
  return useInfiniteQuery({ ...tradingVolumeQueryOptions(f), placeholderData: keepPreviousData });
}
