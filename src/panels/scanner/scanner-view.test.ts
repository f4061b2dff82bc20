import { describe, expect, it } from 'vitest';
import type { ExchangeId } from '../../api/contracts/common';
import { packRowPatches, SCANNER_VIEW_DEFAULTS, type ScannerRow, type ScannerView } from '../../api/contracts/scanner';
import { ScannerBook, rowKey, type BookRow } from './scanner-book';
import { frozenOrder, orderRows, parseView, watchedExchanges } from './scanner-view';

const ALL: ExchangeId[] = ['binance', 'bitmex', 'bybit', 'okx'];

function row(exchange: ExchangeId, symbol: string, over: Partial<ScannerRow> = {}): BookRow {
  const base: ScannerRow = {
    exchange,
    symbol,
    base: symbol.replace(/-?USDT?$/, ''),
    quote: symbol.endsWith('USDT') ? 'USDT' : 'USD',
    category: 'linear',
    last: 1,
    changePercent: 0,
    quoteVolume: 1000,
    rangePercent: 1,
    fundingRate: 0.0001,
    nextFundingTime: 0,
    openInterest: null,
    atrPercent: 1,
    ...over,
  };
  return { ...base, key: rowKey(exchange, symbol), version: 0, flashGen: 0, flash: {} };
}

const rows = [
  row('binance', 'BTCUSDT', { changePercent: 1.5, quoteVolume: 9e9 }),
  row('bybit', 'BTCUSDT', { changePercent: -2, quoteVolume: 5e9 }),
  row('okx', 'ETHUSDT', { changePercent: 4, quoteVolume: 2e9 }),
  row('bitmex', 'XBTUSD', { changePercent: null, quoteVolume: 3e8 }),
  row('binance', 'PEPEUSDT', { changePercent: 12, quoteVolume: 1e6 }),
];
const view = (over: Partial<ScannerView> = {}): ScannerView => ({ ...SCANNER_VIEW_DEFAULTS, ...over });
const order = (v: ScannerView, favorites: ReadonlySet<string> = new Set(), exchanges = ALL) => orderRows({ rows, view: v, exchanges, favorites }).map((r) => r.key);

describe('sort', () => {
  it('by any column, both directions; missing values last either way', () => {
    expect(order(view({ sort: 'changePercent', direction: 'desc' }))).toEqual(['binance:PEPEUSDT', 'okx:ETHUSDT', 'binance:BTCUSDT', 'bybit:BTCUSDT', 'bitmex:XBTUSD']);
    expect(order(view({ sort: 'changePercent', direction: 'asc' }))).toEqual(['bybit:BTCUSDT', 'binance:BTCUSDT', 'okx:ETHUSDT', 'binance:PEPEUSDT', 'bitmex:XBTUSD']);
    expect(order(view({ sort: 'symbol', direction: 'asc' }))).toEqual(['binance:BTCUSDT', 'bybit:BTCUSDT', 'okx:ETHUSDT', 'binance:PEPEUSDT', 'bitmex:XBTUSD']);
    expect(order(view({ sort: 'openInterest', direction: 'desc' }))[0]).toBe('binance:BTCUSDT'); // all null: pair, then exchange
  });

  it('ties break by pair then exchange, so equal values never swap between repaints', () => {
    const same = [row('okx', 'AAAUSDT'), row('binance', 'AAAUSDT'), row('bybit', 'BBBUSDT')];
    const keys = orderRows({ rows: same, view: view({ sort: 'quoteVolume' }), exchanges: ALL, favorites: new Set() }).map((r) => r.key);
    expect(keys).toEqual(['binance:AAAUSDT', 'okx:AAAUSDT', 'bybit:BBBUSDT']);
  });

  it('favourites first, then the sort', () => {
    const favorites = new Set(['bitmex:XBTUSD', 'okx:ETHUSDT']);
    expect(order(view({ sort: 'quoteVolume', favoritesFirst: true }), favorites)).toEqual(['okx:ETHUSDT', 'bitmex:XBTUSD', 'binance:BTCUSDT', 'bybit:BTCUSDT', 'binance:PEPEUSDT']);
    expect(order(view({ sort: 'quoteVolume', favoritesFirst: false }), favorites)[0]).toBe('binance:BTCUSDT');
  });
});

describe('filter', () => {
  it('exchange (the watched set), quote, minimum volume, change range, text on pair or base', () => {
    expect(order(view(), new Set(), ['bybit', 'okx'])).toEqual(['bybit:BTCUSDT', 'okx:ETHUSDT']);
    expect(order(view({ quotes: ['USD'] }))).toEqual(['bitmex:XBTUSD']);
    expect(order(view({ minVolume: 2e9 }))).toEqual(['binance:BTCUSDT', 'bybit:BTCUSDT', 'okx:ETHUSDT']);
    expect(order(view({ minChange: 0, maxChange: 5 }))).toEqual(['binance:BTCUSDT', 'okx:ETHUSDT']);
    expect(order(view({ text: ' btc ' }))).toEqual(['binance:BTCUSDT', 'bybit:BTCUSDT']);
    expect(order(view({ text: 'pepe', minVolume: 1e7 }))).toEqual([]);
  });

  it('the view’s exchanges narrow the enabled ones; none chosen (or none still enabled) = all enabled', () => {
    expect(watchedExchanges(view({ exchanges: ['okx'] }), ['binance', 'okx'])).toEqual(['okx']);
    expect(watchedExchanges(view({ exchanges: ['bitmex'] }), ['binance', 'okx'])).toEqual(['binance', 'okx']);
    expect(watchedExchanges(view(), ['binance'])).toEqual(['binance']);
  });
});

describe('hover keeps the order', () => {
  it('rows keep their places while values change; new rows join at the end; gone rows leave', () => {
    const book = new ScannerBook();
    const status = { state: 'ok', message: null, tickersAt: 1, atrAt: null, live: true } as const;
    book.applySnapshot('binance', [row('binance', 'AUSDT', { changePercent: 1 }), row('binance', 'BUSDT', { changePercent: 2 })], { ...status, exchange: 'binance' });
    const input = () => ({ rows: book.rows.values(), view: view({ sort: 'changePercent', direction: 'desc' }), exchanges: ALL, favorites: new Set<string>() });
    const before = orderRows(input());
    expect(before.map((r) => r.symbol)).toEqual(['BUSDT', 'AUSDT']);

    book.applyUpdate('binance', packRowPatches([{ symbol: 'AUSDT', changePercent: 9 }]));
    book.applySnapshot('binance', [...book.rows.values(), row('binance', 'CUSDT', { changePercent: 5 })], { ...status, exchange: 'binance' });
    const held = frozenOrder(before, book.rows, input());
    expect(held.map((r) => r.symbol)).toEqual(['BUSDT', 'AUSDT', 'CUSDT']);
    expect(held[1].changePercent).toBe(9); // the value moved, the row did not
    expect(orderRows(input()).map((r) => r.symbol)).toEqual(['AUSDT', 'CUSDT', 'BUSDT']); // once the pointer leaves

    book.applySnapshot('binance', [row('binance', 'AUSDT', { changePercent: 9 })], { ...status, exchange: 'binance' });
    expect(frozenOrder(held, book.rows, input()).map((r) => r.symbol)).toEqual(['AUSDT']);
  });
});

describe('parseView', () => {
  it('reads a stored view field by field: a bad field takes its default, the others stay', () => {
    expect(parseView(undefined)).toEqual(SCANNER_VIEW_DEFAULTS);
    expect(parseView({ sort: 'atrPercent', direction: 'sideways', text: 'sol', minVolume: -5 })).toEqual({ ...SCANNER_VIEW_DEFAULTS, sort: 'atrPercent', text: 'sol' });
  });
});
