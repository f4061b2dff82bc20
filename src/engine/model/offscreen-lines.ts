import type { LineEdge } from '../types';

/** Pixels between the plot's edge and a pinned marker, and between stacked markers (CSS px). */
export const MARKER_INSET = 4;
export const MARKER_GAP = 2;
/** How far inside the plot a revealed line lands: this fraction of the plot height, at least REVEAL_MIN_PX. */
export const REVEAL_MARGIN = 0.12;
export const REVEAL_MIN_PX = 40;
/** A revealed line widens the price range up to this factor; farther away the range moves instead. */
export const REVEAL_MAX_ZOOM_OUT = 10;

/** Which edge a line at `y` is pinned to (null: it is inside the plot, drawn as a line). */
export function lineEdge(y: number, plotTop: number, plotBottom: number): LineEdge | null {
  if (y < plotTop) return 'above';
  if (y > plotBottom) return 'below';
  return null;
}

/**
 * Stacking order of the markers at one edge: index 0 sits at the edge, the next one further in.
 * Markers keep price order top to bottom, so at the top the highest price is at the edge and at the
 * bottom the lowest; equal prices keep the order the lines were given in.
 */
export function markerOrder<T extends { price: number }>(lines: readonly T[], edge: LineEdge): T[] {
  const sorted = lines.map((l, i) => ({ l, i })).sort((a, b) => b.l.price - a.l.price || a.i - b.i);
  return (edge === 'above' ? sorted : sorted.reverse()).map((x) => x.l);
}

/** Top of the `slot`-th marker (0 = at the edge) of `height` px, inside the plot [plotTop, plotBottom]. */
export function markerTop(edge: LineEdge, slot: number, height: number, plotTop: number, plotBottom: number): number {
  const step = slot * (height + MARKER_GAP);
  return edge === 'above' ? plotTop + MARKER_INSET + step : plotBottom - MARKER_INSET - height - step;
}

/**
 * The price range that brings `price` into view, as a click on its marker asks: the current range
 * [lo, hi] widened on the line's side until the line is `margin` px inside the plot — what was in view
 * stays in view — unless that would show more than REVEAL_MAX_ZOOM_OUT times the prices, in which case
 * the range keeps its span and moves to the line. Null when the line is already that far inside.
 */
export function revealRange(lo: number, hi: number, price: number, plotHeight: number): { lo: number; hi: number } | null {
  const span = hi - lo;
  if (!(span > 0) || !Number.isFinite(price) || plotHeight <= 0) return null;
  const f = Math.min(0.4, Math.max(REVEAL_MARGIN, REVEAL_MIN_PX / plotHeight));
  const pad = span * f;
  if (price >= lo + pad && price <= hi - pad) return null;
  const low = price < (lo + hi) / 2;
  // Widened: the line sits at fraction f of the new span from the edge it was beyond.
  const widened = low ? { lo: (price - f * hi) / (1 - f), hi } : { lo, hi: (price - f * lo) / (1 - f) };
  if (widened.hi - widened.lo <= span * REVEAL_MAX_ZOOM_OUT) return widened;
  return low ? { lo: price - pad, hi: price - pad + span } : { lo: price + pad - span, hi: price + pad };
}
