import { EXCHANGE_DISPLAY_NAMES } from '../../../src/api/contracts/common';
import type { ExchangeDescriptor } from '../descriptor';
import { BITMEX_SIGNING, bitmexKeyPermissions } from './account';
import { BITMEX_CAPABILITIES } from './capabilities';
import { bitmexProtocol } from './protocol';
import { bitmexPrivateStream } from './stream';
import { BitmexTrading } from './trading';
import { bitmexCandles } from './candles';
import { bitmexInstruments } from './instruments';
import { bitmexTickers, bitmexTickerStream } from './tickers';

/** Browsers cannot call BitMEX's REST (CORS, SPEC §7): the SPA goes through this server's proxies, to these paths only. */
const MAINNET = 'https://www.bitmex.com';
const TESTNET = 'https://testnet.bitmex.com';
const PROXIED = ['/api/udf/history', '/api/udf/config', '/api/v1/trade/bucketed', '/api/v1/instrument', '/api/v1/instrument/active'];

/** BitMEX (bitmex.md): XBTUSD inverse, the quanto ETHUSD, *USDT linear. */
export const bitmex: ExchangeDescriptor = {
  id: 'bitmex',
  name: EXCHANGE_DISPLAY_NAMES.bitmex,
  hosts: {
    public: {
      rest: '/v1/proxy/bitmex-mainnet',
      restTestnet: '/v1/proxy/bitmex-testnet',
      ws: 'wss://ws.bitmex.com',
      wsTestnet: 'wss://ws.testnet.bitmex.com',
    },
    rest: (testnet) => ({ base: testnet ? TESTNET : MAINNET }),
    proxies: { 'bitmex-mainnet': { host: MAINNET, paths: PROXIED }, 'bitmex-testnet': { host: TESTNET, paths: PROXIED } },
  },
  signing: BITMEX_SIGNING,
  protocol: bitmexProtocol,
  capabilities: BITMEX_CAPABILITIES,
  connector: (ctx) => new BitmexTrading(ctx),
  privateStream: bitmexPrivateStream,
  keyPermissions: bitmexKeyPermissions,
  market: { candles: bitmexCandles, instruments: bitmexInstruments, tickers: bitmexTickers, tickerStream: bitmexTickerStream },
};
