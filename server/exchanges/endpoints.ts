import type { ExchangeEndpoints } from '../../src/api/contracts/config';
import type { ExchangeId } from '../../src/api/contracts/common';
import { EXCHANGES, perExchange } from './registry';

/**
 * Base URLs the SPA's market adapters use, served through `GET /v1/config` (each exchange's `hosts.public`
 * in its `<exchange>/index.ts`). `rest` is the root the exchange's documented REST paths hang off (e.g.
 * `${rest}/fapi/v1/klines`); `ws` is the root of its documented WebSocket paths (e.g.
 * `${ws}/market/ws/btcusdt@kline_1m`). BitMEX and OKX REST go through this server's fixed-host proxies
 * (SPEC §7: browsers cannot call them directly because of CORS), so their `rest` is a same-origin path.
 */
export const LIVE_ENDPOINTS: Record<ExchangeId, ExchangeEndpoints> = perExchange((d) => d.hosts.public);

const PROXIES = Object.values(EXCHANGES).flatMap((d) => Object.entries(d.hosts.proxies ?? {}));

/** Hosts the proxies may forward to (no open proxy: DESIGN §5), from the exchanges' `hosts.proxies`. */
export const PROXY_TARGETS: Readonly<Record<string, string>> = Object.fromEntries(PROXIES.map(([id, p]) => [id, p.host]));
export type ProxyTargetId = string;
export const PROXY_TARGET_IDS: ProxyTargetId[] = Object.keys(PROXY_TARGETS);

/**
 * The only paths each proxy forwards (exact match on the raw path, GET only): the public market
 * data SPEC §7 reads (BitMEX UDF candles, OKX candles) plus the instrument and ticker lists the
 * adapters and the exchange-info service use. Anything else is a 400 (DESIGN §5: no open proxy).
 */
export const PROXY_ALLOWED_PATHS: Readonly<Record<ProxyTargetId, readonly string[]>> = Object.fromEntries(PROXIES.map(([id, p]) => [id, p.paths]));

/**
 * The real REST host of an exchange for a network, as the server reaches it (never through its
 * own proxies), with the headers every call needs: OKX demo trading is the production host plus
 * `x-simulated-trading: 1` (trap 20).
 */
export function liveRestBase(exchange: ExchangeId, testnet: boolean): { base: string; headers?: Record<string, string> } {
  return EXCHANGES[exchange].hosts.rest(testnet);
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
  return perExchange((d) => one(d.id));
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
