import type { ApiKeyPermissions } from '../../../src/api/contracts/api-keys';
import { credentialOf } from '../signed-request';
import { hmacSha256, type Signing } from '../signing';
import { ExchangeRejectedError, parseJson, type ExchangeCredentials, type ExchangeTransport } from '../transport';
import { OKX_ERRORS } from './errors';

/**
 * OKX v5 signed REST (okx.md §5): `OK-ACCESS-SIGN` = BASE64 HMAC-SHA256(secret, timestamp +
 * METHOD + requestPath (with `?query` for GET) + body); timestamp ISO-8601 with milliseconds;
 * `OK-ACCESS-PASSPHRASE` is the one chosen when the key was created.
 */
export function okxPrehash(p: { timestamp: string; method: string; requestPath: string; body: string }): string {
  return `${p.timestamp}${p.method.toUpperCase()}${p.requestPath}${p.body}`;
}

export function signOkx(secret: string, prehash: string): string {
  return hmacSha256(secret, prehash, 'base64');
}

/** REST: timestamp (ISO) + METHOD + requestPath + body; the private stream's `login`: seconds + "GET/users/self/verify". */
export const OKX_SIGNING: Signing = {
  plaintext: (p) => okxPrehash({ timestamp: p.timestamp, method: p.method, requestPath: p.path, body: p.body }),
  encoding: 'base64',
  stream: { path: '/users/self/verify', plaintext: (seconds) => okxPrehash({ timestamp: seconds, method: 'GET', requestPath: '/users/self/verify', body: '' }) },
};

export function okxHeaders(creds: ExchangeCredentials, now: number, method: string, requestPath: string, body = ''): Record<string, string> {
  const timestamp = new Date(now).toISOString();
  return {
    'OK-ACCESS-KEY': creds.apiKey,
    'OK-ACCESS-SIGN': signOkx(creds.apiSecret, okxPrehash({ timestamp, method, requestPath, body })),
    'OK-ACCESS-TIMESTAMP': timestamp,
    'OK-ACCESS-PASSPHRASE': creds.passphrase ?? '',
  };
}

/**
 * `GET /api/v5/account/config`: `perm` lists the key's permissions (`read_only`, `trade`,
 * `withdraw`, comma-separated). Demo-trading keys need `x-simulated-trading: 1` (the transport
 * for TESTNET adds it).
 */
export async function okxKeyPermissions(transport: ExchangeTransport, creds: ExchangeCredentials, now: number): Promise<ApiKeyPermissions> {
  const requestPath = '/api/v5/account/config';
  const res = await transport({ method: 'GET', path: requestPath, headers: okxHeaders(creds, now, 'GET', requestPath) });
  const body = parseJson('okx', res) as { code?: unknown; msg?: unknown; data?: unknown };
  const row = Array.isArray(body.data) ? (body.data[0] as Record<string, unknown> | undefined) : undefined;
  // Errors are `code` != "0", with HTTP 200 or 401 (trap 9).
  if (body.code !== '0' || !row) {
    const code = typeof body.code === 'string' ? body.code : '';
    const msg = typeof body.msg === 'string' && body.msg ? body.msg : `HTTP ${res.status}`;
    throw new ExchangeRejectedError('okx', res.status, code, msg, credentialOf(OKX_ERRORS, code, msg));
  }
  const perm = typeof row.perm === 'string' ? row.perm.split(',').map((p) => p.trim()).filter(Boolean) : [];
  return { read: true, trade: perm.includes('trade'), withdraw: perm.includes('withdraw'), details: perm };
}
