/**
 * Binance's user data stream on the paper exchange, authenticated as the docs say (POST
 * /fapi/v1/listenKey with X-MBX-APIKEY, then wss …/private/ws/<listenKey>): an account receives
 * its own order, fill, position and balance events — also for fills that happen with no request —
 * in the fixtures' shapes, and nobody else's; an expired key gets `listenKeyExpired`, then silence.
 */
import { describe, expect, it } from 'vitest';
import { findInstrument } from '../../market/catalogue';
import { SimMarket } from '../../market/market';
import { connectWs, fixture, has, manualClock, shapeOf, type WsProbe } from '../../testing';
import { simForFile } from '../testing';
import { binanceClient, type BinanceTestClient } from './testing';

const SEED = 'paper-stream';
const T0 = Date.parse('2026-02-02T10:00:00Z');
const clock = manualClock(T0);
const sim = simForFile({ seed: SEED, now: clock.now, pushIntervalMs: 20 });

const user = (name: string) => binanceClient(sim.app, `sim-${name}`, { seed: SEED, now: clock.now });
async function stream(c: BinanceTestClient, query = ''): Promise<{ listenKey: string; ws: WsProbe }> {
  const { listenKey } = (await c.keyOnly('POST', '/fapi/v1/listenKey')).json<{ listenKey: string }>();
  const ws = await sim.connect(`/sim/binance/private/ws${query ? `?listenKey=${listenKey}&${query}` : `/${listenKey}`}`);
  return { listenKey, ws };
}
const event = (e: string, x?: string) => (f: unknown) => has(f, 'e', e) && (x === undefined || (f as { o: { x: string } }).o.x === x);
const noTrailing = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'AP' && k !== 'cr'));
const settle = () => new Promise((r) => setTimeout(r, 150));

describe('binance user data stream (paper)', () => {
  it('delivers the account’s own order, fill and account updates in the fixtures’ shapes, and nobody else’s', async () => {
    const alice = user('alice');
    const bob = user('bob');
    const a = await stream(alice);
    const b = await stream(bob);
    await alice.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010', newClientOrderId: 'alice-1' });
    const created = await a.ws.next<{ o: Record<string, unknown> }>(event('ORDER_TRADE_UPDATE', 'NEW'));
    const trade = await a.ws.next<{ o: Record<string, unknown> }>(event('ORDER_TRADE_UPDATE', 'TRADE'));
    const account = await a.ws.next<{ a: { B: Array<Record<string, string>>; P: Array<Record<string, string>> } }>(event('ACCOUNT_UPDATE'));
    const fx = fixture<{ o: Record<string, unknown> }>('binance', 'uds-order-trade-update.json');
    // AP / cr are the trailing-stop fields of the fixture's order.
    expect(shapeOf({ ...created, o: noTrailing(created.o) })).toEqual(shapeOf({ ...fx, o: noTrailing(fx.o) }));
    expect(shapeOf(trade)).toEqual(shapeOf(created));
    expect(trade.o).toMatchObject({ c: 'alice-1', s: 'BTCUSDT', S: 'BUY', o: 'MARKET', X: 'FILLED', l: '0.010', z: '0.010', m: false, N: 'USDT' });
    expect(shapeOf(account)).toEqual(shapeOf(fixture('binance', 'uds-account-update.json')));
    expect(account.a.P[0]).toMatchObject({ s: 'BTCUSDT', pa: '0.01', mt: 'cross', ps: 'BOTH' });
    const [balance] = (await alice.call('GET', '/fapi/v3/balance')).json<Array<{ balance: string }>>();
    expect(account.a.B[0]).toMatchObject({ a: 'USDT', wb: balance.balance });
    await settle();
    expect(b.ws.frames.filter((f) => has(f, 'e'))).toEqual([]);
  });

  it('pushes fills that happen on the tape with nobody asking (the runner advances the account)', async () => {
    const carol = user('carol');
    const s = await stream(carol);
    // Pick a buy limit the next ten minutes of the (deterministic) tape trade through.
    const market = new SimMarket({ seed: SEED, now: clock.now });
    const inst = findInstrument('binance', 'BTCUSDT')!;
    const next = market.trades(inst, clock.now(), clock.now() + 5 * 60_000);
    const last = market.lastTrade(inst, clock.now())!.price;
    const low = Math.min(...next.map((t) => t.price));
    expect(low).toBeLessThan(last - 2);
    const price = ((low + 1) / 10).toFixed(2);
    await carol.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price });
    await s.ws.next(event('ORDER_TRADE_UPDATE', 'NEW'));
    clock.advance(5 * 60_000);
    const fill = await s.ws.next<{ o: Record<string, unknown> }>(event('ORDER_TRADE_UPDATE', 'TRADE'));
    expect(fill.o).toMatchObject({ L: price, m: true, S: 'BUY' });
  });

  it('ALGO_UPDATE for a conditional order, in the fixture’s shape', async () => {
    const dave = user('dave');
    const s = await stream(dave);
    await dave.call('POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', triggerPrice: '10000', quantity: '0.002', reduceOnly: 'true' });
    const algo = await s.ws.next<{ o: Record<string, unknown> }>(event('ALGO_UPDATE'));
    expect(shapeOf(algo)).toEqual(shapeOf(fixture('binance', 'uds-algo-update.json')));
    expect(algo.o).toMatchObject({ o: 'STOP_MARKET', X: 'NEW', tp: '10000', R: true });
  });

  it('filters by ?events= on the query-string form of the URL', async () => {
    const erin = user('erin');
    const s = await stream(erin, 'events=ACCOUNT_UPDATE');
    await erin.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' });
    await s.ws.next(event('ACCOUNT_UPDATE'));
    await settle();
    expect(new Set(s.ws.frames.map((f) => (f as { e: string }).e))).toEqual(new Set(['ACCOUNT_UPDATE']));
  });

  it('keepalive extends the key; past 60 minutes it expires with listenKeyExpired and goes silent', async () => {
    const frank = user('frank');
    const s = await stream(frank);
    clock.advance(40 * 60_000);
    expect((await frank.keyOnly('PUT', '/fapi/v1/listenKey')).json()).toEqual({ listenKey: s.listenKey });
    clock.advance(40 * 60_000);
    await settle();
    expect(s.ws.frames.some(event('listenKeyExpired'))).toBe(false);
    clock.advance(21 * 60_000);
    const expired = await s.ws.next(event('listenKeyExpired'));
    expect(shapeOf(expired)).toEqual(shapeOf(fixture('binance', 'uds-listenkey-expired.json')));
    expect(expired).toMatchObject({ listenKey: s.listenKey });
    await frank.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' });
    await settle();
    expect(s.ws.frames.filter((f) => has(f, 'e', 'ORDER_TRADE_UPDATE'))).toEqual([]);
    expect((await frank.keyOnly('PUT', '/fapi/v1/listenKey')).body).toEqual({ code: -1125, msg: 'This listenKey does not exist.' });
    expect((await frank.keyOnly('POST', '/fapi/v1/listenKey')).json<{ listenKey: string }>().listenKey).not.toBe(s.listenKey);
  });

  it('refuses a listen key without an API key, and closes a socket with an unknown key', async () => {
    const res = await sim.app.inject({ method: 'POST', url: '/sim/binance/fapi/v1/listenKey' });
    expect([res.statusCode, res.json()]).toEqual([401, { code: -2014, msg: 'API-key format invalid.' }]);
    const ws = await connectWs(`${sim.ws}/sim/binance/private/ws/not-a-key`);
    expect(await ws.closed).toBe(1008);
  });
});
