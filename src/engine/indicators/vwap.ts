import type { SeriesStore } from '../core/series-store';
import type { Calculator, Source } from './calculator';

const DAY = 86_400;

/**
 * VWAP anchored to the UTC day: Σ(price × volume) / Σ volume over the bars since the bar's day
 * began (a bar belongs to the day of its open time). A bar with no volume yet in its session — a
 * bar that just opened — shows its own price rather than a gap.
 *
 * Incremental: the sums of the last bar's session *before* the last bar are kept, so a replaced
 * last bar is O(1) and an appended one adds the finished bar's share first — the same additions,
 * in the same order, as the full pass (the results are identical, not just close).
 */
export class VwapCalculator implements Calculator {
  readonly columns = 1;
  readonly lines = 1;
  private sessionPv = 0;
  private sessionVolume = 0;

  computeAll(store: SeriesStore, cols: Float64Array[], src: Source): void {
    this.run(store, cols[0], src, Infinity);
  }

  /** The new bars and the rest of the session they end in (a later session is untouched). */
  computeHead(store: SeriesStore, cols: Float64Array[], src: Source, added: number): void {
    this.run(store, cols[0], src, added);
  }

  computeLast(store: SeriesStore, cols: Float64Array[], src: Source, appended: boolean): void {
    const i = store.length - 1;
    const k = store.base + i;
    const { time, volume } = store;
    if (appended) {
      if (i > 0 && Math.floor(time[k - 1] / DAY) === Math.floor(time[k] / DAY)) {
        this.sessionPv += src[k - 1] * volume[k - 1];
        this.sessionVolume += volume[k - 1];
      } else {
        this.sessionPv = 0;
        this.sessionVolume = 0;
      }
    }
    const p = src[k];
    const pv = this.sessionPv + p * volume[k];
    const v = this.sessionVolume + volume[k];
    cols[0][k] = v > 0 ? pv / v : p;
  }

  value(cols: Float64Array[], _line: number, k: number): number {
    return cols[0][k];
  }

  /** From bar 0; returns at a new session that starts at bar `stopFrom` or later. */
  private run(store: SeriesStore, out: Float64Array, src: Source, stopFrom: number): void {
    const { time, volume } = store;
    const b = store.base;
    const n = store.length;
    let pv = 0;
    let v = 0;
    // The current session's [start, end) in unix s: one comparison per bar instead of a division.
    let dayStart = Infinity;
    let dayEnd = -Infinity;
    for (let i = 0; i < n; i++) {
      const k = b + i;
      const t = time[k];
      if (t >= dayEnd || t < dayStart) {
        if (i >= stopFrom) return;
        pv = 0;
        v = 0;
        dayStart = Math.floor(t / DAY) * DAY;
        dayEnd = dayStart + DAY;
      }
      if (i === n - 1) {
        this.sessionPv = pv;
        this.sessionVolume = v;
      }
      const p = src[k];
      pv += p * volume[k];
      v += volume[k];
      out[k] = v > 0 ? pv / v : p;
    }
  }
}
