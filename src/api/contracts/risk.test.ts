import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cmp, dec, div, str } from './decimal';
import { estimatedLiquidationPrice, marginRequired, pnlAt, riskOf, rMultiple, sizeFromRisk, type InstrumentTerms } from './risk';

const BTCUSDT: InstrumentTerms = { category: 'linear', contractSize: '1', stepSize: '0.001', minQty: '0.001', maxQty: '1000' };
const OKX_BTC_USDT_SWAP: InstrumentTerms = { category: 'linear', contractSize: '0.01', stepSize: '0.01', minQty: '0.01', maxQty: '10000' };
const XBTUSD: InstrumentTerms = { category: 'inverse', contractSize: '1', stepSize: '100', minQty: '100', maxQty: '10000000' };
/** BitMEX quanto ETHUSD: priced in USD, settled in XBT, 100 satoshi (0.000001 XBT) per contract per 1 USD. */
const ETHUSD_QUANTO: InstrumentTerms = { category: 'linear', contractSize: '0.000001', stepSize: '1', minQty: '1', maxQty: '10000000' };

describe('risk sizing (DESIGN §3.4)', () => {
  it('linear: 10,000 USDT × 1.5% ÷ |65,000 − 64,000| = 0.15 BTC', () => {
    expect(sizeFromRisk({ terms: BTCUSDT, balance: '10000', riskPercent: 1.5, entry: '65000', stop: '64000' })).toEqual({
      qty: '0.15',
      riskAmount: '150',
      idealQty: '0.15',
      clamped: null,
    });
  });

  it('rounds down to the step, so the money at risk never exceeds the budget', () => {
    const r = sizeFromRisk({ terms: BTCUSDT, balance: '10000', riskPercent: 1, entry: '65000', stop: '64300' });
    expect(r.qty).toBe('0.142'); // 100 / 700 = 0.142857…
    expect(cmp(dec(r.riskAmount), dec('100'))).toBeLessThanOrEqual(0);
    expect(r.riskAmount).toBe('99.4');
  });

  it('sizes OKX contracts of 0.01 BTC', () => {
    expect(sizeFromRisk({ terms: OKX_BTC_USDT_SWAP, balance: '10000', riskPercent: 1.5, entry: '65000', stop: '64000' }).qty).toBe('15');
  });

  it('inverse: 1 XBT × 1% ÷ |1/60,000 − 1/62,000| contracts, down to lots of 100', () => {
    // 0.01 ÷ (1/60000 − 1/62000) = 0.01 ÷ 5.376344e-7 = 18,600 USD contracts.
    const r = sizeFromRisk({ terms: XBTUSD, balance: '1', riskPercent: 1, entry: '62000', stop: '60000' });
    expect(r.qty).toBe('18600');
    expect(Number(r.riskAmount)).toBeCloseTo(0.01, 6);
    expect(Number(r.riskAmount)).toBeLessThanOrEqual(0.01);
  });

  it('says when the risk buys less than the smallest order or more than the largest', () => {
    expect(sizeFromRisk({ terms: BTCUSDT, balance: '10', riskPercent: 1, entry: '65000', stop: '64000' })).toMatchObject({ qty: '0.001', clamped: 'min' });
    expect(sizeFromRisk({ terms: BTCUSDT, balance: '1e9', riskPercent: 10, entry: '65000', stop: '64999' })).toMatchObject({ qty: '1000', clamped: 'max' });
    expect(() => sizeFromRisk({ terms: BTCUSDT, balance: '1', riskPercent: 1, entry: '1', stop: '1' })).toThrow(/differ/);
  });

  it('risk of an order, R multiples, margin', () => {
    expect(riskOf({ terms: BTCUSDT, qty: '0.15', entry: '65000', stop: '64000' })).toBe('150');
    expect(rMultiple({ side: 'BUY', entry: '65000', stop: '64000', takeProfit: '67000' })).toBe('2');
    expect(rMultiple({ side: 'SELL', entry: '65000', stop: '66000', takeProfit: '63500' })).toBe('1.5');
    expect(marginRequired({ terms: BTCUSDT, qty: '0.15', price: '65000', leverage: 10 })).toBe('975');
    expect(marginRequired({ terms: XBTUSD, qty: '10000', price: '50000', leverage: 5 })).toBe('0.04');
  });

  it('estimates the liquidation price of an isolated position (paper-economics.md, derived)', () => {
    // Linear long 50× at 20,000 with 0.5% maintenance: 20000 × 0.98 / 0.995 = 19,698.49…
    expect(estimatedLiquidationPrice({ category: 'linear', side: 'BUY', entry: '20000', leverage: 50, maintenanceRate: '0.005' })).toBe('19698.49246231');
    expect(estimatedLiquidationPrice({ category: 'linear', side: 'SELL', entry: '20000', leverage: 50, maintenanceRate: '0.005' })).toBe('20298.50746269');
    // Inverse long 100× at 50,000, 0.35%: 50000 / (1 + 0.01 − 0.0035)
    expect(estimatedLiquidationPrice({ category: 'inverse', side: 'BUY', entry: '50000', leverage: 100, maintenanceRate: '0.0035' })).toBe('49677.09885743');
    // A 1× inverse short is never liquidated (its margin covers any rise): 1 − 1 + 0.0035 > 0 still gives a price far away.
    expect(Number(estimatedLiquidationPrice({ category: 'inverse', side: 'SELL', entry: '50000', leverage: 1, maintenanceRate: '0.0035' }))).toBeGreaterThan(1e6);
  });
});

describe('PnL at a price, per contract kind (issue 22)', () => {
  const OKX_BTC_USD_SWAP = { category: 'inverse' as const, contractSize: '100' };
  it('linear: size × contract size × move, signed for the side', () => {
    expect(pnlAt({ terms: BTCUSDT, side: 'BUY', qty: '0.5', entry: '60000', exit: '61000' })).toBe('500');
    expect(pnlAt({ terms: OKX_BTC_USDT_SWAP, side: 'SELL', qty: '3', entry: '60000', exit: '61000' })).toBe('-30');
  });
  it('inverse counts the contract value: 10 OKX BTC-USD-SWAP contracts (100 USD each) from 60,000 to 61,000 make 0.0002732… BTC', () => {
    // 1,000 USD × (1/60000 − 1/61000) = 1000 × 1000 / (60000 × 61000)
    expect(pnlAt({ terms: OKX_BTC_USD_SWAP, side: 'BUY', qty: '10', entry: '60000', exit: '61000' })).toBe('0.000273224044');
    expect(pnlAt({ terms: XBTUSD, side: 'SELL', qty: '1000', entry: '60000', exit: '61000' })).toBe('-0.000273224044');
  });
  it('the loss at the stop is the risk sizing used, for every contract kind', () => {
    fc.assert(
      fc.property(fc.constantFrom(BTCUSDT, OKX_BTC_USDT_SWAP, XBTUSD), fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 20_000, max: 100_000 }), fc.integer({ min: 1, max: 5_000 }), (terms, lots, entry, distance) => {
        const qty = String(lots * Number(terms.minQty));
        const stop = String(entry - distance);
        const loss = -Number(pnlAt({ terms, side: 'BUY', qty, entry: String(entry), exit: stop }));
        const risk = Number(riskOf({ terms, qty, entry: String(entry), stop }));
        expect(Math.abs(loss - risk)).toBeLessThanOrEqual(1e-11 * Math.max(1, risk));
      }),
      { numRuns: 200, seed: 22 },
    );
  });

  it('quanto (BitMEX ETHUSD) is BitMEX\'s formula: PnL in XBT = qty × multiplier (satoshi) × (exit − entry) ÷ 1e8', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 20_000, max: 200_000 }), fc.integer({ min: 20_000, max: 200_000 }), (qty, entry20, exit20) => {
        // Prices on the 0.05 tick, multiplier 100 satoshi: BitMEX's quanto value is qty × multiplier × price satoshi.
        const entry = (entry20 / 20).toFixed(2);
        const exit = (exit20 / 20).toFixed(2);
        const satoshi = BigInt(qty) * 100n * (BigInt(exit20) - BigInt(entry20)); // ×20 for the tick, so ÷20 below
        const expected = str(div(dec(satoshi), dec(20 * 100_000_000), 18));
        expect(pnlAt({ terms: ETHUSD_QUANTO, side: 'BUY', qty: String(qty), entry, exit })).toBe(expected);
      }),
      { numRuns: 200, seed: 23 },
    );
    // Sized from an XBT balance: 0.5 XBT × 1 % ÷ (|3000 − 2970| × 0.000001 XBT) = 166.67 → 166 contracts, risking 0.00498 XBT.
    expect(sizeFromRisk({ terms: ETHUSD_QUANTO, balance: '0.5', riskPercent: 1, entry: '3000', stop: '2970' })).toMatchObject({ qty: '166', riskAmount: '0.00498' });
    // 1000 contracts at 3000: 1000 × 100 sat × 3000 = 3 XBT of value, 0.3 XBT of margin at 10×.
    expect(marginRequired({ terms: ETHUSD_QUANTO, qty: '1000', price: '3000', leverage: 10 })).toBe('0.3');
  });
});
