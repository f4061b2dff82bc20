import type { ExchangeId } from '../../src/api/contracts/common';
import { EXCHANGE_DISPLAY_NAMES } from '../../src/api/contracts/common';

/**
 * How the signed exchange clients reach an exchange: a live host over HTTPS, or the simulator
 * in-process. Clients build the exact bytes they sign and hand them over unchanged (trap 13).
 */
export interface ExchangeRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path plus `?query`, exactly as signed, relative to the exchange's REST root. */
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface ExchangeResponse {
  status: number;
  /** The raw body: clients parse it themselves (error shapes differ per exchange). */
  text: string;
  /** Response headers, lower-case names (rate-limit budgets). */
  headers?: Record<string, string>;
}

export type ExchangeTransport = (req: ExchangeRequest) => Promise<ExchangeResponse>;

/** API key credentials as the exchange issued them. Never logged, never returned. */
export interface ExchangeCredentials {
  apiKey: string;
  apiSecret: string;
  passphrase?: string;
}

/** The exchange could not be reached (network, DNS, timeout, 5xx): answered as 502. */
export class ExchangeUnreachableError extends Error {
  constructor(
    readonly exchange: ExchangeId,
    reason: string,
  ) {
    super(`Could not reach ${EXCHANGE_DISPLAY_NAMES[exchange]}: ${reason}`);
    this.name = 'ExchangeUnreachableError';
  }
}

/** The exchange answered with its own error (bad signature, unknown key, ...). */
export class ExchangeRejectedError extends Error {
  constructor(
    readonly exchange: ExchangeId,
    readonly status: number,
    readonly code: string,
    readonly exchangeMessage: string,
    /** The credential the error points at, for the form (unknown key, bad signature, bad passphrase). */
    readonly field?: 'apiKey' | 'apiSecret' | 'passphrase',
  ) {
    super(`${EXCHANGE_DISPLAY_NAMES[exchange]} rejected the key: ${exchangeMessage}${code ? ` (${code})` : ''}`);
    this.name = 'ExchangeRejectedError';
  }
}

export type FetchFn = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<{
  status: number;
  text(): Promise<string>;
  headers?: { forEach(cb: (value: string, key: string) => void): void };
}>;

/**
 * A transport to a live host. Network failures, timeouts and 5xx answers become
 * ExchangeUnreachableError; other answers are handed to the client to interpret.
 */
export function httpTransport(exchange: ExchangeId, base: string, opts: { fetch?: FetchFn; timeoutMs?: number; headers?: Record<string, string> } = {}): ExchangeTransport {
  const doFetch: FetchFn = opts.fetch ?? ((url, init) => fetch(url, init));
  const timeoutMs = opts.timeoutMs ?? 10_000;
  return async (req) => {
    let res: Awaited<ReturnType<FetchFn>>;
    try {
      res = await doFetch(`${base}${req.path}`, {
        method: req.method,
        headers: { ...opts.headers, ...req.headers },
        ...(req.body === undefined ? {} : { body: req.body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const reason = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : describeNetworkError(err);
      throw new ExchangeUnreachableError(exchange, reason);
    }
    const text = await res.text().catch(() => '');
    if (res.status >= 500) throw new ExchangeUnreachableError(exchange, `HTTP ${res.status}`);
    const headers: Record<string, string> = {};
    res.headers?.forEach((value, key) => {
      headers[key.toLowerCase()] = value;
    });
    return { status: res.status, text, headers };
  };
}

function describeNetworkError(err: unknown): string {
  const cause = err instanceof Error ? (err as Error & { cause?: unknown }).cause : undefined;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : '';
  const message = err instanceof Error ? err.message : String(err);
  return code ? `${message} (${code})` : message;
}

/** Parses a JSON body, or throws ExchangeRejectedError with the raw text when it is not JSON. */
export function parseJson(exchange: ExchangeId, res: ExchangeResponse): unknown {
  try {
    return JSON.parse(res.text) as unknown;
  } catch {
    throw new ExchangeUnreachableError(exchange, `unexpected answer (HTTP ${res.status}, not JSON)`);
  }
}
