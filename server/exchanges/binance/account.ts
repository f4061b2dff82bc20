import type { ApiKeyPermissions } from '../../../src/api/contracts/api-keys';
import { credentialOf } from '../signed-request';
import { hmacSha256, type Signing } from '../signing';
import { ExchangeRejectedError, parseJson, type ExchangeCredentials, type ExchangeTransport } from '../transport';
import { BINANCE_ERRORS } from './errors';

/**
 * Binance USDⓈ-M signed REST (binance.md §5): `signature` = hex HMAC-SHA256(secret, query string +
 * request body, no separator), sent as the LAST parameter; header `X-MBX-APIKEY`; `timestamp` in ms.
 */
export function signBinance(secret: string, totalParams: string): string {
  return hmacSha256(secret, totalParams, 'hex');
}

/** Query string + body, no separator (binance.md §5); the user-data stream logs in with a listenKey, unsigned. */
export const BINANCE_SIGNING: Signing = { plaintext: (p) => `${p.query}${p.body}`, encoding: 'hex', stream: null };

export const BINANCE_RECV_WINDOW = 5000;

/** `k=v&...&signature=<hex>` for params in the order given (the signature covers that exact order). */
export function binanceSignedQuery(params: ReadonlyArray<readonly [string, string]>, secret: string, body = ''): string {
  const query = params.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  return `${query}&signature=${signBinance(secret, query + body)}`;
}

/**
 * What the key may do. USDⓈ-M futures has no per-key permission endpoint (the key-level
 * `GET /sapi/v1/account/apiRestrictions` lives on the spot host and has no testnet), so we read
 * `GET /fapi/v1/accountConfig` with the key: the signed call succeeding proves the key and its
 * read access, `canTrade` says whether it may trade futures, and `canWithdraw` is taken as the
 * withdrawal risk (decided in server/README.md).
 */
export async function binanceKeyPermissions(transport: ExchangeTransport, creds: ExchangeCredentials, now: number): Promise<ApiKeyPermissions> {
  const query = binanceSignedQuery(
    [
      ['recvWindow', String(BINANCE_RECV_WINDOW)],
      ['timestamp', String(now)],
    ],
    creds.apiSecret,
  );
  const res = await transport({ method: 'GET', path: `/fapi/v1/accountConfig?${query}`, headers: { 'X-MBX-APIKEY': creds.apiKey } });
  const body = parseJson('binance', res) as Record<string, unknown>;
  if (res.status >= 400 || typeof body.canTrade !== 'boolean') {
    const code = typeof body.code === 'number' ? body.code : 0;
    const msg = typeof body.msg === 'string' ? body.msg : `HTTP ${res.status}`;
    throw new ExchangeRejectedError('binance', res.status, code ? String(code) : '', msg, credentialOf(BINANCE_ERRORS, String(code), msg));
  }
  const details = ['canTrade', 'canDeposit', 'canWithdraw'].filter((k) => body[k] === true);
  return { read: true, trade: body.canTrade === true, withdraw: body.canWithdraw === true, details };
}
