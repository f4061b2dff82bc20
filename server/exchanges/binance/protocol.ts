import { asJson, type ExchangeProtocol, type RateLimitRules, type SignedCall } from '../signed-request';
import { BINANCE_RECV_WINDOW, binanceSignedQuery } from './account';
import { BINANCE_ERRORS } from './errors';

/**
 * Binance USDⓈ-M's signed REST (binance.md §5–§7) for the shared pipeline: parameters in the given order plus
 * `recvWindow` and `timestamp`, the signature last, in the query (GET / DELETE) or the form body (POST / PUT);
 * errors are HTTP 4xx with `{ code, msg }`.
 */

/**
 * binance.md §7: the IP's weight per minute (2,400: every key this server holds, so the hold is the address's)
 * and the account's orders per 10 s (300: the key's), held a little before the end.
 */
export const BINANCE_RATE_LIMITS: RateLimitRules = {
  budget: [
    { header: 'x-mbx-used-weight-1m', usedAtLeast: 2_200, windowMs: 60_000, per: 'address' },
    { header: 'x-mbx-order-count-10s', usedAtLeast: 280, windowMs: 10_000 },
  ],
  // 429 and 418 carry Retry-After (seconds); without one, the 1-minute weight window.
  wait: { retryAfter: true, fallbackMs: 60_000 },
  // Reads take at most 1,800 of the address's 2,400 a minute: the rest is left to cancels (orders weigh 0).
  pace: {
    header: 'x-mbx-used-weight-1m',
    readBudget: 1_800,
    windowMs: 60_000,
    weight: binanceCallWeight,
    lookup: (call) => call.method === 'GET' && ['/fapi/v1/order', '/fapi/v1/algoOrder', '/fapi/v1/time'].includes(call.path),
  },
};

/**
 * The IP weight of the calls the connector makes (Binance's REST documentation, binance.md §5–§7): orders 0
 * (they count on the account's order counters), a read without a symbol of every open order 40, positions and
 * the account 5, the rest 1.
 */
export function binanceCallWeight(call: SignedCall): number {
  const bySymbol = call.params?.some(([k]) => k === 'symbol') ?? false;
  switch (`${call.method} ${call.path}`) {
    case 'POST /fapi/v1/order':
    case 'POST /fapi/v1/algoOrder':
      return 0;
    case 'POST /fapi/v1/batchOrders':
      return 5;
    case 'GET /fapi/v1/openOrders':
    case 'GET /fapi/v1/openAlgoOrders':
      return bySymbol ? 1 : 40;
    case 'GET /fapi/v1/allOrders':
    case 'GET /fapi/v1/allAlgoOrders':
    case 'GET /fapi/v1/userTrades':
    case 'GET /fapi/v2/positionRisk':
    case 'GET /fapi/v3/positionRisk':
    case 'GET /fapi/v3/account':
    case 'GET /fapi/v3/balance':
      return 5;
    default:
      return 1;
  }
}

export const binanceProtocol: ExchangeProtocol = {
  exchange: 'binance',
  sign(call, creds, now) {
    const params = [...(call.params ?? []), ['recvWindow', String(BINANCE_RECV_WINDOW)] as const, ['timestamp', String(now)] as const];
    const signed = binanceSignedQuery(params, creds.apiSecret);
    const inBody = call.method === 'POST' || call.method === 'PUT';
    return {
      method: call.method,
      path: inBody ? call.path : `${call.path}?${signed}`,
      headers: { 'X-MBX-APIKEY': creds.apiKey, ...(inBody ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}) },
      ...(inBody ? { body: signed } : {}),
    };
  },
  read(res, json) {
    if (res.status < 400) return { ok: true, data: json };
    const err = asJson(json);
    return { ok: false, code: String(typeof err.code === 'number' ? err.code : 0), message: typeof err.msg === 'string' ? err.msg : `HTTP ${res.status}` };
  },
  errors: BINANCE_ERRORS,
  rateLimits: BINANCE_RATE_LIMITS,
};
