import { queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ExchangeId } from '../contracts/common';
import { instrumentListSchema, type Instrument } from '../contracts/exchanges';
import { http } from '../client';
import { retryServerErrors } from '../query-meta';
import { useAccessToken } from '../use-access-token';

export const exchangeInfoQueryKey = (exchange: ExchangeId, testnet: boolean) => ['exchanges', 'exchange-info', exchange, testnet] as const;

/**
 * `GET /v1/exchange-account/exchange-info/{id}?testnet=` (SPEC §7): the exchange's perpetuals with
 * tick size, precision, lot sizes and contract value. The whole list (no `filter`): one cached
 * answer serves every chart and the pair pickers of that exchange.
 */
export async function getExchangeInfo(exchange: ExchangeId, testnet: boolean): Promise<Instrument[]> {
  const { data } = await http.get<unknown>(`/v1/exchange-account/exchange-info/${exchange}`, { params: { testnet } });
  return instrumentListSchema.parse(data);
}

/**
 * Listings and tick sizes change rarely: kept fresh for 10 minutes. Silent: a chart works without
 * it (prices then show with the default precision) and says so itself.
 */
export const exchangeInfoQueryOptions = (exchange: ExchangeId, testnet: boolean) =>
  queryOptions({
    queryKey: exchangeInfoQueryKey(exchange, testnet),
    queryFn: () => getExchangeInfo(exchange, testnet),
    staleTime: 10 * 60_000,
    retry: retryServerErrors,
    meta: { silent: true },
  });

export function useExchangeInfo(exchange: ExchangeId, testnet: boolean) {
  const token = useAccessToken();
  return useQuery({ ...exchangeInfoQueryOptions(exchange, testnet), enabled: token !== null });
}

/** The instrument of one pair (undefined while loading or when the exchange does not list it). */
export function useInstrument(exchange: ExchangeId, symbol: string, testnet: boolean): Instrument | undefined {
  const { data } = useExchangeInfo(exchange, testnet);
  return useMemo(() => data?.find((i) => i.symbol === symbol), [data, symbol]);
}
