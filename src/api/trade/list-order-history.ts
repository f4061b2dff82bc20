import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { http } from '../client';
import { orderSchema, tradeCursorPageSchema, type Order } from '../contracts/trading';
import { retryServerErrors } from '../query-meta';
import { keyPasswordHeader, tradeQueryKey, tradeUrl, type TradeKey } from './trade-key';

/** `GET /v1/trade/{apiKeyId}/orders/history`: one page of the pair's past orders, newest first (the exchange's own paging). */
export async function getOrderHistory(k: TradeKey, symbol: string, cursor?: string): Promise<{ data: Order[]; nextCursor: string | null }> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/orders/history'), { headers: keyPasswordHeader(k), params: { symbol, ...(cursor ? { cursor } : {}) } });
  return tradeCursorPageSchema(orderSchema).parse(data);
}

export const orderHistoryQueryOptions = (k: TradeKey, symbol: string) =>
  infiniteQueryOptions({
    queryKey: tradeQueryKey.history(k.apiKeyId, symbol),
    queryFn: ({ pageParam }) => getOrderHistory(k, symbol, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to load the order history' },
  });

/** The pair's past orders, a page at a time (idle while `enabled` is off). */
export function useOrderHistory(k: TradeKey, symbol: string, enabled: boolean) {
  return useInfiniteQuery({ ...orderHistoryQueryOptions(k, symbol), enabled });
}
