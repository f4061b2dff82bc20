import { asJson, bodyText, queryString, withQuery, type ExchangeProtocol, type Json, type RateLimitRules } from '../signed-request';
import { okxHeaders } from './account';
import { OKX_ERRORS } from './errors';

/**
 * OKX v5's signed REST (okx.md §5–§7) for the shared pipeline: the request path with its query (GET) or
 * the JSON body (POST) signed in the `OK-ACCESS-*` headers. `code` is a string; a refused item has
 * `code: "1"` with the reason in `data[0].sCode / sMsg` (trap 9): the item's code is the one judged.
 */

/** okx.md §7: no rate-limit headers; the limits are counted per 2 s, so one window is the wait. */
export const OKX_RATE_LIMITS: RateLimitRules = {
  budget: [],
  wait: { retryAfter: false, fallbackMs: 2_000 },
};

export const okxProtocol: ExchangeProtocol = {
  exchange: 'okx',
  sign(call, creds, now) {
    const isGet = call.method === 'GET';
    const requestPath = withQuery(call.path, queryString(call.params ?? []));
    const body = isGet ? '' : (bodyText(call.body) ?? '');
    return {
      method: call.method,
      path: requestPath,
      headers: { ...okxHeaders(creds, now, call.method, requestPath, body), ...(isGet ? {} : { 'Content-Type': 'application/json' }) },
      ...(isGet ? {} : { body }),
    };
  },
  read(res, json) {
    const j = asJson(json);
    const data = Array.isArray(j.data) ? (j.data as Json[]) : [];
    const code = String(j.code ?? (res.status >= 400 ? res.status : '0'));
    if (code === '0' && res.status < 400) return { ok: true, data };
    const item = data.find((d) => d.sCode !== undefined && String(d.sCode) !== '0');
    // A batch's items (all or some failed: code "1" / "2") go along for `sendBatch`.
    if (item) return { ok: false, code: String(item.sCode), message: String(item.sMsg ?? j.msg), items: data };
    return { ok: false, code, message: String(j.msg ?? `HTTP ${res.status}`) };
  },
  errors: OKX_ERRORS,
  rateLimits: OKX_RATE_LIMITS,
};
