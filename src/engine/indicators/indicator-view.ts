import { withAlpha } from '../core/colors';
import type { SeriesStore } from '../core/series-store';
import type { ColumnData } from '../model/lod';
import type { PriceScale } from '../model/price-scale';
import type { LineList } from '../model/view/line-list';
import type { IndicatorSet } from './indicator-set';

/** Indicator lines are 1.5 CSS px wide (anti-aliased), a touch heavier than the 1 px grid and wicks. */
export const INDICATOR_LINE_WIDTH = 1.5;

/**
 * Model → view data for the indicators, through the same level of detail as the candles: one
 * point per drawn column, at the column's centre, with the indicator's value at the column's
 * **last bar** — so when a column aggregates 8 or 500 bars the line still passes through values
 * the indicator really had (at the close of each column, like the candle's close), and the cost is
 * O(columns), never O(bars). Prices become device-px y with the price scale the candles were
 * fitted to (indicators do not widen the auto-scale: a 200-bar average far from the visible bars
 * must not squash them; lines leaving the pane are covered by the axes).
 */
export function buildIndicatorLines(set: IndicatorSet, store: SeriesStore, columns: ColumnData, ps: PriceScale, dpr: number, out: LineList): void {
  out.begin(Math.max(1, INDICATOR_LINE_WIDTH * dpr));
  const n = columns.count;
  if (set.entries.length === 0 || n === 0) return;
  const k = ps.pxPerPrice * dpr;
  const y0 = (ps.paneTop + ps.paneHeight) * dpr + ps.min * k;
  const half = columns.wickWidth / 2;
  const base = store.base;
  const { x, lastIndex } = columns;
  for (const e of set.entries) {
    const { calc, cols } = e;
    for (let line = 0; line < calc.lines; line++) {
      // Bollinger: the basis is drawn fainter than the bands.
      const color = calc.lines === 3 && line === 0 ? withAlpha(e.color, 0.55) : e.color;
      for (let c = 0; c < n; c++) {
        const v = calc.value(cols, line, base + lastIndex[c]);
        if (v === v) out.point(x[c] + half, y0 - v * k, color);
        else out.break();
      }
      out.break();
    }
  }
}
