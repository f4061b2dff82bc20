import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { http } from '../client';
import { positionSchema, type Position } from '../contracts/trading';
import { keyPasswordHeader, NO_TRADE_KEY, tradeQueryKey, tradeReadOptions, tradeUrl, type TradeKey } from './trade-key';

/** `GET /v1/trade/{apiKeyId}/positions`. */
export async function getPositions(k: TradeKey): Promise<Position[]> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/positions'), { headers: keyPasswordHeader(k) });
  return z.array(positionSchema).parse(data);
}

export const positionsQueryOptions = (k: TradeKey) =>
  queryOptions({ queryKey: tradeQueryKey.positions(k.apiKeyId), queryFn: () => getPositions(k), ...tradeReadOptions(k.apiKeyId), meta: { errorMessage: 'Unable to load positions' } });

/** The key's open positions (idle without an unlocked key). */
export function usePositions(k: TradeKey | null) {
  return useQuery({ ...positionsQueryOptions(k ?? NO_TRADE_KEY), enabled: k !== null });
}
