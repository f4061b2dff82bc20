import type { ExchangeId } from '../contracts/common';
import { WireFormatError, type WireCandle } from '../contracts/wire/common';
import { MarketDataError, type Candle } from './types';

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface JsonResponse {
  status: number;
  ok: boolean;
  /** Parsed JSON, or the raw text when the body is not JSON (an HTML error page from a gateway). */
  body: unknown;
}

export function buildUrl(base: string, path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) query.append(key, String(value));
  const qs = query.toString();
  return `${base.replace(/\/+$/, '')}${path}${qs ? `?${qs}` : ''}`;
}

/**
 * GET with plain `fetch`: exchange calls must not carry our Bearer token or XSRF header, so the app's
 * axios client is not used. Network failures become a MarketDataError; aborts propagate unchanged so
 * react-query can tell a cancelled query from a failed one.
 */
export async function getJson(
  exchange: ExchangeId,
  fetchImpl: FetchLike,
  url: string,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<JsonResponse> {
  let res: Response;
  try {
    res = await fetchImpl(url, { method: 'GET', headers: init.headers, signal: init.signal, credentials: 'omit' });
  } catch (err) {
    if (isAbort(err)) throw err;
    throw new MarketDataError(exchange, err instanceof Error ? err.message : String(err));
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === '' ? null : JSON.parse(text);
  } catch {
    // not JSON: keep the text for the error message
  }
  return { status: res.status, ok: res.ok, body };
}

function isAbort(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'AbortError';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number from a JSON number or numeric string (Bybit/OKX/Binance send decimals as strings). */
export function num(value: unknown, what: string, exchange: ExchangeId): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw new MarketDataError(exchange, `Malformed ${what} from ${exchange}: ${JSON.stringify(value)}`);
  return n;
}

/**
 * The failure every exchange can produce outside its own envelope: our proxy's `{ message }`, a gateway
 * page, or an empty body. Exchange-specific shapes are read by each adapter before falling back here.
 */
export function genericHttpError(exchange: ExchangeId, res: JsonResponse): MarketDataError {
  if (isRecord(res.body) && typeof res.body.message === 'string' && res.body.message !== '') {
    return new MarketDataError(exchange, res.body.message, undefined, res.status);
  }
  const text = typeof res.body === 'string' ? res.body.trim().slice(0, 200) : '';
  const message = text && !text.startsWith('<') ? text : `${exchange} answered HTTP ${res.status}`;
  return new MarketDataError(exchange, message, undefined, res.status);
}

/**
 * Runs one of the shared wire parsers (`src/api/contracts/wire/<exchange>.ts`, also the server's): its
 * `WireFormatError` becomes a MarketDataError with the same words (the exchange's own message and code
 * when the body was its error envelope).
 */
export function fromWire<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof WireFormatError) throw new MarketDataError(err.exchange, err.message, err.code);
    throw err;
  }
}

/** A wire bar as the adapters' Candle: the symbol the caller asked for, no `closed` flag. */
export function toCandle({ time, open, high, low, close, volume }: WireCandle, symbol: string): Candle {
  return { time, open, high, low, close, volume, symbol };
}
