import { Badge, NativeSelect } from '@mantine/core';
import { useLayoutEffect, useMemo, useRef, useState, type MouseEvent, type PointerEvent, type RefObject } from 'react';
import type { OrderFlowFeed } from '../../api/market/order-flow';
import { prepareLimitOrder } from '../../state/order-draft';
import { useCanvasSurface } from '../shared/canvas/canvas-surface';
import { exposePainted, Throttle } from '../shared/canvas/painted';
import type { PanelProps } from '../shared/panel-props';
import { useFeedPaint, useOrderFlow } from '../shared/use-order-flow';
import { BookPainter, spreadText, STATUS_TEXT, type BookHit } from './book-painter';
import { GROUPINGS, gridOf } from './group-levels';
import classes from './order-book.module.css';
import { useOwnOrders } from './use-own-orders';

/** Rows per side the book holds (the canvas shows as many as its height allows). */
export const BOOK_ROWS = 30;
const LABEL = 'Order book: asks above the spread, bids below; click a level to take its price in Order entry';

/** What the canvas's `painted` getter returns (tests, tools). */
export interface PaintedBook {
  asks: ReturnType<BookPainter['painted']>;
  bids: ReturnType<BookPainter['painted']>;
  spread: string;
}

/**
 * Order book (issue 25 §2): the traded pair's bids and asks from the shared order-flow feed, with size
 * and cumulative-size bars, spread and mid, grouping by tick multiples, the trader's resting orders
 * marked, and a click on a level handing its price to Order entry. The levels are painted into one
 * canvas at most once a frame (`BookPainter`); the header stays React.
 */
export function OrderBookPanel(_props: PanelProps) {
  const flow = useOrderFlow();
  const [ticks, setTicks] = useState(1);
  const tickSize = flow.instrument?.tickSize ?? '';
  const grid = useMemo(() => gridOf(tickSize), [tickSize]);
  const own = useOwnOrders(flow.exchange, flow.symbol, grid, ticks);
  const sizeDecimals = flow.instrument?.quantityPrecision ?? 3;
  const options = useMemo(() => ({ grid, ticks: grid ? ticks : 1, sizeDecimals, own }), [grid, ticks, sizeDecimals, own]);
  const root = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLSpanElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const painter = useRef<BookPainter | null>(null);
  const surface = useCanvasSurface(canvas, painter);
  const head = useStatusLine(root, status, canvas);

  useLayoutEffect(() => {
    if (!surface.current || !canvas.current) return;
    const p = (painter.current ??= new BookPainter(surface.current, BOOK_ROWS));
    exposePainted<PaintedBook>(canvas.current, () => ({ asks: p.painted('ask'), bids: p.painted('bid'), spread: p.view ? spreadText(p.view) : 'Spread —' }), () => p.paints);
  }, [surface]);

  useFeedPaint(flow.feed, (feed) => {
    const view = feed.book();
    painter.current?.update(view, options);
    head(feed);
  }, [options]);

  const hitAt = (e: { clientY: number; currentTarget: HTMLCanvasElement }): BookHit | null => painter.current?.hit(e.clientY - e.currentTarget.getBoundingClientRect().top) ?? null;
  const onClick = (e: MouseEvent<HTMLCanvasElement>) => {
    const hit = hitAt(e);
    const row = hit ? (hit.side === 'ask' ? painter.current?.askRows : painter.current?.bidRows)?.[hit.index] : undefined;
    // A bid is bought at (below the market), an ask sold at: what Order entry's chart drafts do too.
    if (hit && row) prepareLimitOrder(row.price, hit.side === 'ask' ? 'SELL' : 'BUY');
  };
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const hit = hitAt(e);
    painter.current?.setHover(hit);
    const cursor = hit ? 'pointer' : 'default';
    if (e.currentTarget.style.cursor !== cursor) e.currentTarget.style.cursor = cursor;
  };

  return (
    <div ref={root} className={classes.root} data-testid="order-book" data-status="connecting">
      <div className={classes.head}>
        <span ref={status} className={classes.status} data-testid="order-book-status">
          Connecting…
        </span>
        {flow.simulated ? (
          <Badge size="xs" color="orange" variant="light" tt="none" data-testid="order-book-sim" title="The simulator's book, not a real exchange's">
            Simulated
          </Badge>
        ) : null}
        <NativeSelect
          size="xs"
          aria-label="Group by ticks"
          disabled={!grid}
          value={String(ticks)}
          onChange={(e) => setTicks(Number(e.currentTarget.value))}
          data={GROUPINGS.map((n) => ({ value: String(n), label: grid ? `${n} × ${tickSize}` : `${n} tick${n > 1 ? 's' : ''}` }))}
        />
      </div>
      <div className={classes.book}>
        <canvas ref={canvas} className={classes.canvas} data-testid="order-book-canvas" role="img" aria-label={LABEL} onClick={onClick} onPointerMove={onMove} onPointerLeave={() => painter.current?.setHover(null)} />
      </div>
    </div>
  );
}

/**
 * The status line, the root's `data-status` / `data-stale` and the canvas's accessible summary: written
 * when the status or the counters change (the summary at most once a second), never once a frame.
 */
function useStatusLine(root: RefObject<HTMLDivElement | null>, status: RefObject<HTMLSpanElement | null>, canvas: RefObject<HTMLCanvasElement | null>) {
  const last = useRef({ status: '', error: undefined as string | undefined, gaps: -1, checksumFailures: -1, resyncs: -1, reconnects: -1, bid: '', ask: '' });
  const throttle = useMemo(() => new Throttle(1000), []);
  return (feed: OrderFlowFeed) => {
    const view = feed.book();
    const l = last.current;
    if (view.status !== l.status || view.error !== l.error) {
      l.status = view.status;
      l.error = view.error;
      if (status.current) status.current.textContent = view.status === 'error' && view.error ? view.error : STATUS_TEXT[view.status];
      root.current?.setAttribute('data-status', view.status);
      if (view.status === 'live') root.current?.removeAttribute('data-stale');
      else root.current?.setAttribute('data-stale', '');
    }
    const st = feed.stats;
    if (st.gaps !== l.gaps || st.checksumFailures !== l.checksumFailures || st.resyncs !== l.resyncs || st.reconnects !== l.reconnects) {
      Object.assign(l, st);
      if (status.current) status.current.title = `Gaps ${st.gaps} · checksum failures ${st.checksumFailures} · resyncs ${st.resyncs} · reconnects ${st.reconnects}`;
    }
    const bid = view.bids[0]?.price ?? '';
    const ask = view.asks[0]?.price ?? '';
    if ((bid !== l.bid || ask !== l.ask) && throttle.due(performance.now())) {
      l.bid = bid;
      l.ask = ask;
      canvas.current?.setAttribute('aria-label', `${LABEL}. Best bid ${bid || '—'}, best ask ${ask || '—'}`);
    }
  };
}
