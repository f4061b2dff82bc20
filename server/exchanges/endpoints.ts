import type { ExchangeEndpoints } from '../../src/api/contracts/config';
import type { ExchangeId } from '../../src/api/contracts/common';

/**
 * Base URLs the SPA's market adapters use, served through `GET /v1/config`.
 * `rest` is the root the exchange's documented REST paths hang off (e.g. `${rest}/fapi/v1/klines`);
 * `ws` is the root of its documented WebSocket paths (e.g. `${ws}/market/ws/btcusdt@kline_1m`).
 * BitMEX and OKX REST go through this server's fixed-host proxies (SPEC §7: browsers cannot call them
 * directly because of CORS), so their `rest` is a same-origin path.
 */
export const LIVE_ENDPOINTS: Record<ExchangeId, ExchangeEndpoints> = {
  binance: {
    rest: 'https://fapi.binance.com',
    restTestnet: 'https://demo-fapi.binance.com',
    ws: 'wss://fstream.binance.com',
    wsTestnet: 'wss://fstream.binancefuture.com',
  },
  bybit: {
    rest: 'https://api.bybit.com',
    restTestnet: 'https://api-testnet.bybit.com',
    ws: 'wss://stream.bybit.com',
    wsTestnet: 'wss://stream-testnet.bybit.com',
  },
  bitmex: {
    rest: '/v1/proxy/bitmex-mainnet',
    restTestnet: '/v1/proxy/bitmex-testnet',
    ws: 'wss://ws.bitmex.com',
    wsTestnet: 'wss://ws.testnet.bitmex.com',
  },
  okx: {
    rest: '/v1/proxy/okx-mainnet-testnet',
    restTestnet: '/v1/proxy/okx-mainnet-testnet',
    ws: 'wss://ws.okx.com:8443',
    wsTestnet: 'wss://wspap.okx.com:8443',
  },
};

/** Hosts the proxies may forward to (no open proxy: DESIGN §5). */
export const PROXY_TARGETS = {
  'bitmex-mainnet': 'https://www.bitmex.com',
  'bitmex-testnet': 'https://testnet.bitmex.com',
  'okx-mainnet-testnet': 'https://www.okx.com',
} as const;
export type ProxyTargetId = keyof typeof PROXY_TARGETS;
export const PROXY_TARGET_IDS = Object.keys(PROXY_TARGETS) as ProxyTargetId[];

/**
 * The only paths each proxy forwards (exact match on the raw path, GET only): the public market
 * data SPEC §7 reads (BitMEX UDF candles, OKX candles) plus the instrument and ticker lists the
 * adapters and the exchange-info service use. Anything else is a 400 (DESIGN §5: no open proxy).
 */
const BITMEX_PUBLIC = ['/api/udf/history', '/api/udf/config', '/api/v1/trade/bucketed', '/api/v1/instrument', '/api/v1/instrument/active'];
export const PROXY_ALLOWED_PATHS: Record<ProxyTargetId, readonly string[]> = {
  'bitmex-mainnet': BITMEX_PUBLIC,
  'bitmex-testnet': BITMEX_PUBLIC,
  'okx-mainnet-testnet': [
    '/api/v5/market/candles',
    '/api/v5/market/history-candles',
    '/api/v5/market/tickers',
    '/api/v5/market/ticker',
    '/api/v5/public/instruments',
    '/api/v5/public/time',
  ],
};

/**
 * The real REST host of an exchange for a network, as the server reaches it (never through its
 * own proxies), with the headers every call needs: OKX demo trading is the production host plus
 * `x-simulated-trading: 1` (trap 20).
 */
export function liveRestBase(exchange: ExchangeId, testnet: boolean): { base: string; headers?: Record<string, string> } {
  switch (exchange) {
    case 'binance':
    case 'bybit':
      return { base: testnet ? LIVE_ENDPOINTS[exchange].restTestnet : LIVE_ENDPOINTS[exchange].rest };
    case 'bitmex':
      return { base: PROXY_TARGETS[testnet ? 'bitmex-testnet' : 'bitmex-mainnet'] };
    case 'okx':
      return { base: PROXY_TARGETS['okx-mainnet-testnet'], headers: testnet ? { 'x-simulated-trading': '1' } : {} };
  }
}

/**
 * In simulator mode every exchange is served by this server under `/sim/<exchange>`, at the same
 * paths as the real host (mainnet and testnet alike). URLs are same-origin paths; the SPA turns
 * the ws ones into `ws(s)://<its host>/sim/...`.
 */
export function simEndpoints(): Record<ExchangeId, ExchangeEndpoints> {
  const one = (id: ExchangeId): ExchangeEndpoints => ({
    rest: `/sim/${id}`,
    restTestnet: `/sim/${id}`,
    ws: `/sim/${id}`,
    wsTestnet: `/sim/${id}`,
  });
  return { binance: one('binance'), bybit: one('bybit'), bitmex: one('bitmex'), okx: one('okx') };
}

/** Every origin the SPA may connect to in live mode, for the Content-Security-Policy `connect-src`. */
export function liveConnectSources(): string[] {
  const out = new Set<string>();
  for (const e of Object.values(LIVE_ENDPOINTS)) {
    for (const url of [e.rest, e.restTestnet, e.ws, e.wsTestnet]) {
      if (/^(https|wss):\/\//.test(url)) out.add(new URL(url).origin);
    }
  }
  return [...out];
}
