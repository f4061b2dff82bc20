import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinanceChecker, BitmexChecker, BybitChecker, OkxChecker, type BookChecker } from '../book-checkers';
import { connectWs, manualClock, startSim, type SimServer } from '../testing';
import { bookOf, setRestingOrderSource, type RestingOrder } from './book';
import { findInstrument } from './catalogue';
import { SimMarket } from './market';

const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Each exchange's documented local-book procedure against the simulator for 30 s of sim time (the
 * manual clock runs ~4× faster than real time), then the local book against a REST snapshot.
 */
describe('order books stay in sync from snapshot + stream', () => {
  const clock = manualClock(T0);
  const market = new SimMarket({ seed: 'books', now: clock.now });
  let sim: SimServer;
  let paper: RestingOrder[] = [];

  beforeAll(async () => {
    sim = await startSim({ market, pushIntervalMs: 10 });
    for (const ex of ['binance', 'bybit', 'okx', 'bitmex'] as const) setRestingOrderSource(market, ex, () => paper);
  });
  afterAll(async () => {
    await sim.close();
  });

  async function run(checker: BookChecker): Promise<void> {
    await checker.start();
    for (let k = 0; k < 300; k++) {
      clock.advance(100);
      await sleep(k % 50 === 0 ? 60 : 20);
    }
    clock.advance(500);
    await sleep(200);
    const ok = await checker.verify();
    checker.close();
    const s = checker.stats;
    expect(s.notes, JSON.stringify(s)).toEqual([]);
    expect(s.gaps).toBe(0);
    expect(s.checksumFailures).toBe(0);
    expect(s.bookErrors).toBe(0);
    expect(s.updates).toBeGreaterThan(50);
    expect(ok).toBe(true);
  }

  it('binance: buffer @depth@100ms, GET /fapi/v1/depth, U/u/pu', async () => run(new BinanceChecker(sim.base, sim.ws)), 60_000);
  it('bybit: orderbook.50 snapshot + deltas, u + 1', async () => run(new BybitChecker(sim.base, sim.ws)), 60_000);
  it('okx: books snapshot + updates, seqId chain and CRC32 checksum', async () => run(new OkxChecker(sim.base, sim.ws)), 60_000);
  it('bitmex: orderBookL2_25 partial + insert/update/delete', async () => run(new BitmexChecker(sim.base, sim.ws)), 60_000);

  it('bitmex: orderBookL2_25 without a symbol is every instrument: one partial (filter {}) with each symbol\'s levels, then changes', async () => {
    const ws = await connectWs(`${sim.ws}/sim/bitmex/realtime?subscribe=orderBookL2_25`);
    try {
      const partial = (await ws.next((f) => (f as { action?: string }).action === 'partial')) as { filter: object; data: Array<{ symbol: string }> };
      expect(partial.filter).toEqual({});
      const symbols = new Set(partial.data.map((r) => r.symbol));
      expect(symbols.has('XBTUSD')).toBe(true);
      expect(symbols.size).toBeGreaterThan(1);
      for (let k = 0; k < 10; k++) {
        clock.advance(100);
        await sleep(20);
      }
      await ws.next((f) => ['insert', 'update', 'delete'].includes(String((f as { action?: string }).action)));
    } finally {
      ws.close();
    }
  }, 30_000);

  it('REST snapshots: sorted, uncrossed, mid within half a spread of the last price', async () => {
    const now = clock.now();
    const bin = (await (await fetch(`${sim.base}/sim/binance/fapi/v1/depth?symbol=BTCUSDT&limit=5`)).json()) as { bids: string[][]; asks: string[][]; lastUpdateId: number; T: number };
    const byb = (await (await fetch(`${sim.base}/sim/bybit/v5/market/orderbook?category=linear&symbol=BTCUSDT&limit=5`)).json()) as { result: { b: string[][]; a: string[][] } };
    const okx = (await (await fetch(`${sim.base}/sim/okx/api/v5/market/books?instId=BTC-USDT-SWAP&sz=5`)).json()) as { data: Array<{ bids: string[][]; asks: string[][] }> };
    const bmx = (await (await fetch(`${sim.base}/sim/bitmex/api/v1/orderBook/L2?symbol=XBTUSD&depth=5`)).json()) as Array<{ side: string; price: number }>;
    const cases: Array<[string, string, number[], number[]]> = [
      ['binance', 'BTCUSDT', bin.bids.map((r) => Number(r[0])), bin.asks.map((r) => Number(r[0]))],
      ['bybit', 'BTCUSDT', byb.result.b.map((r) => Number(r[0])), byb.result.a.map((r) => Number(r[0]))],
      ['okx', 'BTC-USDT-SWAP', okx.data[0].bids.map((r) => Number(r[0])), okx.data[0].asks.map((r) => Number(r[0]))],
      ['bitmex', 'XBTUSD', bmx.filter((r) => r.side === 'Buy').map((r) => r.price), bmx.filter((r) => r.side === 'Sell').map((r) => r.price).reverse()],
    ];
    for (const [ex, symbol, bids, asks] of cases) {
      expect(bids.length, ex).toBe(5);
      expect([...bids].sort((a, b) => b - a), ex).toEqual(bids);
      expect([...asks].sort((a, b) => a - b), ex).toEqual(asks);
      expect(bids[0], ex).toBeLessThan(asks[0]);
      const inst = findInstrument(ex as 'binance', symbol)!;
      const last = market.model(inst).toPrice(market.lastTrade(inst, Math.floor(now / 100) * 100)!.price);
      expect(Math.abs((bids[0] + asks[0]) / 2 - last), ex).toBeLessThanOrEqual((asks[0] - bids[0]) / 2 + 1e-9);
    }
  });

  it('a resting paper order shows at its level in REST and in the streams', async () => {
    const inst = findInstrument('bybit', 'BTCUSDT')!;
    const book = bookOf(market, inst);
    const v = book.view(clock.now())!;
    const price = v.bids[2][0];
    const checker = new BybitChecker(sim.base, sim.ws, 'BTCUSDT', 50);
    await checker.start();
    await sleep(100);
    paper = [{ buy: true, price, steps: 123_456 }];
    clock.advance(300);
    await sleep(150);
    const r = (await (await fetch(`${sim.base}/sim/bybit/v5/market/orderbook?category=linear&symbol=BTCUSDT&limit=50`)).json()) as { result: { b: string[][] } };
    const syn = book.synthetic(book.view(clock.now())!.version)!.bids.find(([p]) => p === price)?.[1] ?? 0;
    const px = market.model(inst).toPrice(price).toFixed(2);
    const row = r.result.b.find(([p]) => p === px);
    expect(row && Math.round(Number(row[1]) * 1000)).toBe(syn + 123_456);
    expect(await checker.verify()).toBe(true);
    paper = [];
    clock.advance(300);
    await sleep(150);
    expect(await checker.verify()).toBe(true);
    checker.close();
  });

  it('public trades: binance, bybit, okx, bitmex REST tapes', async () => {
    const bin = (await (await fetch(`${sim.base}/sim/binance/fapi/v1/trades?symbol=BTCUSDT&limit=10`)).json()) as Array<{ id: number; time: number }>;
    expect(bin).toHaveLength(10);
    expect(bin[9].id).toBeGreaterThan(bin[0].id);
    const byb = (await (await fetch(`${sim.base}/sim/bybit/v5/market/recent-trade?category=linear&symbol=BTCUSDT&limit=10`)).json()) as { result: { list: Array<{ time: string }> } };
    expect(byb.result.list).toHaveLength(10);
    expect(Number(byb.result.list[0].time)).toBeGreaterThanOrEqual(Number(byb.result.list[9].time));
    const okx = (await (await fetch(`${sim.base}/sim/okx/api/v5/market/trades?instId=BTC-USDT-SWAP&limit=10`)).json()) as { data: unknown[] };
    expect(okx.data).toHaveLength(10);
    const bmx = (await (await fetch(`${sim.base}/sim/bitmex/api/v1/trade?symbol=XBTUSD&count=10&reverse=true`)).json()) as Array<{ timestamp: string }>;
    expect(bmx).toHaveLength(10);
    expect(bmx[0].timestamp >= bmx[9].timestamp).toBe(true);
  });
});
