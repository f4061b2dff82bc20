import type { SeriesStore } from '../core/series-store';

/** Each pyramid level aggregates this many entries of the level below. */
export const LOD_BRANCH = 8;

interface Columns {
  open: Float64Array | Float32Array;
  high: Float64Array | Float32Array;
  low: Float64Array | Float32Array;
  close: Float64Array | Float32Array;
  volume: Float64Array | Float32Array;
}

interface Level extends Columns {
  /** Bars per entry (8, 64, 512…). */
  size: number;
  count: number;
  open: Float32Array;
  high: Float32Array;
  low: Float32Array;
  close: Float32Array;
  volume: Float32Array;
}

/**
 * Level-of-detail pyramid: level k holds one OHLCV per 8^k bars (open first, close last, high max,
 * low min, volume sum), built lazily the first time a zoom level needs it. Float32 is enough here —
 * it only feeds pixels. A live update recomputes one entry per level (O(levels)); prepending
 * history rebuilds on demand (group boundaries move with the indexes).
 */
export class LodPyramid {
  private levels: Level[] = [];
  private builtRevision = -1;

  constructor(private readonly store: SeriesStore) {}

  /** Drops everything (new data or prepended history). */
  invalidate(): void {
    this.levels = [];
    this.builtRevision = -1;
  }

  /** The level whose entries cover at most `barsPerColumn` bars (0 = raw bars). */
  levelFor(barsPerColumn: number): number {
    let level = 0;
    let size = LOD_BRANCH;
    while (size <= barsPerColumn && size < this.store.length) {
      level++;
      size *= LOD_BRANCH;
    }
    return level;
  }

  /** Level `k ≥ 1`, building it (and the levels below) if needed. */
  level(k: number): Level {
    if (this.builtRevision !== this.store.revision) {
      this.levels = [];
      this.builtRevision = this.store.revision;
    }
    while (this.levels.length < k) this.buildNext();
    this.syncTail();
    return this.levels[k - 1];
  }

  /** Bytes held by the built levels. */
  get byteLength(): number {
    return this.levels.reduce((s, l) => s + l.open.byteLength * 5, 0);
  }

  /** Re-aggregates the last entry of each built level (after the last bar changed or was appended). */
  syncTail(): void {
    const n = this.store.length;
    for (let k = 0; k < this.levels.length; k++) {
      const lv = this.levels[k];
      const need = Math.ceil(n / lv.size);
      if (need > lv.open.length) {
        this.growLevel(lv, need);
      }
      // Only the last entry (or a newly started one) can differ from the data below.
      const from = Math.max(0, Math.min(lv.count, need) - 1);
      for (let e = from; e < need; e++) this.aggregateEntry(k, e);
      lv.count = need;
    }
  }

  private buildNext(): void {
    const k = this.levels.length;
    const size = LOD_BRANCH ** (k + 1);
    const count = Math.ceil(this.store.length / size);
    const cap = count + 64;
    const lv: Level = {
      size,
      count,
      open: new Float32Array(cap),
      high: new Float32Array(cap),
      low: new Float32Array(cap),
      close: new Float32Array(cap),
      volume: new Float32Array(cap),
    };
    this.levels.push(lv);
    // One tight pass over the level below: a million bars take a few ms.
    for (let e = 0; e < count; e++) this.aggregateEntry(k, e);
  }

  /** Entry e of level k from the LOD_BRANCH entries (or bars) below it; the last one may be partial. */
  private aggregateEntry(k: number, e: number): void {
    const s = this.store;
    const below = k === 0 ? null : this.levels[k - 1];
    const src: Columns = below ?? s;
    const offset = below ? 0 : s.base;
    const n = below ? Math.ceil(s.length / below.size) : s.length;
    const j0 = offset + e * LOD_BRANCH;
    const j1 = offset + Math.min(n, (e + 1) * LOD_BRANCH);
    const { high: sh, low: sl, volume: sv } = src;
    let h = sh[j0];
    let l = sl[j0];
    let v = 0;
    for (let j = j0; j < j1; j++) {
      const hj = sh[j];
      const lj = sl[j];
      if (hj > h) h = hj;
      if (lj < l) l = lj;
      v += sv[j];
    }
    const lv = this.levels[k];
    lv.open[e] = src.open[j0];
    lv.close[e] = src.close[j1 - 1];
    lv.high[e] = h;
    lv.low[e] = l;
    lv.volume[e] = v;
  }

  private growLevel(lv: Level, need: number): void {
    const cap = need + Math.max(64, need >> 2);
    for (const key of ['open', 'high', 'low', 'close', 'volume'] as const) {
      const next = new Float32Array(cap);
      next.set(lv[key].subarray(0, lv.count));
      lv[key] = next;
    }
  }
}

/** Screen-space columns produced for the renderer, prices still in price units. */
export interface ColumnData {
  count: number;
  /** Left edge of the wick, device px. */
  x: Float32Array;
  /** Body width, device px. */
  bodyWidth: Float32Array;
  open: Float64Array;
  high: Float64Array;
  low: Float64Array;
  close: Float64Array;
  volume: Float64Array;
  /** Logical index of the last bar in each column (indicators are drawn with their value there). */
  lastIndex: Int32Array;
  /** Lowest low / highest high / largest volume among columns inside the visible range. */
  minLow: number;
  maxHigh: number;
  maxVolume: number;
  /** Bars per drawn column (1 when not aggregated). */
  barsPerColumn: number;
  wickWidth: number;
}

export function createColumnData(capacity = 4096): ColumnData {
  return {
    count: 0,
    x: new Float32Array(capacity),
    bodyWidth: new Float32Array(capacity),
    open: new Float64Array(capacity),
    high: new Float64Array(capacity),
    low: new Float64Array(capacity),
    close: new Float64Array(capacity),
    volume: new Float64Array(capacity),
    lastIndex: new Int32Array(capacity),
    minLow: Infinity,
    maxHigh: -Infinity,
    maxVolume: 0,
    barsPerColumn: 1,
    wickWidth: 1,
  };
}

function ensureCapacity(out: ColumnData, n: number): void {
  if (out.x.length >= n) return;
  const next = createColumnData(Math.max(n, out.x.length * 2));
  Object.assign(out, { ...next, count: 0 });
}

type Column = Float64Array | Float32Array;

/**
 * Fills `out` with what is drawn for the visible logical range [from, to]:
 * - bars ≥ 1 device px apart: one column per bar, wick and body snapped to device pixels;
 * - denser: one OHLC per device-pixel column, aggregated from the pyramid level whose entries are
 *   no wider than a column, so min/max are preserved and the cost is O(columns), not O(bars).
 * `pxPerBar` is device pixels per bar.
 */
export function buildColumns(
  store: SeriesStore,
  pyramid: LodPyramid,
  from: number,
  to: number,
  pxPerBar: number,
  dpr: number,
  out: ColumnData,
): void {
  out.count = 0;
  out.minLow = Infinity;
  out.maxHigh = -Infinity;
  out.maxVolume = 0;
  const n = store.length;
  if (n === 0 || !(pxPerBar > 0)) return;
  if (pxPerBar >= 1) {
    buildBars(store, from, to, pxPerBar, dpr, out);
    return;
  }
  const barsPerColumn = 1 / pxPerBar;
  const level = pyramid.levelFor(barsPerColumn);
  out.barsPerColumn = barsPerColumn;
  out.wickWidth = 1;
  if (level === 0) {
    aggregate(store.open, store.high, store.low, store.close, store.volume, store.base, n, 1, from, to, pxPerBar, out);
  } else {
    const lv = pyramid.level(level);
    aggregate(lv.open, lv.high, lv.low, lv.close, lv.volume, 0, n, lv.size, from, to, pxPerBar, out);
  }
}

function buildBars(store: SeriesStore, from: number, to: number, pxPerBar: number, dpr: number, out: ColumnData): void {
  const n = store.length;
  const i0 = Math.max(0, Math.floor(from - 1));
  const i1 = Math.min(n - 1, Math.ceil(to + 1));
  ensureCapacity(out, i1 - i0 + 1);
  const wick = Math.max(1, Math.min(Math.round(dpr), Math.floor(pxPerBar / 3)));
  let body = Math.max(wick, Math.floor(pxPerBar * 0.8));
  // Same parity as the wick so the wick sits exactly in the middle of the body.
  if ((body - wick) % 2 === 1) body -= 1;
  out.wickWidth = wick;
  out.barsPerColumn = 1;
  const { open, high, low, close, volume, base } = store;
  let c = 0;
  for (let i = i0; i <= i1; i++) {
    const k = base + i;
    out.x[c] = Math.round((i - from) * pxPerBar - wick / 2);
    out.bodyWidth[c] = body;
    out.open[c] = open[k];
    out.high[c] = high[k];
    out.low[c] = low[k];
    out.close[c] = close[k];
    out.volume[c] = volume[k];
    out.lastIndex[c] = i;
    if (i >= from - 0.5 && i <= to + 0.5) {
      if (low[k] < out.minLow) out.minLow = low[k];
      if (high[k] > out.maxHigh) out.maxHigh = high[k];
      if (volume[k] > out.maxVolume) out.maxVolume = volume[k];
    }
    c++;
  }
  out.count = c;
}

function aggregate(
  o: Column,
  h: Column,
  l: Column,
  cl: Column,
  v: Column,
  offset: number,
  bars: number,
  size: number,
  from: number,
  to: number,
  pxPerBar: number,
  out: ColumnData,
): void {
  const entries = Math.ceil(bars / size);
  const e0 = Math.max(0, Math.floor(Math.max(0, from) / size));
  const e1 = Math.min(entries - 1, Math.floor(Math.min(bars - 1, to) / size));
  ensureCapacity(out, Math.ceil((to - from) * pxPerBar) + 4);
  let c = -1;
  let col = -Infinity;
  for (let e = e0; e <= e1; e++) {
    const start = e * size;
    const width = Math.min(size, bars - start);
    const x = Math.floor((start + (width - 1) / 2 - from) * pxPerBar);
    const k = offset + e;
    const last = start + width - 1;
    if (x !== col) {
      c++;
      if (c >= out.x.length) {
        c--;
        break;
      }
      col = x;
      out.x[c] = x;
      out.bodyWidth[c] = 1;
      out.open[c] = o[k];
      out.high[c] = h[k];
      out.low[c] = l[k];
      out.close[c] = cl[k];
      out.volume[c] = v[k];
      out.lastIndex[c] = last;
    } else {
      if (h[k] > out.high[c]) out.high[c] = h[k];
      if (l[k] < out.low[c]) out.low[c] = l[k];
      out.close[c] = cl[k];
      out.volume[c] += v[k];
      out.lastIndex[c] = last;
    }
  }
  out.count = c + 1;
  for (let i = 0; i < out.count; i++) {
    if (out.low[i] < out.minLow) out.minLow = out.low[i];
    if (out.high[i] > out.maxHigh) out.maxHigh = out.high[i];
    if (out.volume[i] > out.maxVolume) out.maxVolume = out.volume[i];
  }
}
