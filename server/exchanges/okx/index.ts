import { EXCHANGE_DISPLAY_NAMES } from '../../../src/api/contracts/common';
import type { ExchangeDescriptor } from '../descriptor';
import { OKX_SIGNING, okxKeyPermissions } from './account';
import { OKX_CAPABILITIES } from './capabilities';
import { okxProtocol } from './protocol';
import { okxPrivateStream } from './stream';
import { OkxTrading } from './trading';
import { okxCandles } from './candles';
import { okxInstruments } from './instruments';
import { okxTickers, okxTickerStream } from './tickers';

/** Browsers cannot call OKX's REST (CORS, SPEC §7): the SPA goes through this server's proxy, to these paths only. */
const HOST = 'https://www.okx.com';
const DEMO: Record<string, string> = { 'x-simulated-trading': '1' };
const PROXIED = ['/api/v5/market/candles', '/api/v5/market/history-candles', '/api/v5/market/tickers', '/api/v5/market/ticker', '/api/v5/public/instruments', '/api/v5/public/time'];

/** OKX v5 (okx.md): demo trading is the production host plus `x-simulated-trading: 1` (trap 20). */
export const okx: ExchangeDescriptor = {
  id: 'okx',
  name: EXCHANGE_DISPLAY_NAMES.okx,
  hosts: {
    public: {
      rest: '/v1/proxy/okx-mainnet-testnet',
      restTestnet: '/v1/proxy/okx-mainnet-testnet',
      ws: 'wss://ws.okx.com:8443',
      wsTestnet: 'wss://wspap.okx.com:8443',
    },
    rest: (testnet) => ({ base: HOST, headers: testnet ? DEMO : {} }),
    proxies: { 'okx-mainnet-testnet': { host: HOST, paths: PROXIED } },
  },
  signing: OKX_SIGNING,
  protocol: okxProtocol,
  capabilities: OKX_CAPABILITIES,
  connector: (ctx) => new OkxTrading(ctx),
  privateStream: okxPrivateStream,
  keyPermissions: okxKeyPermissions,
  market: { candles: okxCandles, instruments: okxInstruments, tickers: okxTickers, tickerStream: okxTickerStream },
};
