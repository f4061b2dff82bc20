import { dec, toNumber } from '../../src/api/contracts/decimal';
import type { Instrument } from '../../src/api/contracts/exchanges';
import type { ScannerRow } from '../../src/api/contracts/scanner';

/**
 * An exchange's 24 h tickers as the scanner reads them (issue 23 §1): its REST requests and one parser
 * (`<exchange>/tickers.ts`, `market.tickers`), and its all-market ticker stream (`market.tickerStream`:
 * connections, subscriptions, heartbeat, frame parser). The same field mappers read the REST answers and
 * the stream frames, so a row never changes meaning between a refresh and a tick. What they share lives here.
 */

/** The values of a scanner row the tickers provide (ATR comes from the candles). */
export type TickerFields = Pick<ScannerRow, 'last' | 'changePercent' | 'quoteVolume' | 'rangePercent' | 'fundingRate' | 'nextFundingTime' | 'openInterest'>;

/** One GET of the REST tickers. An optional one (funding, open interest) may fail: the tickers still show. */
export interface TickerRequest {
  path: string;
  optional?: boolean;
}

export interface Tickers {
  /** The requests of every refresh, sent together. */
  requests: readonly TickerRequest[];
  /**
   * Their answers, in the order of `requests` (an optional one that failed: null) → ticker fields by the
   * exchange's own symbol, for the instruments of the list only (live perpetuals); throws on the error envelope.
   */
  parse(bodies: readonly unknown[], instruments: ReadonlyMap<string, Instrument>): Map<string, Partial<TickerFields>>;
}

/** Ticker fields of the rows a frame changed, by the exchange's own symbol. */
export type StreamPatch = Array<[exchangeSymbol: string, fields: Partial<TickerFields>]>;

export interface StreamConnection {
  /** Below the exchange's WebSocket root. */
  path: string;
  /** Sent on every (re)connect. */
  subscribe: string[];
}

export interface StreamPlan {
  connections: StreamConnection[];
  /** Client heartbeat: text to send when the stream has been quiet for `afterMs` (binance: none, the server pings). */
  heartbeat: { afterMs: number; text: string } | null;
  onFrame(text: string): StreamPatch;
  /** Forget merged state (a reconnect starts from a new snapshot). */
  reset(): void;
}

export interface TickerStream {
  /** The ticker fields the stream keeps current (the others only move with REST refreshes). */
  fields: readonly (keyof TickerFields)[];
  /** The connections and frame parser for these instruments (merged state lives in the plan). */
  plan(instruments: readonly Instrument[]): StreamPlan;
}

// ------------------------------------------------------------------------------- shared by the mappers

export type Raw = Record<string, unknown>;

/** A contract's value for the scanner's statistics (volumes, open interest: floats for ranking, not money sent anywhere). */
export const contractOf = (inst: Pick<Instrument, 'contractValue'>): number => toNumber(dec(inst.contractValue));
export const times = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a * b);
export const rangePercent = (high: number | null, low: number | null): number | null => (high !== null && low !== null && low > 0 ? ((high - low) / low) * 100 : null);

/** A frame's JSON, or null for heartbeats (`pong`) and anything else that is not JSON. */
export const parseFrame = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let k = 0; k < list.length; k += size) out.push(list.slice(k, k + size));
  return out;
}

/** Subscriptions per message: bybit and okx cap args per request and per connection (bybit.md §2, okx.md §2). */
export const ARGS_PER_MESSAGE = 100;
