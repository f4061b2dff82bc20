import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentSchema } from '../../src/api/contracts/exchanges';
import { fixture } from '../sim/testing';
import { parseBinanceInstruments, parseBitmexInstruments, parseBybitInstrumentsPage, parseOkxInstruments } from './exchange-info-parsers';
import { ExchangeInfoService, filterInstruments, type FetchLike } from './exchange-info';

describe('exchange-info parsers (the fixtures = the exchanges’ wire formats)', () => {
  it('binance exchangeInfo: filters → tick/step/min/max, and the limits every leg is checked against; linear, contract value 1', () => {
    const [blz] = parseBinanceInstruments(fixture('binance', 'exchange-info.json'));
    expect(blz).toEqual({
      symbol: 'BLZUSDT',
      exchangeSymbol: 'BLZUSDT',
      base: 'BLZ',
      quote: 'USDT',
      settle: 'USDT',
      category: 'linear',
      tickSize: '0.0001',
      stepSize: '1',
      minQty: '1',
      maxQty: '10000000',
      contractValue: '1',
      precision: 5,
      quantityPrecision: 0,
      // The exchange's own text: PRICE_FILTER, MIN_NOTIONAL, PERCENT_PRICE, MAX_NUM_ORDERS (no MAX_NUM_ALGO_ORDERS in the fixture).
      limits: { minPrice: '0.0001', maxPrice: '300', minNotional: '5.0', priceBand: { up: '1.1500', down: '0.8500' }, maxOrders: 200 },
    });
    expect(instrumentSchema.parse(blz)).toEqual(blz);
  });

  it('bybit instruments-info page: BTCUSDT with priceScale, qtyStep, and the (empty) next cursor', () => {
    const { items, nextPageCursor } = parseBybitInstrumentsPage(fixture('bybit', 'instruments-linear.doc.json'));
    expect(nextPageCursor).toBe('');
    expect(items[0]).toMatchObject({ symbol: 'BTCUSDT', tickSize: '0.1', stepSize: '0.001', minQty: '0.001', maxQty: '1190', precision: 2, quantityPrecision: 3, category: 'linear', settle: 'USDT' });
    expect(() => parseBybitInstrumentsPage(fixture('bybit', 'error-rate-limit.json'))).toThrow(/Too many visits/);
  });

  it('bitmex instrument/active: XBTUSD inverse, 1 USD contracts in lots of 100, tick 0.5, settles in XBT', () => {
    const [xbt] = parseBitmexInstruments(fixture('bitmex', 'instrument-active.json'));
    expect(xbt).toEqual({
      symbol: 'XBTUSD',
      exchangeSymbol: 'XBTUSD',
      base: 'XBT',
      quote: 'USD',
      settle: 'XBT',
      category: 'inverse',
      tickSize: '0.5',
      stepSize: '100',
      minQty: '100',
      maxQty: '10000000',
      contractValue: '1',
      precision: 1,
      quantityPrecision: 0,
      limits: { maxPrice: '1000000', maxOrders: 200, maxLeverage: 100 }, // 1 ÷ initMargin 0.01
    });
  });

  it('okx SWAP instruments: instId ↔ product symbol, ctVal as contract value', () => {
    const list = parseOkxInstruments(fixture('okx', 'instruments-swap.json'));
    expect(list.map((i) => [i.symbol, i.exchangeSymbol, i.category, i.contractValue, i.settle])).toEqual([
      ['BTCUSDT', 'BTC-USDT-SWAP', 'linear', '0.01', 'USDT'],
      ['BTCUSD', 'BTC-USD-SWAP', 'inverse', '100', 'BTC'],
    ]);
    expect(list[0]).toMatchObject({ base: 'BTC', quote: 'USDT', tickSize: '0.1', stepSize: '0.01', minQty: '0.01', precision: 1, quantityPrecision: 2 });
    expect(() => parseOkxInstruments(fixture('okx', 'error-instrument-not-exist.json'))).toThrow(/51001/);
  });

  it('keeps every amount exact text: BitMEX floats and multipliers, OKX and Bybit digits as written', () => {
    const row = { symbol: 'XBTUSDT', state: 'Open', typ: 'FFWCSX', underlying: 'XBT', quoteCurrency: 'USDT', settlCurrency: 'USDt', lotSize: 1000, maxOrderQty: 10000000, isQuanto: false };
    const [linear] = parseBitmexInstruments([{ ...row, tickSize: 0.1, multiplier: 1, underlyingToPositionMultiplier: 1000000, isInverse: false }]);
    // 1 ÷ 1e6 XBT per contract, exactly; a float would have been 0.0000010000000000000002 somewhere down the line.
    expect(linear).toMatchObject({ tickSize: '0.1', stepSize: '1000', minQty: '1000', contractValue: '0.000001' });
    const [tiny] = parseBitmexInstruments([{ ...row, symbol: 'PEPEUSDT', tickSize: 1e-9, multiplier: 1, underlyingToPositionMultiplier: 3, isInverse: false }]);
    expect(tiny).toMatchObject({ tickSize: '0.000000001', contractValue: '0.333333333333333333', precision: 9 });
    // A quanto (ETHUSD, priced in USD, settled in XBT): linear, 100 satoshi per contract per USD → 0.000001 XBT.
    const [quanto] = parseBitmexInstruments([{ ...row, symbol: 'ETHUSD', underlying: 'ETH', quoteCurrency: 'USD', settlCurrency: 'XBt', tickSize: 0.05, lotSize: 1, multiplier: 100, underlyingToPositionMultiplier: null, isQuanto: true, isInverse: false }]);
    expect(quanto).toMatchObject({ symbol: 'ETHUSD', category: 'linear', quanto: true, settle: 'XBT', contractValue: '0.000001', tickSize: '0.05', stepSize: '1' });
    expect(linear.quanto).toBeUndefined();
    const okx = parseOkxInstruments({ code: '0', msg: '', data: [{ instId: 'SHIB-USDT-SWAP', instType: 'SWAP', state: 'live', ctType: 'linear', ctVal: '1000000', settleCcy: 'USDT', tickSz: '0.000000001', lotSz: '1', minSz: '1', maxLmtSz: '100000000', instFamily: 'SHIB-USDT' }] });
    expect(okx[0]).toMatchObject({ tickSize: '0.000000001', contractValue: '1000000', maxQty: '100000000' });
    // An amount that is no number leaves the instrument out rather than guessing it.
    expect(parseOkxInstruments({ code: '0', msg: '', data: [{ instId: 'X-USDT-SWAP', instType: 'SWAP', state: 'live', ctType: 'linear', ctVal: 'abc', settleCcy: 'USDT', tickSz: '0.1', lotSz: '1', minSz: '1', maxLmtSz: '1' }] })).toEqual([]);
  });

  it('rejects bodies that are not the documented shape', () => {
    expect(() => parseBinanceInstruments({ hello: 'world' })).toThrow(/unexpected response/);
    expect(() => parseBitmexInstruments(fixture('bitmex', 'error-not-found.json'))).toThrow(/unexpected response/);
  });

  it('filters on symbol, exchange symbol or base, case-insensitively', () => {
    const list = parseOkxInstruments(fixture('okx', 'instruments-swap.json'));
    expect(filterInstruments(list, 'usdt').map((i) => i.symbol)).toEqual(['BTCUSDT']);
    expect(filterInstruments(list, 'swap')).toHaveLength(2);
    expect(filterInstruments(list, '  ')).toHaveLength(2);
  });
});

/** A scripted upstream: each call answers from `reply` (JSON), counting calls. */
function scripted(reply: (url: string) => unknown | Promise<unknown>) {
  const calls: string[] = [];
  const fetch: FetchLike = async (url) => {
    calls.push(url);
    const body = await reply(url);
    if (body instanceof Error) throw body;
    return { status: 200, json: async () => body };
  };
  return { calls, fetch };
}

const base = () => ({ base: 'https://ex' });

describe('ExchangeInfoService cache', () => {
  it('caches for the TTL, then serves the stale list at once while one background refresh runs', async () => {
    let t = 0;
    let version = 0;
    let release: () => void = () => undefined;
    const up = scripted(async () => {
      version++;
      if (version === 2) await new Promise<void>((r) => (release = r));
      return { ...fixture<{ symbols: Array<{ symbol: string }> }>('binance', 'exchange-info.json'), symbols: [{ ...fixture<{ symbols: Array<Record<string, unknown>> }>('binance', 'exchange-info.json').symbols[0], symbol: `V${version}USDT` }] };
    });
    const svc = new ExchangeInfoService({ fetch: up.fetch, base, ttlMs: 1000, now: () => t });
    expect((await svc.instruments('binance'))[0].symbol).toBe('V1USDT');
    t = 500;
    expect((await svc.instruments('binance'))[0].symbol).toBe('V1USDT');
    expect(up.calls).toHaveLength(1);
    t = 1500;
    // stale: answered immediately from the cache although the upstream is now slow
    expect((await svc.instruments('binance'))[0].symbol).toBe('V1USDT');
    expect((await svc.instruments('binance'))[0].symbol).toBe('V1USDT');
    await new Promise((r) => setTimeout(r, 10));
    expect(up.calls).toHaveLength(2); // one refresh, not one per request
    release();
    await new Promise((r) => setTimeout(r, 10));
    expect((await svc.instruments('binance'))[0].symbol).toBe('V2USDT');
    expect(up.calls[0]).toBe('https://ex/fapi/v1/exchangeInfo');
  });

  it('shares one load between concurrent first callers; mainnet and testnet are separate', async () => {
    const up = scripted(() => fixture('okx', 'instruments-swap.json'));
    const hosts = (_e: string, testnet: boolean) => ({ base: testnet ? 'https://demo' : 'https://live', headers: testnet ? { 'x-simulated-trading': '1' } : ({} as Record<string, string>) });
    const svc = new ExchangeInfoService({ fetch: up.fetch, base: hosts });
    await Promise.all([svc.instruments('okx'), svc.instruments('okx'), svc.instruments('okx', true)]);
    expect(up.calls.sort()).toEqual(['https://demo/api/v5/public/instruments?instType=SWAP', 'https://live/api/v5/public/instruments?instType=SWAP']);
  });

  it('follows bybit cursors through every page of both categories (trap 19)', async () => {
    const page = fixture<{ result: { list: Array<Record<string, unknown>> } }>('bybit', 'instruments-linear.doc.json');
    const item = (symbol: string, contractType = 'LinearPerpetual') => ({ ...page.result.list[0], symbol, contractType });
    const up = scripted((url) => {
      const u = new URL(url);
      const cursor = u.searchParams.get('cursor');
      const inverse = u.searchParams.get('category') === 'inverse';
      if (inverse) return { retCode: 0, retMsg: 'OK', result: { category: 'inverse', list: [item('BTCUSD', 'InversePerpetual')], nextPageCursor: '' } };
      if (!cursor) return { retCode: 0, retMsg: 'OK', result: { category: 'linear', list: [item('AUSDT'), item('BUSDT')], nextPageCursor: 'p2' } };
      return { retCode: 0, retMsg: 'OK', result: { category: 'linear', list: [item('CUSDT'), item('DUSDT', 'LinearFutures')], nextPageCursor: '' } };
    });
    const svc = new ExchangeInfoService({ fetch: up.fetch, base });
    const list = await svc.instruments('bybit');
    expect(list.map((i) => `${i.symbol}:${i.category}`)).toEqual(['AUSDT:linear', 'BUSDT:linear', 'CUSDT:linear', 'BTCUSD:inverse']);
    expect(up.calls).toHaveLength(3);
    expect(up.calls[1]).toContain('cursor=p2');
  });

  it('with nothing cached, a failure is a 502 naming the exchange; with a cached list, the stale list is served', async () => {
    let t = 0;
    let fail = true;
    const up = scripted(() => (fail ? new TypeError('fetch failed', { cause: new Error('getaddrinfo ENOTFOUND www.bitmex.com') }) : fixture('bitmex', 'instrument-active.json')));
    const errors: unknown[] = [];
    const svc = new ExchangeInfoService({ fetch: up.fetch, base, ttlMs: 100, now: () => t, onRefreshError: (_e, _n, err) => errors.push(err) });
    await expect(svc.instruments('bitmex')).rejects.toMatchObject({ status: 502, message: 'Could not load the instruments of BitMEX: getaddrinfo ENOTFOUND www.bitmex.com' });
    fail = false;
    expect(await svc.instruments('bitmex')).toHaveLength(1);
    fail = true;
    t = 1000;
    expect(await svc.instruments('bitmex')).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 10));
    expect(errors).toHaveLength(1);
    expect(await svc.instruments('bitmex')).toHaveLength(1);
  });

  it('shares lists between instances through the shared store (Redis): one exchange call for two instances', async () => {
    const store = new Map<string, string>();
    const shared = { get: async (k: string) => store.get(k) ?? null, set: async (k: string, v: string) => void store.set(k, v) };
    let t = 0;
    const upA = scripted(() => fixture('okx', 'instruments-swap.json'));
    const upB = scripted(() => new Error('instance B must not call the exchange'));
    const a = new ExchangeInfoService({ fetch: upA.fetch, base, shared, ttlMs: 1000, now: () => t });
    const b = new ExchangeInfoService({ fetch: upB.fetch, base, shared, ttlMs: 1000, now: () => t });
    expect(await a.instruments('okx')).toHaveLength(2);
    expect(await b.instruments('okx')).toHaveLength(2);
    expect(upA.calls).toHaveLength(1);
    expect(upB.calls).toHaveLength(0);
    expect([...store.keys()]).toEqual(['ct:exchange-info:okx:mainnet']);
    // past the TTL with the exchange down: a fresh instance still answers from the stale shared list
    t = 5000;
    const c = new ExchangeInfoService({ fetch: upB.fetch, base, shared, ttlMs: 1000, now: () => t });
    expect(await c.instruments('okx')).toHaveLength(2);
    expect(upB.calls).toHaveLength(1);
  });

  it('ignores a broken shared store and asks the exchange', async () => {
    const shared = { get: async () => Promise.reject(new Error('redis down')), set: async () => Promise.reject(new Error('redis down')) };
    const up = scripted(() => fixture('okx', 'instruments-swap.json'));
    const svc = new ExchangeInfoService({ fetch: up.fetch, base, shared });
    expect(await svc.instruments('okx')).toHaveLength(2);
  });

  describe('over HTTP (a local fake exchange)', () => {
    let server: Server;
    let url = '';
    /** Answers the slow fake never sends (ended when the suite is done). */
    const hung: ServerResponse[] = [];
    beforeAll(async () => {
      server = createServer((req, res) => {
        if (req.url?.startsWith('/slow')) return void hung.push(res);
        if (req.url === '/err/api/v1/instrument/active') {
          res.writeHead(503, { 'content-type': 'application/json' });
          return void res.end(JSON.stringify(fixture('bitmex', 'error-overloaded.json')));
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(fixture('bitmex', 'instrument-active.json')));
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const res of hung) res.end('{}');
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    });

    const realFetch: FetchLike = (u, init) => fetch(u, init);

    it('fetches and parses a real HTTP answer', async () => {
      const svc = new ExchangeInfoService({ fetch: realFetch, base: () => ({ base: url }) });
      expect((await svc.instruments('bitmex'))[0].symbol).toBe('XBTUSD');
    });

    it('times out a slow exchange (502 "no answer in time") instead of hanging', async () => {
      const svc = new ExchangeInfoService({ fetch: realFetch, base: () => ({ base: `${url}/slow` }), timeoutMs: 200 });
      // The fake never answers: only the service's own 0.2 s timeout ends the wait (without it the
      // test hangs until vitest fails it). A late 200 with '{}' would be a format error, not this message.
      await expect(svc.instruments('bitmex')).rejects.toMatchObject({ status: 502, message: 'Could not load the instruments of BitMEX: no answer in time' });
    });

    it('treats an HTTP error status as unavailable', async () => {
      const svc = new ExchangeInfoService({ fetch: realFetch, base: () => ({ base: `${url}/err` }) });
      await expect(svc.instruments('bitmex')).rejects.toMatchObject({ status: 502, message: 'Could not load the instruments of BitMEX: HTTP 503' });
    });
  });
});
