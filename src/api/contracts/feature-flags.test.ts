import { describe, expect, it } from 'vitest';
import { enabledExchangeIds as enabledExchanges } from './feature-flags';

describe('enabledExchanges (SPEC §2 exchange picker)', () => {
  it('always offers binance and each other exchange only while its flag is on', () => {
    expect(enabledExchanges(undefined)).toEqual(['binance']);
    expect(enabledExchanges({})).toEqual(['binance']);
    expect(enabledExchanges({ FF_ENABLE_BITMEX: true })).toEqual(['binance', 'bitmex']);
    expect(enabledExchanges({ FF_ENABLE_BYBIT: true, FF_ENABLE_OKX: true, FF_ENABLE_BITMEX: false })).toEqual(['binance', 'bybit', 'okx']);
  });
});
