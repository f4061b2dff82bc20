import { describe, expect, it } from 'vitest';
import { decimalPlaces } from '../../../src/api/contracts/common';
import { LEVERAGE_RULES, leverageProblem } from './leverage-rules';

describe('leverage rules per exchange (checked before the call is sent)', () => {
  it.each([
    ['binance', [1, 5, 20, 125], [1.5, 0.5, 0, 126, 10.01]],
    ['bybit', [1, 1.5, 2.25, 100, 150], [0.99, 0.5, 1.234, 2.001]],
    ['okx', [0.01, 0.5, 1, 3.75, 125], [0, 0.001, 1.005, 2.125]],
    ['bitmex', [0.01, 1, 12.5, 33.33, 100], [0, 0.001, 100.01, 150, 2.345]],
  ] as const)('%s takes %j and refuses %j, naming its rule', (exchange, taken, refused) => {
    for (const n of taken) expect(leverageProblem(exchange, n), `${exchange} ${n}`).toBeNull();
    for (const n of refused) expect(leverageProblem(exchange, n), `${exchange} ${n}`).toBe(LEVERAGE_RULES[exchange].text);
  });

  it('says the rule in words', () => {
    expect(leverageProblem('binance', 1.5)).toBe('Binance takes whole-number leverage: 1 to 125');
    expect(leverageProblem('bitmex', 0)).toMatch(/^BitMEX takes leverage from 0\.01 to 100 with at most 2 decimals/);
  });

  it('counts decimals as the JSON number was written, exponents included', () => {
    expect([1, 1.5, 2.25, 0.01, 1e-7, 1.5e-3, 1e21, 0.1 + 0.2].map(decimalPlaces)).toEqual([0, 1, 2, 2, 7, 4, 0, 17]);
    expect(leverageProblem('bybit', Number.NaN)).toBe(LEVERAGE_RULES.bybit.text);
  });
});
