import { Badge, NativeSelect } from '@mantine/core';
import { useMemo, useRef, useState, type MouseEvent } from 'react';
import { prepareLimitOrder } from '../../state/order-draft';
import type { PanelProps } from '../shared/panel-props';
import { useFeedPaint, useOrderFlow } from '../shared/use-order-flow';
import { BookPainter, type BookElements, type BookRowElements } from './book-painter';
import { GROUPINGS, gridOf } from './group-levels';
import classes from './order-book.module.css';
import { useOwnOrders } from './use-own-orders';

/** Rows per side: a fixed pool written in place (the panel clips what its height cannot show). */
export const BOOK_ROWS = 30;

/**
 * Order book (issue 25 §2): the traded pair's bids and asks from the shared order-flow feed, with size
 * and cumulative-size bars, spread and mid, grouping by tick multiples, the trader's resting orders
 * marked, and a click on a level handing its price to Order entry. Repainted at most once a frame into
 * a fixed pool of rows — React renders the rows once and then only when the controls change.
 */
export function OrderBookPanel(_props: PanelProps) {
  const flow = useOrderFlow();
  const [ticks, setTicks] = useState(1);
  const tickSize = flow.instrument?.tickSize ?? '';
  const grid = useMemo(() => gridOf(tickSize), [tickSize]);
  const own = useOwnOrders(flow.exchange, flow.symbol, grid, ticks);
  const sizeDecimals = flow.instrument?.quantityPrecision ?? 3;
  const rows = useRef<{ asks: BookRowElements[]; bids: BookRowElements[] }>({ asks: [], bids: [] });
  const root = useRef<HTMLDivElement>(null);
  const spread = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLSpanElement>(null);
  const painter = useRef<BookPainter | null>(null);

  useFeedPaint(flow.feed, (feed) => {
    if (!root.current || !spread.current || !status.current) return;
    const els: BookElements = { root: root.current, asks: rows.current.asks, bids: rows.current.bids, spread: spread.current, status: status.current };
    painter.current ??= new BookPainter(els);
    painter.current.paint(feed.book(), { grid, ticks: grid ? ticks : 1, sizeDecimals, own });
    const { gaps, checksumFailures, resyncs, reconnects } = feed.stats;
    const title = `Gaps ${gaps} · checksum failures ${checksumFailures} · resyncs ${resyncs} · reconnects ${reconnects}`;
    if (status.current.title !== title) status.current.title = title;
  }, [grid, ticks, sizeDecimals, own]);

  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    const row = (e.target as HTMLElement).closest<HTMLElement>('[data-price]');
    const price = row?.dataset.price;
    if (!row || !price) return;
    // A bid is bought at (below the market), an ask sold at: what Order entry's chart drafts do too.
    prepareLimitOrder(price, row.dataset.side === 'ask' ? 'SELL' : 'BUY');
  };

  return (
    <div ref={root} className={classes.root} data-testid="order-book" data-status="connecting" data-stale="">
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
      <div className={classes.book} onClick={onClick}>
        <div className={classes.asks} data-testid="order-book-asks">
          <Rows side="ask" into={rows.current.asks} />
        </div>
        <div ref={spread} className={classes.spread} data-testid="order-book-spread">
          Spread —
        </div>
        <div className={classes.bids} data-testid="order-book-bids">
          <Rows side="bid" into={rows.current.bids} />
        </div>
      </div>
    </div>
  );
}

/** The fixed pool of one side's rows; each row's elements are kept in `into` for the painter. */
function Rows({ side, into }: { side: 'ask' | 'bid'; into: BookRowElements[] }) {
  return Array.from({ length: BOOK_ROWS }, (_, i) => (
    <div
      key={i}
      className={`${classes.row} ${classes[side]}`}
      data-testid={`book-${side}-row`}
      ref={(row) => {
        if (!row) return;
        const [price, size, total, mine] = Array.from(row.querySelectorAll('span'));
        const [totalBar, sizeBar] = Array.from(row.querySelectorAll<HTMLElement>('i'));
        into[i] = { row, price: price!, size: size!, total: total!, mine: mine!, sizeBar: sizeBar!, totalBar: totalBar! };
      }}
    >
      <i className={classes.cum} />
      <i className={classes.bar} />
      <span className={classes.price} />
      <span />
      <span />
      <span className={classes.mine} />
    </div>
  ));
}
