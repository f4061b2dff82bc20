import { useLayoutEffect, useRef, type RefObject } from 'react';
import type { OrderFlowFeed } from '../../api/market/order-flow/types';
import type { LadderPainter } from './ladder-painter';
import { midOf, outside, type LadderGrid } from './ladder-rows';

/**
 * Repaints the ladder's canvas from the feed at most once a frame (the feed coalesces its `onChange`
 * to one per animation frame) and once after each new set of rows. `onOutside` is told the mid when it
 * leaves the rows (or before the ladder has a centre): the panel centres there — except while `held()`
 * (the pointer is on the rows: re-centring then would move prices under a click about to land; the
 * next frame after it leaves centres).
 */
export function useLadderPaint(feed: OrderFlowFeed | null, grid: LadderGrid | null, painter: RefObject<LadderPainter | null>, onOutside: (mid: number) => void, held: () => boolean = () => false): void {
  const count = grid?.prices.length ?? 0;
  const leave = useRef(onOutside);
  leave.current = onOutside;
  const hold = useRef(held);
  hold.current = held;
  useLayoutEffect(() => {
    if (!feed) return;
    const frame = () => {
      const book = feed.book();
      const mid = midOf(book);
      if (mid !== null && (!grid || (outside(grid, mid, count) && !hold.current()))) {
        // Re-centred: the new rows are painted when they arrive (this effect again), not these ones first.
        leave.current(mid);
        return;
      }
      if (!grid) return;
      // All of them (one reused array): a shorter list would shrink the array the tape then regrows.
      const last = feed.trades()[0]?.p ?? null;
      painter.current?.update(book, last);
    };
    // New rows (new prices): every row is drawn again.
    painter.current?.setGrid(grid);
    frame();
    return feed.onChange(frame);
  }, [feed, grid, painter, count]);
}
