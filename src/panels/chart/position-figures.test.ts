import { describe, expect, it } from 'vitest';
import { bracketBodySchema, placeOrderBodySchema, type Position } from '../../api/contracts/trading';
import type { PositionPlan } from '../../engine';
import { exitOrderAt, positionBracket, positionFigures, splitPercent, type PositionInstrument } from './position-figures';

const linear: PositionInstrument = { category: 'linear', contractValue: '1', stepSize: '0.001', minQty: '0.001', maxQty: '100', tickSize: '0.1' };
/** OKX BTC-USD-SWAP: 100 USD a contract, margined in BTC. */
const inverse: PositionInstrument = { category: 'inverse', contractValue: '100', stepSize: '1', minQty: '1', maxQty: '100000', tickSize: '0.1' };
const long = (p: Partial<PositionPlan> = {}): PositionPlan => ({ time: 1, side: 'long', stop: 64000, entry: 65000, targets: [66000, 67000, 68000], ...p });

describe('position tool figures', () => {
  it('a linear long: 1 % of 10,000 USDT over a 1,000 stop buys 0.1 BTC; targets at 1R, 2R, 3R share the size', () => {
    const f = positionFigures({ plan: long(), instrument: linear, balance: '10000', riskPercent: 1 })!;
    expect(f).toMatchObject({ side: 'BUY', entry: '65000', stop: '64000', qty: '0.1', riskAmount: '100', clamped: null, problem: null });
    expect(f.targets).toEqual([
      { price: '66000', r: '1', qtyPercent: 33.33 },
      { price: '67000', r: '2', qtyPercent: 33.33 },
      { price: '68000', r: '3', qtyPercent: 33.34 },
    ]);
  });

  it('an inverse long: 1 % of 1 BTC over |1/40000 − 1/50000| per 100 USD contract is 20 contracts, risking 0.01 BTC', () => {
    const f = positionFigures({ plan: long({ entry: 50000, stop: 40000, targets: [60000] }), instrument: inverse, balance: '1', riskPercent: 1 })!;
    expect(f.qty).toBe('20');
    expect(f.riskAmount).toBe('0.01');
    expect(f.targets).toEqual([{ price: '60000', r: '1', qtyPercent: 100 }]);
  });

  it('snaps the engine’s numbers to the tick and sizes down to the step', () => {
    const f = positionFigures({ plan: long({ entry: 65000.10000000001, stop: 64321.04999, targets: [66000.26] }), instrument: linear, balance: '1000', riskPercent: 1.5 })!;
    expect(f.entry).toBe('65000.1');
    expect(f.stop).toBe('64321');
    expect(f.targets[0].price).toBe('66000.3');
    // 15 ÷ 679.1 = 0.02208… → 0.022 (down to the step).
    expect(f.qty).toBe('0.022');
  });

  it('a short: the stop above, the side SELL, positive R below the entry', () => {
    const f = positionFigures({ plan: { time: 1, side: 'short', stop: 66000, entry: 65000, targets: [63000] }, instrument: linear, balance: '10000', riskPercent: 1 })!;
    expect(f.side).toBe('SELL');
    expect(f.targets[0].r).toBe('2');
  });

  it('says why it cannot be placed: nothing to risk', () => {
    const f = positionFigures({ plan: long(), instrument: { ...linear, minQty: '0' }, balance: '0', riskPercent: 1 })!;
    expect(f.problem).toBe('Nothing to risk: the balance is empty');
  });

  it('an entry on the stop after snapping is no position', () => {
    expect(positionFigures({ plan: long({ entry: 64000.01, stop: 64000.02 }), instrument: linear, balance: '10000', riskPercent: 1 })).toBeNull();
  });

  it('splits 100 % into hundredths that add up exactly', () => {
    for (const n of [1, 2, 3, 4, 5]) expect(splitPercent(n).reduce((a, b) => a + Math.round(b * 100), 0)).toBe(10_000);
    expect(splitPercent(3)).toEqual([33.33, 33.33, 33.34]);
  });

  it('"Place" sends a limit-entry bracket the contract accepts', () => {
    const f = positionFigures({ plan: long(), instrument: linear, balance: '10000', riskPercent: 1 })!;
    const body = bracketBodySchema.parse(positionBracket(f, 'BTCUSDT'));
    expect(body).toMatchObject({ symbol: 'BTCUSDT', side: 'BUY', qty: '0.1', entry: { type: 'LIMIT', price: '65000' }, stopLoss: { triggerPrice: '64000' } });
    expect(body.takeProfits.map((t) => t.price)).toEqual(['66000', '67000', '68000']);
  });
});

describe('a drag off the position line', () => {
  const pos: Pick<Position, 'symbol' | 'side' | 'size' | 'entryPrice'> = { symbol: 'BTCUSDT', side: 'BUY', size: '0.01', entryPrice: '65000' };

  it('a long: above the entry a reduce-only take-profit limit, below a reduce-only stop-market, for the whole size', () => {
    const tp = exitOrderAt(pos, '66000')!;
    expect(tp.kind).toBe('take-profit');
    expect(placeOrderBodySchema.parse(tp.body)).toMatchObject({ side: 'SELL', type: 'LIMIT', price: '66000', qty: '0.01', reduceOnly: true });
    const sl = exitOrderAt(pos, '64000')!;
    expect(sl.kind).toBe('stop-loss');
    expect(placeOrderBodySchema.parse(sl.body)).toMatchObject({ side: 'SELL', type: 'STOP_MARKET', triggerPrice: '64000', reduceOnly: true });
    expect(exitOrderAt(pos, '65000')).toBeNull();
  });

  it('a short: below the entry is its take-profit (a buy)', () => {
    const tp = exitOrderAt({ ...pos, side: 'SELL' }, '64000')!;
    expect(tp.kind).toBe('take-profit');
    expect(tp.body.side).toBe('BUY');
    expect(exitOrderAt({ ...pos, side: 'SELL' }, '66000')!.kind).toBe('stop-loss');
  });
});

describe('position tool problems', () => {
  it('a price at or below zero cannot be placed', () => {
    const f = positionFigures({ plan: { time: 1, side: 'short', stop: 30, entry: 20, targets: [10, 0, -10] }, instrument: linear, balance: '10000', riskPercent: 1 })!;
    expect(f.problem).toBe('Prices must be above zero');
  });
});
