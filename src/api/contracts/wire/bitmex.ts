/**
 * BitMEX, two candle formats:
 * - TradingView UDF `GET /api/udf/history` (the browser's history): parallel arrays `{ s: "ok", t, o, h, l,
 *   c, v }`, `t` in seconds, taken as the bar OPEN (the UDF convention, and the simulator's); `s: "no_data"`
 *   (optionally with `nextTime`, seconds) is an empty range, `s: "error"` carries `errmsg`. `v` = contracts.
 * - `GET /api/v1/trade/bucketed` (the server's) and the stream's `tradeBin*` inserts: records `{ timestamp,
 *   open, high, low, close, volume, … }` whose `timestamp` is the bucket END (trap 2): the open is one bin earlier.
 * Errors: `{ error: { message, name } }` (HTTP 4xx/5xx).
 */
import { exchangeError, isRecord, malformed, readRows, wireNum, type CandleRowsOptions, type WireCandle, type WireError } from './common';

const EX = 'bitmex';

/** `{ error: { message, name } }` (REST), or UDF's `{ s: "error", errmsg }`. `code` is the error's `name`. */
export function bitmexErrorEnvelope(body: unknown): WireError | undefined {
  if (isRecord(body) && isRecord(body.error) && typeof body.error.message === 'string') {
    return { message: body.error.message, code: typeof body.error.name === 'string' ? body.error.name : undefined };
  }
  if (isRecord(body) && body.s === 'error') {
    return { message: typeof body.errmsg === 'string' && body.errmsg !== '' ? body.errmsg : 'bitmex error' };
  }
  return undefined;
}

/**
 * A UDF history body → bars OLDEST first, one per `t` (the last one with it); `nextTime` (seconds) when the
 * range was empty. A missing `v` (or a null in it) is volume 0.
 */
export function bitmexUdfHistory(body: unknown): { candles: WireCandle[]; nextTime?: number } {
  const error = bitmexErrorEnvelope(body);
  if (error) throw exchangeError(EX, error);
  if (!isRecord(body)) throw malformed(EX, 'Malformed history answer from bitmex');
  if (body.s === 'no_data') return typeof body.nextTime === 'number' ? { candles: [], nextTime: body.nextTime } : { candles: [] };
  const { t, o, h, l, c, v } = body;
  if (body.s !== 'ok' || !Array.isArray(t) || ![o, h, l, c].every((a) => Array.isArray(a) && a.length === t.length)) {
    throw malformed(EX, 'Malformed history answer from bitmex');
  }
  const col = (a: unknown, i: number, what: string) => wireNum((a as unknown[])[i], what, EX);
  const candles = t.map((time, i) => ({
    time: wireNum(time, 't', EX),
    open: col(o, i, 'o'),
    high: col(h, i, 'h'),
    low: col(l, i, 'l'),
    close: col(c, i, 'c'),
    volume: Array.isArray(v) && v[i] != null ? col(v, i, 'v') : 0,
  }));
  const byTime = new Map(candles.map((x) => [x.time, x]));
  return { candles: [...byTime.values()].sort((a, b) => a.time - b.time) };
}

/** One `trade/bucketed` / `tradeBin*` record of a `binSeconds` bin: its END `timestamp` moved back to the open. */
export function bitmexBinRow(row: unknown, binSeconds: number): WireCandle {
  if (!isRecord(row) || typeof row.timestamp !== 'string') throw malformed(EX, 'Malformed bin from bitmex');
  const end = Date.parse(row.timestamp);
  if (!Number.isFinite(end)) throw malformed(EX, `Malformed timestamp from bitmex: ${JSON.stringify(row.timestamp)}`);
  return {
    time: end / 1000 - binSeconds,
    open: wireNum(row.open, 'open', EX),
    high: wireNum(row.high, 'high', EX),
    low: wireNum(row.low, 'low', EX),
    close: wireNum(row.close, 'close', EX),
    volume: wireNum(row.volume, 'volume', EX),
  };
}

/** A `trade/bucketed` body (bins of `binSeconds`) → bars OLDEST first, whatever `reverse` asked. The error envelope throws with BitMEX's message. */
export function bitmexBinRows(body: unknown, binSeconds: number, opts?: CandleRowsOptions): WireCandle[] {
  const error = bitmexErrorEnvelope(body);
  if (error) throw exchangeError(EX, error);
  if (!Array.isArray(body)) throw malformed(EX, 'Malformed trade/bucketed answer from bitmex');
  return readRows(body, (row) => bitmexBinRow(row, binSeconds), opts).sort((a, b) => a.time - b.time);
}
