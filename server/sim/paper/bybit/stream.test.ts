/**
 * Bybit's private WebSocket on the paper exchange, authenticated exactly as the docs say
 * (`{"op":"auth","args":[apiKey, expires, hex HMAC("GET/realtime" + expires)]}` on /v5/private):
 * an account receives its own order, execution, position and wallet events — also for fills and
 * triggers that happen with nobody asking — in the fixtures' shapes, and nobody else's (another
 * key, or its own key on the other network); bad auth is refused; the drop-sockets fault reaches it.
 */
import { describe, expect, it } from 'vitest';
import { findInstrument } from '../../market/catalogue';
import { SimMarket } from '../../market/market';
import { connectWs, fixture, has, manualClock, shapeOf, type WsProbe } from '../../testing';
import { simForFile } from '../testing';
import { bybitClient, bybitWsAuth, type BybitTestClient } from './testing';

const SEED = 'paper-stream';
const T0 = Date.parse('2026-02-02T10:00:00Z');
const clock = manualClock(T0);
const sim = simForFile({ seed: SEED, now: clock.now, pushIntervalMs: 20 });

const user = (name: string, prefix?: string) => bybitClient(sim.app, `sim-${name}`, { seed: SEED, now: clock.now, prefix });
const settle = () => new Promise((r) => setTimeout(r, 150));
type Frame = { topic: string; id: string; creationTime: number; data: Array<Record<string, unknown>> };
const topic = (name: string, pred: (d: Record<string, unknown>) => boolean = () => true) => (f: unknown) => has(f, 'topic', name) && (f as Frame).data.some(pred);
const feeKey = <T>(o: T): T => JSON.parse(JSON.stringify(o).replace(/"cumFeeDetail":\{"[A-Z]+":/g, '"cumFeeDetail":{"COIN":')) as T;

/** Connects, authenticates as the docs say and subscribes to `topics`. */
async function stream(c: BybitTestClient, topics: string[] = ['order', 'execution', 'position', 'wallet'], path = '/sim/bybit/v5/private'): Promise<WsProbe> {
  const ws = await sim.connect(path);
  ws.send(bybitWsAuth(c.apiKey, c.secret, clock.now() + 10_000));
  const auth = await ws.next<Record<string, unknown>>((f) => has(f, 'op', 'auth'));
  expect(auth).toMatchObject({ success: true, ret_msg: '', op: 'auth' });
  ws.send({ op: 'subscribe', req_id: 'sub-1', args: topics });
  expect(await ws.next((f) => has(f, 'op', 'subscribe'))).toMatchObject({ success: true, op: 'subscribe', req_id: 'sub-1' });
  return ws;
}

const market = () => new SimMarket({ seed: SEED, now: clock.now });

describe('bybit private stream (paper)', () => {
  it('auth and ping answer in the fixtures’ shapes', async () => {
    const c = user('shapes');
    const ws = await sim.connect('/sim/bybit/v5/private');
    ws.send(bybitWsAuth(c.apiKey, c.secret, clock.now() + 10_000));
    expect(shapeOf(await ws.next((f) => has(f, 'op', 'auth')))).toEqual(shapeOf(fixture('bybit', 'ws-auth.response.doc.json')));
    ws.send(fixture('bybit', 'ws-ping.request.json'));
    const pong = await ws.next<Record<string, unknown>>((f) => has(f, 'op', 'pong'));
    expect(shapeOf(pong)).toEqual(shapeOf(fixture('bybit', 'ws-pong.private.json')));
    expect(pong.req_id).toBe('100001');
  });

  it('delivers the account’s own order, execution, position and wallet events in Bybit’s shapes, and nobody else’s', async () => {
    const alice = user('alice');
    const bob = user('bob');
    const a = await stream(alice);
    const b = await stream(bob);
    const placed = await alice.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.010', orderLinkId: 'alice-1' });
    const { orderId } = placed.json<{ orderId: string }>().result;
    const order = await a.next<Frame>(topic('order', (d) => d.orderStatus === 'Filled'));
    const fx = fixture<Frame>('bybit', 'ws-private-order.doc.json');
    expect(shapeOf(feeKey({ ...order, data: [order.data.find((d) => d.orderStatus === 'Filled')] }))).toEqual(shapeOf(feeKey(fx)));
    expect(order.data.find((d) => d.orderStatus === 'Filled')).toMatchObject({ orderId, orderLinkId: 'alice-1', symbol: 'BTCUSDT', side: 'Buy', category: 'linear', cumExecQty: '0.010', leavesQty: '0.000' });

    const exec = await a.next<Frame>(topic('execution'));
    expect(exec.data[0]).toMatchObject({ category: 'linear', symbol: 'BTCUSDT', orderId, orderLinkId: 'alice-1', execQty: '0.010', execType: 'Trade', isMaker: false, feeRate: '0.00055', closedSize: '0.000', execPnl: '0', createType: 'CreateByUser', feeCurrency: 'USDT', leavesQty: '0.000' });

    const position = await a.next<Frame>(topic('position'));
    expect(shapeOf(position)).toEqual(shapeOf(fixture('bybit', 'ws-private-position.doc.json')));
    expect(position.data[0]).toMatchObject({ symbol: 'BTCUSDT', side: 'Buy', size: '0.010', category: 'linear', leverage: '10' });

    const wallet = await a.next<Frame>(topic('wallet'));
    const rest = (await alice.call('GET', '/v5/account/wallet-balance', { accountType: 'UNIFIED' })).json<{ list: Array<{ coin: Array<Record<string, string>> }> }>().result.list[0];
    const coin = (w: { coin: unknown }) => (w.coin as Array<Record<string, string>>).find((x) => x.coin === 'USDT')!;
    expect(coin(wallet.data[0] as { coin: unknown }).walletBalance).toBe(coin(rest).walletBalance);
    expect(wallet.data[0]).toMatchObject({ accountType: 'UNIFIED' });
    // websocket/private/wallet.mdx's example, key for key
    expect(Object.keys(wallet.data[0])).toEqual(['accountIMRate', 'accountIMRateByMp', 'accountMMRate', 'accountMMRateByMp', 'totalEquity', 'totalWalletBalance', 'totalMarginBalance', 'totalAvailableBalance', 'totalPerpUPL', 'totalInitialMargin', 'totalInitialMarginByMp', 'totalMaintenanceMargin', 'totalMaintenanceMarginByMp', 'coin', 'accountLTV', 'accountType']);

    // Closing half: execPnl and closedSize on the execution, in Bybit's fields.
    await alice.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Sell', orderType: 'Market', qty: '0.004', reduceOnly: true });
    const closing = await a.next<Frame>(topic('execution', (d) => d.side === 'Sell'));
    expect(closing.data[0]).toMatchObject({ closedSize: '0.004', execQty: '0.004' });
    expect(closing.data[0].execPnl).not.toBe('0');

    await settle();
    expect(b.frames.filter((f) => has(f, 'topic'))).toEqual([]);
  });

  it('pushes fills that happen on the tape with nobody asking (the runner advances the account)', async () => {
    const carol = user('carol');
    const s = await stream(carol, ['execution']);
    const inst = findInstrument('bybit', 'BTCUSDT')!;
    const m = market();
    const next = m.trades(inst, clock.now(), clock.now() + 5 * 60_000);
    const last = m.lastTrade(inst, clock.now())!.price;
    const low = Math.min(...next.map((t) => t.price));
    expect(low).toBeLessThan(last - 2);
    const price = ((low + 1) / 10).toFixed(2);
    await carol.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.002', price });
    clock.advance(5 * 60_000);
    const fill = await s.next<Frame>(topic('execution'));
    expect(fill.data[0]).toMatchObject({ execPrice: price, isMaker: true, side: 'Buy', feeRate: '0.0002', orderType: 'Limit' });
  });

  it('a conditional order keeps its own orderId when it fires (Untriggered → Filled)', async () => {
    const dave = user('dave');
    const s = await stream(dave, ['order', 'execution']);
    const inst = findInstrument('bybit', 'BTCUSDT')!;
    const m = market();
    const next = m.trades(inst, clock.now(), clock.now() + 5 * 60_000);
    const last = m.lastTrade(inst, clock.now())!.price;
    const high = Math.max(...next.map((t) => t.price));
    expect(high).toBeGreaterThan(last + 2);
    const trigger = ((high - 1) / 10).toFixed(2);
    const placed = await dave.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.002', triggerPrice: trigger, triggerDirection: 1 });
    expect(placed.body.retCode).toBe(0);
    const { orderId } = placed.json<{ orderId: string }>().result;
    await s.next(topic('order', (d) => d.orderId === orderId && d.orderStatus === 'Untriggered'));
    clock.advance(5 * 60_000);
    const filled = await s.next<Frame>(topic('order', (d) => d.orderId === orderId && d.orderStatus === 'Filled'));
    expect(filled.data.find((d) => d.orderStatus === 'Filled')).toMatchObject({ stopOrderType: 'Stop', triggerPrice: trigger, triggerDirection: 1, cumExecQty: '0.002' });
    const exec = await s.next<Frame>(topic('execution', (d) => d.orderId === orderId));
    expect(exec.data[0]).toMatchObject({ createType: 'CreateByStopOrder', stopOrderType: 'Stop' });
    expect(Number(exec.data[0].execPrice)).toBeGreaterThanOrEqual(Number(trigger));
    const [o] = (await dave.call('GET', '/v5/order/realtime', { category: 'linear', orderId })).json<{ list: Array<Record<string, unknown>> }>().result.list;
    expect(o).toMatchObject({ orderId, orderStatus: 'Filled' });
  });

  it('categorised topics: order.inverse sees inverse orders only, with the BTC wallet in coin', async () => {
    const erin = user('erin');
    const s = await stream(erin, ['order.inverse', 'position.inverse']);
    await erin.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.002' });
    await erin.call('POST', '/v5/order/create', { category: 'inverse', symbol: 'BTCUSD', side: 'Buy', orderType: 'Market', qty: '500' });
    const inv = await s.next<Frame>(topic('order.inverse'));
    expect(inv.data.every((d) => d.symbol === 'BTCUSD' && d.category === 'inverse')).toBe(true);
    const pos = await s.next<Frame>(topic('position.inverse'));
    expect(pos.data[0]).toMatchObject({ symbol: 'BTCUSD', size: '500', category: 'inverse' });
    await settle();
    expect(s.frames.filter((f) => has(f, 'topic') && (f as Frame).data.some((d) => d.symbol === 'BTCUSDT'))).toEqual([]);
  });

  it('keeps MAINNET and TESTNET streams of one key apart', async () => {
    const main = user('frank');
    const test = user('frank', '/sim/testnet/bybit');
    const m = await stream(main, ['order']);
    const t = await stream(test, ['order'], '/sim/testnet/bybit/v5/private');
    await test.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.002' });
    await t.next(topic('order'));
    await settle();
    expect(m.frames.filter((f) => has(f, 'topic'))).toEqual([]);
  });

  it('refuses a bad signature, an expired auth, topics before auth, unknown topics and mixed topic forms', async () => {
    const grace = user('grace');
    const ws = await sim.connect('/sim/bybit/v5/private');
    /** Sends a frame and waits for the answer with `op` that came after it. */
    const ask = (frame: unknown, op: string) => {
      const from = ws.frames.length;
      ws.send(frame);
      return ws.next<Record<string, unknown>>((x) => has(x, 'op', op) && ws.frames.indexOf(x) >= from);
    };
    expect(await ask({ op: 'subscribe', args: ['order'] }, 'subscribe')).toMatchObject({ success: false, ret_msg: 'Request not authorized' });
    expect(await ask(bybitWsAuth(grace.apiKey, 'not-the-secret', clock.now() + 10_000), 'auth')).toMatchObject({ success: false, ret_msg: 'Request not authorized' });
    expect(await ask(bybitWsAuth(grace.apiKey, grace.secret, clock.now() - 1), 'auth')).toMatchObject({ success: false, ret_msg: 'Params Error' });
    expect(await ask({ op: 'auth', args: [grace.apiKey] }, 'auth')).toMatchObject({ success: false, ret_msg: 'Params Error' });
    expect(await ask(bybitWsAuth(grace.apiKey, grace.secret, clock.now() + 10_000), 'auth')).toMatchObject({ success: true });
    expect(await ask({ op: 'subscribe', args: ['greeks'] }, 'subscribe')).toMatchObject({ success: false });
    expect(await ask({ op: 'subscribe', args: ['order', 'order.linear'] }, 'subscribe')).toMatchObject({ success: false });
    ws.send('not json');
    expect(await ws.next((f) => has(f, 'ret_msg', 'error:unmarshal error'))).toMatchObject({ success: false });
  });

  it('the drop-private-sockets fault drops it (now, and new ones while set), not the public streams', async () => {
    const hank = user('hank');
    const s = await stream(hank, ['order']);
    const pub = await sim.connect('/sim/bybit/v5/public/linear');
    const res = await sim.app.inject({ method: 'POST', url: '/sim/_control/faults', payload: { exchange: 'bybit', dropPrivateSockets: true } });
    expect(res.json<{ dropped: number }>().dropped).toBeGreaterThanOrEqual(1);
    expect(await s.closed).toBe(1006);
    const again = await connectWs(`${sim.ws}/sim/bybit/v5/private`);
    expect(await again.closed).toBe(1006);
    expect(pub.socket.readyState).toBe(pub.socket.OPEN);
    await sim.app.inject({ method: 'DELETE', url: '/sim/_control/faults' });
    await stream(hank, ['order']);
  });
});
