import { describe, expect, it } from 'vitest';
import type { FavoritePair } from '../../api/contracts/settings';
import { pruneFavoritesByListings } from './prune-favorites';
import { listingsFrom } from './use-pair-listings';

const favorites: FavoritePair[] = [
  { exchange: 'binance', symbol: 'BTCUSDT' },
  { exchange: 'binance', symbol: 'LUNAUSDT' },
  { exchange: 'bitmex', symbol: 'XBTUSD' },
  { exchange: 'bybit', symbol: 'OLDUSDT' },
];

describe('pruneFavoritesByListings', () => {
  it('removes pairs their exchange no longer lists, only on exchanges whose listing is known', () => {
    const next = pruneFavoritesByListings(favorites, { binance: new Set(['BTCUSDT', 'ETHUSDT']), bitmex: new Set(['XBTUSD']) });
    expect(next).toEqual([
      { exchange: 'binance', symbol: 'BTCUSDT' },
      { exchange: 'bitmex', symbol: 'XBTUSD' },
      { exchange: 'bybit', symbol: 'OLDUSDT' },
    ]);
  });

  it('returns the same list when nothing is removed, and ignores an empty listing (a failed load)', () => {
    expect(pruneFavoritesByListings(favorites, { binance: new Set(['BTCUSDT', 'LUNAUSDT']) })).toBe(favorites);
    expect(pruneFavoritesByListings(favorites, { bybit: new Set() })).toBe(favorites);
    expect(pruneFavoritesByListings(favorites, {})).toBe(favorites);
  });
});

describe('listingsFrom', () => {
  it('groups the all-trading-pairs answer by exchange', () => {
    const pair = (exchange: 'binance' | 'okx', symbol: string) => ({ exchange, symbol, exchangeSymbol: symbol, base: 'B', quote: 'Q', category: 'linear' as const });
    expect(listingsFrom([pair('binance', 'A'), pair('okx', 'B'), pair('binance', 'C')])).toEqual({ binance: new Set(['A', 'C']), okx: new Set(['B']) });
    expect(listingsFrom([])).toEqual({});
  });
});
