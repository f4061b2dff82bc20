/**
 * OKX v5, `GET /api/v5/market/candles` and `/history-candles` (and the `candle<bar>` stream's rows):
 * rows NEWEST first, all strings: `[ts (open, ms), o, h, l, c, vol (contracts), volCcy (base coin),
 * volCcyQuote, confirm]`. `volume` is `volCcy`, the base-coin volume (contracts would need ctVal);
 * `confirm` "0" marks the forming bar (`closed: false`). Errors: `{ code ≠ "0", msg, data: [{ sCode, sMsg }] }`
 * on HTTP 200 (trap 9).
 */
import { exchangeError, isRecord, malformed, readRows, wireNum, type CandleRowsOptions, type WireCandle, type WireError } from './common';

const EX = 'okx';

/** `code ≠ "0"` is an error even on HTTP 200; a failing item's `sMsg`/`sCode` carry the real reason when present. */
export function okxErrorEnvelope(body: unknown): WireError | undefined {
  if (!isRecord(body) || (typeof body.code !== 'string' && typeof body.code !== 'number') || String(body.code) === '0') return undefined;
  const item = Array.isArray(body.data) ? body.data.find((d) => isRecord(d) && typeof d.sMsg === 'string' && d.sMsg !== '') : undefined;
  const sMsg = isRecord(item) ? String(item.sMsg) : '';
  const msg = typeof body.msg === 'string' ? body.msg : '';
  return { message: sMsg || msg || `okx error ${String(body.code)}`, code: isRecord(item) ? String(item.sCode) : String(body.code) };
}

/** One candle row (REST or stream). `closed` is false only for `confirm` "0". */
export function okxCandleRow(row: unknown): WireCandle {
  if (!Array.isArray(row) || row.length < 7) throw malformed(EX, 'Malformed candle row from okx');
  return {
    time: wireNum(row[0], 'ts', EX) / 1000,
    open: wireNum(row[1], 'open', EX),
    high: wireNum(row[2], 'high', EX),
    low: wireNum(row[3], 'low', EX),
    close: wireNum(row[4], 'close', EX),
    volume: wireNum(row[6], 'volCcy', EX),
    closed: row[8] !== '0',
  };
}

/**
 * A candles body → bars OLDEST first, one per `ts` (the first row with it). Observed newest first (not
 * documented): sorted rather than reversed. The error envelope throws with OKX's message and code.
 */
export function okxCandleRows(body: unknown, opts?: CandleRowsOptions): WireCandle[] {
  const error = okxErrorEnvelope(body);
  if (error) throw exchangeError(EX, error);
  const data = isRecord(body) ? body.data : undefined;
  if (!Array.isArray(data)) throw malformed(EX, 'Malformed candles answer from okx');
  const byTime = new Map<number, WireCandle>();
  for (const c of readRows(data, okxCandleRow, opts)) if (!byTime.has(c.time)) byTime.set(c.time, c);
  return [...byTime.values()].sort((a, b) => a.time - b.time);
}
