/**
 * The BitMEX paper venue against the fixtures (tests/fixtures/exchanges/bitmex): every request fixture
 * is accepted with its exact body, signed as BitMEX signs, and answered in the shape of its response
 * fixture; errors in BitMEX's `{ error }` form; XBTUSD PnL in satoshis as a hand computation gives it;
 * testnet is a separate account.
 */
import { describe, expect, it } from 'vitest';
import { fixture, manualClock } from '../../testing';
import { requestFixtures, simForFile } from '../testing';
import { bitmexClient, type BitmexTestClient } from './testing';

const T0 = 1717200000000;
const SEED = 'paper-fixtures';

interface RequestFixture {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  body: Record<string, unknown> | null;
}
type Row = Record<string, unknown>;

const clock = manualClock(T0 + 500);
const sim = simForFile({ seed: SEED, now: clock.now });
let n = 0;
const client = (label: string, prefix?: string) => bitmexClient(sim.app, `sim-${label}-${++n}`, { seed: SEED, now: clock.now, prefix });
const req = (file: string) => fixture<RequestFixture>('bitmex', file);
const send = <T = Row>(c: BitmexTestClient, r: RequestFixture) => c.call<T>(r.method, r.path.replace(/^\/api\/v1/, ''), r.body ?? undefined);
const last = async () => (await sim.app.inject({ method: 'GET', url: '/sim/bitmex/api/v1/instrument?symbol=XBTUSD' })).json<Array<{ lastPrice: number }>>()[0].lastPrice;
const half = (x: number) => String(Math.round(x * 2) / 2);
/** Keys and value types of an order, ignoring which nullable fields happen to be null. */
const orderShape = (o: Row) => Object.keys(o).sort();

describe('bitmex paper venue: request fixtures', () => {
  it('knows every bitmex request fixture (a new one must be added here)', () => {
    expect(requestFixtures('bitmex')).toEqual([
      'isolate.request.json',
      'leverage.request.json',
      'open-orders.request.json',
      'order-cancel.request.json',
      'order-limit.request.json',
      'order-market-reduceonly.request.json',
      'order-stop-market.request.json',
      'order-take-profit.request.json',
      'ws-subscribe.request.json', // public WebSocket: server/sim/bitmex
    ]);
  });

  it('order-limit rests (order.response shape), shows in open-orders (its exact request), and order-cancel cancels it', async () => {
    const c = client('fx');
    const placed = await send(c, req('order-limit.request.json'));
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(orderShape(placed.body)).toEqual(orderShape(fixture<Row>('bitmex', 'order.response.json')));
    expect(placed.body).toMatchObject({ symbol: 'XBTUSD', side: 'Buy', orderQty: '100', price: '65000', ordType: 'Limit', ordStatus: 'New', clOrdID: 'term-0001', workingIndicator: true });
    const open = await send<Row[]>(c, req('open-orders.request.json'));
    expect(open.body).toHaveLength(1);
    expect(orderShape(open.body[0])).toEqual(orderShape(fixture<Row[]>('bitmex', 'open-orders.response.json')[0]));
    const cancel = await c.call<Row[]>('DELETE', '/order', { orderID: placed.body.orderID });
    expect(cancel.body[0]).toMatchObject({ orderID: placed.body.orderID, ordStatus: 'Canceled' });
    // The fixture's own orderID is not one of this account's: an element with the error, as BitMEX answers.
    const unknown = await send<Row[]>(c, req('order-cancel.request.json'));
    expect(unknown.body[0]).toMatchObject({ orderID: 'eaf968c6-906b-4aaa-a32a-ab65d6e06ed7', error: 'Not Found' });
  });

  it('order-market-reduceonly is refused with no position, then closes one; stop-market and take-profit wait untriggered', async () => {
    const c = client('ro');
    const ro = await send(c, req('order-market-reduceonly.request.json'));
    expect(ro.status).toBe(400);
    expect(ro.body).toEqual({ error: { message: 'Executing this order would increase your position, but it has execInst ReduceOnly', name: 'HTTPError' } });
    await c.call('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 200, ordType: 'Market' });
    for (const f of ['order-stop-market.request.json', 'order-take-profit.request.json']) {
      const r = await send(c, req(f));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ ordStatus: 'New', triggered: '', workingIndicator: false, execInst: 'LastPrice,ReduceOnly' });
    }
    expect((await send(c, req('order-market-reduceonly.request.json'))).body).toMatchObject({ ordStatus: 'Filled', cumQty: '100' });
    const pos = await c.call<Row[]>('GET', '/position');
    expect(pos.body[0]).toMatchObject({ symbol: 'XBTUSD', currentQty: 100, currency: 'XBt', crossMargin: true, isOpen: true });
    expect(Object.keys(pos.body[0]).every((k) => k in fixture<Row[]>('bitmex', 'position.response.json')[0])).toBe(true);
  });

  it('leverage and isolate answer a Position; margin is XBt minor units in margin.response shape', async () => {
    const c = client('lev');
    const lev = await send(c, req('leverage.request.json'));
    expect(lev.body).toMatchObject({ symbol: 'XBTUSD', leverage: 10, crossMargin: false });
    const iso = await send(c, req('isolate.request.json'));
    expect(iso.body).toMatchObject({ symbol: 'XBTUSD', crossMargin: false });
    const m = await c.call<Row>('GET', '/user/margin?currency=XBt');
    expect(Object.keys(m.body).every((k) => k in fixture<Row>('bitmex', 'margin.response.json'))).toBe(true);
    expect(m.body).toMatchObject({ currency: 'XBt', walletBalance: 100_000_000, availableMargin: 100_000_000 });
    const all = await c.call<Row[]>('GET', '/user/margin?currency=all');
    expect(all.body.map((x) => [x.currency, x.walletBalance])).toEqual([
      ['XBt', 100_000_000],
      ['USDt', 10_000_000_000],
    ]);
  });
});

describe('bitmex paper venue: money and errors', () => {
  it('XBTUSD long 1,000 USD: realised PnL in satoshis = 1000/entry − 1000/exit, fees 0.075 % of value', async () => {
    const c = client('pnl');
    const buy = await c.call<Row>('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 1000, ordType: 'Market' });
    clock.advance(6 * 60 * 60_000);
    const sell = await c.call<Row>('POST', '/order', { symbol: 'XBTUSD', side: 'Sell', orderQty: 1000, ordType: 'Market' });
    const entry = Number(buy.body.avgPx);
    const exit = Number(sell.body.avgPx);
    const execs = (await c.call<Row[]>('GET', '/execution/tradeHistory?symbol=XBTUSD&reverse=false')).body;
    expect(execs.map((e) => [e.side, e.lastQty, e.execType, e.settlCurrency])).toEqual([
      ['Buy', 1000, 'Trade', 'XBt'],
      ['Sell', 1000, 'Trade', 'XBt'],
    ]);
    const fee = (px: number) => (1000 / px) * 0.00075 * 1e8;
    expect(execs[0].execComm).toBe(Math.round(fee(entry)));
    const m = (await c.call<Row>('GET', '/user/margin?currency=XBt')).body;
    const pnl = (1000 / entry - 1000 / exit) * 1e8;
    expect(Math.abs(Number(m.walletBalance) - (1e8 + pnl - fee(entry) - fee(exit)))).toBeLessThanOrEqual(2);
  });

  it('errors: tick (error-invalid-tick), duplicate clOrdID (fixture), insufficient balance, not found on amend, post-only cancelled, bad signature', async () => {
    const c = client('err');
    const order = (o: Row) => c.call<Row>('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 100, ...o });
    expect((await order({ price: 50000.3 })).body).toEqual(fixture('bitmex', 'error-invalid-tick.json'));
    expect((await order({ price: 50000, clOrdID: 'dup' })).status).toBe(200);
    expect((await order({ price: 50000, clOrdID: 'dup' })).body).toEqual(fixture('bitmex', 'error-duplicate-clordid.json'));
    expect((await order({ orderQty: 9_000_000, ordType: 'Market' })).body).toMatchObject({ error: { message: expect.stringMatching(/^Account has insufficient Available Balance/) } });
    const amend = await c.call<Row>('PUT', '/order', { orderID: '00000000-0000-4000-8000-000000000001', price: 50000 });
    expect(amend.status).toBe(404);
    expect(amend.body).toEqual(fixture('bitmex', 'error-not-found.json'));
    const post = await order({ price: half((await last()) * 1.05), execInst: 'ParticipateDoNotInitiate' });
    expect(post.body).toMatchObject({ ordStatus: 'Canceled', text: 'Canceled: Order had execInst of ParticipateDoNotInitiate' });
    const expired = await c.call<Row>('GET', '/position', undefined, { expires: Math.floor(clock.now() / 1000) - 5 });
    expect(expired.status).toBe(401);
  });

  it('order/bulk: every order is checked first (one bad order places none); the answer is the array of orders', async () => {
    const c = client('bulk');
    const bad = await c.call<Row>('POST', '/order/bulk', { orders: [{ symbol: 'XBTUSD', side: 'Buy', orderQty: 100, price: 50000 }, { symbol: 'XBTUSD', side: 'Up', orderQty: 100, price: 50000 }] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ error: { message: 'Invalid side: Up', name: 'HTTPError' } });
    expect((await c.call<Row[]>('GET', `/order?filter=${encodeURIComponent('{"open":true}')}`)).body).toEqual([]);
    expect((await c.call<Row>('POST', '/order/bulk', {})).body).toEqual({ error: { message: "'orders' is required", name: 'HTTPError' } });
    const ok = await c.call<Row[]>('POST', '/order/bulk', { orders: JSON.stringify([{ symbol: 'XBTUSD', side: 'Buy', orderQty: 100, price: 50000, clOrdID: 'b1' }]) });
    expect(ok.body).toMatchObject([{ clOrdID: 'b1', ordStatus: 'New', price: '50000' }]);
    const amend = await c.call<Row[]>('PUT', '/order/bulk', { orders: [{ origClOrdID: 'b1', price: 50100 }] });
    expect(amend.body).toMatchObject([{ clOrdID: 'b1', price: '50100' }]);
  });

  it('testnet (/sim/testnet/bitmex) is a separate account; reset-account resets one', async () => {
    const c = client('net');
    await c.call('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 100, ordType: 'Market' });
    const t = bitmexClient(sim.app, c.apiKey, { seed: SEED, now: clock.now, prefix: '/sim/testnet/bitmex' });
    expect((await t.call<Row[]>('GET', '/position')).body).toEqual([]);
    expect((await c.call<Row[]>('GET', '/position')).body).toHaveLength(1);
    const reset = await sim.app.inject({ method: 'POST', url: '/sim/_control/reset-account', payload: { apiKey: c.apiKey, exchange: 'bitmex' } });
    expect(reset.statusCode).toBe(200);
    expect((await c.call<Row[]>('GET', '/position')).body).toEqual([]);
  });
});
