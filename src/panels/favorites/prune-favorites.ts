import type { ExchangeId } from '../../api/contracts/common';
import type { FavoritePair } from '../../api/contracts/settings';
import { pruneFavoritePairs } from '../../state/favorites';

/** The symbols each exchange lists; an exchange that is absent (not loaded, failed) is left alone. */
export type PairListings = Partial<Record<ExchangeId, ReadonlySet<string>>>;

/**
 * Favourites without the pairs their exchange no longer lists (SPEC §4), exchange by exchange.
 * Returns the same array when nothing is removed, so the caller saves only real changes.
 */
export function pruneFavoritesByListings(favorites: readonly FavoritePair[], listings: PairListings): readonly FavoritePair[] {
  let next: readonly FavoritePair[] = favorites;
  for (const [exchange, listed] of Object.entries(listings) as [ExchangeId, ReadonlySet<string>][]) {
    next = pruneFavoritePairs(next, exchange, listed);
  }
  return next;
}
