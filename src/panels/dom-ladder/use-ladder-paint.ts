import { useLayoutEffect, useMemo, useRef } from 'react';
import type { BookView, OrderFlowFeed } from '../../api/market/order-flow/types';
import { midOf, nearestRow, outside, sizeText, sumSide, type LadderGrid } from './ladder-rows';

/**
 * The cells the painter writes, by row: filled by the rows' refs once and kept (the pool of rows is
 * fixed; React renders it when the rows' prices or the trader's orders change, never per book update).
 */
export interface PaintTargets {
  rows: Array<HTMLElement | null>;
  bidText: Array<HTMLElement | null>;
  bidBar: Array<HTMLElement | null>;
  askText: Array<HTMLElement | null>;
  askBar: Array<HTMLElement | null>;
}

export const emptyTargets = (): PaintTargets => ({ rows: [], bidText: [], bidBar: [], askText: [], askBar: [] });

/** The painter's memory between frames: row sums and what each cell shows, so only changes touch the DOM. */
interface Buffers {
  bids: Float64Array;
  asks: Float64Array;
  /** The sizes the cells show (NaN: unknown), so a row's text is made only when its size moved. */
  shownBids: Float64Array;
  shownAsks: Float64Array;
  bidWidth: Int16Array;
  askWidth: Int16Array;
  lastRow: number;
}

const buffers = (count: number): Buffers => ({
  bids: new Float64Array(count),
  asks: new Float64Array(count),
  shownBids: new Float64Array(count),
  shownAsks: new Float64Array(count),
  bidWidth: new Int16Array(count),
  askWidth: new Int16Array(count),
  lastRow: -1,
});

/** Forgets what the cells show (new rows: every cell is written again). */
function forget(b: Buffers): void {
  b.shownBids.fill(NaN);
  b.shownAsks.fill(NaN);
  b.bidWidth.fill(-1);
  b.askWidth.fill(-1);
}

function setSize(el: HTMLElement | null, shown: Float64Array, i: number, size: number): void {
  if (!el || shown[i] === size) return;
  shown[i] = size;
  el.textContent = sizeText(size);
}

function setWidth(el: HTMLElement | null, widths: Int16Array, i: number, size: number, largest: number): void {
  const w = largest > 0 ? Math.round((size / largest) * 100) : 0;
  if (!el || widths[i] === w) return;
  widths[i] = w;
  el.style.width = `${w}%`;
}

/** Writes one frame: each row's bid and ask size and bar, and the row of the last trade. */
function paint(t: PaintTargets, grid: LadderGrid, book: BookView, last: number | null, b: Buffers): void {
  const count = b.bids.length;
  const largest = Math.max(sumSide(book.bids, grid, b.bids, true), sumSide(book.asks, grid, b.asks, false));
  for (let i = 0; i < count; i++) {
    setSize(t.bidText[i], b.shownBids, i, b.bids[i]);
    setSize(t.askText[i], b.shownAsks, i, b.asks[i]);
    setWidth(t.bidBar[i], b.bidWidth, i, b.bids[i], largest);
    setWidth(t.askBar[i], b.askWidth, i, b.asks[i], largest);
  }
  const row = last === null ? -1 : nearestRow(grid, last, count);
  if (row !== b.lastRow) {
    t.rows[b.lastRow]?.removeAttribute('data-last');
    t.rows[row]?.setAttribute('data-last', '');
    b.lastRow = row;
  }
}

/**
 * Repaints the ladder from the feed at most once a frame (the feed coalesces its `onChange` to one
 * per animation frame) and once after each render of the rows. `onOutside` is told the mid when it
 * leaves the rows (or before the ladder has a centre): the panel centres there — except while `held()`
 * (the pointer is on the rows: re-centring then would move prices under a click about to land; the
 * next frame after it leaves centres).
 */
export function useLadderPaint(feed: OrderFlowFeed | null, grid: LadderGrid | null, targets: PaintTargets, onOutside: (mid: number) => void, held: () => boolean = () => false): void {
  const count = grid?.prices.length ?? 0;
  const b = useMemo(() => buffers(count), [count]);
  const leave = useRef(onOutside);
  leave.current = onOutside;
  const hold = useRef(held);
  hold.current = held;
  useLayoutEffect(() => {
    if (!feed) return;
    const frame = () => {
      const book = feed.book();
      const mid = midOf(book);
      if (mid !== null && (!grid || (outside(grid, mid, count) && !hold.current()))) leave.current(mid);
      if (!grid) return;
      // All of them (one reused array): a shorter list would shrink the array the tape then regrows.
      const last = feed.trades()[0]?.p ?? null;
      paint(targets, grid, book, last, b);
    };
    // The rows were rendered anew (new prices): their cells start blank, every width unknown.
    forget(b);
    targets.rows[b.lastRow]?.removeAttribute('data-last');
    b.lastRow = -1;
    frame();
    return feed.onChange(frame);
  }, [feed, grid, targets, b, count]);
}
