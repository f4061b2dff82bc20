import { describe, expect, it } from 'vitest';
import { notionalProblem, preview, qtyProblem, snapPrice, snapQty, stopFromPercent, targetAtR, type EntryTerms } from './order-math';

const BTCUSDT: EntryTerms = { category: 'linear', contractSize: '1', stepSize: '0.001', minQty: '0.001', maxQty: '1000', tickSize: '0.1' };
const XBTUSD: EntryTerms = { category: 'inverse', contractSize: '1', stepSize: '100', minQty: '100', maxQty: '10000000', tickSize: '0.5' };

describe('order entry math', () => {
  it('snaps prices to the tick and sizes down to the step; says what is wrong with a size', () => {
    expect(snapPrice('65000.06', '0.1')).toBe('65000.1');
    expect(snapPrice('65000.26', '0.5')).toBe('65000.5');
    expect(snapQty('0.0129', '0.001')).toBe('0.012');
    expect(snapPrice('abc', '0.1')).toBe('abc');
    expect(qtyProblem('0.0005', BTCUSDT)).toBe('Use a multiple of 0.001');
    expect(qtyProblem('2000', BTCUSDT)).toBe('Above the maximum 1000');
    expect(qtyProblem('', BTCUSDT)).toBe('Enter a size');
    expect(qtyProblem('0.010', BTCUSDT)).toBeNull();
  });

  it("says an order worth less than the exchange's minimum order value before it is sent; reduce-only and inverse are exempt", () => {
    const withMin: EntryTerms = { ...BTCUSDT, minNotional: '100' };
    expect(notionalProblem('0.001', '73261.3', withMin, false)).toBe("Worth 73.26, below the exchange's minimum order value 100");
    expect(notionalProblem('0.002', '73261.3', withMin, false)).toBeNull();
    expect(notionalProblem('0.001', '73261.3', withMin, true)).toBeNull();
    expect(notionalProblem('0.001', '73261.3', BTCUSDT, false)).toBeNull();
    expect(notionalProblem('100', '65000', { ...XBTUSD, minNotional: '100' }, false)).toBeNull();
  });

  it('stops from % on the losing side, targets at R on the winning side, for longs and shorts', () => {
    expect(stopFromPercent('65000', 1, 'BUY', '0.1')).toBe('64350');
    expect(stopFromPercent('65000', 1, 'SELL', '0.1')).toBe('65650');
    expect(targetAtR('65000', '64350', 2, 'BUY', '0.1')).toBe('66300');
    expect(targetAtR('65000', '65650', 2, 'SELL', '0.1')).toBe('63700');
  });

  it('previews size from risk, money at risk, R, margin and liquidation before anything is sent', () => {
    // 10,000 USDT × 1 % = 100 USDT over a 650 stop distance → 0.153 BTC (down to the step).
    const p = preview({ terms: BTCUSDT, side: 'BUY', entry: '65000', stop: '64350', balance: '10000', riskPercent: 1, qty: null, takeProfits: ['66300', '67600'], leverage: 10 });
    expect(p).toMatchObject({ qty: '0.153', riskAmount: '99.45', rMultiples: ['2', '4'], margin: '994.5', clamped: null });
    expect(Number(p?.liquidation)).toBeLessThan(64350);
    // A stop on the wrong side: no preview (the form says so instead of sending).
    expect(preview({ terms: BTCUSDT, side: 'BUY', entry: '65000', stop: '65100', balance: '10000', riskPercent: 1, qty: null, takeProfits: [], leverage: 10 })).toBeNull();
    // Inverse: 1 XBT × 1 % over 1 % distance ≈ 6,500 USD contracts, in steps of 100.
    const inv = preview({ terms: XBTUSD, side: 'BUY', entry: '65000', stop: '64350', balance: '1', riskPercent: 1, qty: null, takeProfits: [], leverage: 10 });
    expect(inv?.qty).toBe('64300');
    // A size typed by hand: its own risk.
    expect(preview({ terms: BTCUSDT, side: 'BUY', entry: '65000', stop: '64350', balance: '10000', riskPercent: 1, qty: '0.010', takeProfits: [], leverage: 10 })?.riskAmount).toBe('6.5');
  });
});
