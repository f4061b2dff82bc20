import type { SeriesStore } from '../core/series-store';
import { coordinate, logical, unixTime, type Coordinate, type Logical, type UnixTime } from '../core/units';
import type { VisibleRange } from '../types';

export const DEFAULT_BAR_SPACING = 8;
export const DEFAULT_RIGHT_OFFSET_BARS = 5;
/** Bars are never drawn wider than this (CSS px). */
export const MAX_BAR_SPACING = 60;
/** Fewest bars the view may show. */
export const MIN_VISIBLE_BARS = 5;
/** At least this many bars stay on screen when panning past either end. */
const MIN_BARS_ON_SCREEN = 3;

/**
 * Horizontal mapping: logical bar index ↔ x (CSS px inside the pane). The state is just the visible
 * logical range; spacing (px per bar) follows from the pane width. Bar i's centre is at
 * x = (i − from) · spacing, so pan and zoom are two numbers and every mapping is one multiply-add.
 */
export class TimeScale {
  private fromIdx = 0;
  private toIdx = 1;
  private paneWidth = 1;
  /** Upper bound on the span (so zooming out stops at "all data plus a margin"). */
  private maxSpan = 1e9;

  get from(): number {
    return this.fromIdx;
  }
  get to(): number {
    return this.toIdx;
  }
  get width(): number {
    return this.paneWidth;
  }
  get spacing(): number {
    return this.paneWidth / (this.toIdx - this.fromIdx);
  }
  get range(): VisibleRange {
    return { from: this.fromIdx, to: this.toIdx };
  }

  indexToX(i: number): Coordinate {
    return coordinate((i - this.fromIdx) * this.spacing);
  }

  xToIndex(x: number): Logical {
    return logical(this.fromIdx + x / this.spacing);
  }

  /** Sets the range as given, then enforces the span and scroll limits for `count` bars. */
  setRange(r: VisibleRange, count: number): void {
    this.fromIdx = r.from;
    this.toIdx = Math.max(r.to, r.from + 1e-6);
    this.constrain(count);
  }

  /** The default view: bars DEFAULT_BAR_SPACING px wide, the last bar a few bars from the right edge. */
  reset(count: number): void {
    const span = this.paneWidth / DEFAULT_BAR_SPACING;
    this.toIdx = count - 1 + DEFAULT_RIGHT_OFFSET_BARS;
    this.fromIdx = this.toIdx - span;
    this.constrain(count);
  }

  setWidth(width: number, count: number): void {
    // Keep the right edge and the bar spacing: resizing reveals or hides bars on the left.
    const spacing = this.spacing;
    this.paneWidth = Math.max(1, width);
    this.fromIdx = this.toIdx - this.paneWidth / spacing;
    this.constrain(count);
  }

  /** Pans by a pixel delta (drag right → positive dx → older bars come into view). */
  panBy(dx: number, count: number): void {
    const shift = -dx / this.spacing;
    this.fromIdx += shift;
    this.toIdx += shift;
    this.constrain(count);
  }

  /** Zooms keeping the bar under `x` fixed; factor > 1 zooms in (fewer bars). */
  zoomAt(x: number, factor: number, count: number): void {
    const anchor = this.xToIndex(x);
    const frac = x / this.paneWidth;
    const span = this.clampSpan((this.toIdx - this.fromIdx) / factor, count);
    this.fromIdx = anchor - frac * span;
    this.toIdx = this.fromIdx + span;
    this.constrain(count);
  }

  /** Shifts the whole range (prepended history moves every index right by `n`). */
  shift(n: number): void {
    this.fromIdx += n;
    this.toIdx += n;
  }

  private clampSpan(span: number, count: number): number {
    const minSpan = Math.max(MIN_VISIBLE_BARS, this.paneWidth / MAX_BAR_SPACING);
    this.maxSpan = Math.max(minSpan * 2, count * 1.1 + 50);
    return Math.min(this.maxSpan, Math.max(minSpan, span));
  }

  private constrain(count: number): void {
    const span = this.clampSpan(this.toIdx - this.fromIdx, count);
    if (span !== this.toIdx - this.fromIdx) {
      const right = this.toIdx;
      this.toIdx = right;
      this.fromIdx = right - span;
    }
    if (count <= 0) return;
    // Keep a few bars on screen: the right edge may not pass before bar MIN_BARS_ON_SCREEN, the left
    // edge may not pass after the last bar minus MIN_BARS_ON_SCREEN.
    const minTo = Math.min(count - 1, MIN_BARS_ON_SCREEN - 1) + 0.5;
    if (this.toIdx < minTo) {
      this.fromIdx += minTo - this.toIdx;
      this.toIdx = minTo;
    }
    const maxFrom = Math.max(0, count - MIN_BARS_ON_SCREEN) - 0.5;
    if (this.fromIdx > maxFrom) {
      this.toIdx -= this.fromIdx - maxFrom;
      this.fromIdx = maxFrom;
    }
  }
}

/**
 * Time ↔ logical index over the loaded bars; outside them it extrapolates with the bar interval,
 * so drawings placed in the future (right of the last bar) keep their time.
 */
export class TimeIndex {
  /** Bar interval in seconds (median of recent steps). */
  interval = 60;

  constructor(private readonly store: SeriesStore) {}

  refreshInterval(): void {
    const n = this.store.length;
    if (n < 2) return;
    const k = Math.min(n - 1, 64);
    const diffs: number[] = [];
    for (let i = n - k; i < n; i++) {
      const d = this.store.timeAt(i) - this.store.timeAt(i - 1);
      if (d > 0) diffs.push(d);
    }
    if (!diffs.length) return;
    diffs.sort((a, b) => a - b);
    this.interval = diffs[diffs.length >> 1];
  }

  timeToIndex(t: number): Logical {
    const n = this.store.length;
    if (n === 0) return logical(0);
    const first = this.store.timeAt(0);
    const last = this.store.timeAt(n - 1);
    if (t <= first) return logical((t - first) / this.interval);
    if (t >= last) return logical(n - 1 + (t - last) / this.interval);
    const i = this.store.indexAtOrBefore(t);
    const t0 = this.store.timeAt(i);
    const t1 = this.store.timeAt(i + 1);
    return logical(i + (t - t0) / (t1 - t0));
  }

  indexToTime(index: number): UnixTime {
    const n = this.store.length;
    if (n === 0) return unixTime(index * this.interval);
    if (index <= 0) return unixTime(this.store.timeAt(0) + index * this.interval);
    if (index >= n - 1) return unixTime(this.store.timeAt(n - 1) + (index - (n - 1)) * this.interval);
    const i = Math.floor(index);
    const f = index - i;
    const t0 = this.store.timeAt(i);
    return unixTime(f === 0 ? t0 : t0 + (this.store.timeAt(i + 1) - t0) * f);
  }

  /** Time of the bar nearest to a fractional index (what drawing points snap to). */
  barTime(index: number): UnixTime {
    return this.indexToTime(Math.round(index));
  }
}
