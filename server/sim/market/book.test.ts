import { describe, expect, it } from 'vitest';
import { BOOK_LEVELS, bookOf, BookDeltaStream, BookDiffStream, bookVersion, diffSide, restingFromOrders, setRestingOrderSource, updateId, type Level } from './book';
import { findInstrument, SIM_EXCHANGES } from './catalogue';
import { SimMarket } from './market';

const T0 = Date.UTC(2024, 5, 1, 12, 0, 0);

function applyTo(book: Map<number, number>, changes: Level[]): void {
  for (const [p, s] of changes) {
    if (s === 0) book.delete(p);
    else book.set(p, s);
  }
}

describe('synthetic order book', () => {
  it('is deterministic from the seed and time, sorted, uncrossed, around the last price', () => {
    for (const exchange of SIM_EXCHANGES) {
      const market = new SimMarket({ seed: 's', now: () => T0 });
      for (const inst of market.instruments(exchange)) {
        const b = bookOf(market, inst).view(T0);
        expect(b, inst.symbol).not.toBeNull();
        if (!b) continue;
        // Down to one tick above zero on coarse-tick instruments; otherwise the full depth.
        expect(b.bids.length === BOOK_LEVELS || b.bids[b.bids.length - 1][0] < 20).toBe(true);
        expect(b.asks.length).toBe(BOOK_LEVELS);
        for (let i = 1; i < b.bids.length; i++) expect(b.bids[i][0]).toBeLessThan(b.bids[i - 1][0]);
        for (let i = 1; i < b.asks.length; i++) expect(b.asks[i][0]).toBeGreaterThan(b.asks[i - 1][0]);
        const [bid, ask] = [b.bids[0][0], b.asks[0][0]];
        expect(bid).toBeLessThan(ask);
        const last = market.lastTrade(inst, b.time)!.price;
        expect(Math.abs((bid + ask) / 2 - last)).toBeLessThanOrEqual((ask - bid) / 2);
        expect(b.bids.every(([, s]) => Number.isInteger(s) && s >= 1)).toBe(true);
        const again = bookOf(new SimMarket({ seed: 's', now: () => T0 }), inst).view(T0);
        expect(again).toEqual(b);
      }
    }
  });

  it('has a realistic spread and depth (BTC on binance: one tick wide, millions of USD deep)', () => {
    const market = new SimMarket({ seed: 's' });
    const inst = findInstrument('binance', 'BTCUSDT')!;
    const spreads: number[] = [];
    for (let k = 0; k < 50; k++) {
      const b = bookOf(market, inst).view(T0 + k * 1000)!;
      spreads.push(b.asks[0][0] - b.bids[0][0]);
      if (k === 0) {
        const usd = b.bids.slice(0, 100).reduce((a, [p, s]) => a + p * 0.1 * s * 0.001, 0);
        expect(usd).toBeGreaterThan(1e6);
        expect(usd).toBeLessThan(1e9);
      }
    }
    expect(Math.min(...spreads)).toBe(1);
    expect(Math.max(...spreads)).toBeLessThan(10);
  });

  it('evolves with the price path: the book follows the last trade over a minute', () => {
    const market = new SimMarket({ seed: 's' });
    const inst = findInstrument('okx', 'BTC-USDT-SWAP')!;
    const model = bookOf(market, inst);
    for (let t = T0; t < T0 + 60_000; t += 7_300) {
      const b = model.view(t)!;
      const last = market.lastTrade(inst, b.time)!.price;
      expect(b.bids[0][0]).toBeLessThanOrEqual(last);
      expect(b.asks[0][0]).toBeGreaterThanOrEqual(last);
    }
  });

  it('update ids increase strictly with the version', () => {
    const v = bookVersion(T0);
    for (let k = 0; k < 100; k++) expect(updateId(v + k + 1)).toBeGreaterThan(updateId(v + k));
  });

  it('delta streams rebuild every version exactly', () => {
    const market = new SimMarket({ seed: 's' });
    const model = bookOf(market, findInstrument('bybit', 'ETHUSDT')!);
    const stream = new BookDeltaStream(model, 50);
    const first = stream.poll(T0).snapshot!;
    const bids = new Map(first.bids);
    const asks = new Map(first.asks);
    for (let t = T0 + 250; t < T0 + 10_000; t += 250) {
      for (const d of stream.poll(t).deltas) {
        applyTo(bids, d.bids);
        applyTo(asks, d.asks);
        const want = model.merged(d.version, new Map())!;
        expect([...bids].sort((a, b) => b[0] - a[0])).toEqual(want.bids.slice(0, 50));
        expect([...asks].sort((a, b) => a[0] - b[0])).toEqual(want.asks.slice(0, 50));
      }
    }
  });

  it('a coalesced diff applied to a snapshot taken at ANY version inside its range gives the exact book', () => {
    const market = new SimMarket({ seed: 's' });
    const model = bookOf(market, findInstrument('binance', 'SOLUSDT')!);
    const stream = new BookDiffStream(model);
    stream.poll(T0);
    const d = stream.poll(T0 + 500)!;
    for (let v = d.prevVersion; v <= d.version; v++) {
      const snap = model.synthetic(v)!;
      const bids = new Map(snap.bids);
      applyTo(bids, d.bids);
      expect([...bids].sort((a, b) => b[0] - a[0])).toEqual(d.book.bids);
    }
  });

  it('shows resting paper orders at their levels, and their removal in the next diff', () => {
    const market = new SimMarket({ seed: 's' });
    const inst = findInstrument('binance', 'BTCUSDT')!;
    const model = bookOf(market, inst);
    const base = model.view(T0)!;
    const price = base.bids[3][0];
    let orders = [{ buy: true, price, steps: 7000 }];
    setRestingOrderSource(market, 'binance', () => orders);
    const diff = new BookDiffStream(model);
    diff.poll(T0);
    const withOrder = model.view(T0)!;
    expect(withOrder.bids[3]).toEqual([price, base.bids[3][1] + 7000]);
    orders = [];
    model.view(T0 + 50); // a REST read observes the cancel
    const d = diff.poll(T0 + 100)!;
    expect(d.bids.find(([p]) => p === price)?.[1]).toBe(model.synthetic(d.version)!.bids.find(([p]) => p === price)?.[1] ?? 0);
  });

  it('converts paper order records into resting levels (remaining size, live limits only)', () => {
    const market = new SimMarket({ seed: 's' });
    const orders = [
      { side: 'BUY' as const, price: '60000.0', qty: '0.010', filledQty: '0.004', status: 'PARTIALLY_FILLED' },
      { side: 'SELL' as const, price: '70000.0', qty: '0.010', filledQty: '0', status: 'UNTRIGGERED' },
      { side: 'SELL' as const, price: null, qty: '1', filledQty: '0', status: 'NEW' },
    ];
    expect(restingFromOrders(market, 'binance', 'BTCUSDT', orders)).toEqual([{ buy: true, price: 600000, steps: 6 }]);
  });

  it('diffSide reports new, resized and removed levels', () => {
    expect(diffSide([[1, 1], [2, 2]], [[2, 3], [4, 1]])).toEqual([[2, 3], [4, 1], [1, 0]]);
  });
});
