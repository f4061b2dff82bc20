import { useEffect, useRef } from 'react';
import type { FavoritePair } from '../../api/contracts/settings';
import { useFavoritePairs } from '../shared/use-favorite-pairs';
import { pruneFavoritesByListings, type PairListings } from './prune-favorites';

const key = (f: FavoritePair) => `${f.exchange}:${f.symbol}`;

/**
 * Saves the favourites without the pairs their exchanges no longer list, once each listing is known.
 * Reads the cache at save time, so a favourite added meanwhile is not undone. A pair is pruned at most
 * once per visit: if that save fails (and rolls back) it is not retried in a loop of failing saves.
 */
export function useFavoritesPruning(favorites: readonly FavoritePair[], listings: PairListings): void {
  const { current, replace } = useFavoritePairs();
  const attempted = useRef(new Set<string>());
  useEffect(() => {
    if (favorites.length === 0) return;
    const list = current();
    const kept = new Set(pruneFavoritesByListings(list, listings).map(key));
    const removed = list.filter((f) => !kept.has(key(f)) && !attempted.current.has(key(f)));
    if (removed.length === 0) return;
    for (const f of removed) attempted.current.add(key(f));
    const drop = new Set(removed.map(key));
    replace(list.filter((f) => !drop.has(key(f))));
  }, [favorites, listings, current, replace]);
}
