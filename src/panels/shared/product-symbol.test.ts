import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../api/contracts/exchanges';
import { productSymbol } from './product-symbol';

const inst = (symbol: string, exchangeSymbol: string): Instrument => ({
  symbol,
  exchangeSymbol,
  base: 'BTC',
  quote: symbol.endsWith('USDT') ? 'USDT' : 'USD',
  settle: symbol.endsWith('USDT') ? 'USDT' : 'BTC',
  category: symbol.endsWith('USDT') ? 'linear' : 'inverse',
  tickSize: '0.1',
  stepSize: '1',
  minQty: '1',
  maxQty: '1000',
  contractValue: symbol.endsWith('USDT') ? '0.01' : '100',
  precision: 1,
  quantityPrecision: 0,
});

describe('the pair box names one instrument (issue 22)', () => {
  const okx = [inst('BTCUSDT', 'BTC-USDT-SWAP'), inst('BTCUSD', 'BTC-USD-SWAP')];
  it("takes the exchange's own name, any case, as the product's pair id", () => {
    expect(productSymbol('BTC-USDT-SWAP', okx)).toBe('BTCUSDT');
    expect(productSymbol(' btc-usd-swap ', okx)).toBe('BTCUSD');
    expect(productSymbol('btcusdt', okx)).toBe('BTCUSDT');
  });
  it('leaves a name it does not know as typed (the chart says it is unknown)', () => {
    expect(productSymbol('NOPE-SWAP', okx)).toBe('NOPE-SWAP');
    expect(productSymbol('BTC-USDT-SWAP', undefined)).toBe('BTC-USDT-SWAP');
  });
});
