import type { Candle, CandleColumns } from '../types';
import { validateCandleColumns } from './candle-columns';

/**
 * Columnar OHLCV storage. Time is Float64 (unix seconds); prices and volume are Float64 too so a
 * price is exact to the tick at any magnitude (Float32 loses ticks above ~8M ticks, e.g. 100000.01).
 * Capacity grows geometrically at the right (live appends are O(1) amortised) and keeps head-room
 * at the left so prepending a page of history does not copy a million bars each time.
 */
export class SeriesStore {
  time = new Float64Array(0);
  open = new Float64Array(0);
  high = new Float64Array(0);
  low = new Float64Array(0);
  close = new Float64Array(0);
  volume = new Float64Array(0);
  /** Index into the typed arrays of logical bar 0. */
  private head = 0;
  private count = 0;
  /** Bumped on any change to rows other than the last one (LOD caches key on it). */
  revision = 0;

  get length(): number {
    return this.count;
  }

  /** Array offset of logical index 0 — hot loops read `arr[base + i]` instead of calling getters. */
  get base(): number {
    return this.head;
  }

  set(candles: readonly Candle[]): void {
    const n = candles.length;
    // Head-room: ~50 history pages at the left, a day of 1-minute bars at the right; more grows on demand.
    this.allocate(n, Math.min(16_384, Math.max(1024, n >> 4)), Math.min(2048, Math.max(256, n >> 4)), true);
    const h = this.head;
    const { time, open, high, low, close, volume } = this;
    for (let i = 0; i < n; i++) {
      const c = candles[i];
      time[h + i] = c.time;
      open[h + i] = c.open;
      high[h + i] = c.high;
      low[h + i] = c.low;
      close[h + i] = c.close;
      volume[h + i] = c.volume;
    }
    this.count = n;
    this.revision++;
  }

  /**
   * Takes the caller's columns as its own (no copy; validated first, see `validateCandleColumns`).
   * No head-room at the left: the first page of history reallocates, as a live bar past the
   * arrays' end does (geometric growth, so appends stay O(1) amortised).
   */
  adopt(cols: CandleColumns): void {
    const n = validateCandleColumns(cols);
    this.time = cols.time;
    this.open = cols.open;
    this.high = cols.high;
    this.low = cols.low;
    this.close = cols.close;
    this.volume = cols.volume;
    this.head = 0;
    this.count = n;
    this.revision++;
  }

  /** Older history, oldest first; rows overlapping the current first bar are dropped. */
  prepend(candles: readonly Candle[]): number {
    const first = this.count > 0 ? this.time[this.head] : Infinity;
    let n = candles.length;
    while (n > 0 && candles[n - 1].time >= first) n--;
    if (n === 0) return 0;
    if (this.head < n) {
      const oldCount = this.count;
      const tail = this.time.length - (this.head + oldCount);
      const old = this.snapshotArrays();
      const oldHead = this.head;
      this.allocate(oldCount + n, Math.max(n, Math.ceil((oldCount + n) * 0.25)), Math.max(tail, 256));
      for (const [key, arr] of old) this[key].set(arr.subarray(oldHead, oldHead + oldCount), this.head + n);
      this.head += n;
      this.count = oldCount;
    }
    this.head -= n;
    const h = this.head;
    for (let i = 0; i < n; i++) {
      const c = candles[i];
      this.time[h + i] = c.time;
      this.open[h + i] = c.open;
      this.high[h + i] = c.high;
      this.low[h + i] = c.low;
      this.close[h + i] = c.close;
      this.volume[h + i] = c.volume;
    }
    this.count += n;
    this.revision++;
    return n;
  }

  /**
   * Same time as the last bar → replaces it; later time → appends. Earlier times are ignored
   * (a late WebSocket frame must not rewrite history). Returns what happened.
   */
  updateLast(c: Candle): 'replaced' | 'appended' | 'ignored' {
    const n = this.count;
    if (n > 0) {
      const lastTime = this.time[this.head + n - 1];
      if (c.time < lastTime) return 'ignored';
      if (c.time === lastTime) {
        this.write(this.head + n - 1, c);
        return 'replaced';
      }
    }
    if (this.head + n >= this.time.length) this.growRight();
    this.write(this.head + n, c);
    this.count = n + 1;
    return 'appended';
  }

  candleAt(i: number): Candle | null {
    if (i < 0 || i >= this.count) return null;
    const k = this.head + i;
    return { time: this.time[k], open: this.open[k], high: this.high[k], low: this.low[k], close: this.close[k], volume: this.volume[k] };
  }

  timeAt(i: number): number {
    return this.time[this.head + i];
  }

  closeAt(i: number): number {
    return this.close[this.head + i];
  }

  /** Index of the last bar whose time ≤ t (−1 if t is before the first bar). Binary search. */
  indexAtOrBefore(t: number): number {
    let lo = 0;
    let hi = this.count - 1;
    const base = this.head;
    if (hi < 0 || t < this.time[base]) return -1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.time[base + mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Bytes held by the columns (reported by the benchmark beside the JS heap). */
  get byteLength(): number {
    return this.time.byteLength * 6;
  }

  private write(k: number, c: Candle): void {
    this.time[k] = c.time;
    this.open[k] = c.open;
    this.high[k] = c.high;
    this.low[k] = c.low;
    this.close[k] = c.close;
    this.volume[k] = c.volume;
  }

  private growRight(): void {
    const old = this.snapshotArrays();
    const cap = this.time.length;
    const extra = Math.max(256, cap >> 1);
    this.time = new Float64Array(cap + extra);
    this.open = new Float64Array(cap + extra);
    this.high = new Float64Array(cap + extra);
    this.low = new Float64Array(cap + extra);
    this.close = new Float64Array(cap + extra);
    this.volume = new Float64Array(cap + extra);
    for (const [key, arr] of old) this[key].set(arr);
  }

  private allocate(n: number, left: number, right: number, reuse = false): void {
    const cap = n + left + right;
    // A symbol or interval switch of similar size reuses the columns instead of allocating anew.
    if (reuse && this.time.length >= cap && this.time.length <= cap * 2) {
      this.head = left;
      this.count = 0;
      return;
    }
    this.time = new Float64Array(cap);
    this.open = new Float64Array(cap);
    this.high = new Float64Array(cap);
    this.low = new Float64Array(cap);
    this.close = new Float64Array(cap);
    this.volume = new Float64Array(cap);
    this.head = left;
    this.count = 0;
  }

  private snapshotArrays(): Array<[ColumnKey, Float64Array]> {
    return COLUMNS.map((k) => [k, this[k]]);
  }
}

type ColumnKey = 'time' | 'open' | 'high' | 'low' | 'close' | 'volume';
const COLUMNS: ColumnKey[] = ['time', 'open', 'high', 'low', 'close', 'volume'];
