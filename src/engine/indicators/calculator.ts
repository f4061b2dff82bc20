import type { SeriesStore } from '../core/series-store';

/**
 * One indicator's arithmetic. Its columns are Float64Arrays laid out exactly like the store's
 * (bar i at `store.base + i`), so a prepended page that fits the store's head-room moves nothing,
 * and the drawing code reads them with the same index as the candles.
 *
 * The three entry points are the engine's three data events; each recomputes only what the event
 * can change (see README "Indicators"):
 * - `computeAll` after `setCandles` — one O(n) pass;
 * - `computeHead(added)` after `added` older bars were prepended — the new head plus the bars whose
 *   window or session reaches into it;
 * - `computeLast(appended)` after the last bar was replaced (same time) or a bar was appended —
 *   the last bar only, from its window or from the previous bar's value.
 */
export interface Calculator {
  /** Columns it keeps (outputs and state). */
  readonly columns: number;
  /** Lines it draws and reports (Bollinger: basis, upper, lower). */
  readonly lines: number;
  computeAll(store: SeriesStore, cols: Float64Array[], src: Source): void;
  computeHead(store: SeriesStore, cols: Float64Array[], src: Source, added: number): void;
  computeLast(store: SeriesStore, cols: Float64Array[], src: Source, appended: boolean): void;
  /** Value of `line` at array index `k` (NaN where undefined). */
  value(cols: Float64Array[], line: number, k: number): number;
}

/**
 * The source prices, indexed like the store's columns: the store's own open/high/low/close column,
 * or a derived column (hl2, hlc3, ohlc4) the IndicatorSet keeps in step. Hot loops read it directly
 * (a per-bar closure call cost more than the arithmetic).
 */
export type Source = Float64Array;

/** Sum of src over array indexes k0…k1 (inclusive), left to right. */
export function windowSum(src: Source, k0: number, k1: number): number {
  let s = 0;
  for (let k = k0; k <= k1; k++) s += src[k];
  return s;
}
