import type { ApiKeyPermissions } from '../../../src/api/contracts/api-keys';
import { credentialOf } from '../signed-request';
import { hmacSha256, type Signing } from '../signing';
import { ExchangeRejectedError, parseJson, type ExchangeCredentials, type ExchangeTransport } from '../transport';
import { BITMEX_ERRORS } from './errors';

/**
 * BitMEX signed REST (bitmex.md §5): `api-signature` = hex HMAC-SHA256(secret, VERB + path
 * (from /api/v1, with `?query` exactly as sent) + expires + body); `api-expires` is a Unix time
 * in SECONDS at which the request stops being valid (trap 12).
 */
export function bitmexPlaintext(p: { verb: string; path: string; expires: number | string; body: string }): string {
  return `${p.verb.toUpperCase()}${p.path}${p.expires}${p.body}`;
}

export function signBitmex(secret: string, plaintext: string): string {
  return hmacSha256(secret, plaintext, 'hex');
}

/** REST: VERB + path?query + expires (s) + body; the `/realtime` socket's `authKeyExpires`: "GET/realtime" + expires (s). */
export const BITMEX_SIGNING: Signing = {
  plaintext: (p) => bitmexPlaintext({ verb: p.method, path: p.path, expires: p.timestamp, body: p.body }),
  encoding: 'hex',
  stream: { path: '/realtime', plaintext: (expires) => bitmexPlaintext({ verb: 'GET', path: '/realtime', expires, body: '' }) },
};

/** How long a signed request stays valid. */
export const BITMEX_EXPIRES_S = 30;

export function bitmexHeaders(creds: ExchangeCredentials, now: number, verb: string, path: string, body = ''): Record<string, string> {
  const expires = Math.floor(now / 1000) + BITMEX_EXPIRES_S;
  return {
    'api-key': creds.apiKey,
    'api-expires': String(expires),
    'api-signature': signBitmex(creds.apiSecret, bitmexPlaintext({ verb, path, expires, body })),
  };
}

/**
 * `GET /api/v1/apiKey`: the account's keys, each with a `permissions` array (`order`,
 * `orderCancel`, `withdraw`...). We read the entry of this key.
 */
export async function bitmexKeyPermissions(transport: ExchangeTransport, creds: ExchangeCredentials, now: number): Promise<ApiKeyPermissions> {
  const path = '/api/v1/apiKey';
  const res = await transport({ method: 'GET', path, headers: bitmexHeaders(creds, now, 'GET', path) });
  const body = parseJson('bitmex', res);
  if (res.status >= 400 || !Array.isArray(body)) {
    const error = (body && typeof body === 'object' ? (body as { error?: { message?: unknown; name?: unknown } }).error : undefined) ?? {};
    const msg = typeof error.message === 'string' ? error.message : `HTTP ${res.status}`;
    throw new ExchangeRejectedError('bitmex', res.status, '', msg, credentialOf(BITMEX_ERRORS, '', msg));
  }
  const entry = (body as Array<Record<string, unknown>>).find((k) => k.id === creds.apiKey);
  const permissions = Array.isArray(entry?.permissions) ? (entry.permissions as unknown[]).filter((x): x is string => typeof x === 'string') : [];
  return {
    read: true,
    trade: permissions.includes('order'),
    withdraw: permissions.includes('withdraw'),
    details: permissions,
  };
}
