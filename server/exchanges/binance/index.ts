import { EXCHANGE_DISPLAY_NAMES } from '../../../src/api/contracts/common';
import { directHosts, type ExchangeDescriptor } from '../descriptor';
import { BINANCE_SIGNING, binanceKeyPermissions } from './account';
import { BINANCE_CAPABILITIES } from './capabilities';
import { binanceProtocol } from './protocol';
import { binancePrivateStream } from './stream';
import { BinanceTrading } from './trading';
import { binanceCandles } from './candles';
import { binanceInstruments } from './instruments';
import { binanceTickers, binanceTickerStream } from './tickers';

/** Binance USDⓈ-M futures (binance.md): the SPA and this server reach the same hosts; testnet is the demo host. */
const PUBLIC = {
  rest: 'https://fapi.binance.com',
  restTestnet: 'https://demo-fapi.binance.com',
  ws: 'wss://fstream.binance.com',
  wsTestnet: 'wss://fstream.binancefuture.com',
};

export const binance: ExchangeDescriptor = {
  id: 'binance',
  name: EXCHANGE_DISPLAY_NAMES.binance,
  hosts: directHosts(PUBLIC),
  signing: BINANCE_SIGNING,
  protocol: binanceProtocol,
  capabilities: BINANCE_CAPABILITIES,
  connector: (ctx) => new BinanceTrading(ctx),
  privateStream: binancePrivateStream,
  keyPermissions: binanceKeyPermissions,
  market: { candles: binanceCandles, instruments: binanceInstruments, tickers: binanceTickers, tickerStream: binanceTickerStream },
};
