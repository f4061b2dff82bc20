import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../client';
import { fillSchema, tradeCursorPageSchema, type Fill } from '../contracts/trading';
import { retryServerErrors } from '../query-meta';
import { keyPasswordHeader, tradeQueryKey, tradeUrl, type TradeKey } from './trade-key';

/** `GET /v1/trade/{apiKeyId}/fills`: one page of the pair's fills, newest first (the exchange's own paging). */
export async function getFills(k: TradeKey, symbol: string, cursor?: string): Promise<{ data: Fill[]; nextCursor: string | null }> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/fills'), { headers: keyPasswordHeader(k), params: { symbol, ...(cursor ? { cursor } : {}) } });
  return tradeCursorPageSchema(fillSchema).parse(data);
}

export const fillsQueryOptions = (k: TradeKey, symbol: string) =>
  infiniteQueryOptions({
    queryKey: tradeQueryKey.fills(k.apiKeyId, symbol),
    queryFn: ({ pageParam }) => getFills(k, symbol, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to load the fills' },
  });

/** The pair's fills, a page at a time (idle while `enabled` is off). */
export function useFills(k: TradeKey, symbol: string, enabled: boolean) {
  return useInfiniteQuery({ ...fillsQueryOptions(k, symbol), enabled });
}
