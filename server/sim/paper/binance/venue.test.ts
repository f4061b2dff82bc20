/**
 * The Binance paper venue against the fixtures (tests/fixtures/exchanges/binance): every signed
 * request fixture is accepted exactly as written (its params, order and timestamp), and answered in
 * the shape of its response fixture; the documented error codes come back for the documented cases.
 */
import { describe, expect, it } from 'vitest';
import { fixture, manualClock, shapeOf } from '../../testing';
import { requestFixtures, simForFile } from '../testing';
import { binanceClient, type BinanceCall, type BinanceTestClient } from './testing';
import { refusalError } from './params';

/** The fixtures are signed at this time; with this seed BTCUSDT trades at 67080.9 then, so the fixture stops and take-profits are valid. */
const FIXTURE_TS = 1717200000000;
const SEED = 'paper-fixtures';

interface RequestFixture {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  params: Record<string, string>;
}

const clock = manualClock(FIXTURE_TS + 500);
const sim = simForFile({ seed: SEED, now: clock.now });
let n = 0;
/** A fresh account per test: `sim-<label>-<n>`. */
const client = (label: string) => binanceClient(sim.app, `sim-${label}-${++n}`, { seed: SEED, now: clock.now });
const withoutTrailing = <T extends Record<string, unknown>>(o: T) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'activatePrice' && k !== 'priceRate'));

describe('binance paper venue: request fixtures', () => {
  it('knows every binance request fixture (a new one must be added here)', () => {
    expect(requestFixtures('binance')).toEqual([
      'algo-order-stop-market.request.json',
      'algo-order-take-profit.request.json',
      'leverage.request.json',
      'margin-type.request.json',
      'order-limit.request.json',
      'order-market-reduceonly.request.json',
      'ws-subscribe.request.json', // public WebSocket: binance.test.ts
    ]);
  });

  it('order-limit → order-new shape (a resting GTC buy)', async () => {
    const req = fixture<RequestFixture>('binance', 'order-limit.request.json');
    const res = await client('fx').call(req.method, req.path, req.params);
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(fixture('binance', 'order-new.response.json')));
    expect(res.json()).toMatchObject({ clientOrderId: 'term-0001', status: 'NEW', price: '65000.00', origQty: '0.010', timeInForce: 'GTC', type: 'LIMIT' });
  });

  it('order-market-reduceonly → FILLED against the position it reduces', async () => {
    const c = client('fx');
    await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010', timestamp: String(FIXTURE_TS) });
    const req = fixture<RequestFixture>('binance', 'order-market-reduceonly.request.json');
    const res = await c.call(req.method, req.path, req.params);
    expect(res.status).toBe(200);
    expect(shapeOf(res.body)).toEqual(shapeOf(fixture('binance', 'order-new.response.json')));
    expect(res.json()).toMatchObject({ status: 'FILLED', executedQty: '0.010', reduceOnly: true, side: 'SELL' });
  });

  it('algo stop-market (closePosition) and take-profit → algo-order shape; listed by openAlgoOrders, not openOrders', async () => {
    const c = client('fx');
    for (const file of ['algo-order-stop-market.request.json', 'algo-order-take-profit.request.json']) {
      const req = fixture<RequestFixture>('binance', file);
      const res = await c.call(req.method, req.path, req.params);
      expect(res.status, file).toBe(200);
      expect(shapeOf(res.body)).toEqual(shapeOf(fixture('binance', 'algo-order.response.json')));
      expect(res.json()).toMatchObject({ algoType: 'CONDITIONAL', algoStatus: 'NEW', symbol: 'BTCUSDT' });
    }
    const open = await c.call('GET', '/fapi/v1/openAlgoOrders', { symbol: 'BTCUSDT' });
    expect(shapeOf(open.body)).toEqual(shapeOf(fixture('binance', 'open-algo-orders.response.json')));
    expect(open.json<Array<{ orderType: string; clientAlgoId: string }>>().map((o) => [o.orderType, o.clientAlgoId])).toEqual([
      ['STOP_MARKET', 'term-sl-0001'],
      ['TAKE_PROFIT', expect.any(String)],
    ]);
    expect((await c.call('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).body).toEqual([]);
    const cancel = await c.call('DELETE', '/fapi/v1/algoOrder', { clientAlgoId: 'term-sl-0001' });
    expect(shapeOf(cancel.body)).toEqual(shapeOf(fixture('binance', 'algo-order-cancel.response.json')));
    expect(cancel.json()).toMatchObject({ clientAlgoId: 'term-sl-0001', code: '200', msg: 'success' });
  });

  it('leverage and margin-type → their fixtures; an unchanged margin type is -4046 exactly', async () => {
    const c = client('fx');
    for (const [req, res] of [
      ['leverage.request.json', 'leverage.response.json'],
      ['margin-type.request.json', 'margin-type.response.json'],
    ]) {
      const r = fixture<RequestFixture>('binance', req);
      const out = await c.call(r.method, r.path, r.params);
      expect(out.status, req).toBe(200);
      expect(shapeOf(out.body)).toEqual(shapeOf(fixture('binance', res)));
    }
    expect((await c.call('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '10' })).body).toEqual({ leverage: 10, maxNotionalValue: '40000000', symbol: 'BTCUSDT' });
    const again = fixture<RequestFixture>('binance', 'margin-type.request.json');
    const res = await c.call(again.method, again.path, again.params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(fixture('binance', 'margin-type-no-change.error.json'));
  });
});

describe('binance paper venue: response shapes', () => {
  it('open orders, query, cancel, positionRisk v3 and balance v3 answer in the fixtures’ shapes', async () => {
    const c = client('shape');
    await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.005' });
    const placed = (await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: '60000' })).json<{ orderId: number }>();
    const open = await c.call('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' });
    // The fixture is a trailing stop; its activatePrice / priceRate only exist on trailing orders.
    const openFixture = fixture<Array<Record<string, unknown>>>('binance', 'open-orders.response.json').map(withoutTrailing);
    expect(shapeOf(open.body)).toEqual(shapeOf(openFixture));
    const query = await c.call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(placed.orderId) });
    expect(shapeOf(query.body)).toEqual(shapeOf(openFixture[0]));
    const cancel = await c.call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(placed.orderId) });
    expect(shapeOf(cancel.body)).toEqual(shapeOf(withoutTrailing(fixture<Record<string, unknown>>('binance', 'order-cancel.response.json'))));
    expect(cancel.json()).toMatchObject({ status: 'CANCELED' });
    const risk = await c.call('GET', '/fapi/v3/positionRisk');
    expect(shapeOf(risk.body)).toEqual(shapeOf(fixture('binance', 'position-risk-v3.response.json')));
    expect(risk.json<Array<Record<string, string>>>()[0]).toMatchObject({ symbol: 'BTCUSDT', positionAmt: '0.005', marginAsset: 'USDT' });
    const balance = await c.call('GET', '/fapi/v3/balance');
    expect(shapeOf(balance.body)).toEqual(shapeOf(fixture('binance', 'balance-v3.response.json')));
    const listenKey = await c.keyOnly('POST', '/fapi/v1/listenKey');
    expect(shapeOf(listenKey.body)).toEqual(shapeOf(fixture('binance', 'listen-key.response.json')));
  });
});

describe('binance paper venue: errors in Binance’s codes', () => {
  const err = (body: unknown) => (body as { code: number }).code;

  it('signature, timestamp and the -4120 algo switch answer the fixtures exactly', async () => {
    const c = client('err');
    const bad = await c.call('GET', '/fapi/v3/balance', {}, { sign: () => '0'.repeat(64) });
    expect([bad.status, bad.body]).toEqual([400, fixture('binance', 'error-signature.json')]);
    const late = await c.call('GET', '/fapi/v3/balance', { timestamp: String(FIXTURE_TS - 60_000) });
    expect([late.status, late.body]).toEqual([400, fixture('binance', 'error-timestamp.json')]);
    const stop = await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', stopPrice: '60000' });
    expect([stop.status, stop.body]).toEqual([400, fixture('binance', 'error-stop-order-switch-algo.json')]);
  });

  it('margin, tick, precision, notional, reduce-only, post-only, trigger, unknown orders, duplicates', async () => {
    const c = client('err');
    const order = (p: Record<string, string>) => c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '60000', ...p });
    expect(err((await order({ type: 'MARKET', price: '', quantity: '10' })).body)).toBe(-2019);
    expect(err((await order({ price: '60000.05' })).body)).toBe(-4014);
    expect(err((await order({ quantity: '0.0015' })).body)).toBe(-1111);
    expect(err((await order({ quantity: '0' })).body)).toBe(-4003);
    expect(err((await order({ quantity: '0.001' })).body)).toBe(-4164);
    expect(err((await order({ side: 'SELL', type: 'MARKET', price: '', reduceOnly: 'true' })).body)).toBe(-2022);
    expect(err((await order({ price: '70000', timeInForce: 'GTX' })).body)).toBe(-5022);
    expect(err((await order({ newClientOrderId: 'bad id!' })).body)).toBe(-4015);
    expect((await order({ newClientOrderId: 'dup-1' })).status).toBe(200);
    expect(err((await order({ newClientOrderId: 'dup-1' })).body)).toBe(-4116);
    expect(err((await c.call('POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', triggerPrice: '70000' })).body)).toBe(-2021);
    expect((await c.call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: '42' })).body).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect((await c.call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: '42' })).body).toEqual({ code: -2013, msg: 'Order does not exist.' });
    expect(err((await c.call('POST', '/fapi/v1/leverage', { symbol: 'BTCUSDT', leverage: '126' })).body)).toBe(-4028);
    expect(err((await c.call('POST', '/fapi/v1/marginType', { symbol: 'BTCUSDT', marginType: 'ISOLATED' })).body)).toBe(-4047);
    expect(err((await order({ symbol: 'NOPEUSDT' })).body)).toBe(-1121);
  });

  it('maps the refusals no catalogue instrument can produce (every step and min qty is a power of ten)', () => {
    expect(refusalError({ code: 'qty-step', message: '' })).toMatchObject({ code: -4023, msg: 'Qty not increased by step size.' });
    expect(refusalError({ code: 'qty-below-min', message: '' })).toMatchObject({ code: -4004, msg: 'Quantity less than min quantity.' });
  });

  it('a read-only key may read but not trade (-2015)', async () => {
    const ro = binanceClient(sim.app, 'sim-readonly-1', { seed: SEED, now: clock.now });
    expect((await ro.call('GET', '/fapi/v3/balance')).status).toBe(200);
    const res = await ro.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' });
    expect([res.status, err(res.body)]).toEqual([401, -2015]);
  });

  it("counts the documented request weight on one counter for every key (Binance's limit is the IP's)", async () => {
    const a = client('weight');
    const b = client('weight');
    const used = (res: BinanceCall) => Number(res.headers['x-mbx-used-weight-1m']);
    let before = used(await a.call('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' }));
    const steps: Array<[BinanceTestClient, Parameters<BinanceTestClient['call']>, number]> = [
      [b, ['POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '50000' }], 0],
      [a, ['GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' }], 1],
      [b, ['GET', '/fapi/v1/openOrders', {}], 40],
      [a, ['GET', '/fapi/v2/positionRisk', {}], 5],
      [b, ['GET', '/fapi/v3/account', {}], 5],
      [a, ['DELETE', '/fapi/v1/allOpenOrders', { symbol: 'BTCUSDT' }], 1],
    ];
    for (const [c, args, weight] of steps) {
      const res = await c.call(...args);
      expect([args[0], args[1], res.status, used(res) - before]).toEqual([args[0], args[1], 200, weight]);
      before = used(res);
    }
  });
});

describe('binance paper venue: accounts', () => {
  it('keeps MAINNET (/sim/binance) and TESTNET (/sim/testnet/binance) accounts of one key apart', async () => {
    const main = binanceClient(sim.app, 'sim-networks', { seed: SEED, now: clock.now });
    const test = binanceClient(sim.app, 'sim-networks', { seed: SEED, now: clock.now, prefix: '/sim/testnet/binance' });
    await test.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' });
    expect((await test.call('GET', '/fapi/v3/positionRisk')).json<unknown[]>()).toHaveLength(1);
    expect((await main.call('GET', '/fapi/v3/positionRisk')).json<unknown[]>()).toHaveLength(0);
    expect((await main.call('GET', '/fapi/v3/balance')).json<Array<{ balance: string }>>()[0].balance).toBe('10000.00000000');
  });

  it('reset-account starts the account over with 10,000 USDT', async () => {
    const c = client('reset');
    await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' });
    expect((await c.call('GET', '/fapi/v3/balance')).json<Array<{ balance: string }>>()[0].balance).not.toBe('10000.00000000');
    const res = await sim.app.inject({ method: 'POST', url: '/sim/_control/reset-account', payload: { apiKey: c.apiKey, exchange: 'binance' } });
    expect(res.json()).toEqual({ reset: true, apiKey: c.apiKey, exchange: 'binance', network: 'MAINNET' });
    expect((await c.call('GET', '/fapi/v3/balance')).json<Array<{ balance: string }>>()[0].balance).toBe('10000.00000000');
    expect((await c.call('GET', '/fapi/v3/positionRisk')).body).toEqual([]);
    expect((await sim.app.inject({ method: 'POST', url: '/sim/_control/reset-account?key=sim-x&exchange=ftx' })).statusCode).toBe(400);
    expect((await sim.app.inject({ method: 'POST', url: '/sim/_control/reset-account', payload: { exchange: 'binance' } })).statusCode).toBe(400);
  });
});

describe('binance paper venue: bad input', () => {
  it('answers every malformed parameter with a Binance error, never a 5xx', async () => {
    const c = client('fuzz');
    await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '60000' });
    const base: Record<string, string> = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: '60000', orderId: '4000000001', algoType: 'CONDITIONAL', triggerPrice: '50000', leverage: '5', marginType: 'ISOLATED', limit: '10' };
    const routes: Array<['GET' | 'POST' | 'PUT' | 'DELETE', string]> = [
      ['POST', '/fapi/v1/order'],
      ['PUT', '/fapi/v1/order'],
      ['GET', '/fapi/v1/order'],
      ['DELETE', '/fapi/v1/order'],
      ['GET', '/fapi/v1/openOrders'],
      ['GET', '/fapi/v1/allOrders'],
      ['GET', '/fapi/v1/userTrades'],
      ['DELETE', '/fapi/v1/allOpenOrders'],
      ['POST', '/fapi/v1/algoOrder'],
      ['GET', '/fapi/v1/algoOrder'],
      ['DELETE', '/fapi/v1/algoOrder'],
      ['GET', '/fapi/v1/openAlgoOrders'],
      ['GET', '/fapi/v3/positionRisk'],
      ['POST', '/fapi/v1/leverage'],
      ['POST', '/fapi/v1/marginType'],
      ['GET', '/fapi/v1/leverageBracket'],
    ];
    const bad = ['', 'abc', '-1', '1e5', '0.0000000000000000001', '99999999999999999999', '%00', 'btcusdt'];
    for (const [method, route] of routes) {
      for (const name of ['symbol', 'side', 'type', 'timeInForce', 'quantity', 'price', 'orderId', 'triggerPrice', 'leverage', 'limit', 'reduceOnly', 'closePosition', 'newClientOrderId']) {
        for (const value of bad) {
          const res = await c.call(method, route, { ...base, [name]: value });
          expect(res.status, `${method} ${route} ${name}=${value}: ${JSON.stringify(res.body)}`).toBeLessThan(500);
          if (res.status >= 400) expect(typeof (res.body as { code: unknown }).code).toBe('number');
        }
      }
    }
  });
});
