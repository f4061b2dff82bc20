import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { pageEndBefore, type Candle, type FetchCandlesParams, type MarketAdapter } from './types';

/** SPEC §9: candle queries are stale after 100 ms (cache time and retries come from the app's client). */
export const CANDLES_STALE_TIME_MS = 100;

type CandleQueryParams = Omit<FetchCandlesParams, 'signal'>;

export function candlesQueryKey(exchange: MarketAdapter['exchange'], p: CandleQueryParams) {
  return ['market', 'candles', exchange, p.symbol, p.interval, p.testnet, p.category ?? null, p.endTime ?? null] as const;
}

/** One page of candles (the latest when `endTime` is omitted). */
export function candlesQueryOptions(adapter: MarketAdapter, params: CandleQueryParams) {
  return queryOptions({
    queryKey: candlesQueryKey(adapter.exchange, params),
    queryFn: ({ signal }) => adapter.fetchCandles({ ...params, signal }),
    staleTime: CANDLES_STALE_TIME_MS,
  });
}

/**
 * History as the user scrolls left: page 0 is the latest page, each next page ends 1 ms before the
 * oldest bar loaded so far; an empty page means the exchange has nothing older.
 */
export function candlesInfiniteQueryOptions(adapter: MarketAdapter, params: Omit<CandleQueryParams, 'endTime'>) {
  return infiniteQueryOptions({
    queryKey: [...candlesQueryKey(adapter.exchange, params), 'pages'] as const,
    queryFn: ({ signal, pageParam }) => adapter.fetchCandles({ ...params, endTime: pageParam, signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (lastPage: Candle[]) => (lastPage.length > 0 ? pageEndBefore(lastPage[0]!) : undefined),
    staleTime: CANDLES_STALE_TIME_MS,
  });
}
