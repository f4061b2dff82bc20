import { z } from 'zod';
import { dec, scaleOf, str } from '../../src/api/contracts/decimal';
import type { Instrument } from '../../src/api/contracts/exchanges';
import type { Tickers, TickerStream } from './tickers';

/**
 * An exchange's public market data as the server reads it (issue 23 §1): its candle request and parser
 * (`<exchange>/candles.ts`), its instrument list's request(s) and parser (`<exchange>/instruments.ts`), and
 * its 24 h tickers over REST and their stream (`<exchange>/tickers.ts`, types in `tickers.ts`).
 * The scanner, the alert catch-up job and exchange-info read them from the descriptor (`market`) instead
 * of switching on the exchange. What the parsers share lives here.
 */

/** The body is not what the exchange documents, or is its error envelope (surfaced as "exchange unavailable"). */
export class UpstreamFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpstreamFormatError';
  }
}

export type CandleInterval = '1m' | '1h';

export const BAR_MS: Readonly<Record<CandleInterval, number>> = { '1m': 60_000, '1h': 3_600_000 };

/** One bar: open time (ms), high, low, close; `closed: false` when the exchange marks it forming (OKX `confirm`). */
export interface CandleBar {
  time: number;
  high: number;
  low: number;
  close: number;
  closed?: boolean;
}

export interface CandleRequest {
  interval: CandleInterval;
  /** Closed bars wanted (the newest ones). */
  closed: number;
  /** The forming bar too. Exchanges that always send it get it regardless; the caller filters by time. */
  forming: boolean;
}

export interface Candles {
  /** Bars one request returns at most. */
  maxBars: number;
  /**
   * The gap between two candle requests a live scan keeps (its public rate limit, with room for the
   * product's other calls): binance 2,400 weight/min and bybit 600 requests / 5 s → 10/s; okx candles 40 / 2 s;
   * BitMEX 30/min without a key → one every 2.1 s.
   */
  liveGapMs: number;
  /** The path (and query) of the newest bars of one instrument. */
  path(inst: Pick<Instrument, 'exchangeSymbol' | 'category'>, req: CandleRequest): string;
  /** The wire body → bars, oldest first (BitMEX times moved from the bucket end to its open); throws on the error envelope. */
  parse(body: unknown, interval: CandleInterval): CandleBar[];
}

/** One GET of a public path on the exchange's REST host, answering the parsed JSON body. */
export type PublicGet = (path: string) => Promise<unknown>;

export interface Instruments {
  /** The instrument list: every request it takes (paths, paging) and its parsing; live perpetuals only. */
  load(get: PublicGet): Promise<Instrument[]>;
  /** One answer's instruments (one page for exchanges that page). */
  parse(body: unknown): Instrument[];
}

export interface MarketData {
  candles: Candles;
  instruments: Instruments;
  /** The scanner's REST tickers: the requests of a refresh (optional ones marked) and one parser to its ticker fields. */
  tickers: Tickers;
  /** The scanner's all-market ticker stream: the fields it keeps current and its plan (connections, heartbeat, frame parser). */
  tickerStream: TickerStream;
}

// ------------------------------------------------------------------------------- shared parsing

export function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new UpstreamFormatError(`${what}: unexpected response (${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message})`);
  return r.data;
}

/** A wire number (JSON number or decimal string); '' and garbage are "not published". */
export function wireNumber(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

export const rawList = z.array(z.looseObject({}));
export const oldestFirst = (bars: CandleBar[]): CandleBar[] => bars.sort((a, b) => a.time - b.time);

/**
 * An amount the exchange states (a tick, a lot, a contract value) as exact decimal text: its own
 * digits, trailing zeros dropped ("0.10" → "0.1"); a JSON number through its shortest text (BitMEX
 * writes floats: 1e-7 → "0.0000001"). Null when it is no number, or not positive when it must be.
 */
export function exact(v: string | number, opts: { allowZero?: boolean } = {}): string | null {
  try {
    const d = dec(v);
    return d.units < 0n || (!opts.allowZero && d.units === 0n) ? null : str(d);
  } catch {
    return null;
  }
}

/** Every one of an instrument's amounts is exact text, or the instrument is left out (not guessed). */
export function allExact<T extends Record<string, string | null>>(amounts: T): { [K in keyof T]: string } | null {
  return Object.values(amounts).every((v) => v !== null) ? (amounts as { [K in keyof T]: string }) : null;
}

export const numberish = z.union([z.string(), z.number()]).transform((v, ctx) => {
  const n = typeof v === 'number' ? v : Number(v);
  if (!Number.isFinite(n)) {
    ctx.addIssue({ code: 'custom', message: `not a number: ${String(v)}` });
    return z.NEVER;
  }
  return n;
});

/** A number's decimal count as the exchange wrote it ("0.10" → 1 after trimming; 0.5 → 1; 1e-7 → 7). */
export const decimals = (v: string | number): number => scaleOf(str(dec(v)));

/** A stated price bound, or nothing when the exchange writes 0 (no bound). */
export const bound = (v: string | number | null | undefined): string | undefined => {
  if (v === undefined || v === null) return undefined;
  const text = String(v);
  return Number(text) > 0 ? text : undefined;
};

type Limits = NonNullable<Instrument['limits']>;

/** A positive number the exchange wrote as text, or nothing. */
export const positiveNumber = (v: string | undefined): number | undefined => {
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** Drops absent entries so an instrument that states nothing has no `limits` at all. */
export function limitsOf(l: Limits): { limits?: Limits } {
  const kept = Object.fromEntries(Object.entries(l).filter(([, v]) => v !== undefined)) as Limits;
  return Object.keys(kept).length ? { limits: kept } : {};
}
