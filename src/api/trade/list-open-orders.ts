import { queryOptions, useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { z } from 'zod';
import { http } from '../client';
import { orderSchema, type Order } from '../contracts/trading';
import { useOutOfSyncVersion, useSettleOutOfSync, withOutOfSync } from './out-of-sync';
import { shareById } from './share-by-id';
import { keyPasswordHeader, NO_TRADE_KEY, tradeQueryKey, tradeReadOptions, tradeUrl, type TradeKey } from './trade-key';

/** `GET /v1/trade/{apiKeyId}/orders`: the open orders (waiting stops included). */
export async function getOpenOrders(k: TradeKey): Promise<Order[]> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/orders'), { headers: keyPasswordHeader(k) });
  return z.array(orderSchema).parse(data);
}

export const openOrdersQueryOptions = (k: TradeKey) =>
  queryOptions({ queryKey: tradeQueryKey.orders(k.apiKeyId), queryFn: () => getOpenOrders(k), ...tradeReadOptions(k.apiKeyId), structuralSharing: shareById, meta: { errorMessage: 'Unable to load orders' } });

/** The open orders, the OUT_OF_SYNC rows after them (out-of-sync.ts), each read settling what it can (idle without a key). */
export function useOpenOrders(k: TradeKey | null) {
  const apiKeyId = k?.apiKeyId ?? '';
  const version = useOutOfSyncVersion();
  // A new select whenever the OUT_OF_SYNC rows change.
  const select = useCallback((orders: Order[]) => (version >= 0 ? withOutOfSync(orders, apiKeyId) : orders), [apiKeyId, version]);
  const query = useQuery({ ...openOrdersQueryOptions(k ?? NO_TRADE_KEY), enabled: k !== null, select });
  useSettleOutOfSync(k, query.dataUpdatedAt, version);
  return query;
}
