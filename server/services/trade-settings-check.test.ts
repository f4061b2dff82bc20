import { describe, expect, it } from 'vitest';
import { TRADE_SETTINGS_DEFAULTS } from '../../src/api/contracts/funded-users';
import { HttpError } from '../lib/http-error';
import { assertOrderAllowed, checkOrderAgainstTradeSettings, type OrderUnderCheck } from './trade-settings-check';

const order: OrderUnderCheck = { symbol: 'BTCUSDT', positionNotional: '5000', leverage: '5', riskAmount: '100', balance: '10000', lossToday: '0' };
const limits = { maxRiskPercent: '1.5', maxPositionNotional: '20000', maxLeverage: '10', dailyLossLimit: '500', allowedSymbols: ['BTCUSDT', 'ETHUSDT'] };
const settingsOf = (violations: ReturnType<typeof checkOrderAgainstTradeSettings>) => violations.map((v) => v.setting);

describe('checkOrderAgainstTradeSettings', () => {
  it('allows anything when no limit is set', () => {
    expect(checkOrderAgainstTradeSettings(TRADE_SETTINGS_DEFAULTS, { ...order, riskAmount: null, leverage: '125', positionNotional: '1000000000', lossToday: '1000000' })).toEqual([]);
  });

  it('allows an order inside every limit, including one exactly at the limits', () => {
    expect(checkOrderAgainstTradeSettings(limits, order)).toEqual([]);
    expect(checkOrderAgainstTradeSettings(limits, { ...order, riskAmount: '150', leverage: '10', positionNotional: '20000', lossToday: '499.99' })).toEqual([]);
  });

  it('refuses a symbol outside the allowed list (case-insensitively)', () => {
    expect(checkOrderAgainstTradeSettings(limits, { ...order, symbol: 'ethusdt' })).toEqual([]);
    const v = checkOrderAgainstTradeSettings(limits, { ...order, symbol: 'SOLUSDT' });
    expect(v).toEqual([{ setting: 'allowedSymbols', message: 'SOLUSDT is not among the symbols you may trade (BTCUSDT, ETHUSDT)' }]);
  });

  it('refuses leverage, notional and risk above their limits, naming each', () => {
    const v = checkOrderAgainstTradeSettings(limits, { ...order, leverage: '20', positionNotional: '25000', riskAmount: '151' });
    expect(settingsOf(v)).toEqual(['maxLeverage', 'maxPositionNotional', 'maxRiskPercent']);
    expect(v[0].message).toBe('Leverage 20× is above your limit of 10×');
    expect(v[1].message).toBe('Position of $25,000 is above your limit of $20,000');
    expect(v[2].message).toBe('This trade risks 1.51 % of the balance; your limit is 1.5 %');
  });

  it('judges a limit exactly: one hundred-millionth of a dollar over is over, exactly at it passes', () => {
    // With floats and an epsilon of 1e-9 × the limit, $1,000,000,000.000001 passed a $1,000,000,000 limit.
    const big = { ...limits, maxPositionNotional: '1000000000' };
    expect(checkOrderAgainstTradeSettings(big, { ...order, positionNotional: '1000000000' })).toEqual([]);
    expect(settingsOf(checkOrderAgainstTradeSettings(big, { ...order, positionNotional: '1000000000.00000001' }))).toEqual(['maxPositionNotional']);
    // 0.1 + 0.2 of risk on a balance of 20 at a 1.5 % limit: exactly 1.5 % passes.
    expect(checkOrderAgainstTradeSettings(limits, { ...order, riskAmount: '0.3', balance: '20' })).toEqual([]);
    expect(settingsOf(checkOrderAgainstTradeSettings(limits, { ...order, riskAmount: '0.30000001', balance: '20' }))).toEqual(['maxRiskPercent']);
  });

  it('needs a stop-loss while risk per trade is limited, and a balance to measure it against', () => {
    expect(checkOrderAgainstTradeSettings(limits, { ...order, riskAmount: null })[0].message).toBe('Add a stop-loss: risk per trade is limited to 1.5 % of the balance');
    expect(settingsOf(checkOrderAgainstTradeSettings(limits, { ...order, balance: '0' }))).toEqual(['maxRiskPercent']);
  });

  it('stops new positions once the daily loss limit is reached', () => {
    const v = checkOrderAgainstTradeSettings(limits, { ...order, lossToday: '500' });
    expect(v).toEqual([{ setting: 'dailyLossLimit', message: 'Daily loss limit of $500 reached: no new positions until 00:00 UTC' }]);
  });

  it('always lets a reduce-only order through, so no one is trapped in a position', () => {
    expect(checkOrderAgainstTradeSettings(limits, { ...order, reduceOnly: true, symbol: 'SOLUSDT', lossToday: '1000000', riskAmount: null, leverage: '100' })).toEqual([]);
  });

  it('assertOrderAllowed throws 403 with every broken limit', () => {
    const err = (() => {
      try {
        assertOrderAllowed(limits, { ...order, symbol: 'XRPUSDT', leverage: '50' });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).status).toBe(403);
    expect(Object.keys((err as HttpError).fields ?? {})).toEqual(['allowedSymbols', 'maxLeverage']);
    expect(() => assertOrderAllowed(limits, order)).not.toThrow();
  });
});
