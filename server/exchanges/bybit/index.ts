import { EXCHANGE_DISPLAY_NAMES } from '../../../src/api/contracts/common';
import { directHosts, type ExchangeDescriptor } from '../descriptor';
import { BYBIT_SIGNING, bybitKeyPermissions } from './account';
import { BYBIT_CAPABILITIES } from './capabilities';
import { bybitProtocol } from './protocol';
import { bybitPrivateStream } from './stream';
import { BybitTrading } from './trading';
import { bybitCandles } from './candles';
import { bybitInstruments } from './instruments';
import { bybitTickers, bybitTickerStream } from './tickers';

/** Bybit v5 (bybit.md), unified account: the SPA and this server reach the same hosts. */
const PUBLIC = {
  rest: 'https://api.bybit.com',
  restTestnet: 'https://api-testnet.bybit.com',
  ws: 'wss://stream.bybit.com',
  wsTestnet: 'wss://stream-testnet.bybit.com',
};

export const bybit: ExchangeDescriptor = {
  id: 'bybit',
  name: EXCHANGE_DISPLAY_NAMES.bybit,
  hosts: directHosts(PUBLIC),
  signing: BYBIT_SIGNING,
  protocol: bybitProtocol,
  capabilities: BYBIT_CAPABILITIES,
  connector: (ctx) => new BybitTrading(ctx),
  privateStream: bybitPrivateStream,
  keyPermissions: bybitKeyPermissions,
  market: { candles: bybitCandles, instruments: bybitInstruments, tickers: bybitTickers, tickerStream: bybitTickerStream },
};
