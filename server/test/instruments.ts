import type { TradingInstrument } from '../exchanges/trading';

/** Binance's BTCUSDT perpetual as the connectors see it (the fixtures' tick and lot sizes), for connector tests. */
export const BTCUSDT_PERP: TradingInstrument = {
  symbol: 'BTCUSDT',
  exchangeSymbol: 'BTCUSDT',
  base: 'BTC',
  quote: 'USDT',
  settle: 'USDT',
  category: 'linear',
  tickSize: '0.1',
  stepSize: '0.001',
  minQty: '0.001',
  maxQty: '1000',
  contractValue: '1',
};
