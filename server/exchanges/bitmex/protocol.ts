import { asJson, bodyText, queryString, withQuery, type ExchangeProtocol, type RateLimitRules } from '../signed-request';
import { bitmexHeaders } from './account';
import { BITMEX_ERRORS } from './errors';

/**
 * BitMEX's signed REST (bitmex.md §5–§7) for the shared pipeline: the path from `/api/v1` with its query
 * and the exact body text signed with an expiry (`api-expires`, seconds); errors are HTTP 4xx with
 * `{ error: { message, name } }` and no code (the HTTP status stands for one).
 */

/** bitmex.md §7: `x-ratelimit-remaining` (per minute, resets at `x-ratelimit-reset`, Unix seconds) and `x-ratelimit-remaining-1s`. */
export const BITMEX_RATE_LIMITS: RateLimitRules = {
  budget: [
    { header: 'x-ratelimit-remaining', leftAtMost: 1, resetHeader: 'x-ratelimit-reset', resetUnit: 's' },
    { header: 'x-ratelimit-remaining-1s', leftAtMost: 0, holdMs: 1_000 },
  ],
  // A 429 waits for its Retry-After (seconds), else until x-ratelimit-reset; at least a second.
  wait: { retryAfter: true, reset: { header: 'x-ratelimit-reset', unit: 's' }, fallbackMs: 1_000, atLeastMs: 1_000 },
};

export const bitmexProtocol: ExchangeProtocol = {
  exchange: 'bitmex',
  sign(call, creds, now) {
    const path = withQuery(call.path, queryString(call.params ?? []));
    const body = bodyText(call.body);
    return {
      method: call.method,
      path,
      headers: { ...bitmexHeaders(creds, now, call.method, path, body ?? ''), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    };
  },
  read(res, json) {
    if (res.status < 400) return { ok: true, data: json };
    const err = asJson(asJson(json).error);
    return { ok: false, code: String(res.status), message: String(err.message ?? `HTTP ${res.status}`) };
  },
  errors: BITMEX_ERRORS,
  rateLimits: BITMEX_RATE_LIMITS,
};
