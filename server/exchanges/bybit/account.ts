import type { ApiKeyPermissions } from '../../../src/api/contracts/api-keys';
import { credentialOf } from '../signed-request';
import { hmacSha256, type Signing } from '../signing';
import { ExchangeRejectedError, parseJson, type ExchangeCredentials, type ExchangeTransport } from '../transport';
import { BYBIT_ERRORS } from './errors';

/**
 * Bybit v5 signed REST (bybit.md §5): `X-BAPI-SIGN` = hex HMAC-SHA256(secret, timestamp + apiKey +
 * recvWindow + (GET ? query string : raw JSON body)); timestamp in ms.
 */
export function bybitPlaintext(p: { timestamp: string; apiKey: string; recvWindow: string; payload: string }): string {
  return `${p.timestamp}${p.apiKey}${p.recvWindow}${p.payload}`;
}

export function signBybit(secret: string, plaintext: string): string {
  return hmacSha256(secret, plaintext, 'hex');
}

export const BYBIT_RECV_WINDOW = '5000';

/** REST: timestamp + apiKey + recvWindow + (GET ? query : body); the private stream's `auth`: "GET/realtime" + expires (ms). */
export const BYBIT_SIGNING: Signing = {
  plaintext: (p) => bybitPlaintext({ timestamp: p.timestamp, apiKey: p.apiKey, recvWindow: p.recvWindow, payload: p.method === 'GET' ? p.query : p.body }),
  encoding: 'hex',
  stream: { path: '/realtime', plaintext: (expires) => `GET/realtime${expires}` },
};

/** The four auth headers of a signed call whose query string (GET) or body (POST) is `payload`. */
export function bybitHeaders(creds: ExchangeCredentials, now: number, payload: string): Record<string, string> {
  const timestamp = String(now);
  return {
    'X-BAPI-API-KEY': creds.apiKey,
    'X-BAPI-TIMESTAMP': timestamp,
    'X-BAPI-RECV-WINDOW': BYBIT_RECV_WINDOW,
    'X-BAPI-SIGN': signBybit(creds.apiSecret, bybitPlaintext({ timestamp, apiKey: creds.apiKey, recvWindow: BYBIT_RECV_WINDOW, payload })),
  };
}

/**
 * `GET /v5/user/query-api` ("any permission can access this endpoint"): `readOnly` 0/1 and
 * `permissions` per area. Trading = not read-only with a contract/derivatives/spot permission;
 * withdrawal = `Wallet` includes `Withdraw`.
 */
export async function bybitKeyPermissions(transport: ExchangeTransport, creds: ExchangeCredentials, now: number): Promise<ApiKeyPermissions> {
  const res = await transport({ method: 'GET', path: '/v5/user/query-api', headers: bybitHeaders(creds, now, '') });
  const body = parseJson('bybit', res) as { retCode?: unknown; retMsg?: unknown; result?: unknown };
  // Errors come back with HTTP 200 and a non-zero retCode (trap 9).
  if (body.retCode !== 0 || !body.result || typeof body.result !== 'object') {
    const code = typeof body.retCode === 'number' ? body.retCode : 0;
    const msg = typeof body.retMsg === 'string' && body.retMsg ? body.retMsg : `HTTP ${res.status}`;
    throw new ExchangeRejectedError('bybit', res.status, code ? String(code) : '', msg, credentialOf(BYBIT_ERRORS, String(code), msg));
  }
  const result = body.result as { readOnly?: unknown; permissions?: unknown };
  const perms = (result.permissions && typeof result.permissions === 'object' ? result.permissions : {}) as Record<string, unknown>;
  const list = (area: string): string[] => (Array.isArray(perms[area]) ? (perms[area] as unknown[]).filter((x): x is string => typeof x === 'string') : []);
  const readOnly = result.readOnly === 1;
  const tradeAreas = ['ContractTrade', 'Derivatives', 'Spot', 'Options'];
  const details = Object.keys(perms).flatMap((area) => list(area).map((p) => `${area}:${p}`));
  return {
    read: true,
    trade: !readOnly && tradeAreas.some((a) => list(a).length > 0),
    withdraw: list('Wallet').includes('Withdraw'),
    details: readOnly ? ['ReadOnly', ...details] : details,
  };
}
