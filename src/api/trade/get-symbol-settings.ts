import { queryOptions, useQuery } from '@tanstack/react-query';
import { http } from '../client';
import { symbolSettingsSchema, type SymbolSettings } from '../contracts/trading';
import { retryServerErrors } from '../query-meta';
import { keyPasswordHeader, NO_TRADE_KEY, tradeQueryKey, tradeUrl, type TradeKey } from './trade-key';

/** `GET symbol-settings`: the symbol's leverage and margin mode as the exchange holds them for the key, position or not (issue 22). */
export async function getSymbolSettings(k: TradeKey, symbol: string): Promise<SymbolSettings> {
  const { data } = await http.get<unknown>(tradeUrl(k, '/symbol-settings'), { headers: keyPasswordHeader(k), params: { symbol } });
  return symbolSettingsSchema.parse(data);
}

export const symbolSettingsQueryOptions = (k: TradeKey, symbol: string) =>
  queryOptions({
    queryKey: tradeQueryKey.symbolSettings(k.apiKeyId, symbol),
    queryFn: () => getSymbolSettings(k, symbol),
    retry: retryServerErrors,
    staleTime: 5_000,
    refetchInterval: 60_000,
    meta: { errorMessage: 'Unable to read the leverage and margin mode' },
  });

/**
 * The leverage and margin mode the exchange will use for the symbol's next order, with or without a
 * position (idle without a key or a symbol). Read again after every trading action of the key
 * (`useTradeAction` invalidates `['trade', apiKeyId]`: `PUT leverage` and `PUT margin-mode` too), and
 * every minute for a change made elsewhere (the exchange's own site, another device).
 */
export function useSymbolSettings(k: TradeKey | null, symbol: string | null) {
  return useQuery({ ...symbolSettingsQueryOptions(k ?? NO_TRADE_KEY, symbol ?? ''), enabled: k !== null && !!symbol });
}
