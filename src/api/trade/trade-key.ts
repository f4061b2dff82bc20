import { httpStatus } from '../errors';
import { retryServerErrors } from '../query-meta';
import { isAccountStreamLive } from './stream-liveness';

/**
 * What every `/v1/trade/{apiKeyId}/…` endpoint file (DESIGN §3.2) shares: the key and its password,
 * the URL, the query keys, the client order id and the one safe resend. Every call carries the key
 * password in `X-Key-Password` (the server opens the key for that call only); answers are parsed with
 * the shared contracts. Queries live under `['trade', apiKeyId, …]`; the account stream
 * (trade-stream.ts) writes its snapshots into the same keys.
 */
export interface TradeKey {
  apiKeyId: string;
  keyPassword: string;
}

/** The key of a query that waits for an unlocked key (`enabled: false`): its query key holds `''`, as it always did. */
export const NO_TRADE_KEY: TradeKey = { apiKeyId: '', keyPassword: '' };

/** `/v1/trade/{apiKeyId}` followed by `path`. */
export const tradeUrl = (k: TradeKey, path = '') => `/v1/trade/${encodeURIComponent(k.apiKeyId)}${path}`;

/** The header that opens the key for one call. */
export const keyPasswordHeader = (k: TradeKey) => ({ 'X-Key-Password': k.keyPassword });

export const tradeQueryKey = {
  all: (apiKeyId: string) => ['trade', apiKeyId] as const,
  balance: (apiKeyId: string) => ['trade', apiKeyId, 'balance'] as const,
  positions: (apiKeyId: string) => ['trade', apiKeyId, 'positions'] as const,
  orders: (apiKeyId: string) => ['trade', apiKeyId, 'orders'] as const,
  /** Under `all`: every trading action (leverage and margin-mode changes included) reads it again. */
  symbolSettings: (apiKeyId: string, symbol: string) => ['trade', apiKeyId, 'symbol-settings', symbol] as const,
  history: (apiKeyId: string, symbol: string) => ['trade', apiKeyId, 'history', symbol] as const,
  fills: (apiKeyId: string, symbol: string) => ['trade', apiKeyId, 'fills', symbol] as const,
};

/** How often the account reads (balance, positions, open orders) poll while the key's account stream is not live. */
export const ACCOUNT_POLL_MS = 15_000;

/**
 * How the account reads (balance, positions, open orders) of a key are kept current: by its account stream while
 * that is live (its snapshots and events write them), by polling only while it is not (issue 26: no browser polls
 * while its socket is up). The interval is judged again whenever the query changes; the stream's drop reads the
 * account once (account-store.ts), which starts the polling again.
 */
export const tradeReadOptions = (apiKeyId: string) =>
  ({ retry: retryServerErrors, staleTime: 5_000, refetchInterval: () => (isAccountStreamLive(apiKeyId) ? false : ACCOUNT_POLL_MS) }) as const;

/** A client order id (letters and digits, 32 at most: every exchange takes it) that makes a resend of the same order harmless. */
export function newClientOrderId(): string {
  const random = globalThis.crypto?.randomUUID?.().replace(/-/g, '') ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  return `ct${random}`.slice(0, 32);
}

/**
 * Sends a request that carries an idempotency key, and sends it once more when the answer was lost
 * (no answer, or the exchange down or slow: 502, 503, 504): the server answers a retry with the same
 * key from what the first did, so the retry can never place anything twice (issue 21).
 */
export async function sendOnce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const status = httpStatus(err);
    if (status !== null && status !== 502 && status !== 503 && status !== 504) throw err;
    await new Promise((r) => setTimeout(r, 500));
    return send();
  }
}
