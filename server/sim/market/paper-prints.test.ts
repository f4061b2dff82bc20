/**
 * Paper fills print as public trades (issue 24 §2, market/prints.ts, paper/prints.ts): a paper market
 * order shows once in its exchange's REST trades and trade stream at the fill's price, size (the
 * exchange's public unit) and taker side; a fill made through a second instance on the same database
 * prints on the first; and the prints never reach the paper engine's tape.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { binanceClient } from '../paper/binance/testing';
import { bitmexClient } from '../paper/bitmex/testing';
import { bybitClient } from '../paper/bybit/testing';
import { okxClient } from '../paper/okx/testing';
import { simTape } from '../paper/tape';
import { connectWs, has, manualClock, startSim, type SimServer, type WsProbe } from '../testing';
import { findInstrument } from './catalogue';
import { SimMarket } from './market';

const SEED = 'paper-prints';
const T0 = Date.parse('2026-03-04T10:17:23.456Z');
const settle = (ms = 120) => new Promise((r) => setTimeout(r, ms));

type Json = Record<string, unknown>;
/** A public trade, whatever the exchange's format. */
interface Row {
  id: string;
  price: number;
  size: string;
  buy: boolean;
  time: number;
}

interface Case {
  exchange: string;
  /** The size the order asks for, as the exchange's trade prints write it. */
  size: string;
  place(sim: SimServer, apiKey: string, now: () => number): Promise<{ price: number; time: number }>;
  rest(sim: SimServer): Promise<Row[]>;
  stream(sim: SimServer): Promise<WsProbe>;
  rows(frame: unknown): Row[];
}

const get = async <T>(sim: SimServer, url: string): Promise<T> => (await sim.app.inject({ method: 'GET', url })).json<T>();

const CASES: Case[] = [
  {
    exchange: 'binance',
    size: '0.010',
    async place(sim, apiKey, now) {
      const c = binanceClient(sim.app, apiKey, { now });
      const placed = await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const [fill] = (await c.call('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json<Array<{ price: string; time: number }>>().slice(-1);
      return { price: Number(fill.price), time: fill.time };
    },
    rest: async (sim) =>
      (await get<Array<{ id: number; price: string; qty: string; isBuyerMaker: boolean; time: number }>>(sim, '/sim/binance/fapi/v1/trades?symbol=BTCUSDT&limit=1000')).map((t) => ({
        id: String(t.id),
        price: Number(t.price),
        size: t.qty,
        buy: !t.isBuyerMaker,
        time: t.time,
      })),
    async stream(sim) {
      const ws = await connectWs(`${sim.ws}/sim/binance/market/ws/btcusdt@aggTrade`);
      await settle(60);
      return ws;
    },
    rows: (f) => (has(f, 'e', 'aggTrade') ? [{ id: String(f.a), price: Number(f.p), size: String(f.q), buy: !f.m, time: Number(f.T) }] : []),
  },
  {
    exchange: 'bybit',
    size: '0.010',
    async place(sim, apiKey, now) {
      const c = bybitClient(sim.app, apiKey, { now });
      const placed = await c.call('POST', '/v5/order/create', { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.010' });
      expect(placed.body.retCode, JSON.stringify(placed.body)).toBe(0);
      const { list } = (await c.call('GET', '/v5/execution/list', { category: 'linear', symbol: 'BTCUSDT' })).json<{ list: Array<{ execPrice: string; execTime: string }> }>().result;
      return { price: Number(list[0].execPrice), time: Number(list[0].execTime) };
    },
    rest: async (sim) =>
      (await get<{ result: { list: Array<{ execId: string; price: string; size: string; side: string; time: string }> } }>(sim, '/sim/bybit/v5/market/recent-trade?category=linear&symbol=BTCUSDT&limit=1000')).result.list.map((t) => ({
        id: t.execId,
        price: Number(t.price),
        size: t.size,
        buy: t.side === 'Buy',
        time: Number(t.time),
      })),
    async stream(sim) {
      const ws = await connectWs(`${sim.ws}/sim/bybit/v5/public/linear`);
      ws.send({ op: 'subscribe', args: ['publicTrade.BTCUSDT'] });
      await ws.next((f) => has(f, 'op', 'subscribe'));
      await settle(60);
      return ws;
    },
    rows: (f) =>
      has(f, 'topic', 'publicTrade.BTCUSDT')
        ? (f.data as Json[]).map((t) => ({ id: String(t.i), price: Number(t.p), size: String(t.v), buy: t.S === 'Buy', time: Number(t.T) }))
        : [],
  },
  {
    exchange: 'okx',
    // Contracts (ctVal 0.01 BTC), as OKX's trades print `sz` for swaps.
    size: '2',
    async place(sim, apiKey, now) {
      const c = okxClient(sim.app, apiKey, { now });
      const placed = await c.call('POST', '/api/v5/trade/order', { instId: 'BTC-USDT-SWAP', tdMode: 'cross', side: 'buy', ordType: 'market', sz: '2' });
      expect(placed.body.code, JSON.stringify(placed.body)).toBe('0');
      const fills = (await c.call<{ fillPx: string; ts: string }>('GET', '/api/v5/trade/fills?instType=SWAP')).body.data;
      return { price: Number(fills[0].fillPx), time: Number(fills[0].ts) };
    },
    rest: async (sim) =>
      (await get<{ data: Array<{ tradeId: string; px: string; sz: string; side: string; ts: string }> }>(sim, '/sim/okx/api/v5/market/trades?instId=BTC-USDT-SWAP&limit=500')).data.map((t) => ({
        id: t.tradeId,
        price: Number(t.px),
        size: t.sz,
        buy: t.side === 'buy',
        time: Number(t.ts),
      })),
    async stream(sim) {
      const ws = await connectWs(`${sim.ws}/sim/okx/ws/v5/public`);
      ws.send({ op: 'subscribe', args: [{ channel: 'trades', instId: 'BTC-USDT-SWAP' }] });
      await ws.next((f) => has(f, 'event', 'subscribe'));
      await settle(60);
      return ws;
    },
    rows: (f) =>
      has(f, 'arg') && (f.arg as Json).channel === 'trades' && has(f, 'data')
        ? (f.data as Json[]).map((t) => ({ id: String(t.tradeId), price: Number(t.px), size: String(t.sz), buy: t.side === 'buy', time: Number(t.ts) }))
        : [],
  },
  {
    exchange: 'bitmex',
    // USD contracts of XBTUSD, as BitMEX's trade `size` prints them.
    size: '200',
    async place(sim, apiKey, now) {
      const c = bitmexClient(sim.app, apiKey, { now });
      const placed = await c.call<Json>('POST', '/order', { symbol: 'XBTUSD', side: 'Buy', orderQty: 200, ordType: 'Market' });
      expect(placed.status, JSON.stringify(placed.body)).toBe(200);
      const execs = (await c.call<Array<{ lastPx: number; timestamp: string }>>('GET', '/execution/tradeHistory?symbol=XBTUSD')).body;
      return { price: execs[execs.length - 1].lastPx, time: Date.parse(execs[execs.length - 1].timestamp) };
    },
    rest: async (sim) =>
      (await get<Array<{ trdMatchID: string; price: number; size: number; side: string; timestamp: string }>>(sim, '/sim/bitmex/api/v1/trade?symbol=XBTUSD&count=1000&reverse=true')).map((t) => ({
        id: t.trdMatchID,
        price: t.price,
        size: String(t.size),
        buy: t.side === 'Buy',
        time: Date.parse(t.timestamp),
      })),
    async stream(sim) {
      const ws = await connectWs(`${sim.ws}/sim/bitmex/realtime?subscribe=trade:XBTUSD`);
      await ws.next((f) => has(f, 'action', 'partial'));
      await settle(60);
      return ws;
    },
    rows: (f) =>
      has(f, 'table', 'trade') && has(f, 'action', 'insert')
        ? (f.data as Json[]).map((t) => ({ id: String(t.trdMatchID), price: Number(t.price), size: String(t.size), buy: t.side === 'Buy', time: Date.parse(String(t.timestamp)) }))
        : [],
  },
];

describe('paper fills print as public trades', () => {
  const clock = manualClock(T0);
  const market = new SimMarket({ seed: SEED, now: clock.now });
  let sim: SimServer;
  const sockets: WsProbe[] = [];
  beforeAll(async () => {
    sim = await startSim({ market, now: clock.now });
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await sim?.close();
  });

  it.each(CASES.map((c) => [c.exchange, c] as const))('%s: a market order prints once in the REST trades and the trade stream', async (exchange, c) => {
    clock.advance(1_000);
    const ws = await c.stream(sim);
    sockets.push(ws);
    const before = await c.rest(sim);
    const fill = await c.place(sim, `sim-prints-${exchange}`, clock.now);
    expect(fill.time).toBe(clock.now());

    // The clock stands still: the tape adds nothing, so what is new is the print.
    const after = await c.rest(sim);
    const known = new Set(before.map((r) => r.id));
    const added = after.filter((r) => !known.has(r.id));
    expect(added).toEqual([{ id: expect.any(String), price: fill.price, size: c.size, buy: true, time: fill.time }]);
    expect(new Set(after.map((r) => r.id)).size).toBe(after.length);

    await ws.next((f) => c.rows(f).length > 0);
    await settle();
    const streamed = ws.frames.flatMap((f) => c.rows(f));
    expect(streamed).toEqual([added[0]]);
  });

  it('print ids sit between the tape ids around them, increasing in time order (binance)', async () => {
    const rows = (await get<Array<{ id: number; time: number }>>(sim, '/sim/binance/fapi/v1/trades?symbol=BTCUSDT&limit=1000'));
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i].time).toBeGreaterThanOrEqual(rows[i - 1].time);
      expect(rows[i].id).toBeGreaterThan(rows[i - 1].id);
    }
    expect(rows.filter((r) => r.id % 1000 !== 0)).toHaveLength(1);
  });

  it('the paper engine never matches on prints: a resting order the print traded through stays open', async () => {
    clock.advance(1_000);
    const inst = findInstrument('binance', 'BTCUSDT')!;
    const last = market.lastTrade(inst)!;
    const lastPrice = market.model(inst).toPrice(last.price).toFixed(1);
    const maker = binanceClient(sim.app, 'sim-prints-maker', { now: clock.now });
    const taker = binanceClient(sim.app, 'sim-prints-taker', { now: clock.now });
    const resting = await maker.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price: lastPrice });
    expect(resting.json()).toMatchObject({ status: 'NEW' });
    const { orderId } = resting.json<{ orderId: number }>();
    expect((await taker.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010' })).status).toBe(200);
    const [fill] = (await taker.call('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).json<Array<{ price: string }>>().slice(-1);
    // The taker's print went through the resting sell's price…
    expect(Number(fill.price)).toBeGreaterThan(Number(lastPrice));
    const prints = (await get<Array<{ id: number; price: string }>>(sim, '/sim/binance/fapi/v1/trades?symbol=BTCUSDT&limit=5')).filter((r) => r.id % 1000 !== 0);
    expect(prints.map((p) => p.price)).toContain(fill.price);
    await settle(); // the runner ticks (every 20 ms)
    // …yet the resting order did not fill: the engine's tape is the simulated one only.
    expect((await maker.call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(orderId) })).json()).toMatchObject({ status: 'NEW', executedQty: '0.000' });
    const tape = simTape(market, 'binance').trades('BTCUSDT', clock.now() - 60_000, clock.now());
    expect(tape.map((t) => t.id)).toEqual(market.trades(inst, clock.now() - 60_000, clock.now()).map((t) => t.id));
    expect(tape.every((t) => t.id % 1000 === 0)).toBe(true);
  });
});

describe('paper fills of another instance on the same database print too', () => {
  const clock = manualClock(T0 + 3_600_000);
  const sockets: WsProbe[] = [];
  let handle: DatabaseHandle;
  let one: SimServer;
  let two: SimServer;
  beforeAll(async () => {
    handle = await openDatabase({ driver: 'pglite' });
    await handle.migrate();
    const opts = { seed: SEED, now: clock.now, pushIntervalMs: 20, db: handle.db };
    one = await startSim(opts);
    two = await startSim(opts);
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await two?.close();
    await one?.close();
    await handle?.close();
  });

  it('a fill made through instance 2 shows once in instance 1 REST trades and trade stream', async () => {
    const c = CASES[0];
    const ws = await c.stream(one);
    sockets.push(ws);
    const before = await c.rest(one);
    const fill = await c.place(two, 'sim-prints-remote', clock.now);
    let added: Row[] = [];
    for (let i = 0; i < 50 && !added.length; i++) {
      await settle(40);
      const known = new Set(before.map((r) => r.id));
      added = (await c.rest(one)).filter((r) => !known.has(r.id));
    }
    expect(added).toEqual([{ id: expect.any(String), price: fill.price, size: c.size, buy: true, time: fill.time }]);
    await ws.next((f) => c.rows(f).length > 0);
    await settle();
    expect(ws.frames.flatMap((f) => c.rows(f))).toEqual(added);
    // And on instance 2 (its own fill) exactly the same print.
    const onTwo = await c.rest(two);
    expect(onTwo.filter((r) => r.id === added[0].id)).toEqual(added);
  });

  it("a resting limit placed through instance 2 shows in instance 1's order book at its price, and leaves it when cancelled", async () => {
    const depth = async () => (await get<{ bids: Array<[string, string]> }>(one, '/sim/binance/fapi/v1/depth?symbol=BTCUSDT&limit=1000')).bids;
    const sizeAt = (bids: Array<[string, string]>, price: string) => Number(bids.find(([p]) => Number(p) === Number(price))?.[1] ?? 0);
    const bids = await depth();
    // A price inside the synthetic range, a few levels below the best bid.
    const price = bids[Math.min(20, bids.length - 1)][0];
    const base = sizeAt(bids, price);
    const c = binanceClient(two.app, 'sim-resting-remote', { now: clock.now });
    const placed = await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', price, quantity: '1.000' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    let shown = 0;
    for (let i = 0; i < 50 && shown === 0; i++) {
      await settle(40);
      shown = sizeAt(await depth(), price) - base;
    }
    expect(shown).toBeCloseTo(1, 6);
    expect((await c.call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(placed.json<{ orderId: number }>().orderId) })).status).toBe(200);
    let left = shown;
    for (let i = 0; i < 50 && left !== 0; i++) {
      await settle(40);
      left = sizeAt(await depth(), price) - base;
    }
    expect(left).toBeCloseTo(0, 6);
  });
});
