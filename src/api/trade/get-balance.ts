import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../client';
import { balanceSchema, type Balance } from '../contracts/trading';
import { keyPasswordHeader, NO_TRADE_KEY, tradeQueryKey, tradeReadOptions, tradeUrl, type TradeKey } from './trade-key';

/** `GET /v1/trade/{apiKeyId}/balance`. */
export async function getBalance(k: TradeKey): Promise<Balance> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/balance'), { headers: keyPasswordHeader(k) });
  return balanceSchema.parse(data);
}

export const balanceQueryOptions = (k: TradeKey) =>
  queryOptions({ queryKey: tradeQueryKey.balance(k.apiKeyId), queryFn: () => getBalance(k), ...tradeReadOptions(k.apiKeyId), meta: { errorMessage: 'Unable to load the balance' } });

/** The key's balance (idle without an unlocked key). */
export function useBalance(k: TradeKey | null) {
  return useQuery({ ...balanceQueryOptions(k ?? NO_TRADE_KEY), enabled: k !== null });
}
