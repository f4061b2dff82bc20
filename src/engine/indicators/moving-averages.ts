import type { SeriesStore } from '../core/series-store';
import { windowSum, type Calculator, type Source } from './calculator';

/**
 * EMA after a prepend: the seed (the SMA of the first `period` bars) moves to the new first bars, so
 * in exact arithmetic every later value changes — but by (1 − α)^m after m bars. The head is
 * recomputed forward until the new value agrees with the stored one to this relative tolerance;
 * from there on the stored values are kept. A page then costs O(page + period + ln(1e12)/α) — about
 * 2,800 bars for a 200-bar EMA — instead of O(all bars), and differs from a full recompute by less
 * than 1e-12 of the price (far below any tick).
 */
export const EMA_CONVERGED = 1e-12;

/** Simple moving average over `period` bars; NaN for the first period − 1 bars. */
export class SmaCalculator implements Calculator {
  readonly columns = 1;
  readonly lines = 1;

  constructor(private readonly period: number) {}

  computeAll(store: SeriesStore, cols: Float64Array[], src: Source): void {
    this.run(store, cols[0], src, store.length);
  }

  /** The new bars and the first period − 1 old ones (their windows now have enough bars). */
  computeHead(store: SeriesStore, cols: Float64Array[], src: Source, added: number): void {
    this.run(store, cols[0], src, Math.min(store.length, added + this.period - 1));
  }

  computeLast(store: SeriesStore, cols: Float64Array[], src: Source): void {
    const p = this.period;
    const i = store.length - 1;
    const k = store.base + i;
    cols[0][k] = i < p - 1 ? NaN : windowSum(src, k - p + 1, k) / p;
  }

  value(cols: Float64Array[], _line: number, k: number): number {
    return cols[0][k];
  }

  /**
   * Bars [0, end) with a running sum. Every `period` bars the window is summed afresh, so the
   * rounding of a million additions and subtractions never accumulates (O(n) in total).
   */
  private run(store: SeriesStore, out: Float64Array, src: Source, end: number): void {
    const p = this.period;
    const b = store.base;
    let sum = 0;
    let resum = p - 1;
    for (let i = 0; i < end; i++) {
      const k = b + i;
      sum += src[k];
      if (i >= p) sum -= src[k - p];
      if (i < p - 1) {
        out[k] = NaN;
        continue;
      }
      if (i === resum) {
        resum += p;
        sum = windowSum(src, k - p + 1, k);
      }
      out[k] = sum / p;
    }
  }
}

/** Exponential moving average, α = 2 / (period + 1), seeded with the SMA of the first `period` bars. */
export class EmaCalculator implements Calculator {
  readonly columns = 1;
  readonly lines = 1;

  constructor(private readonly period: number) {}

  computeAll(store: SeriesStore, cols: Float64Array[], src: Source): void {
    this.run(store, cols[0], src, Infinity);
  }

  computeHead(store: SeriesStore, cols: Float64Array[], src: Source, added: number): void {
    // Old bars from `added + period − 1` on had a value; compare with it to stop early.
    this.run(store, cols[0], src, added + this.period - 1);
  }

  computeLast(store: SeriesStore, cols: Float64Array[], src: Source): void {
    const p = this.period;
    const i = store.length - 1;
    const k = store.base + i;
    const out = cols[0];
    if (i < p - 1) out[k] = NaN;
    else if (i === p - 1) out[k] = windowSum(src, k - p + 1, k) / p;
    else out[k] = out[k - 1] + (2 / (p + 1)) * (src[k] - out[k - 1]);
  }

  value(cols: Float64Array[], _line: number, k: number): number {
    return cols[0][k];
  }

  /** Bars from 0 on; from bar `convergeFrom` on, stops where the new value meets the stored one. */
  private run(store: SeriesStore, out: Float64Array, src: Source, convergeFrom: number): void {
    const p = this.period;
    const a = 2 / (p + 1);
    const b = store.base;
    const n = store.length;
    let prev = NaN;
    for (let i = 0; i < n; i++) {
      const k = b + i;
      let v: number;
      if (i < p - 1) v = NaN;
      else if (i === p - 1) v = windowSum(src, k - p + 1, k) / p;
      else v = prev + a * (src[k] - prev);
      if (i >= convergeFrom && Math.abs(v - out[k]) <= EMA_CONVERGED * Math.abs(v)) return;
      out[k] = v;
      prev = v;
    }
  }
}
