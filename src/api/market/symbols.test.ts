import { describe, expect, it } from 'vitest';
import { fromOkxInstId, inferCategory, splitPair, toOkxInstId } from './symbols';
import { fixture } from './testing/fixtures';

describe('symbol helpers', () => {
  it('maps our pairs to OKX perpetual instIds and back', () => {
    expect(toOkxInstId('BTCUSDT')).toBe('BTC-USDT-SWAP');
    expect(toOkxInstId('BTCUSD')).toBe('BTC-USD-SWAP');
    expect(toOkxInstId('ETHUSDC')).toBe('ETH-USDC-SWAP');
    expect(toOkxInstId('1000PEPEUSDT')).toBe('1000PEPE-USDT-SWAP');
    expect(toOkxInstId('BTC-USDT-SWAP')).toBe('BTC-USDT-SWAP');
    const swaps = (fixture('okx', 'instruments-swap.json') as { data: { instId: string; ctType: string }[] }).data;
    for (const s of swaps) {
      expect(toOkxInstId(fromOkxInstId(s.instId))).toBe(s.instId);
      expect(inferCategory('okx', fromOkxInstId(s.instId))).toBe(s.ctType);
      expect(inferCategory('okx', s.instId)).toBe(s.ctType);
    }
  });

  it('splits pairs on the longest known quote', () => {
    expect(splitPair('BTCUSDT')).toEqual({ base: 'BTC', quote: 'USDT' });
    expect(splitPair('XBTUSD')).toEqual({ base: 'XBT', quote: 'USD' });
    expect(splitPair('BTC-USD-SWAP')).toEqual({ base: 'BTC', quote: 'USD' });
    expect(splitPair('BTCEUR')).toBeUndefined();
  });

  it('infers linear/inverse per exchange', () => {
    expect(inferCategory('bybit', 'BTCUSDT')).toBe('linear');
    expect(inferCategory('bybit', 'BTCUSD')).toBe('inverse');
    expect(inferCategory('bybit', 'BTCUSDH25')).toBe('inverse');
    expect(inferCategory('bybit', 'BTCPERP')).toBe('linear');
    expect(inferCategory('bitmex', 'XBTUSD')).toBe('inverse');
    expect(inferCategory('bitmex', 'XBTUSDT')).toBe('linear');
    expect(inferCategory('binance', 'BTCUSD')).toBe('linear'); // USDⓈ-M only
  });
});
