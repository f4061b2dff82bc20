import { describe, expect, it } from 'vitest';
import { convertAmount, findConversion } from './convert';

const prices = new Map([
  ['BTCUSDT', 65000],
  ['ETHUSDT', 3200],
  ['XBTUSD', 64990],
  ['ETH-USD-SWAP', 3199],
]);

describe('balance currency conversion', () => {
  it('leaves the same currency alone (XBT is BTC)', () => {
    expect(findConversion('USDT', 'USDT', prices)).toEqual({ currency: 'USDT', rate: null, approximate: false });
    expect(findConversion('XBT', 'BTC', prices)?.rate).toBeNull();
  });

  it('converts a USDT balance to BTC by dividing by BTCUSDT, and back by multiplying', () => {
    const toBtc = findConversion('USDT', 'BTC', prices)!;
    expect(toBtc.rate).toEqual({ symbol: 'BTCUSDT', price: 65000, invert: true });
    expect(convertAmount('13000', toBtc)).toBe('0.2');
    const toUsdt = findConversion('BTC', 'USDT', prices)!;
    expect(convertAmount('0.5', toUsdt)).toBe('32500');
    expect(toUsdt.approximate).toBe(false);
  });

  it('takes an exact quote over a dollar look-alike, and marks a dollar stand-in as approximate', () => {
    // XBT → USDT: BTCUSDT (exact) beats XBTUSD (a USD quote).
    expect(findConversion('XBT', 'USDT', prices)?.rate?.symbol).toBe('BTCUSDT');
    const xbtToUsd = findConversion('XBT', 'USD', prices)!;
    expect(xbtToUsd.rate?.symbol).toBe('XBTUSD');
    expect(xbtToUsd.approximate).toBe(false);
    const ethToUsdc = findConversion('ETH', 'USDC', prices)!;
    expect(ethToUsdc.approximate).toBe(true);
    expect(findConversion('USDT', 'USD', prices)).toEqual({ currency: 'USD', rate: null, approximate: true });
  });

  it('has no way when no pair links the currencies', () => {
    expect(findConversion('USDT', 'SOL', prices)).toBeNull();
  });
});
