import type { SeriesStore } from '../core/series-store';
import { windowSum, type Calculator, type Source } from './calculator';

/**
 * Bollinger bands: basis = SMA(period); upper/lower = basis ± stdDev × σ, σ the population standard
 * deviation of the same bars (as TradingView's `ta.stdev`). Columns: basis and σ; the bands are
 * formed when drawn, so changing the multiplier recomputes nothing.
 */
export class BollingerCalculator implements Calculator {
  readonly columns = 2;
  readonly lines = 3;

  constructor(
    private readonly period: number,
    /** Band width in standard deviations (may change without a recompute). */
    public stdDev: number,
  ) {}

  computeAll(store: SeriesStore, cols: Float64Array[], src: Source): void {
    this.run(store, cols, src, store.length);
  }

  computeHead(store: SeriesStore, cols: Float64Array[], src: Source, added: number): void {
    this.run(store, cols, src, Math.min(store.length, added + this.period - 1));
  }

  /** The last bar from its window: mean, then the mean squared deviation from it (two passes, exact). */
  computeLast(store: SeriesStore, cols: Float64Array[], src: Source): void {
    const p = this.period;
    const i = store.length - 1;
    const k = store.base + i;
    if (i < p - 1) {
      cols[0][k] = NaN;
      cols[1][k] = NaN;
      return;
    }
    const mean = windowSum(src, k - p + 1, k) / p;
    cols[0][k] = mean;
    cols[1][k] = Math.sqrt(squaredDeviations(src, k - p + 1, k, mean) / p);
  }

  value(cols: Float64Array[], line: number, k: number): number {
    const basis = cols[0][k];
    if (line === 0) return basis;
    const band = this.stdDev * cols[1][k];
    return line === 1 ? basis + band : basis - band;
  }

  /**
   * Bars [0, end) with running sums of (x − K) and (x − K)². K is re-centred on the window's mean
   * every `period` bars (the window summed afresh), so the variance S2/p − (S1/p)² never subtracts
   * two squares of 30,000-dollar prices (which would leave cents of noise) and never drifts.
   */
  private run(store: SeriesStore, cols: Float64Array[], src: Source, end: number): void {
    const p = this.period;
    const [basis, sd] = cols;
    const b = store.base;
    let centre = 0;
    let s1 = 0;
    let s2 = 0;
    let resum = p - 1;
    for (let i = 0; i < end; i++) {
      const k = b + i;
      if (i < p - 1) {
        basis[k] = NaN;
        sd[k] = NaN;
        continue;
      }
      if (i === resum) {
        resum += p;
        const sum = windowSum(src, k - p + 1, k);
        centre = sum / p;
        // Σ(x − centre) with centre the window's mean: zero but for rounding.
        s1 = sum - centre * p;
        s2 = squaredDeviations(src, k - p + 1, k, centre);
      } else {
        const dIn = src[k] - centre;
        const dOut = src[k - p] - centre;
        s1 += dIn - dOut;
        s2 += dIn * dIn - dOut * dOut;
      }
      const m = s1 / p;
      basis[k] = centre + m;
      sd[k] = Math.sqrt(Math.max(0, s2 / p - m * m));
    }
  }
}

function squaredDeviations(src: Source, k0: number, k1: number, mean: number): number {
  let s = 0;
  for (let k = k0; k <= k1; k++) {
    const d = src[k] - mean;
    s += d * d;
  }
  return s;
}
