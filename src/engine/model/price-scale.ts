import { scaleLinear } from 'd3-scale';
import { coordinate, price, type Coordinate, type Price } from '../core/units';

/** Fractions of the pane height kept free above the highest and below the lowest visible price. */
export const MARGIN_TOP = 0.1;
/** Leaves the volume band (bottom fifth) mostly clear of candles. */
export const MARGIN_BOTTOM = 0.22;

/**
 * Vertical mapping price ↔ y (CSS px from the chart top). Auto-scale fits the visible bars; a drag
 * on the price axis switches to manual and scales around the centre; double-click returns to auto.
 * The mapping itself is linear arithmetic (hot loops call it per column); d3-scale supplies ticks.
 */
export class PriceScale {
  autoScale = true;
  private lo = 0;
  private hi = 1;
  private top = 0;
  private height = 1;
  private k = 1;

  get min(): number {
    return this.lo;
  }
  get max(): number {
    return this.hi;
  }
  get paneTop(): number {
    return this.top;
  }
  get paneHeight(): number {
    return this.height;
  }

  setPane(top: number, height: number): void {
    this.top = top;
    this.height = Math.max(1, height);
    this.recompute();
  }

  /** Fits [low, high] between the margins (auto mode only). A flat range gets ±0.5% around it. */
  fit(low: number, high: number): void {
    if (!this.autoScale || !Number.isFinite(low) || !Number.isFinite(high)) return;
    if (high - low < Math.abs(high) * 1e-9 || high === low) {
      const pad = Math.abs(high) * 0.005 || 1;
      low -= pad;
      high += pad;
    }
    const usable = 1 - MARGIN_TOP - MARGIN_BOTTOM;
    const span = (high - low) / usable;
    this.lo = low - span * MARGIN_BOTTOM;
    this.hi = high + span * MARGIN_TOP;
    this.recompute();
  }

  setDomain(lo: number, hi: number): void {
    if (!(hi > lo)) return;
    this.lo = lo;
    this.hi = hi;
    this.recompute();
  }

  /** Axis drag: factor > 1 stretches prices (zooms in) around the centre; switches to manual. */
  scaleBy(factor: number): void {
    this.autoScale = false;
    const mid = (this.lo + this.hi) / 2;
    const half = (this.hi - this.lo) / 2 / Math.max(0.05, factor);
    this.setDomain(mid - half, mid + half);
  }

  /** Vertical pan in manual mode (dy in px, drag down → higher prices come into view). */
  panBy(dy: number): void {
    const dp = dy / this.k;
    this.setDomain(this.lo + dp, this.hi + dp);
  }

  priceToY(p: number): Coordinate {
    return coordinate(this.top + this.height - (p - this.lo) * this.k);
  }

  yToPrice(y: number): Price {
    return price(this.lo + (this.top + this.height - y) / this.k);
  }

  /** Pixels per price unit. */
  get pxPerPrice(): number {
    return this.k;
  }

  /**
   * Tick prices for the axis and grid: d3's 1-2-5 steps, never finer than the instrument's tick
   * size and always a multiple of it (a BTC chart with tick 0.1 never labels 0.05 steps).
   */
  ticks(tickSize: number, minSpacingPx = 36): number[] {
    // d3 treats the count as a hint and may return ~1.5× more ticks.
    const count = Math.max(2, Math.floor(this.height / (minSpacingPx * 1.4)));
    const d3ticks = scaleLinear().domain([this.lo, this.hi]).ticks(count);
    let step = d3ticks.length > 1 ? d3ticks[1] - d3ticks[0] : this.hi - this.lo;
    let prices = d3ticks;
    if (tickSize > 0 && (step < tickSize || Math.abs(step / tickSize - Math.round(step / tickSize)) > 1e-6)) {
      step = Math.max(1, Math.ceil(step / tickSize - 1e-9)) * tickSize;
      prices = [];
      const start = Math.ceil(this.lo / step) * step;
      for (let p = start; p <= this.hi + 1e-9 && prices.length < 200; p += step) prices.push(p);
    }
    return prices;
  }

  private recompute(): void {
    this.k = this.height / (this.hi - this.lo || 1);
  }
}
