/**
 * Bybit v5, `GET /v5/market/kline`: envelope `{ retCode, retMsg, result: { list } }` with errors on HTTP
 * 200 (trap 9); rows NEWEST first, all strings:
 *
 *   index 0 startTime (ms) · 1 open · 2 high · 3 low · 4 close
 *   index 5 `volume`   — linear: base coin (BTC)     · inverse: USD (= contracts)
 *   index 6 `turnover` — linear: quote coin (USDT)   · inverse: base coin (BTC)
 *
 * SPEC §7 says "volume is column 5 for inverse, column 6 otherwise": read as 0-based indexes this agrees
 * with bybit.md, and picks the QUOTE-currency volume in both categories (USD contracts for inverse, USDT
 * turnover for linear). The forming bar is included and not marked.
 */
import { exchangeError, isRecord, malformed, readRows, wireNum, type CandleRowsOptions, type WireCandle, type WireError } from './common';

const EX = 'bybit';

export type BybitCategory = 'linear' | 'inverse';

/** Index of the volume column SPEC §7 asks for (see the file comment). */
export function bybitVolumeColumn(category: BybitCategory): 5 | 6 {
  return category === 'inverse' ? 5 : 6;
}

/** `retCode ≠ 0` is an error even on HTTP 200; `retMsg` is what the user reads. */
export function bybitErrorEnvelope(body: unknown): WireError | undefined {
  if (!isRecord(body) || typeof body.retCode !== 'number' || body.retCode === 0) return undefined;
  const message = typeof body.retMsg === 'string' && body.retMsg !== '' ? body.retMsg : `bybit error ${body.retCode}`;
  return { message, code: body.retCode };
}

/** One `result.list` row; `volume` from the category's column (linear when not said). */
export function bybitCandleRow(row: unknown, category: BybitCategory = 'linear'): WireCandle {
  if (!Array.isArray(row) || row.length < 7) throw malformed(EX, 'Malformed kline row from bybit');
  return {
    time: wireNum(row[0], 'startTime', EX) / 1000,
    open: wireNum(row[1], 'open', EX),
    high: wireNum(row[2], 'high', EX),
    low: wireNum(row[3], 'low', EX),
    close: wireNum(row[4], 'close', EX),
    volume: wireNum(row[bybitVolumeColumn(category)], 'volume', EX),
  };
}

/** A kline body → bars OLDEST first (the wire's newest-first list reversed, trap 1). The error envelope throws with `retMsg` and `retCode`. */
export function bybitCandleRows(body: unknown, category: BybitCategory = 'linear', opts?: CandleRowsOptions): WireCandle[] {
  const error = bybitErrorEnvelope(body);
  if (error) throw exchangeError(EX, error);
  const list = isRecord(body) && isRecord(body.result) ? body.result.list : undefined;
  if (!Array.isArray(list)) throw malformed(EX, 'Malformed kline answer from bybit');
  return readRows(list, (row) => bybitCandleRow(row, category), opts).reverse(); // "Sort in reverse by startTime"
}
