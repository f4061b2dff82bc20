/** The exchanges these parsers read (`ExchangeId` of `../common.ts`; contracts import only zod and their own folder). */
export type WireExchange = 'binance' | 'bybit' | 'okx' | 'bitmex';

/**
 * One bar as an exchange's public wire format states it, read the same way by the browser's market
 * adapters (`src/api/market/<exchange>.ts`) and the server (`server/exchanges/<exchange>/candles.ts`).
 * `time` is the bar's OPEN in UTC seconds on every exchange (BitMEX's bucket-END stamps are moved back a
 * bin); `closed: false` only where the exchange marks the forming bar (OKX `confirm` "0"); absent when it
 * does not say.
 */
export interface WireCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  /** In the unit each parser states (it differs per exchange, see its file). */
  volume: number;
  closed?: boolean;
}

/** An exchange's own error envelope, read from a body: its message and code as it sent them. */
export interface WireError {
  message: string;
  code?: string | number;
}

/**
 * A body that is not candles: `reason: 'exchange'` when it is the exchange's error envelope (`message` and
 * `code` are the exchange's own words), `'malformed'` when it is not what the exchange documents.
 */
export class WireFormatError extends Error {
  override readonly name = 'WireFormatError';
  constructor(
    readonly exchange: WireExchange,
    message: string,
    readonly reason: 'exchange' | 'malformed',
    readonly code?: string | number,
  ) {
    super(message);
  }
}

export interface CandleRowsOptions {
  /**
   * Leave out a row that cannot be read (not a row, too short, a value that is no number) instead of
   * refusing the whole body. The body's envelope and the exchange's error envelope still throw.
   */
  skipMalformedRows?: boolean;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number from a JSON number or a numeric string (Bybit/OKX/Binance send decimals as strings). */
export function wireNum(value: unknown, what: string, exchange: WireExchange): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  if (!Number.isFinite(n)) throw malformed(exchange, `Malformed ${what} from ${exchange}: ${JSON.stringify(value)}`);
  return n;
}

export function malformed(exchange: WireExchange, message: string): WireFormatError {
  return new WireFormatError(exchange, message, 'malformed');
}

export function exchangeError(exchange: WireExchange, error: WireError): WireFormatError {
  return new WireFormatError(exchange, error.message, 'exchange', error.code);
}

/** Each row through `read`; with `skipMalformedRows`, the rows it refuses as malformed are left out. */
export function readRows<T>(rows: readonly unknown[], read: (row: unknown) => T, opts: CandleRowsOptions | undefined): T[] {
  if (!opts?.skipMalformedRows) return rows.map(read);
  return rows.flatMap((row) => {
    try {
      return [read(row)];
    } catch (err) {
      if (err instanceof WireFormatError && err.reason === 'malformed') return [];
      throw err;
    }
  });
}
