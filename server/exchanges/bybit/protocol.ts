import { asJson, bodyText, queryString, withQuery, type ExchangeProtocol, type RateLimitRules } from '../signed-request';
import { bybitHeaders } from './account';
import { BYBIT_ERRORS } from './errors';

/**
 * Bybit v5's signed REST (bybit.md §5–§7) for the shared pipeline: the query (GET) or the raw JSON body
 * (POST) signed in the `X-BAPI-*` headers; every answer is HTTP 200 with `retCode`, non-zero an error (trap 9).
 */

/** bybit.md §7: `X-Bapi-Limit-Status` = requests left in the window; `X-Bapi-Limit-Reset-Timestamp` (ms, Bybit's clock) reopens it. */
export const BYBIT_RATE_LIMITS: RateLimitRules = {
  budget: [{ header: 'x-bapi-limit-status', leftAtMost: 1, resetHeader: 'x-bapi-limit-reset-timestamp', resetUnit: 'ms' }],
  // A refusal waits until the reset it names, else a second.
  wait: { retryAfter: false, reset: { header: 'x-bapi-limit-reset-timestamp', unit: 'ms' }, fallbackMs: 1_000 },
};

export const bybitProtocol: ExchangeProtocol = {
  exchange: 'bybit',
  sign(call, creds, now) {
    const query = queryString(call.params ?? []);
    const body = bodyText(call.body);
    const headers = bybitHeaders(creds, now, call.method === 'GET' ? query : (body ?? ''));
    return {
      method: call.method,
      path: withQuery(call.path, query),
      headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    };
  },
  read(res, json) {
    const j = asJson(json);
    const code = typeof j.retCode === 'number' ? j.retCode : res.status >= 400 ? res.status : 0;
    // A batch's per-item codes (`retExtInfo.list`) sit beside `result`: kept with it, as `result.retExtInfo`.
    const ext = asJson(j.retExtInfo);
    if (code === 0 && res.status < 400) return { ok: true, data: Array.isArray(ext.list) ? { ...asJson(j.result), retExtInfo: ext } : (j.result ?? {}) };
    return { ok: false, code: String(code), message: typeof j.retMsg === 'string' ? j.retMsg : `HTTP ${res.status}` };
  },
  errors: BYBIT_ERRORS,
  rateLimits: BYBIT_RATE_LIMITS,
};
