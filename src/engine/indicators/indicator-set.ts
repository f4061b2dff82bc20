import { parseColor, type Rgba } from '../core/colors';
import type { SeriesStore } from '../core/series-store';
import type { Indicator, IndicatorValue, PriceSource } from '../types';
import { BollingerCalculator } from './bollinger';
import type { Calculator, Source } from './calculator';
import { EmaCalculator, SmaCalculator } from './moving-averages';
import { VwapCalculator } from './vwap';

/** Periods are clamped to 1…this (a 1,000-bar window still costs < 1 µs per live tick). */
export const MAX_INDICATOR_PERIOD = 1000;
const SOURCES: readonly PriceSource[] = ['close', 'open', 'high', 'low', 'hl2', 'hlc3', 'ohlc4'];
type DerivedSource = 'hl2' | 'hlc3' | 'ohlc4';
const isDerived = (s: PriceSource): s is DerivedSource => s === 'hl2' || s === 'hlc3' || s === 'ohlc4';

export interface IndicatorEntry {
  spec: Indicator;
  calc: Calculator;
  /** Aligned with the store's arrays: bar i at `store.base + i`. */
  cols: Float64Array[];
  color: Rgba;
  /** What the values depend on: an entry whose key is unchanged keeps its columns. */
  key: string;
}

/** A spec with its numbers made safe: whole periods in range, a positive band width, a known source. */
export function normalizeIndicator(spec: Indicator): Indicator | null {
  const source = SOURCES.includes(spec.source) ? spec.source : spec.kind === 'vwap' ? 'hlc3' : 'close';
  const period = (p: number) => (Number.isFinite(p) ? Math.min(MAX_INDICATOR_PERIOD, Math.max(1, Math.round(p))) : 20);
  switch (spec.kind) {
    case 'sma':
    case 'ema':
      return { ...spec, source, period: period(spec.period) };
    case 'bollinger':
      return { ...spec, source, period: period(spec.period), stdDev: Number.isFinite(spec.stdDev) && spec.stdDev > 0 ? Math.min(10, spec.stdDev) : 2 };
    case 'vwap':
      return { ...spec, source };
    default:
      return null;
  }
}

function computeKey(s: Indicator): string {
  return s.kind === 'vwap' ? `vwap:${s.source}` : `${s.kind}:${s.period}:${s.source}`;
}

function createCalculator(s: Indicator): Calculator {
  switch (s.kind) {
    case 'sma':
      return new SmaCalculator(s.period);
    case 'ema':
      return new EmaCalculator(s.period);
    case 'bollinger':
      return new BollingerCalculator(s.period, s.stdDev);
    case 'vwap':
      return new VwapCalculator();
  }
}

/** (high + low) / 2, (high + low + close) / 3, (open + high + low + close) / 4 of array indexes [k0, k1). */
function fillDerived(store: SeriesStore, source: DerivedSource, out: Float64Array, k0: number, k1: number): void {
  const { open: o, high: h, low: l, close: c } = store;
  if (source === 'hl2') for (let k = k0; k < k1; k++) out[k] = (h[k] + l[k]) / 2;
  else if (source === 'hlc3') for (let k = k0; k < k1; k++) out[k] = (h[k] + l[k] + c[k]) / 3;
  else for (let k = k0; k < k1; k++) out[k] = (o[k] + h[k] + l[k] + c[k]) / 4;
}

/**
 * The chart's indicators and their columns, kept in step with the store: the controller calls
 * `reset`, `prepended` or `lastChanged` after every change of the candles. When the store moves its
 * arrays (a page past the head-room, an append past the tail), the columns follow with one copy.
 * A derived source (hl2, hlc3, ohlc4) in use is one more aligned column, shared by the indicators
 * reading it; the OHLC sources are the store's own columns.
 */
export class IndicatorSet {
  entries: IndicatorEntry[] = [];
  private derived = new Map<DerivedSource, Float64Array>();
  private arrays: Float64Array | null = null;
  private head = 0;
  private count = 0;

  constructor(private readonly store: SeriesStore) {}

  /** Replaces the list; entries whose id and computation are unchanged keep their values. */
  setSpecs(list: readonly Indicator[]): void {
    this.realign(0, true);
    const old = new Map(this.entries.map((e) => [e.spec.id, e]));
    const seen = new Set<string>();
    const next: IndicatorEntry[] = [];
    for (const raw of list) {
      const spec = normalizeIndicator(raw);
      if (!spec || seen.has(spec.id)) continue;
      seen.add(spec.id);
      const key = computeKey(spec);
      const color = parseColor(spec.color);
      const kept = old.get(spec.id);
      if (kept && kept.key === key) {
        if (kept.calc instanceof BollingerCalculator && spec.kind === 'bollinger') kept.calc.stdDev = spec.stdDev;
        next.push({ ...kept, spec, color });
        continue;
      }
      const calc = createCalculator(spec);
      const cols = Array.from({ length: calc.columns }, () => new Float64Array(this.store.time.length));
      next.push({ spec, calc, cols, color, key });
    }
    const fresh = next.filter((e) => !old.has(e.spec.id) || old.get(e.spec.id)!.cols !== e.cols);
    this.entries = next;
    this.syncDerived();
    for (const e of fresh) e.calc.computeAll(this.store, e.cols, this.source(e.spec.source));
  }

  /** After `setCandles`. */
  reset(): void {
    this.realign(0, false);
    const b = this.store.base;
    for (const [source, col] of this.derived) fillDerived(this.store, source, col, b, b + this.store.length);
    for (const e of this.entries) e.calc.computeAll(this.store, e.cols, this.source(e.spec.source));
  }

  /** After `added` older bars were prepended. */
  prepended(added: number): void {
    this.realign(added, true);
    const b = this.store.base;
    for (const [source, col] of this.derived) fillDerived(this.store, source, col, b, b + added);
    for (const e of this.entries) e.calc.computeHead(this.store, e.cols, this.source(e.spec.source), added);
  }

  /** After the last bar was replaced or a bar appended. */
  lastChanged(appended: boolean): void {
    this.realign(0, true);
    const n = this.store.length;
    if (n === 0) return;
    const k = this.store.base + n - 1;
    for (const [source, col] of this.derived) fillDerived(this.store, source, col, k, k + 1);
    for (const e of this.entries) e.calc.computeLast(this.store, e.cols, this.source(e.spec.source), appended);
  }

  /** Values at bar `index`; outside the loaded bars (or undefined) the last bar's, as the OHLC legend. */
  valuesAt(index?: number): IndicatorValue[] {
    const n = this.store.length;
    const i = index !== undefined && index >= 0 && index < n ? Math.round(index) : n - 1;
    const k = this.store.base + i;
    return this.entries.map((e) => ({
      id: e.spec.id,
      values: Array.from({ length: e.calc.lines }, (_, line) => (n === 0 ? NaN : e.calc.value(e.cols, line, k))),
    }));
  }

  /** Bytes held by the columns (8 per bar and column). */
  get byteLength(): number {
    let bytes = 0;
    for (const col of this.derived.values()) bytes += col.byteLength;
    return this.entries.reduce((s, e) => s + e.cols.reduce((t, c) => t + c.byteLength, 0), bytes);
  }

  /** The prices an indicator reads: a store column, or a derived one (current arrays: call after realign). */
  private source(s: PriceSource): Source {
    if (isDerived(s)) return this.derived.get(s)!;
    return this.store[s as 'open' | 'high' | 'low' | 'close'];
  }

  /** Derived columns for exactly the derived sources in use (a new one filled for all bars). */
  private syncDerived(): void {
    const used = new Set(this.entries.map((e) => e.spec.source).filter(isDerived));
    for (const s of this.derived.keys()) if (!used.has(s)) this.derived.delete(s);
    for (const s of used) {
      if (this.derived.has(s)) continue;
      const col = new Float64Array(this.store.time.length);
      fillDerived(this.store, s, col, this.store.base, this.store.base + this.store.length);
      this.derived.set(s, col);
    }
  }

  /**
   * Follows the store's arrays. While they stay the same objects, a bar keeps its array index (a
   * prepend only lowers `base`), so nothing moves; when the store reallocated, the old bars are
   * copied to their new place — `added` rows further right when a page was prepended.
   */
  private realign(added: number, keep: boolean): void {
    const s = this.store;
    if (s.time !== this.arrays) {
      const len = s.time.length;
      const move = (old: Float64Array) => {
        const next = new Float64Array(len);
        if (keep && this.count > 0) next.set(old.subarray(this.head, this.head + this.count), s.base + added);
        return next;
      };
      for (const e of this.entries) e.cols = e.cols.map(move);
      for (const [source, col] of this.derived) this.derived.set(source, move(col));
      this.arrays = s.time;
    }
    this.head = s.base;
    this.count = s.length;
  }
}
