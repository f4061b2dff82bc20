import { memo, useRef, type DragEvent, type MouseEvent } from 'react';
import { dec, str, sub } from '../../api/contracts/decimal';
import type { Order, Side } from '../../api/contracts/trading';
import { show } from '../shared/trading/format';
import { orderRole } from '../shared/trading/order-moves';
import classes from './dom-ladder.module.css';
import type { LadderGrid } from './ladder-rows';
import { orderPrice } from './ladder-orders';
import type { PaintTargets } from './use-ladder-paint';

/** The trader's orders on one row: buys left of the bids, sells right of the asks. */
export interface RowOrders {
  buys: readonly Order[];
  sells: readonly Order[];
}

export const NO_ORDERS: RowOrders = { buys: [], sells: [] };

export interface LadderGridProps {
  grid: LadderGrid;
  /** Orders by row index (rows without any: absent). */
  orders: ReadonlyMap<number, RowOrders>;
  /** The row of the position's entry (-1: none or off the rows) and its side. */
  entry: { row: number; text: string };
  stale: boolean;
  targets: PaintTargets;
  /** A click in a size column: buy at the bid side, sell at the ask side; Shift for a stop. */
  onCell(price: string, side: Side, stop: boolean): void;
  onDrop(orderId: string, price: string): void;
  onCancel(order: Order): void;
}

const rowOf = (el: EventTarget | null) => (el instanceof Element ? el.closest<HTMLElement>('[data-price]') : null);

/**
 * The fixed pool of rows — own buy orders | bid size | price | ask size | own sell orders — keyed by
 * position so the same elements are reused when the ladder re-centres. Clicks and drags are handled
 * once, on the ladder, by the row and column under the pointer.
 */
export function LadderGridView({ grid, orders, entry, stale, targets, onCell, onDrop, onCancel }: LadderGridProps) {
  const dragged = useRef<string | null>(null);
  const over = useRef<HTMLElement | null>(null);
  const mark = (row: HTMLElement | null) => {
    if (over.current === row) return;
    over.current?.removeAttribute('data-drop-target');
    row?.setAttribute('data-drop-target', '');
    over.current = row;
  };
  const click = (e: MouseEvent<HTMLDivElement>) => {
    const cell = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-col]') : null;
    const price = rowOf(cell)?.dataset.price;
    const col = cell?.dataset.col;
    if (!price || (col !== 'bid' && col !== 'ask')) return;
    onCell(price, col === 'bid' ? 'BUY' : 'SELL', e.shiftKey);
  };
  const dragStart = (e: DragEvent<HTMLDivElement>) => {
    const chip = e.target instanceof Element ? e.target.closest<HTMLElement>('[data-order-id]') : null;
    dragged.current = chip?.dataset.orderId ?? null;
    if (dragged.current && e.dataTransfer) {
      e.dataTransfer.setData('text/plain', dragged.current);
      e.dataTransfer.effectAllowed = 'move';
    }
  };
  const dragOver = (e: DragEvent<HTMLDivElement>) => {
    if (!dragged.current) return;
    e.preventDefault();
    mark(rowOf(e.target));
  };
  const drop = (e: DragEvent<HTMLDivElement>) => {
    const id = dragged.current;
    const price = rowOf(e.target)?.dataset.price;
    dragged.current = null;
    mark(null);
    if (!id || !price) return;
    e.preventDefault();
    onDrop(id, price);
  };
  const end = () => {
    dragged.current = null;
    mark(null);
  };
  return (
    <div className={classes.ladder} data-testid="dom-ladder-rows" data-stale={stale || undefined} onClick={click} onDragStart={dragStart} onDragOver={dragOver} onDrop={drop} onDragEnd={end}>
      {grid.prices.map((price, i) => (
        <LadderRow key={i} index={i} price={price} label={grid.labels[i]} orders={orders.get(i) ?? NO_ORDERS} entry={entry.row === i ? entry.text : null} targets={targets} onCancel={onCancel} />
      ))}
    </div>
  );
}

interface RowProps {
  index: number;
  price: string;
  label: string;
  orders: RowOrders;
  entry: string | null;
  targets: PaintTargets;
  onCancel(order: Order): void;
}

/** One row; its size cells are written by the painter (React leaves their text alone). */
const LadderRow = memo(function LadderRow({ index, price, label, orders, entry, targets, onCancel }: RowProps) {
  const at = <K extends keyof PaintTargets>(k: K) => (el: HTMLElement | null) => {
    targets[k][index] = el;
  };
  return (
    <div ref={at('rows')} className={classes.row} data-price={price} data-entry={entry !== null || undefined}>
      <div className={`${classes.cell} ${classes.orders} ${classes.buyOrders}`} data-col="buy-orders">
        {orders.buys.map((o) => (
          <Chip key={o.id} order={o} onCancel={onCancel} />
        ))}
      </div>
      <div className={`${classes.cell} ${classes.size} ${classes.bid}`} data-col="bid" title={`Buy limit at ${label} · Shift: buy stop`}>
        <div ref={at('bidBar')} className={classes.bar} />
        <span ref={at('bidText')} className={classes.sizeText} />
      </div>
      <div className={`${classes.cell} ${classes.price}`} title={entry ?? undefined}>
        {label}
      </div>
      <div className={`${classes.cell} ${classes.size} ${classes.ask}`} data-col="ask" title={`Sell limit at ${label} · Shift: sell stop`}>
        <div ref={at('askBar')} className={classes.bar} style={{ left: 0, right: 'auto' }} />
        <span ref={at('askText')} className={classes.sizeText} />
      </div>
      <div className={`${classes.cell} ${classes.orders}`} data-col="sell-orders">
        {orders.sells.map((o) => (
          <Chip key={o.id} order={o} onCancel={onCancel} />
        ))}
      </div>
    </div>
  );
});

const KIND: Record<string, string> = { stop: 'stop', 'take-profit': 'TP', entry: '' };

/** An order: its remaining size (and kind); drag it to another row to move it, ✕ to cancel. Unacknowledged rows do neither. */
function Chip({ order, onCancel }: { order: Order; onCancel(order: Order): void }) {
  const temporary = order.status === 'TEMPORARY';
  const kind = KIND[orderRole(order)];
  const what = `${order.side === 'BUY' ? 'buy' : 'sell'} ${order.type.replace(/_/g, ' ').toLowerCase()} ${show(order.qty)} at ${show(orderPrice(order))}`;
  return (
    <span className={classes.chip} data-order-id={order.id} data-side={order.side} data-temporary={temporary || undefined} draggable={!temporary} title={temporary ? `${what}: waiting for the exchange` : `${what}: drag to move`}>
      {show(str(sub(dec(order.qty), dec(order.filledQty))))}
      {kind ? ` ${kind}` : ''}
      {temporary ? null : (
        <button
          type="button"
          className={classes.chipClose}
          aria-label={`Cancel the ${what}`}
          onClick={(e) => {
            e.stopPropagation();
            onCancel(order);
          }}
        >
          ✕
        </button>
      )}
    </span>
  );
}
