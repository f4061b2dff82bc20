/**
 * PnL, fees, break-even, liquidation and bankruptcy prices against values computed by hand from
 * paper-economics.md's formulas (the arithmetic is in each test's comment).
 */
import { describe, expect, it } from 'vitest';
import { decimalsOf, divRound, exactFixed, fixed, formatFixed, numberToDecimal, parseFixed } from './decimal';
import { ACCOUNT, INVERSE, ListTape, px, testEngine } from './testing';

const BTC = 'BTCUSDT';
const XBT = 'XBTUSD';
/** XBTUSD ticks (tick 0.5). */
const xpx = (price: number) => BigInt(Math.round(price * 2));

describe('decimal', () => {
  it('parses, rounds and prints exactly', () => {
    expect(parseFixed('65000.10')).toBe(65000n * 10n ** 18n + 10n ** 17n);
    expect(parseFixed('1e3')).toBeNull();
    expect(parseFixed('0.0000000000000000001')).toBeNull();
    expect(formatFixed(fixed('-1.005'), 2)).toBe('-1.01');
    expect(formatFixed(fixed('0.00000001'), 8)).toBe('0.00000001');
    expect(exactFixed(fixed('10979.500'))).toBe('10979.5');
    expect(divRound(-7n, 2n, 'floor')).toBe(-4n);
    expect(divRound(-7n, 2n, 'half-up')).toBe(-4n);
    expect(divRound(7n, 2n, 'ceil')).toBe(4n);
    expect(numberToDecimal(1e-7)).toBe('0.0000001');
    expect(numberToDecimal(1e21)).toBe('1000000000000000000000');
    expect(decimalsOf('0.10')).toBe(2);
  });
});

describe('linear (BTCUSDT, maker 0.02 %, taker 0.05 %, MMR 0.4 %)', () => {
  it('books a round trip to the cent: fee = qty × price × rate, realised = (exit − entry) × qty', () => {
    const tape = new ListTape().add(BTC, [{ time: 1000, price: px(20000) }, { time: 2000, price: px(21000) }]);
    const { engine, fills } = testEngine(tape);
    expect(engine.place(ACCOUNT, { symbol: BTC, side: 'BUY', type: 'MARKET', qty: '1' }, 1500).ok).toBe(true);
    engine.advance(ACCOUNT, 2000);
    // uPnL = (21000 − 20000) × 1
    expect(engine.positions(ACCOUNT)[0]).toMatchObject({ size: '1.000', entryPrice: '20000.00000000', unrealisedPnl: '1000.00000000', markPrice: '21000.00' });
    engine.place(ACCOUNT, { symbol: BTC, side: 'SELL', type: 'MARKET', qty: '1' }, 2000);
    // fees 20000 × 0.0005 = 10 and 21000 × 0.0005 = 10.5; wallet 10000 − 10 + 1000 − 10.5
    expect(fills.map((f) => [f.fee, f.realisedPnl])).toEqual([['10.00000000', '0.00000000'], ['10.50000000', '1000.00000000']]);
    expect(engine.balances(ACCOUNT).find((b) => b.currency === 'USDT')?.wallet).toBe('10979.50000000');
  });

  it('averages the entry and realises against it on a partial close', () => {
    const tape = new ListTape().add(BTC, [{ time: 1000, price: px(20000) }, { time: 2000, price: px(22000) }, { time: 3000, price: px(23000) }]);
    const { engine, fills } = testEngine(tape);
    engine.place(ACCOUNT, { symbol: BTC, side: 'BUY', type: 'MARKET', qty: '1' }, 1000);
    engine.place(ACCOUNT, { symbol: BTC, side: 'BUY', type: 'MARKET', qty: '1' }, 2000);
    // entry (20000 + 22000) / 2 = 21000; selling 0.5 at 23000 realises (23000 − 21000) × 0.5 = 1000
    expect(engine.positions(ACCOUNT)[0].entryPrice).toBe('21000.00000000');
    engine.place(ACCOUNT, { symbol: BTC, side: 'SELL', type: 'MARKET', qty: '0.5' }, 3000);
    expect(fills[2].realisedPnl).toBe('1000.00000000');
    expect(engine.positions(ACCOUNT)[0]).toMatchObject({ size: '1.500', entryPrice: '21000.00000000' });
  });

  it('prices break-even with the opening fees and a taker close: (C + F) / (Q (1 − t))', () => {
    const tape = new ListTape().add(BTC, [{ time: 1000, price: px(20000) }]);
    const { engine } = testEngine(tape);
    engine.place(ACCOUNT, { symbol: BTC, side: 'BUY', type: 'MARKET', qty: '1' }, 1000);
    // (20000 + 10) / 0.9995 = 20020.01000500…
    expect(engine.positions(ACCOUNT)[0].breakEvenPrice).toBe('20020.01000500');
  });

  it('isolated liquidation price = (EP·Q − IWB) / (Q (1 ∓ MMR)); bankruptcy with MMR = 0', () => {
    const tape = new ListTape().add(BTC, [{ time: 1000, price: px(20000) }]);
    const { engine } = testEngine(tape);
    engine.setMarginMode(ACCOUNT, BTC, 'isolated', 1000);
    engine.setLeverage(ACCOUNT, BTC, 50, 1000);
    engine.place(ACCOUNT, { symbol: BTC, side: 'BUY', type: 'MARKET', qty: '1' }, 1000);
    // IWB = 20000 / 50 = 400 → (20000 − 400) / 0.996 = 19678.71485944; bankruptcy 19600
    expect(engine.positions(ACCOUNT)[0]).toMatchObject({ isolatedMargin: '400.00000000', liquidationPrice: '19678.71485944', bankruptcyPrice: '19600.00000000' });
    engine.place(ACCOUNT, { symbol: BTC, side: 'SELL', type: 'MARKET', qty: '2' }, 1000);
    // now short 1: (20000 + 400) / 1.004 = 20318.72509960; bankruptcy 20400
    expect(engine.positions(ACCOUNT)[0]).toMatchObject({ size: '-1.000', liquidationPrice: '20318.72509960', bankruptcyPrice: '20400.00000000' });
  });

  it('liquidates when the mark crosses: orders cancelled, closed at the bankruptcy price, margin lost, fill flagged', () => {
    const tape = new ListTape().add(BTC, [{ time: 1000, price: px(20000) }, { time: 2000, price: px(19800) }, { time: 3000, price: px(19650) }]);
    const { engine, fills, events } = testEngine(tape);
    engine.setMarginMode(ACCOUNT, BTC, 'isolated', 1000);
    engine.setLeverage(ACCOUNT, BTC, 50, 1000);
    engine.place(ACCOUNT, { symbol: BTC, side: 'BUY', type: 'MARKET', qty: '1' }, 1000);
    engine.place(ACCOUNT, { symbol: BTC, side: 'SELL', type: 'LIMIT', price: '25000', qty: '1', reduceOnly: true }, 1000);
    engine.advance(ACCOUNT, 2000);
    expect(engine.positions(ACCOUNT)).toHaveLength(1);
    engine.advance(ACCOUNT, 3000);
    expect(engine.positions(ACCOUNT)).toHaveLength(0);
    const liq = fills.find((f) => f.liquidation)!;
    // closed at 19600: loss = 400 = the isolated margin; no fee on the takeover
    expect(liq).toMatchObject({ side: 'SELL', price: '19600.00', realisedPnl: '-400.00000000', fee: '0.00000000', time: 3000 });
    expect(engine.balances(ACCOUNT).find((b) => b.currency === 'USDT')?.wallet).toBe('9590.00000000'); // 10000 − 10 fee − 400
    expect(events.some((e) => e.type === 'order' && e.order.type === 'LIMIT' && e.exec === 'canceled' && e.order.reason === 'liquidation')).toBe(true);
    expect(events.some((e) => e.type === 'account' && e.reason === 'liquidation')).toBe(true);
  });
});

describe('inverse (XBTUSD, 1 USD contracts, settled in XBT)', () => {
  it("charges fees in coin: qty / price × rate (Bybit's example: 10,000 at 8,000 taker 0.055 % = 0.0006875)", () => {
    const tape = new ListTape().add(XBT, [{ time: 1000, price: xpx(8000) }]);
    const { engine, fills } = testEngine(tape, { economics: { makerRate: '0.0002', takerRate: '0.00055', maintenanceRate: '0.005' } });
    engine.place(ACCOUNT, { symbol: XBT, side: 'BUY', type: 'MARKET', qty: '10000' }, 1000);
    expect(fills[0].fee).toBe('0.00068750');
    expect(fills[0].feeCurrency).toBe('XBT');
  });

  it('realises Q × (1/entry − 1/exit) in coin and prices liquidation as Q (1 + MMR) / (M + C)', () => {
    const tape = new ListTape().add(XBT, [{ time: 1000, price: xpx(50000) }, { time: 2000, price: xpx(55000) }]);
    const { engine, fills } = testEngine(tape, { economics: { makerRate: '0', takerRate: '0', maintenanceRate: '0.0035' } });
    engine.setMarginMode(ACCOUNT, XBT, 'isolated', 1000);
    engine.setLeverage(ACCOUNT, XBT, 10, 1000);
    engine.place(ACCOUNT, { symbol: XBT, side: 'BUY', type: 'MARKET', qty: '10000' }, 1000);
    // C = 10000 / 50000 = 0.2 XBT, M = 0.02; LP = 10035 / 0.22 = 45613.63636364; bankruptcy 10000 / 0.22 = 45454.54545455
    expect(engine.positions(ACCOUNT)[0]).toMatchObject({ entryPrice: '50000.00000000', isolatedMargin: '0.02000000', liquidationPrice: '45613.63636364', bankruptcyPrice: '45454.54545455' });
    engine.place(ACCOUNT, { symbol: XBT, side: 'SELL', type: 'MARKET', qty: '10000' }, 2000);
    // 10000 × (1/50000 − 1/55000) = 0.0181818181… → 0.01818182
    expect(fills[1].realisedPnl).toBe('0.01818182');
    expect(engine.balances(ACCOUNT).find((b) => b.currency === 'XBT')?.wallet).toBe('1.01818182');
  });

  it('averages an inverse entry harmonically: Q / Σ(q / p)', () => {
    const tape = new ListTape().add(XBT, [{ time: 1000, price: xpx(40000) }, { time: 2000, price: xpx(60000) }]);
    const { engine } = testEngine(tape);
    engine.place(ACCOUNT, { symbol: XBT, side: 'SELL', type: 'MARKET', qty: '1200' }, 1000);
    engine.place(ACCOUNT, { symbol: XBT, side: 'SELL', type: 'MARKET', qty: '1200' }, 2000);
    // 2400 / (0.03 + 0.02) = 48000
    expect(engine.positions(ACCOUNT)[0]).toMatchObject({ size: '-2400', entryPrice: '48000.00000000' });
    expect(INVERSE.settle).toBe('XBT');
  });
});
