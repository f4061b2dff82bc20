import { SeriesStore } from '../core/series-store';
import { hitTestDrawings } from '../drawings/hit-test';
import type { Drawing, DrawingPoint } from '../drawings/records';
import type { DrawingContext, PaneRect } from '../drawings/types';
import { IndicatorSet } from '../indicators/indicator-set';
import type { PositionDraft } from '../interaction/position-tool';
import type { Target } from '../interaction/tool';
import type { Instrument, OffscreenLine, PositionToolOptions, PriceLine, TimeLine } from '../types';
import { createColumnData, LodPyramid } from './lod';
import { formatPrice, roundToTick } from './price-format';
import { PriceScale } from './price-scale';
import { TimeIndex, TimeScale } from './time-scale';

export const TIME_AXIS_HEIGHT = 26;
export const MIN_PRICE_AXIS_WIDTH = 64;
/** Volume bars use the bottom fifth of the pane. */
export const VOLUME_BAND = 0.2;
/** Magnet: snap to open/high/low/close within this many px. */
export const MAGNET_PX = 12;
const LINE_HIT_PX = 5;

/**
 * Everything the engine knows, in chart units, plus the mappings to the screen. No DOM, no GPU:
 * the scene builder turns it into view data and the renderer draws that.
 */
export class ChartModel {
  readonly store = new SeriesStore();
  readonly timeIndex = new TimeIndex(this.store);
  readonly timeScale = new TimeScale();
  readonly priceScale = new PriceScale();
  readonly pyramid = new LodPyramid(this.store);
  readonly columns = createColumnData();
  /** Overlay indicators, kept in step with the store by the controller. */
  readonly indicators = new IndicatorSet(this.store);

  instrument: Instrument = { tickSize: 0.01, precision: 2 };
  width = 1;
  height = 1;
  dpr = 1;
  priceAxisWidth = MIN_PRICE_AXIS_WIDTH;

  /** Records given by the app (setDrawings), with an edit in progress laid over them. */
  drawings: Drawing[] = [];
  previewDrawing: Drawing | null = null;
  selectedId: string | null = null;
  hoveredId: string | null = null;
  lines: PriceLine[] = [];
  timeLines: TimeLine[] = [];
  linePreview: { id: string; price: number } | null = null;
  hoveredLineId: string | null = null;
  /** The ✕ boxes of closable lines as last painted (CSS px), for hit-testing what the user sees. */
  lineCloseBoxes: { id: string; left: number; top: number; width: number; height: number }[] = [];
  /** Lines outside the visible price range, pinned to an edge as markers, as last painted (CSS px). */
  offscreenLines: OffscreenLine[] = [];
  magnet = true;
  /** The position tool's position (null: none shown) and the app's targets and labels for it. */
  position: PositionDraft | null = null;
  positionOptions: PositionToolOptions = {};

  crosshair: { x: number; y: number } | null = null;
  historyLoading = false;

  get pane(): PaneRect {
    return { left: 0, top: 0, width: Math.max(1, this.width - this.priceAxisWidth), height: Math.max(1, this.height - TIME_AXIS_HEIGHT) };
  }

  setSize(width: number, height: number, dpr: number): void {
    this.width = Math.max(1, width);
    this.height = Math.max(1, height);
    this.dpr = dpr;
    this.applyLayout();
  }

  /** Recomputes the pane after the size or the price axis width changed. */
  applyLayout(): void {
    const pane = this.pane;
    this.timeScale.setWidth(pane.width, this.store.length);
    this.priceScale.setPane(pane.top, pane.height);
  }

  /** Drawings as shown: the app's records with the edit in progress replacing (or added to) them. */
  visibleDrawings(): Drawing[] {
    const p = this.previewDrawing;
    if (!p) return this.drawings;
    let replaced = false;
    const out = this.drawings.map((d) => {
      if (d.id !== p.id) return d;
      replaced = true;
      return p;
    });
    if (!replaced) out.push(p);
    return out;
  }

  linePrice(line: PriceLine): number {
    return this.linePreview && this.linePreview.id === line.id ? this.linePreview.price : line.price;
  }

  roundPrice(p: number): number {
    return roundToTick(p, this.instrument.tickSize);
  }

  formatPrice(p: number): string {
    return formatPrice(p, this.instrument.precision);
  }

  /** The mappings drawing utils use; cheap to create, reflects the current scales. */
  drawingContext(): DrawingContext {
    const ts = this.timeScale;
    const ti = this.timeIndex;
    const ps = this.priceScale;
    return {
      pane: this.pane,
      timeToX: (t) => ts.indexToX(ti.timeToIndex(t)),
      xToTime: (x) => ti.barTime(ts.xToIndex(x)),
      priceToY: (p) => ps.priceToY(p),
      yToPrice: (y) => ps.yToPrice(y),
      roundPrice: (p) => this.roundPrice(p),
      shiftTime: (t, dx) => ti.indexToTime(Math.round(ti.timeToIndex(t)) + Math.round(dx / ts.spacing)),
      formatPrice: (p) => this.formatPrice(p),
    };
  }

  /** The chart point under (x, y): nearest bar's time; price snapped to OHLC (magnet) or rounded to the tick. */
  pointAt(x: number, y: number): DrawingPoint {
    const index = Math.round(this.timeScale.xToIndex(x));
    const time = this.timeIndex.indexToTime(index);
    return { time, price: this.snapPrice(index, y) };
  }

  snapPrice(index: number, y: number): number {
    const raw = this.priceScale.yToPrice(y);
    if (this.magnet && index >= 0 && index < this.store.length) {
      const c = this.store.candleAt(index);
      if (c) {
        let best: number = raw;
        let bestDist = MAGNET_PX + 1;
        for (const p of [c.open, c.high, c.low, c.close]) {
          const d = Math.abs(this.priceScale.priceToY(p) - y);
          if (d < bestDist) {
            bestDist = d;
            best = p;
          }
        }
        if (bestDist <= MAGNET_PX) return best;
      }
    }
    return this.roundPrice(raw);
  }

  /** Arbitrated target under the pointer: an off-screen line's marker, a line's ✕, drawing handles, then draggable price lines, then drawing bodies. */
  target(x: number, y: number): Target {
    const pane = this.pane;
    if (x < pane.left || x > pane.left + pane.width || y < pane.top || y > pane.top + pane.height) return null;
    for (const { id, box: b } of this.offscreenLines) {
      if (x >= b.left && x <= b.left + b.width && y >= b.top && y <= b.top + b.height) return { type: 'line-marker', id };
    }
    for (const b of this.lineCloseBoxes) {
      if (x >= b.left && x <= b.left + b.width && y >= b.top && y <= b.top + b.height) return { type: 'line-close', id: b.id };
    }
    const hit = hitTestDrawings(this.visibleDrawings(), this.drawingContext(), x, y, this.selectedId);
    if (hit?.part === 'handle') return { type: 'drawing', hit };
    let lineId: string | null = null;
    let lineDist = LINE_HIT_PX + 1;
    for (const l of this.lines) {
      if (!l.draggable) continue;
      const d = Math.abs(this.priceScale.priceToY(this.linePrice(l)) - y);
      if (d <= LINE_HIT_PX && d < lineDist) {
        lineDist = d;
        lineId = l.id;
      }
    }
    if (lineId) return { type: 'line', id: lineId };
    return hit ? { type: 'drawing', hit } : null;
  }
}
