import type { ExchangeId } from '../api/contracts/common';
import type { FavoritePair } from '../api/contracts/settings';

/**
 * Favourite pairs are server-side settings (`favoritePairs`); these pure functions compute the new
 * list, which the panel saves with `PATCH /v1/users/settings`.
 */

/**
 * Adds the pair when absent, removes it when present (SPEC §4: by symbol). The match is by symbol
 * within the pair's exchange: BTCUSDT on bybit is a different favourite from BTCUSDT on binance.
 */
export function toggleFavoritePair(list: readonly FavoritePair[], pair: FavoritePair): FavoritePair[] {
  const same = (f: FavoritePair) => f.exchange === pair.exchange && f.symbol === pair.symbol;
  return list.some(same) ? list.filter((f) => !same(f)) : [...list, { symbol: pair.symbol, exchange: pair.exchange }];
}

export function isFavoritePair(list: readonly FavoritePair[], exchange: ExchangeId, symbol: string): boolean {
  return list.some((f) => f.exchange === exchange && f.symbol === symbol);
}

/**
 * Removes `exchange`'s favourites that the exchange no longer lists (SPEC §4); other exchanges'
 * favourites are untouched. Returns the same array when nothing is removed, so callers can skip the
 * save. An empty listing is treated as "not loaded" (an outage, a filtered response) and removes
 * nothing: wiping every favourite because one request failed would be far worse than keeping a
 * delisted one a little longer.
 */
export function pruneFavoritePairs<L extends readonly FavoritePair[]>(
  list: L,
  exchange: ExchangeId,
  listedSymbols: Iterable<string>,
): L | FavoritePair[] {
  const listed = new Set(listedSymbols);
  if (listed.size === 0) return list;
  const kept = list.filter((f) => f.exchange !== exchange || listed.has(f.symbol));
  return kept.length === list.length ? list : kept;
}
