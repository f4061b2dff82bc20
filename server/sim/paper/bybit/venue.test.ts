/**
 * The Bybit v5 paper venue against the fixtures (tests/fixtures/exchanges/bybit): every signed
 * request fixture is accepted with its exact body, signed as Bybit signs, and answered in the shape
 * of its response fixture; the documented retCodes come back for the documented cases (HTTP 200);
 * inverse contracts settle in coin; no malformed input gets a 5xx.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixture, manualClock, shapeOf } from '../../testing';
import { requestFixtures, simForFile, type RequestFixture } from '../testing';
import { fixed, formatFixed } from '../engine';
import { refusalError } from './params';
import { bybitClient, type BybitEnvelope, type BybitTestClient } from './testing';

/** With this seed BTCUSDT trades at 67078.5 then: the fixtures' stop (64000, falling) and take-profit (69900, rising) are valid. */
const FIXTURE_TS = 1717200000000;
const SEED = 'paper-fixtures';

const clock = manualClock(FIXTURE_TS + 500);
const sim = simForFile({ seed: SEED, now: clock.now });
let n = 0;
/** A fresh account per test: `sim-<label>-<n>`. */
const client = (label: string, prefix?: string) => bybitClient(sim.app, `sim-${label}-${++n}`, { seed: SEED, now: clock.now, prefix });
const req = (file: string) => fixture<RequestFixture>('bybit', file);
const send = (c: BybitTestClient, r: RequestFixture) => c.call(r.method, r.path, r.body);
/** cumFeeDetail is keyed by the fee coin (the fixture's MNT, here USDT): compare the shape under one key. */
const feeKey = <T>(o: T): T => JSON.parse(JSON.stringify(o).replace(/"cumFeeDetail":\{"[A-Z]+":/g, '"cumFeeDetail":{"COIN":')) as T;
const withoutTime = (b: BybitEnvelope<unknown>) => ({ ...b, time: 0 });
const marketBuy = (c: BybitTestClient, qty = '0.010', symbol = 'BTCUSDT', category = 'linear') => c.call('POST', '/v5/order/create', { category, symbol, side: 'Buy', orderType: 'Market', qty });

describe('bybit paper venue: request fixtures', () => {
  it('knows every bybit request fixture (a new one must be added here)', () => {
    expect(requestFixtures('bybit')).toEqual([
      'order-cancel.request.json',
      'order-create-close-long.request.doc.json',
      'order-create-market.request.json',
      'order-create-stop-market.request.json',
      'order-create-take-profit.request.json',
      'set-leverage.request.doc.json',
      'set-margin-mode.request.json',
      'ws-ping.request.json', // private WebSocket: stream.test.ts
      'ws-subscribe.request.json', // public WebSocket: server/sim/bybit/bybit.test.ts
    ]);
  });

  it('order-create-market → the order-create ack; the order is Filled with its orderLinkId', async () => {
    const c = client('fx');
    const res = await send(c, req('order-create-market.request.json'));
    expect(shapeOf(res.body)).toEqual(shapeOf(fixture('bybit', 'order-create.response.doc.json')));
    expect(res.body).toMatchObject({ retCode: 0, retMsg: 'OK', result: { orderLinkId: 'term-0002' } });
    const { orderId } = res.json<{ orderId: string }>().result;
    expect(orderId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const got = await c.call('GET', '/v5/order/realtime', { category: 'linear', orderLinkId: 'term-0002' });
    expect(got.json<{ list: unknown[] }>().result.list[0]).toMatchObject({ orderId, orderStatus: 'Filled', cumExecQty: '0.010', leavesQty: '0.000', timeInForce: 'IOC', orderType: 'Market' });
  });

  it('stop-market and take-profit fixtures → conditional orders, Untriggered, listed with orderFilter=StopOrder only', async () => {
    const c = client('fx');
    await marketBuy(c, '0.020');
    for (const file of ['order-create-stop-market.request.json', 'order-create-take-profit.request.json']) {
      const res = await send(c, req(file));
      expect(shapeOf(res.body), file).toEqual(shapeOf(fixture('bybit', 'order-create.response.doc.json')));
      expect(res.body.retCode, JSON.stringify(res.body)).toBe(0);
    }
    const stops = (await c.call('GET', '/v5/order/realtime', { category: 'linear', symbol: 'BTCUSDT', orderFilter: 'StopOrder' })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(stops.map((o) => [o.orderLinkId, o.orderStatus, o.orderType, o.triggerPrice, o.triggerDirection, o.triggerBy, o.stopOrderType, o.reduceOnly])).toEqual([
      ['term-tp-0001', 'Untriggered', 'Limit', '69900.00', 1, 'LastPrice', 'Stop', true],
      ['term-sl-0001', 'Untriggered', 'Market', '64000.00', 2, 'MarkPrice', 'Stop', true],
    ]);
    expect(stops[1]).toMatchObject({ closeOnTrigger: true, price: '0.00' });
    expect(stops[0]).toMatchObject({ price: '70000.00' });
    const plain = (await c.call('GET', '/v5/order/realtime', { category: 'linear', symbol: 'BTCUSDT', orderFilter: 'Order' })).json<{ list: unknown[] }>();
    expect(plain.result.list).toEqual([]);
  });

  it('order-create-close-long (reduce-only 1 BTC against a 0.010 long) is truncated to the position', async () => {
    const c = client('fx');
    await marketBuy(c, '0.010');
    const res = await send(c, req('order-create-close-long.request.doc.json'));
    expect(res.body).toMatchObject({ retCode: 0, result: { orderLinkId: 'usdt-test-02' } });
    const [o] = (await c.call('GET', '/v5/order/realtime', { category: 'linear', orderLinkId: 'usdt-test-02' })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(o).toMatchObject({ cumExecQty: '0.010', qty: '1.000', reduceOnly: true, orderStatus: 'Cancelled', cancelType: 'CancelByReduceOnly' });
    const [pos] = (await c.call('GET', '/v5/position/list', { category: 'linear', symbol: 'BTCUSDT' })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(pos).toMatchObject({ size: '0', side: '' });
  });

  it('order-cancel: the fixture’s foreign orderId is 110001; with our own orderId, the order-cancel ack', async () => {
    const c = client('fx');
    const r = req('order-cancel.request.json');
    const unknown = await send(c, r);
    expect(withoutTime(unknown.body)).toEqual({ retCode: 110001, retMsg: 'Order does not exist', result: {}, retExtInfo: {}, time: 0 });
    const placed = await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '60000', orderLinkId: 'linear-004' });
    const { orderId } = placed.json<{ orderId: string }>().result;
    const res = await c.call('POST', r.path, { ...r.body, orderId });
    expect(shapeOf(res.body)).toEqual(shapeOf(fixture('bybit', 'order-cancel.response.doc.json')));
    expect(res.body.result).toEqual({ orderId, orderLinkId: 'linear-004' });
    const [o] = (await c.call('GET', '/v5/order/realtime', { category: 'linear', orderId })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(o).toMatchObject({ orderStatus: 'Cancelled', cancelType: 'CancelByUser' });
    expect((await c.call('POST', r.path, { ...r.body, orderId })).body.retCode).toBe(110001);
  });

  it('set-leverage → its response; the same leverage again is error-leverage-not-modified exactly', async () => {
    const c = client('fx');
    const r = req('set-leverage.request.doc.json');
    const res = await send(c, r);
    expect(withoutTime(res.body)).toEqual(withoutTime(fixture('bybit', 'set-leverage.response.doc.json')));
    const again = await send(c, r);
    expect(withoutTime(again.body)).toEqual(withoutTime(fixture('bybit', 'error-leverage-not-modified.json')));
    const [pos] = (await c.call('GET', '/v5/position/list', { category: 'linear', symbol: 'BTCUSDT' })).json<{ list: Array<{ leverage: string }> }>().result.list;
    expect(pos.leverage).toBe('6');
  });

  it('set-margin-mode: account-wide ISOLATED_MARGIN; refused with reasons (the failure fixture’s shape) while orders are open', async () => {
    const c = client('fx');
    const r = req('set-margin-mode.request.json');
    const ok = await send(c, r);
    expect(ok.body).toMatchObject({ retCode: 0, result: { reasons: [] } });
    expect((await c.call('GET', '/v5/account/info')).json<{ marginMode: string }>().result.marginMode).toBe('ISOLATED_MARGIN');
    // Every symbol switched, inverse ones too: a BTCUSD position is isolated.
    await marketBuy(c, '100', 'BTCUSD', 'inverse');
    const [inv] = (await c.call('GET', '/v5/position/list', { category: 'inverse', symbol: 'BTCUSD' })).json<{ list: Array<{ positionIM: string }> }>().result.list;
    expect(fixed(inv.positionIM)).toBeGreaterThan(0n);
    const failure = fixture<{ retCode: number; retMsg: string; result: unknown }>('bybit', 'set-margin-mode.failure.doc.json');
    const refused = await c.call('POST', r.path, { setMarginMode: 'REGULAR_MARGIN' });
    expect([refused.body.retCode, refused.body.retMsg]).toEqual([failure.retCode, failure.retMsg]);
    expect(shapeOf(refused.body.result)).toEqual(shapeOf(failure.result));
  });

  it('signs the body exactly as sent: a spaced JSON body signed as sent is accepted, its compact signature is 10004 (trap 13)', async () => {
    const c = client('fx');
    const spaced = '{"category": "linear", "symbol": "BTCUSDT", "side": "Buy", "orderType": "Market", "qty": "0.010"}';
    expect((await c.call('POST', '/v5/order/create', spaced)).body.retCode).toBe(0);
    const compact = JSON.stringify(JSON.parse(spaced));
    const bad = await c.call('POST', '/v5/order/create', spaced, { sign: () => createHmac('sha256', c.secret).update(`${clock.now()}${c.apiKey}5000${compact}`).digest('hex') });
    expect(bad.body).toMatchObject({ retCode: 10004, retMsg: 'Error sign, please check your signature generation algorithm.' });
  });
});

describe('bybit paper venue: response shapes', () => {
  it('realtime orders, inverse positions and the unified wallet answer in the fixtures’ shapes', async () => {
    const c = client('shape');
    await marketBuy(c, '0.005');
    await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.002', price: '60000', orderLinkId: 'test-000005' });
    const open = (await c.call('GET', '/v5/order/realtime', { category: 'linear', symbol: 'BTCUSDT' })).body;
    const openFixture = fixture<BybitEnvelope<unknown>>('bybit', 'open-orders.response.doc.json');
    expect(shapeOf(feeKey(open))).toEqual(shapeOf(feeKey(openFixture)));
    // A filled order has its fee in cumFeeDetail (the fixture's key set); open ones an empty object.
    const closed = (await c.call('GET', '/v5/order/realtime', { category: 'linear', symbol: 'BTCUSDT', openOnly: 1 })).json<{ list: Array<Record<string, unknown>> }>();
    expect(shapeOf(feeKey(closed.result.list[0]))).toEqual(shapeOf(feeKey((openFixture.result as { list: unknown[] }).list[0])));

    await marketBuy(c, '300', 'BTCUSD', 'inverse');
    const positions = (await c.call('GET', '/v5/position/list', { category: 'inverse' })).body;
    expect(shapeOf(positions)).toEqual(shapeOf(fixture('bybit', 'position-list-inverse.response.doc.json')));
    expect((positions.result as { list: unknown[] }).list[0]).toMatchObject({ symbol: 'BTCUSD', side: 'Buy', size: '300', leverage: '10', riskLimitValue: '150' });

    const wallet = (await c.call('GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' })).body;
    expect(shapeOf(wallet)).toEqual(shapeOf(fixture('bybit', 'wallet-balance.response.doc.json')));
    const coins = (wallet.result as { list: Array<{ coin: Array<{ coin: string }> }> }).list[0].coin.map((x) => x.coin);
    expect(coins).toEqual(['USDT', 'BTC']);
    const info = (await c.call('GET', '/v5/account/info')).body.result as Record<string, unknown>;
    expect(Object.keys(info)).toEqual(['marginMode', 'updatedTime', 'unifiedMarginStatus', 'dcpStatus', 'timeWindow', 'smpGroup', 'isMasterTrader', 'spotHedgingStatus']);
  });

  it('history and executions in the documented key order, newest first, with cursors', async () => {
    const c = client('shape');
    for (let i = 0; i < 3; i++) await marketBuy(c, '0.002');
    const hist = (await c.call('GET', '/v5/order/history', { category: 'linear', limit: 2 })).json<{ list: Array<Record<string, unknown>>; nextPageCursor: string }>().result;
    expect(hist.list).toHaveLength(2);
    expect(Object.keys(hist.list[0])).toContain('rpiMatchedQty');
    expect(hist.nextPageCursor).not.toBe('');
    const rest = (await c.call('GET', '/v5/order/history', { category: 'linear', limit: 2, cursor: hist.nextPageCursor })).json<{ list: unknown[]; nextPageCursor: string }>().result;
    expect([rest.list.length, rest.nextPageCursor]).toEqual([1, '']);
    const execs = (await c.call('GET', '/v5/execution/list', { category: 'linear', symbol: 'BTCUSDT', execType: 'Trade' })).json<{ list: Array<Record<string, string | boolean | number>> }>().result.list;
    expect(execs).toHaveLength(3);
    expect(execs[0]).toMatchObject({ execType: 'Trade', isMaker: false, feeRate: '0.00055', execQty: '0.002', leavesQty: '0.000' });
    // execFee = price × qty × 0.055 %, at Bybit's exactness
    const fee = (fixed(execs[0].execPrice as string) * fixed('0.002') * fixed('0.00055')) / 10n ** 36n;
    expect(execs[0].execFee).toBe(formatFixed(fee, 8).replace(/\.?0+$/, ''));
  });
});

describe('bybit paper venue: errors in Bybit’s retCodes (HTTP 200)', () => {
  const code = (b: BybitEnvelope<unknown>) => b.retCode;

  it('key, timestamp, signature, permission and the rate-limit / 5xx fault answers', async () => {
    const c = client('err');
    const bad = await c.call('GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' }, { sign: () => '0'.repeat(64) });
    expect([bad.status, bad.body.retCode, bad.body.retMsg]).toEqual([200, 10004, 'Error sign, please check your signature generation algorithm.']);
    expect(code((await c.call('GET', '/v5/account/info', {}, { timestamp: FIXTURE_TS - 60_000 })).body)).toBe(10002);
    expect(code((await c.call('GET', '/v5/account/info', {}, { timestamp: clock.now() - 6000, recvWindow: '10000' })).body)).toBe(0);
    expect(code((await bybitClient(sim.app, 'not-a-sim-key', { seed: SEED, now: clock.now }).call('GET', '/v5/account/info')).body)).toBe(10003);
    const ro = bybitClient(sim.app, 'sim-readonly-bybit', { seed: SEED, now: clock.now });
    expect(code((await ro.call('GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' })).body)).toBe(0);
    expect(code((await marketBuy(ro)).body)).toBe(10005);
    await sim.app.inject({ method: 'POST', url: '/sim/_control/faults', payload: { exchange: 'bybit', rateLimit: true } });
    const limited = await marketBuy(c);
    expect([limited.status, limited.body.retCode]).toEqual([200, 10006]);
    expect(shapeOf(limited.body)).toEqual(shapeOf(fixture('bybit', 'error-rate-limit.json')));
    await sim.app.inject({ method: 'POST', url: '/sim/_control/faults', payload: { exchange: 'bybit', rateLimit: false, unavailable: true } });
    expect((await marketBuy(c)).status).toBe(503);
    await sim.app.inject({ method: 'DELETE', url: '/sim/_control/faults' });
    expect(code((await marketBuy(c)).body)).toBe(0);
  });

  it('margin, notional, reduce-only, unknown orders, duplicates, trigger direction, params', async () => {
    const c = client('err');
    const order = (b: Record<string, unknown>) => c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '60000', ...b });
    expect(code((await order({ orderType: 'Market', qty: '10' })).body)).toBe(110007);
    expect(code((await order({ symbol: 'DOGEUSDT', qty: '1', price: '0.1' })).body)).toBe(110094);
    expect((await order({ side: 'Sell', orderType: 'Market', reduceOnly: true })).body).toMatchObject({ retCode: 110017, retMsg: 'orderQty will be truncated to zero' });
    expect(code((await order({ price: '60000.05' })).body)).toBe(10001);
    expect(code((await order({ qty: '0.0015' })).body)).toBe(10001);
    expect(code((await order({ qty: '0' })).body)).toBe(10001);
    expect(code((await order({ symbol: 'NOPEUSDT' })).body)).toBe(10001);
    expect(code((await order({ symbol: 'BTCUSD' })).body)).toBe(10001);
    expect(code((await order({ positionIdx: 1 })).body)).toBe(10001);
    expect(code((await order({ orderLinkId: 'bad id!' })).body)).toBe(10001);
    expect((await order({ orderLinkId: 'dup-1' })).body.retCode).toBe(0);
    expect((await order({ orderLinkId: 'dup-1' })).body).toMatchObject({ retCode: 110072, retMsg: 'OrderLinkedID is duplicate' });
    const rising = await order({ orderType: 'Market', triggerPrice: '60000', triggerDirection: 1 });
    expect(rising.body).toMatchObject({ retCode: 110092 });
    expect(rising.body.retMsg).toMatch(/^expect Rising, but trigger_price\[60000\] <= current\[\d+\.\d+\]/);
    expect(code((await order({ orderType: 'Market', triggerPrice: '90000', triggerDirection: 2 })).body)).toBe(110093);
    expect(code((await c.call('POST', '/v5/order/amend', { category: 'linear', symbol: 'BTCUSDT', orderLinkId: 'nope', price: '1' })).body)).toBe(110001);
    expect(code((await c.call('POST', '/v5/order/cancel', { category: 'linear', symbol: 'BTCUSDT' })).body)).toBe(10001);
    expect(code((await c.call('POST', '/v5/position/set-leverage', { category: 'linear', symbol: 'BTCUSDT', buyLeverage: '101', sellLeverage: '101' })).body)).toBe(10001);
    expect(code((await c.call('POST', '/v5/position/set-leverage', { category: 'linear', symbol: 'BTCUSDT', buyLeverage: '5', sellLeverage: '6' })).body)).toBe(10001);
    expect(code((await c.call('GET', '/v5/account/wallet-balance', { accountType: 'CONTRACT' })).body)).toBe(10001);
    expect(code((await c.call('GET', '/v5/order/realtime', { category: 'linear' })).body)).toBe(10001);
    expect(code((await c.call('GET', '/v5/position/list', { category: 'spot' })).body)).toBe(10001);
  });

  it('post-only that would take is accepted, then Cancelled (EC_PostOnlyWillTakeLiquidity); IOC / FOK that cannot fill are Cancelled', async () => {
    const c = client('err');
    const post = await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '70000', timeInForce: 'PostOnly' });
    expect(post.body.retCode).toBe(0);
    const [o] = (await c.call('GET', '/v5/order/realtime', { category: 'linear', orderId: post.json<{ orderId: string }>().result.orderId })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(o).toMatchObject({ orderStatus: 'Cancelled', rejectReason: 'EC_PostOnlyWillTakeLiquidity', timeInForce: 'PostOnly', cumExecQty: '0.000' });
    for (const [tif, reason] of [
      ['IOC', 'EC_NoImmediateQtyToFill'],
      ['FOK', 'EC_CancelForNoFullFill'],
    ]) {
      const r = await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '60000', timeInForce: tif });
      const [x] = (await c.call('GET', '/v5/order/realtime', { category: 'linear', orderId: r.json<{ orderId: string }>().result.orderId })).json<{ list: Array<Record<string, unknown>> }>().result.list;
      expect(x, tif).toMatchObject({ orderStatus: 'Cancelled', rejectReason: reason, timeInForce: tif });
    }
  });

  it('maps the refusals no catalogue instrument can produce', () => {
    expect(refusalError({ code: 'qty-below-min', message: '' })).toMatchObject({ retCode: 10001, retMsg: 'The number of contracts exceeds minimum limit allowed' });
    expect(refusalError({ code: 'qty-above-max', message: '' })).toMatchObject({ retCode: 10001 });
  });
});

describe('bybit paper venue: amend, cancel-all, accounts', () => {
  const code = (b: BybitEnvelope<unknown>) => b.retCode;

  it('amends a resting limit and a waiting trigger; cancel-all per symbol (and only the conditional ones with orderFilter=StopOrder)', async () => {
    const c = client('amend');
    await marketBuy(c, '0.010');
    const limit = (await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '60000', orderLinkId: 'lim-1' })).json<{ orderId: string }>().result;
    const amended = await c.call('POST', '/v5/order/amend', { category: 'linear', symbol: 'BTCUSDT', orderId: limit.orderId, qty: '0.020', price: '59000.5' });
    expect(amended.body.result).toEqual(limit);
    const stop = (await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Sell', orderType: 'Market', qty: '0.010', triggerPrice: '60000', triggerDirection: 2, reduceOnly: true })).json<{ orderId: string }>().result;
    expect((await c.call('POST', '/v5/order/amend', { category: 'linear', symbol: 'BTCUSDT', orderId: stop.orderId, triggerPrice: '61000' })).body.retCode).toBe(0);
    expect(code((await c.call('POST', '/v5/order/amend', { category: 'linear', symbol: 'BTCUSDT', orderId: stop.orderId, triggerPrice: '61000' })).body)).toBe(10001);
    const list = (await c.call('GET', '/v5/order/realtime', { category: 'linear', settleCoin: 'USDT' })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(list.map((o) => [o.orderId, o.price, o.qty, o.triggerPrice])).toEqual([
      [stop.orderId, '0.00', '0.010', '61000.00'],
      [limit.orderId, '59000.50', '0.020', '0.00'],
    ]);
    const stops = await c.call('POST', '/v5/order/cancel-all', { category: 'linear', symbol: 'BTCUSDT', orderFilter: 'StopOrder' });
    expect(stops.body.result).toEqual({ list: [{ orderId: stop.orderId, orderLinkId: '' }], success: '1' });
    const all = await c.call('POST', '/v5/order/cancel-all', { category: 'linear', settleCoin: 'USDT' });
    expect(all.body.result).toEqual({ list: [limit], success: '1' });
    const [s] = (await c.call('GET', '/v5/order/history', { category: 'linear', orderId: stop.orderId })).json<{ list: Array<{ orderStatus: string }> }>().result.list;
    expect(s.orderStatus).toBe('Deactivated');
  });

  it('keeps MAINNET (/sim/bybit) and TESTNET (/sim/testnet/bybit) accounts apart; reset-account starts one over', async () => {
    const main = bybitClient(sim.app, 'sim-bybit-networks', { seed: SEED, now: clock.now });
    const test = bybitClient(sim.app, 'sim-bybit-networks', { seed: SEED, now: clock.now, prefix: '/sim/testnet/bybit' });
    await marketBuy(test);
    expect((await test.call('GET', '/v5/position/list', { category: 'linear', settleCoin: 'USDT' })).json<{ list: unknown[] }>().result.list).toHaveLength(1);
    expect((await main.call('GET', '/v5/position/list', { category: 'linear', settleCoin: 'USDT' })).json<{ list: unknown[] }>().result.list).toHaveLength(0);
    const res = await sim.app.inject({ method: 'POST', url: '/sim/_control/reset-account', payload: { apiKey: test.apiKey, exchange: 'bybit', network: 'TESTNET' } });
    expect(res.json()).toEqual({ reset: true, apiKey: test.apiKey, exchange: 'bybit', network: 'TESTNET' });
    expect((await test.call('GET', '/v5/position/list', { category: 'linear', settleCoin: 'USDT' })).json<{ list: unknown[] }>().result.list).toHaveLength(0);
    const coins = (await test.call('GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' })).json<{ list: Array<{ coin: Array<{ coin: string; walletBalance: string }> }> }>().result.list[0].coin;
    expect(coins.map((x) => [x.coin, x.walletBalance])).toEqual([
      ['USDT', '10000'],
      ['BTC', '1'],
    ]);
  });
});

describe('bybit paper venue: inverse contracts', () => {
  it('BTCUSD is margined, charged and realised in BTC: wallet change = Q × (1/entry − 1/exit) − fees, USDT untouched', async () => {
    const c = client('inverse');
    const buy = await marketBuy(c, '1000', 'BTCUSD', 'inverse');
    expect(buy.body.retCode).toBe(0);
    clock.advance(30 * 60_000);
    const sell = await c.call('POST', '/v5/order/create', { category: 'inverse', symbol: 'BTCUSD', side: 'Sell', orderType: 'Market', qty: '1000', reduceOnly: true });
    expect(sell.body.retCode).toBe(0);
    const fills = (await c.call('GET', '/v5/execution/list', { category: 'inverse', symbol: 'BTCUSD' })).json<{ list: Array<Record<string, string>> }>().result.list;
    expect(fills.map((f) => f.side)).toEqual(['Sell', 'Buy']);
    const [exit, entry] = fills.map((f) => fixed(f.execPrice));
    const q = 1000n * 10n ** 18n;
    const div = (a: bigint, b: bigint) => (a * 10n ** 18n) / b;
    // realised = Q/entry − Q/exit (in BTC), each fee = Q/price × 0.055 %, all rounded to 8 decimals
    const round8 = (v: bigint) => fixed(formatFixed(v, 8));
    const realised = round8(div(q, entry) - div(q, exit));
    const fees = fills.reduce((a, f) => a + fixed(f.execFee), 0n);
    for (const f of fills) expect(fixed(f.execFee)).toBe(round8((div(q, fixed(f.execPrice)) * fixed('0.00055')) / 10n ** 18n));
    expect(fills.map((f) => f.execValue)).toEqual(fills.map((f) => formatFixed(div(q, fixed(f.execPrice)), 8).replace(/\.?0+$/, '')));
    const [pos] = (await c.call('GET', '/v5/position/list', { category: 'inverse', symbol: 'BTCUSD' })).json<{ list: Array<Record<string, string>> }>().result.list;
    expect(fixed(pos.cumRealisedPnl)).toBe(realised);
    const coins = (await c.call('GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED', coin: 'BTC,USDT' })).json<{ list: Array<{ coin: Array<Record<string, string>> }> }>().result.list[0].coin;
    const btc = coins.find((x) => x.coin === 'BTC')!;
    expect(fixed(btc.walletBalance) - fixed('1')).toBe(realised - fees);
    expect(fixed(btc.cumRealisedPnl)).toBe(realised - fees);
    expect(coins.find((x) => x.coin === 'USDT')!.walletBalance).toBe('10000');
  });
});

describe('bybit paper venue: bad input', () => {
  it('answers every malformed parameter with a Bybit envelope, never a 5xx', async () => {
    const c = client('fuzz');
    await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '60000', orderLinkId: 'fuzz-1' });
    const base: Record<string, unknown> = { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.010', price: '60000', orderLinkId: 'fuzz-1', triggerPrice: '50000', triggerDirection: 2, buyLeverage: '5', sellLeverage: '5', setMarginMode: 'REGULAR_MARGIN', accountType: 'UNIFIED', limit: 10 };
    const routes: Array<['GET' | 'POST', string]> = [
      ['POST', '/v5/order/create'],
      ['POST', '/v5/order/amend'],
      ['POST', '/v5/order/cancel'],
      ['POST', '/v5/order/cancel-all'],
      ['GET', '/v5/order/realtime'],
      ['GET', '/v5/order/history'],
      ['GET', '/v5/execution/list'],
      ['GET', '/v5/position/list'],
      ['POST', '/v5/position/set-leverage'],
      ['GET', '/v5/account/wallet-balance'],
      ['POST', '/v5/account/set-margin-mode'],
      ['GET', '/v5/account/fee-rate'],
    ];
    const bad: unknown[] = ['', 'abc', '-1', '1e5', '0.0000000000000000001', '99999999999999999999', '%00', 'btcusdt', 12.5, true, null, [], {}];
    for (const [method, route] of routes) {
      for (const name of ['category', 'symbol', 'side', 'orderType', 'qty', 'price', 'orderId', 'orderLinkId', 'triggerPrice', 'triggerDirection', 'timeInForce', 'reduceOnly', 'buyLeverage', 'limit', 'cursor', 'startTime']) {
        for (const value of bad) {
          if (method === 'GET' && typeof value === 'object') continue;
          const res = await c.call(method, route, { ...base, [name]: value });
          expect(res.status, `${method} ${route} ${name}=${JSON.stringify(value)}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(typeof res.body.retCode).toBe('number');
        }
      }
    }
    for (const body of ['not json', '[1,2]', '"x"', 'null']) expect((await c.call('POST', '/v5/order/create', body)).body.retCode).toBe(10001);
  });
});
