/**
 * The OKX v5 paper venue against the fixtures (tests/fixtures/exchanges/okx): every trading request
 * fixture is accepted with its exact body, signed as OKX signs, and answered in OKX's shape; the
 * documented sCodes come back as per-item failures (HTTP 200, code "1"); demo trading (the
 * x-simulated-trading header) is a separate account; inverse swaps settle in coin.
 */
import { describe, expect, it } from 'vitest';
import { fixture, manualClock, shapeOf } from '../../testing';
import { requestFixtures, simForFile, type RequestFixture } from '../testing';
import { okxClient, type OkxTestClient } from './testing';

const T0 = 1717200000000;
/** With this seed BTC-USDT-SWAP trades near 67,000 then: the fixtures' 65000 limit buy rests, their 63000 stop and 69900 take-profit wait. */
const SEED = 'paper-fixtures';

const clock = manualClock(T0 + 500);
const sim = simForFile({ seed: SEED, now: clock.now });
let n = 0;
const client = (label: string, prefix?: string) => okxClient(sim.app, `sim-${label}-${++n}`, { seed: SEED, now: clock.now, prefix });
const req = (file: string) => fixture<RequestFixture>('okx', file);
const send = (c: OkxTestClient, r: RequestFixture, demo = false) => c.call(r.method, r.path, r.body, { demo });
const last = async () => Number((await sim.app.inject({ method: 'GET', url: '/sim/okx/api/v5/market/ticker?instId=BTC-USDT-SWAP' })).json<{ data: Array<{ last: string }> }>().data[0].last);
const tick = (x: number) => (Math.round(x * 10) / 10).toFixed(1);
const marketBuy = (c: OkxTestClient, sz = '1', instId = 'BTC-USDT-SWAP') => c.call('POST', '/api/v5/trade/order', { instId, tdMode: 'cross', side: 'buy', ordType: 'market', sz });

describe('okx paper venue: request fixtures', () => {
  it('knows every okx request fixture (a new one must be added here)', () => {
    expect(requestFixtures('okx')).toEqual([
      'algo-stop-market.request.json',
      'algo-take-profit-limit.request.json',
      'algo-trigger.request.doc.json',
      'order-cancel.request.doc.json',
      'order-spot-limit.request.doc.json',
      'order-swap-limit-with-tpsl.request.json',
      'order-swap-limit.request.json',
      'order-swap-market-reduceonly.request.json',
      'set-leverage.request.doc.json',
      'ws-login.request.doc.json', // private WebSocket: below
      'ws-subscribe-candle.request.doc.json', // public WebSocket: server/sim/okx
    ]);
  });

  it('order-swap-limit: acknowledged in order.response.doc.json shape; rests, then cancelled (order-cancel shapes)', async () => {
    const c = client('fx');
    const placed = await send(c, req('order-swap-limit.request.json'));
    expect(placed.status).toBe(200);
    expect(shapeOf({ ...placed.body, inTime: '', outTime: '' })).toEqual(shapeOf(fixture('okx', 'order.response.doc.json')));
    expect(placed.body.data[0]).toMatchObject({ clOrdId: 'term0001', sCode: '0' });
    const ordId = String(placed.body.data[0].ordId);
    const pending = await c.call('GET', '/api/v5/trade/orders-pending?instType=SWAP');
    const doc = fixture<{ data: Array<Record<string, unknown>> }>('okx', 'orders-pending.response.doc.json');
    expect(Object.keys(pending.body.data[0]).slice(0, Object.keys(doc.data[0]).length)).toEqual(Object.keys(doc.data[0]));
    expect(pending.body.data[0]).toMatchObject({ ordId, state: 'live', px: '65000.0', sz: '1', reduceOnly: 'false', ordType: 'limit', instType: 'SWAP' });
    const cancel = await c.call('POST', '/api/v5/trade/cancel-order', { ordId, instId: 'BTC-USDT-SWAP' });
    expect(shapeOf({ ...cancel.body, inTime: '', outTime: '' })).toEqual(shapeOf(fixture('okx', 'order-cancel.response.doc.json')));
    const again = await c.call('POST', '/api/v5/trade/cancel-order', { ordId, instId: 'BTC-USDT-SWAP' });
    expect(again.body).toMatchObject({ code: '1', msg: 'All operations failed', data: [{ sCode: '51400' }] });
  });

  it('order-swap-market-reduceonly: refused without a position (51169), cuts a long after a buy', async () => {
    const c = client('ro');
    const r = await send(c, req('order-swap-market-reduceonly.request.json'));
    expect(r.body).toMatchObject({ code: '1', data: [{ sCode: '51169' }] });
    await marketBuy(c, '2');
    expect((await send(c, req('order-swap-market-reduceonly.request.json'))).body.code).toBe('0');
    const pos = await c.call('GET', '/api/v5/account/positions?instType=SWAP');
    expect(pos.body.data[0]).toMatchObject({ instId: 'BTC-USDT-SWAP', pos: '1', mgnMode: 'cross', posSide: 'net' });
    expect(shapeOf(pos.body)).toEqual(shapeOf(fixture('okx', 'positions-swap.response.json')));
  });

  it('algo fixtures: stop-market and take-profit-limit wait; algo-trigger opens; attached TP/SL become conditionals', async () => {
    const c = client('algo');
    await marketBuy(c, '1');
    for (const f of ['algo-stop-market.request.json', 'algo-take-profit-limit.request.json']) {
      const r = await send(c, req(f));
      expect(r.body.code, JSON.stringify(r.body)).toBe('0');
      expect(r.body.data[0]).toMatchObject({ sCode: '0' });
    }
    const pending = await c.call('GET', '/api/v5/trade/orders-algo-pending?ordType=conditional');
    expect(pending.body.data.map((a) => [a.slTriggerPx, a.tpTriggerPx, a.tpOrdPx, a.state])).toEqual([
      ['', '69900.0', '70000.0', 'live'],
      ['63000.0', '', '', 'live'],
    ]);
    // algo-trigger (doc example): a buy triggered at 25,920, far below the market, waits for the fall (its
    // attached TP/SL wait on it). The limit buy with attached TP/SL rests; they are placed when it fills.
    const trig = await send(c, req('algo-trigger.request.doc.json'));
    expect(trig.body.code, JSON.stringify(trig.body)).toBe('0');
    const triggers = (await c.call('GET', '/api/v5/trade/orders-algo-pending?ordType=trigger')).body.data;
    expect(triggers.map((a) => [a.triggerPx, a.orderPx, a.side, a.state])).toEqual([['25920.0', '-1', 'buy', 'live']]);
    const withTpsl = await send(c, req('order-swap-limit-with-tpsl.request.json'));
    expect(withTpsl.body.code).toBe('0');
    expect((await c.call('GET', '/api/v5/trade/orders-algo-pending?ordType=conditional')).body.data).toHaveLength(2);
    // A marketable limit with attached TP/SL fills at once: its TP and SL appear, reduce-only, for its size.
    const now = await last();
    const filled = await c.call('POST', '/api/v5/trade/order', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'buy', posSide: 'net', ordType: 'limit', px: tick(now * 1.01), sz: '1', attachAlgoOrds: [{ tpTriggerPx: tick(now * 1.2), tpOrdPx: '-1', slTriggerPx: tick(now * 0.8), slOrdPx: '-1' }] });
    expect(filled.body.code).toBe('0');
    await new Promise((r) => setTimeout(r, 50));
    const all = (await c.call('GET', '/api/v5/trade/orders-algo-pending?ordType=conditional')).body.data;
    expect(all).toHaveLength(4);
    expect(all.slice(0, 2).map((a) => [a.side, a.reduceOnly, a.sz, a.tpTriggerPx === '' ? 'sl' : 'tp'])).toEqual([
      ['sell', 'true', '1', 'sl'],
      ['sell', 'true', '1', 'tp'],
    ]);
  });

  it('set-leverage (doc body) answers in the doc shape; order-cancel.request.doc (futures instId) is 51001; spot is 51001', async () => {
    const c = client('lev');
    const lev = await send(c, req('set-leverage.request.doc.json'));
    expect(lev.body).toEqual({ code: '0', msg: '', data: [{ lever: '5', mgnMode: 'cross', instId: 'BTC-USDT-SWAP', posSide: 'net' }] });
    expect(shapeOf(lev.body)).toEqual(shapeOf(fixture('okx', 'set-leverage.response.doc.json')));
    expect((await send(c, req('order-cancel.request.doc.json'))).body).toMatchObject({ code: '1', data: [{ sCode: '51001' }] });
    expect((await send(c, req('order-spot-limit.request.doc.json'))).body).toMatchObject({ code: '1', data: [{ sCode: '51001' }] });
  });
});

describe('okx paper venue: money, errors, networks', () => {
  it('balance: 10,000 USDT in the balance.response shape; a buy pays the 0.05 % taker fee in USDT', async () => {
    const c = client('bal');
    const b = await c.call<Record<string, unknown>>('GET', '/api/v5/account/balance');
    const doc = fixture<{ data: Array<Record<string, unknown>> }>('okx', 'balance.response.doc.json').data[0];
    const sorted = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
    expect(shapeOf(sorted({ ...b.body.data[0], details: [] }))).toEqual(shapeOf(sorted({ ...doc, details: [] })));
    expect(shapeOf(sorted((b.body.data[0].details as Array<Record<string, unknown>>)[0]))).toEqual(shapeOf(sorted((doc.details as Array<Record<string, unknown>>)[0])));
    const usdt = (b.body.data[0].details as Array<Record<string, string>>).find((d) => d.ccy === 'USDT')!;
    expect([usdt.eq, usdt.availBal, usdt.cashBal]).toEqual(['10000', '10000', '10000']);
    await marketBuy(c, '10');
    const fills = (await c.call('GET', '/api/v5/trade/fills?instType=SWAP')).body.data;
    expect(fills).toHaveLength(1);
    const f = fills[0] as Record<string, string>;
    // 10 contracts × 0.01 BTC × price × 0.0005, negative when paid.
    expect(Number(f.fee)).toBeCloseTo(-(10 * 0.01 * Number(f.fillPx) * 0.0005), 8);
    expect(f).toMatchObject({ feeCcy: 'USDT', execType: 'T', fillSz: '10' });
    const after = (await c.call('GET', '/api/v5/account/balance')).body.data[0] as Record<string, unknown>;
    const cash = (after.details as Array<Record<string, string>>).find((d) => d.ccy === 'USDT')!.cashBal;
    expect(Number(cash)).toBeCloseTo(10_000 + Number(f.fee), 8);
  });

  it('inverse BTC-USD-SWAP settles in BTC: 1 BTC to start, the fee in BTC (contracts × 100 USD ÷ price × rate)', async () => {
    const c = client('inv');
    const r = await marketBuy(c, '10', 'BTC-USD-SWAP');
    expect(r.body.code).toBe('0');
    const f = (await c.call('GET', '/api/v5/trade/fills?instType=SWAP&instId=BTC-USD-SWAP')).body.data[0] as Record<string, string>;
    expect(f.feeCcy).toBe('BTC');
    // BTC to the satoshi (8 places), rounded once.
    expect(Number(f.fee)).toBeCloseTo(-((10 * 100) / Number(f.fillPx)) * 0.0005, 8);
  });

  it('insufficient margin (51008), a price off the tick (51000), a size off the lot (51121), a duplicate clOrdId (51016), post-only that would take (cancelled, source 31)', async () => {
    const c = client('err');
    expect((await marketBuy(c, '5000')).body).toMatchObject({ code: '1', data: [{ sCode: '51008' }] });
    const order = (o: Record<string, unknown>) => c.call('POST', '/api/v5/trade/order', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'buy', ...o });
    expect((await order({ ordType: 'limit', px: '50000.05', sz: '1' })).body).toMatchObject({ data: [{ sCode: '51000' }] });
    expect((await order({ ordType: 'limit', px: '50000', sz: '1.005' })).body).toMatchObject({ data: [{ sCode: '51121' }] });
    expect((await order({ ordType: 'limit', px: '50000', sz: '1', clOrdId: 'dup1' })).body.code).toBe('0');
    expect((await order({ ordType: 'limit', px: '50000', sz: '1', clOrdId: 'dup1' })).body).toMatchObject({ data: [{ sCode: '51016' }] });
    const taker = await order({ ordType: 'post_only', px: tick((await last()) * 1.05), sz: '1' });
    expect(taker.body.code).toBe('0');
    const got = await c.call('GET', `/api/v5/trade/order?instId=BTC-USDT-SWAP&ordId=${String(taker.body.data[0].ordId)}`);
    expect(got.body.data[0]).toMatchObject({ state: 'canceled', cancelSource: '31' });
  });

  it('signature, passphrase and timestamp are checked like OKX (401 with its codes)', async () => {
    const c = client('sig');
    expect((await c.call('GET', '/api/v5/account/balance', undefined, { timestamp: new Date(clock.now() - 60_000).toISOString() })).body).toMatchObject({ code: '50102' });
    const res = await sim.app.inject({ method: 'GET', url: '/sim/okx/api/v5/account/balance', headers: { 'OK-ACCESS-KEY': c.apiKey, 'OK-ACCESS-SIGN': 'x', 'OK-ACCESS-TIMESTAMP': new Date(clock.now()).toISOString(), 'OK-ACCESS-PASSPHRASE': c.passphrase } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(fixture('okx', 'error-invalid-signature.json'));
  });

  it('demo trading (x-simulated-trading: 1, or /sim/testnet/okx) is a separate account; reset-account resets one', async () => {
    const c = client('demo');
    await marketBuy(c, '1');
    expect((await c.call('GET', '/api/v5/account/positions')).body.data).toHaveLength(1);
    expect((await c.call('GET', '/api/v5/account/positions', undefined, { demo: true })).body.data).toHaveLength(0);
    const t = okxClient(sim.app, c.apiKey, { seed: SEED, now: clock.now, prefix: '/sim/testnet/okx' });
    await t.call('POST', '/api/v5/trade/order', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'sell', ordType: 'market', sz: '3' });
    const demo = (await c.call('GET', '/api/v5/account/positions', undefined, { demo: true })).body.data[0] as Record<string, string>;
    expect(demo.pos).toBe('-3');
    const reset = await sim.app.inject({ method: 'POST', url: '/sim/_control/reset-account', payload: { apiKey: c.apiKey, exchange: 'okx', network: 'TESTNET' } });
    expect(reset.statusCode).toBe(200);
    expect((await t.call('GET', '/api/v5/account/positions')).body.data).toHaveLength(0);
    expect((await c.call('GET', '/api/v5/account/positions')).body.data).toHaveLength(1);
  });

  it('a take-profit algo fires when the price path reaches it and releases an order under its own ordId', async () => {
    const c = client('fire');
    await marketBuy(c, '2');
    const tp = tick((await last()) * 1.0005);
    const r = await c.call('POST', '/api/v5/trade/order-algo', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'sell', posSide: 'net', ordType: 'conditional', sz: '1', tpTriggerPx: tp, tpOrdPx: '-1', reduceOnly: true, algoClOrdId: 'tp1' });
    const algoId = String(r.body.data[0].algoId);
    for (let i = 0; i < 24 * 60; i++) {
      clock.advance(60_000);
      const a = (await c.call('GET', `/api/v5/trade/order-algo?algoId=${algoId}`)).body.data[0] as Record<string, string>;
      if (a.state !== 'live') break;
    }
    const a = (await c.call('GET', `/api/v5/trade/order-algo?algoId=${algoId}`)).body.data[0] as Record<string, string>;
    expect(a.state).toBe('effective');
    expect(a.ordId).toMatch(/^17\d{16}$/);
    const o = (await c.call('GET', `/api/v5/trade/order?instId=BTC-USDT-SWAP&ordId=${a.ordId}`)).body.data[0] as Record<string, string>;
    expect(o).toMatchObject({ state: 'filled', algoId, algoClOrdId: 'tp1', sz: '1', reduceOnly: 'true' });
    expect((await c.call('GET', '/api/v5/account/positions')).body.data[0]).toMatchObject({ pos: '1' });
  });
});
