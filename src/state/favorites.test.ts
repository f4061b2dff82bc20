import { describe, expect, it } from 'vitest';
import type { FavoritePair } from '../api/contracts/settings';
import { isFavoritePair, pruneFavoritePairs, toggleFavoritePair } from './favorites';

const list: FavoritePair[] = [
  { symbol: 'BTCUSDT', exchange: 'binance' },
  { symbol: 'ETHUSDT', exchange: 'binance' },
  { symbol: 'BTCUSDT', exchange: 'bybit' },
  { symbol: 'XBTUSD', exchange: 'bitmex' },
];

describe('toggleFavoritePair', () => {
  it('adds a pair that is not a favourite, at the end', () => {
    const next = toggleFavoritePair(list, { symbol: 'SOLUSDT', exchange: 'binance' });
    expect(next).toEqual([...list, { symbol: 'SOLUSDT', exchange: 'binance' }]);
    expect(list).toHaveLength(4); // the input is not mutated
  });

  it('removes a favourite by symbol, only on its exchange', () => {
    const next = toggleFavoritePair(list, { symbol: 'BTCUSDT', exchange: 'binance' });
    expect(next).toEqual([list[1], list[2], list[3]]);
    expect(isFavoritePair(next, 'bybit', 'BTCUSDT')).toBe(true);
    expect(isFavoritePair(next, 'binance', 'BTCUSDT')).toBe(false);
  });

  it('toggling twice restores the list', () => {
    const pair = { symbol: 'DOGEUSDT', exchange: 'okx' } as const;
    expect(toggleFavoritePair(toggleFavoritePair(list, pair), pair)).toEqual(list);
  });
});

describe('pruneFavoritePairs', () => {
  it('removes the exchange’s favourites it no longer lists, keeping other exchanges’', () => {
    const next = pruneFavoritePairs(list, 'binance', ['BTCUSDT', 'SOLUSDT']);
    expect(next).toEqual([list[0], list[2], list[3]]);
  });

  it('returns the same list when nothing is delisted, so no save is needed', () => {
    expect(pruneFavoritePairs(list, 'bitmex', new Set(['XBTUSD', 'ETHUSD']))).toBe(list);
  });

  it('does not wipe favourites on an empty (failed) listing', () => {
    expect(pruneFavoritePairs(list, 'binance', [])).toBe(list);
  });
});
