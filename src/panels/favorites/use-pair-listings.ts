import { useMemo } from 'react';
import type { ExchangeId } from '../../api/contracts/common';
import type { TradingPair } from '../../api/contracts/exchanges';
import { useAllTradingPairs } from '../../api/exchanges/get-all-trading-pairs';
import type { PairListings } from './prune-favorites';

const NONE: PairListings = {};

/** Symbols per exchange from a `GET /v1/exchanges/all-trading-pairs` answer (exchanges it omits stay absent). */
export function listingsFrom(pairs: readonly TradingPair[]): PairListings {
  const out: Partial<Record<ExchangeId, Set<string>>> = {};
  for (const pair of pairs) (out[pair.exchange] ??= new Set()).add(pair.symbol);
  return out;
}

/**
 * The pairs each enabled exchange lists, for pruning favourites (SPEC §4). Empty until loaded, and
 * after a failed load: the server fails the whole call rather than answer without an exchange, so a
 * missing listing never prunes.
 */
export function usePairListings(): PairListings {
  const { data } = useAllTradingPairs();
  return useMemo(() => (data ? listingsFrom(data) : NONE), [data]);
}
