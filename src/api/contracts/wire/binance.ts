/**
 * Binance USDⓈ-M futures, `GET /fapi/v1/klines`: rows `[openTime ms (number), open, high, low, close,
 * volume (BASE coin, e.g. BTC), closeTime, quoteVolume, …]`, decimals as strings, OLDEST first; the last
 * row of the newest page is the forming bar (not marked). Errors: `{ code, msg }` (HTTP 4xx/5xx).
 */
import { exchangeError, isRecord, malformed, readRows, wireNum, type CandleRowsOptions, type WireCandle, type WireError } from './common';

const EX = 'binance';

/** `{ code, msg }`: Binance's error envelope (`code` usually a negative number). Success bodies may look alike (`{code:200,msg:"success"}`, trap 9): the caller judges. */
export function binanceErrorEnvelope(body: unknown): WireError | undefined {
  if (!isRecord(body) || typeof body.msg !== 'string') return undefined;
  return { message: body.msg, code: typeof body.code === 'number' || typeof body.code === 'string' ? body.code : undefined };
}

/** One kline row; `volume` is column 5, the base asset (column 7 is the quote volume). */
export function binanceCandleRow(row: unknown): WireCandle {
  if (!Array.isArray(row) || row.length < 6) throw malformed(EX, 'Malformed kline row from binance');
  return {
    time: wireNum(row[0], 'open time', EX) / 1000,
    open: wireNum(row[1], 'open', EX),
    high: wireNum(row[2], 'high', EX),
    low: wireNum(row[3], 'low', EX),
    close: wireNum(row[4], 'close', EX),
    volume: wireNum(row[5], 'volume', EX),
  };
}

/** A klines body → bars in the wire's order (oldest first). The error envelope throws with Binance's `msg` and `code`. */
export function binanceCandleRows(body: unknown, opts?: CandleRowsOptions): WireCandle[] {
  if (!Array.isArray(body)) {
    const error = binanceErrorEnvelope(body);
    throw error ? exchangeError(EX, error) : malformed(EX, 'Malformed klines answer from binance');
  }
  return readRows(body, binanceCandleRow, opts);
}
