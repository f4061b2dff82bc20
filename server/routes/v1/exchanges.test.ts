import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instrument, TradingPair } from '../../../src/api/contracts/exchanges';
import { exchangeListSchema, instrumentListSchema } from '../../../src/api/contracts/exchanges';
import type { FetchLike } from '../../services/exchange-info';
import { fixture } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('exchange routes in sim mode on %s', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  it('GET /v1/exchanges: SPEC display names, binance always on, the others follow their flags, never cached', async () => {
    const res = await t.client.get('/v1/exchanges');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(exchangeListSchema.parse(res.json())).toEqual([
      { id: 'binance', name: 'binance', enabled: true },
      { id: 'bitmex', name: 'BitMEX', enabled: false },
      { id: 'bybit', name: 'bybit', enabled: false },
      { id: 'okx', name: 'okx', enabled: false },
    ]);
    await t.setFlag('FF_ENABLE_BITMEX', true);
    await t.setFlag('FF_ENABLE_OKX', true);
    const after = (await t.client.get('/v1/exchanges')).json<Array<{ id: string; enabled: boolean }>>();
    expect(after.map((e) => [e.id, e.enabled])).toEqual([
      ['binance', true],
      ['bitmex', true],
      ['bybit', false],
      ['okx', true],
    ]);
  });

  it('exchange-info: the simulator’s instruments with the fields the settings need (SPEC §4 defaults exist)', async () => {
    const res = await t.client.get('/v1/exchange-account/exchange-info/binance', { token: user.accessToken });
    expect(res.statusCode).toBe(200);
    const list = instrumentListSchema.parse(res.json());
    expect(list.length).toBeGreaterThanOrEqual(19);
    expect(list.find((i) => i.symbol === 'BTCUSDT')).toEqual({
      symbol: 'BTCUSDT',
      exchangeSymbol: 'BTCUSDT',
      base: 'BTC',
      quote: 'USDT',
      settle: 'USDT',
      category: 'linear',
      tickSize: '0.1',
      stepSize: '0.001',
      minQty: '0.001',
      maxQty: '1000',
      contractValue: '1',
      precision: 2,
      quantityPrecision: 3,
      // What the simulator's exchangeInfo states (every leg of an order is checked against it).
      limits: { minPrice: '0.10', maxPrice: '4529764', minNotional: '100', priceBand: { up: '1.0500', down: '0.9500' }, maxOrders: 200 },
    });
    const mex = (await t.client.get('/v1/exchange-account/exchange-info/bitmex', { token: user.accessToken })).json<Instrument[]>();
    expect(mex.find((i) => i.symbol === 'XBTUSD')).toMatchObject({ base: 'XBT', category: 'inverse', tickSize: '0.5', stepSize: '100', contractValue: '1', settle: 'XBT' });
    const okx = (await t.client.get('/v1/exchange-account/exchange-info/okx', { token: user.accessToken })).json<Instrument[]>();
    expect(okx.find((i) => i.symbol === 'BTCUSDT')).toMatchObject({ exchangeSymbol: 'BTC-USDT-SWAP', category: 'linear', contractValue: '0.01', base: 'BTC' });
    expect(okx.find((i) => i.symbol === 'BTCUSD')).toMatchObject({ exchangeSymbol: 'BTC-USD-SWAP', category: 'inverse', contractValue: '100' });
  });

  it('exchange-info: filter and testnet query parameters', async () => {
    const eth = (await t.client.get('/v1/exchange-account/exchange-info/binance?filter=eth&testnet=true', { token: user.accessToken })).json<Instrument[]>();
    expect(eth.map((i) => i.symbol)).toEqual(['ETHUSDT']);
    const bad = await t.client.get('/v1/exchange-account/exchange-info/binance?testnet=maybe', { token: user.accessToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ fields: Record<string, string> }>().fields).toHaveProperty('testnet');
  });

  it('exchange-info: 400 naming the field for an unknown exchange, 404 for a disabled one, 401 signed out', async () => {
    const unknown = await t.client.get('/v1/exchange-account/exchange-info/ftx', { token: user.accessToken });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ fields: Record<string, string> }>().fields).toHaveProperty('id');
    await t.setFlag('FF_ENABLE_BYBIT', false);
    const disabled = await t.client.get('/v1/exchange-account/exchange-info/bybit', { token: user.accessToken });
    expect(disabled.statusCode).toBe(404);
    expect(disabled.json()).toEqual({ message: 'bybit is not enabled' });
    expect((await t.client.get('/v1/exchange-account/exchange-info/binance')).statusCode).toBe(401);
    const expired = await t.client.get('/v1/exchange-account/exchange-info/binance', { token: t.expiredAccessToken(user) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: 'Invalid access token' });
  });

  it('all-trading-pairs: the pairs of the enabled exchanges only; 401 signed out', async () => {
    await t.setFlag('FF_ENABLE_BITMEX', true);
    await t.setFlag('FF_ENABLE_BYBIT', false);
    await t.setFlag('FF_ENABLE_OKX', false);
    const res = await t.client.get('/v1/exchanges/all-trading-pairs', { token: user.accessToken });
    expect(res.statusCode).toBe(200);
    const pairs = res.json<TradingPair[]>();
    expect(new Set(pairs.map((p) => p.exchange))).toEqual(new Set(['binance', 'bitmex']));
    expect(pairs).toContainEqual({ exchange: 'bitmex', symbol: 'XBTUSD', exchangeSymbol: 'XBTUSD', base: 'XBT', quote: 'USD', category: 'inverse' });
    expect(pairs).toContainEqual({ exchange: 'binance', symbol: 'BTCUSDT', exchangeSymbol: 'BTCUSDT', base: 'BTC', quote: 'USDT', category: 'linear' });
    expect((await t.client.get('/v1/exchanges/all-trading-pairs')).statusCode).toBe(401);
  });

  it('serves the simulator under /sim and /v1/config points the SPA at it', async () => {
    const klines = await t.client.get('/sim/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&limit=3');
    expect(klines.statusCode).toBe(200);
    expect(klines.json<unknown[]>()).toHaveLength(3);
    const config = (await t.client.get('/v1/config')).json<{ marketData: string; exchanges: Record<string, { rest: string }> }>();
    expect(config.marketData).toBe('sim');
    expect(config.exchanges.okx.rest).toBe('/sim/okx');
  });

  it('documents the market API in OpenAPI, without the simulator’s foreign formats', async () => {
    const doc = (await t.client.get('/docs/json')).json<{ paths: Record<string, unknown> }>();
    const paths = Object.keys(doc.paths);
    expect(paths).toEqual(expect.arrayContaining(['/v1/exchanges', '/v1/exchange-account/exchange-info/{id}', '/v1/exchanges/all-trading-pairs']));
    expect(paths.filter((p) => p.startsWith('/sim'))).toEqual([]);
  });
});

describe('exchange routes in live mode', () => {
  let t: TestApp;
  let user: SignedIn;
  let up = true;
  const calls: string[] = [];
  const fakeFetch: FetchLike = async (url) => {
    calls.push(url);
    if (!up) throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    return { status: 200, json: async () => fixture('binance', 'exchange-info.json') };
  };
  let clock = 0;
  beforeAll(async () => {
    t = await createTestApp('pglite', { MARKET_DATA: 'live' }, { market: { exchangeInfo: { fetch: fakeFetch, ttlMs: 1000, now: () => clock } } });
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  it('fetches from the real exchange hosts (never the simulator) and serves stale data when the exchange is down', async () => {
    const first = await t.client.get('/v1/exchange-account/exchange-info/binance', { token: user.accessToken });
    expect(first.json<Instrument[]>().map((i) => i.symbol)).toEqual(['BLZUSDT']);
    expect(calls).toEqual(['https://fapi.binance.com/fapi/v1/exchangeInfo']);
    await t.client.get('/v1/exchange-account/exchange-info/binance?testnet=true', { token: user.accessToken });
    expect(calls[1]).toBe('https://demo-fapi.binance.com/fapi/v1/exchangeInfo');
    up = false;
    clock = 5000;
    const stale = await t.client.get('/v1/exchange-account/exchange-info/binance', { token: user.accessToken });
    expect(stale.statusCode).toBe(200);
    expect(stale.json<Instrument[]>()).toHaveLength(1);
    expect((await t.client.get('/sim/binance/fapi/v1/time')).statusCode).toBe(404);
  });

  it('answers 502 naming the exchange when it is unreachable and nothing is cached', async () => {
    up = false;
    await t.setFlag('FF_ENABLE_OKX', true);
    const res = await t.client.get('/v1/exchange-account/exchange-info/okx', { token: user.accessToken });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: 'Could not load the instruments of okx: connect ECONNREFUSED' });
    const pairs = await t.client.get('/v1/exchanges/all-trading-pairs', { token: user.accessToken });
    expect(pairs.statusCode).toBe(502);
    expect(pairs.json<{ message: string }>().message).toContain('okx');
  });
});
