import { describe, expect, it } from 'vitest';
import { packRowPatches, type ScannerExchangeStatus, type ScannerRow } from '../../api/contracts/scanner';
import { ScannerBook } from './scanner-book';

const status: ScannerExchangeStatus = { exchange: 'bybit', state: 'ok', message: null, tickersAt: 1, atrAt: null, live: true };
const btc: ScannerRow = {
  exchange: 'bybit',
  symbol: 'BTCUSDT',
  base: 'BTC',
  quote: 'USDT',
  category: 'linear',
  last: 100,
  changePercent: 1,
  quoteVolume: 10,
  rangePercent: 2,
  fundingRate: 0.0001,
  nextFundingTime: 0,
  openInterest: 5,
  atrPercent: null,
};

describe('ScannerBook', () => {
  it('flashes the cells that changed since the last repaint, with their direction, in the next generation', () => {
    const book = new ScannerBook();
    book.applySnapshot('bybit', [btc], status);
    expect(book.commit()).toBe(1);
    const row = book.rows.get('bybit:BTCUSDT');
    expect(row?.flash).toEqual({});

    book.applyUpdate('bybit', packRowPatches([{ symbol: 'BTCUSDT', last: 101, changePercent: 0.5 }]));
    book.applyUpdate('bybit', packRowPatches([{ symbol: 'BTCUSDT', atrPercent: 1.2 }])); // null → value: changed, no direction
    expect(book.dirty).toBe(true);
    expect(book.commit()).toBe(2);
    expect(row).toMatchObject({ last: 101, changePercent: 0.5, atrPercent: 1.2, flashGen: 2, flash: { last: 'up', changePercent: 'down' }, version: 1 });

    // The next generation starts a fresh flash: only what changed in it.
    book.applyUpdate('bybit', packRowPatches([{ symbol: 'BTCUSDT', last: 99 }]));
    book.commit();
    expect(row?.flash).toEqual({ last: 'down' });
    expect(row?.flashGen).toBe(3);
  });

  it('an update with unchanged values, or for a pair it does not hold, changes nothing', () => {
    const book = new ScannerBook();
    book.applySnapshot('bybit', [btc], status);
    book.commit();
    book.applyUpdate('bybit', packRowPatches([{ symbol: 'BTCUSDT', last: 100 }, { symbol: 'NOPEUSDT', last: 1 }]));
    expect(book.dirty).toBe(false);
    expect(book.rows.size).toBe(1);
  });

  it('a snapshot replaces the exchange’s pairs; dropping an exchange forgets its rows and status', () => {
    const book = new ScannerBook();
    book.applySnapshot('bybit', [btc, { ...btc, symbol: 'ETHUSDT' }], status);
    book.applySnapshot('binance', [{ ...btc, exchange: 'binance' }], { ...status, exchange: 'binance' });
    book.applySnapshot('bybit', [{ ...btc, symbol: 'ETHUSDT' }], status);
    expect([...book.rows.keys()].sort()).toEqual(['binance:BTCUSDT', 'bybit:ETHUSDT']);
    book.dropExchange('bybit');
    expect([...book.rows.keys()]).toEqual(['binance:BTCUSDT']);
    expect([...book.statuses.keys()]).toEqual(['binance']);
  });
});
