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
  /** Per block of LOD_BLOCK entries: 1 once its entries are aggregated. */
  built: Uint8Array;
}

/** Entries of a level aggregated together when a view first needs any of them (log2). */
const LOD_BLOCK_BITS = 10;
const LOD_BLOCK = 1 << LOD_BLOCK_BITS;

/**
 * Level-of-detail pyramid: level k holds one OHLCV per 8^k bars (open first, close last, high max,
 * low min, volume sum). Nothing is aggregated up front: a level's entries are built in blocks of
 * 1,024 the first time a view needs them (and the blocks of the levels below that they read), so
 * zooming out over the last 20,000 of ten million bars aggregates those bars, not ten million.
 * Float32 is enough here — it only feeds pixels. A live update recomputes one entry per level
 * (O(levels)); prepending history drops the levels (group boundaries move with the indexes).
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

  /**
   * Level `k ≥ 1` with at least entries `first…last` aggregated (default: all of them), building
   * what is missing there and in the levels below.
   */
  level(k: number, first = 0, last = Infinity): Level {
    if (this.builtRevision !== this.store.revision) {
      this.levels = [];
      this.builtRevision = this.store.revision;
    }
    while (this.levels.length < k) this.addLevel();
    this.syncTail();
    const lv = this.levels[k - 1];
    this.ensure(k - 1, Math.max(0, first), Math.min(lv.count - 1, last));
    return lv;
  }

  /** Bytes held by the levels (allocated whole; their blocks fill in as views need them). */
  get byteLength(): number {
    return this.levels.reduce((s, l) => s + l.open.byteLength * 5, 0);
  }

  /** Re-aggregates the last entry of each level where it is built (after the last bar changed or was appended). */
  syncTail(): void {
    const n = this.store.length;
    for (let k = 0; k < this.levels.length; k++) {
      const lv = this.levels[k];
      const need = Math.ceil(n / lv.size);
      if (need > lv.open.length) this.growLevel(lv, need);
      // Only the last entry (or newly started ones) can differ from the data below — and only where
      // its block was built; new entries in a new block join it (every entry of that block is here).
      const from = Math.max(0, Math.min(lv.count, need) - 1);
      if (lv.built[from >> LOD_BLOCK_BITS]) {
        for (let e = from; e < need; e++) this.aggregateEntry(k, e);
        for (let b = (from >> LOD_BLOCK_BITS) + 1; b <= (need - 1) >> LOD_BLOCK_BITS; b++) lv.built[b] = 1;
      }
      lv.count = need;
    }
  }

  private addLevel(): void {
    const k = this.levels.length;
    const size = LOD_BRANCH ** (k + 1);
    const count = Math.ceil(this.store.length / size);
    const cap = count + 64;
    this.levels.push({
      size,
      count,
      open: new Float32Array(cap),
      high: new Float32Array(cap),
      low: new Float32Array(cap),
      close: new Float32Array(cap),
      volume: new Float32Array(cap),
      built: new Uint8Array((cap >> LOD_BLOCK_BITS) + 1),
    });
  }

  /** Aggregates the unbuilt blocks of level index `k` (level k + 1) holding entries e0…e1, lower levels first. */
  private ensure(k: number, e0: number, e1: number): void {
    const lv = this.levels[k];
    for (let b = e0 >> LOD_BLOCK_BITS; b <= e1 >> LOD_BLOCK_BITS; b++) {
      if (lv.built[b]) continue;
      const from = b << LOD_BLOCK_BITS;
      const to = Math.min(lv.count, from + LOD_BLOCK) - 1;
      if (k > 0) this.ensure(k - 1, from * LOD_BRANCH, Math.min(this.levels[k - 1].count - 1, to * LOD_BRANCH + LOD_BRANCH - 1));
      // One tight pass over the entries (or bars) below: a million bars take a few ms.
      for (let e = from; e <= to; e++) this.aggregateEntry(k, e);
      lv.built[b] = 1;
    }
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
    const built = new Uint8Array((cap >> LOD_BLOCK_BITS) + 1);
    built.set(lv.built);
    lv.built = built;
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
    // Only the entries in view are built (blocks of them, the first time they are needed).
    const first = Math.floor(Math.max(0, from) / LOD_BRANCH ** level);
    const lv = pyramid.level(level, first, Math.floor(Math.min(n - 1, to) / LOD_BRANCH ** level));
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
  const { x: ox, bodyWidth: ob, open: oo, high: oh, low: ol, close: oc, volume: ov, lastIndex: oi } = out;
  let minLow = out.minLow;
  let maxHigh = out.maxHigh;
  let maxVolume = out.maxVolume;
  let c = 0;
  for (let i = i0; i <= i1; i++) {
    const k = base + i;
    const lo = low[k];
    const hi = high[k];
    const vol = volume[k];
    ox[c] = Math.round((i - from) * pxPerBar - wick / 2);
    ob[c] = body;
    oo[c] = open[k];
    oh[c] = hi;
    ol[c] = lo;
    oc[c] = close[k];
    ov[c] = vol;
    oi[c] = i;
    if (i >= from - 0.5 && i <= to + 0.5) {
      if (lo < minLow) minLow = lo;
      if (hi > maxHigh) maxHigh = hi;
      if (vol > maxVolume) maxVolume = vol;
    }
    c++;
  }
  out.count = c;
  out.minLow = minLow;
  out.maxHigh = maxHigh;
  out.maxVolume = maxVolume;
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
  // The output arrays in locals and the open column's high/low/close/volume in registers: a column
  // is written once, when the next one starts (this loop runs over every visible bar at ≥ 1 bar per px).
  const { x: ox, bodyWidth: ob, open: oo, high: oh, low: ol, close: oc, volume: ov, lastIndex: oi } = out;
  let c = -1;
  let col = -Infinity;
  let hi = 0;
  let lo = 0;
  let close = 0;
  let vol = 0;
  let lastBar = 0;
  for (let e = e0; e <= e1; e++) {
    const start = e * size;
    const width = Math.min(size, bars - start);
    const x = Math.floor((start + (width - 1) / 2 - from) * pxPerBar);
    const k = offset + e;
    const last = start + width - 1;
    if (x !== col) {
      if (c >= 0) {
        oh[c] = hi;
        ol[c] = lo;
        oc[c] = close;
        ov[c] = vol;
        oi[c] = lastBar;
      }
      if (c + 1 >= ox.length) break;
      c++;
      col = x;
      ox[c] = x;
      ob[c] = 1;
      oo[c] = o[k];
      hi = h[k];
      lo = l[k];
      close = cl[k];
      vol = v[k];
    } else {
      const hk = h[k];
      const lk = l[k];
      if (hk > hi) hi = hk;
      if (lk < lo) lo = lk;
      close = cl[k];
      vol += v[k];
    }
    lastBar = last;
  }
  if (c >= 0) {
    oh[c] = hi;
    ol[c] = lo;
    oc[c] = close;
    ov[c] = vol;
    oi[c] = lastBar;
  }
  out.count = c + 1;
  let minLow = out.minLow;
  let maxHigh = out.maxHigh;
  let maxVolume = out.maxVolume;
  for (let i = 0; i < out.count; i++) {
    if (ol[i] < minLow) minLow = ol[i];
    if (oh[i] > maxHigh) maxHigh = oh[i];
    if (ov[i] > maxVolume) maxVolume = ov[i];
  }
  out.minLow = minLow;
  out.maxHigh = maxHigh;
  out.maxVolume = maxVolume;
}
