import { useLayoutEffect, useRef, type DragEvent, type MouseEvent, type RefObject } from 'react';
import { dec, str, sub } from '../../api/contracts/decimal';
import type { Order, Side } from '../../api/contracts/trading';
import { useCanvasSurface } from '../shared/canvas/canvas-surface';
import { exposePainted } from '../shared/canvas/painted';
import { show } from '../shared/trading/format';
import { orderRole } from '../shared/trading/order-moves';
import classes from './dom-ladder.module.css';
import { LadderPainter, ROW_PX, type PaintedLadder } from './ladder-painter';
import type { LadderGrid } from './ladder-rows';
import { orderPrice } from './ladder-orders';

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
  /** Set to the canvas's painter once mounted (the panel's `useLadderPaint` feeds it). */
  painter: RefObject<LadderPainter | null>;
  /** A click in a size column: buy at the bid side, sell at the ask side; Shift for a stop. */
  onCell(price: string, side: Side, stop: boolean): void;
  onDrop(orderId: string, price: string): void;
  onCancel(order: Order): void;
}

/**
 * The ladder: one canvas with the rows' sizes, prices and the last trade (`LadderPainter`, repainted
 * from the feed), and over it, as DOM, the rows that carry the trader's orders (chips to drag and ✕)
 * or the position's entry. Clicks and drops are hit-tested from the pointer's position to a row and
 * a column.
 */
export function LadderGridView({ grid, orders, entry, stale, painter, onCell, onDrop, onCancel }: LadderGridProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const surface = useCanvasSurface(canvas, painter);
  const dropMark = useRef<HTMLDivElement>(null);
  const dragged = useRef<string | null>(null);

  useLayoutEffect(() => {
    if (!surface.current || !canvas.current) return;
    const p = new LadderPainter(surface.current);
    painter.current = p;
    exposePainted<PaintedLadder>(canvas.current, () => p.painted(), () => p.paints);
    return () => {
      if (painter.current === p) painter.current = null;
    };
  }, [surface, painter]);

  const hitOf = (e: { clientX: number; clientY: number; currentTarget: HTMLElement }) => {
    const box = e.currentTarget.getBoundingClientRect();
    const hit = painter.current?.hit(e.clientX - box.left, e.clientY - box.top);
    return hit && hit.row >= 0 ? { ...hit, price: grid.prices[hit.row]! } : null;
  };
  const mark = (row: number) => {
    const el = dropMark.current;
    if (!el) return;
    el.style.display = row < 0 ? 'none' : 'block';
    el.style.top = `${row * ROW_PX}px`;
  };
  const click = (e: MouseEvent<HTMLDivElement>) => {
    if (e.target instanceof Element && e.target.closest('[data-order-id]')) return;
    const hit = hitOf(e);
    if (!hit || (hit.col !== 'bid' && hit.col !== 'ask')) return;
    onCell(hit.price, hit.col === 'bid' ? 'BUY' : 'SELL', e.shiftKey);
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
    mark(hitOf(e)?.row ?? -1);
  };
  const drop = (e: DragEvent<HTMLDivElement>) => {
    const id = dragged.current;
    const price = hitOf(e)?.price;
    dragged.current = null;
    mark(-1);
    if (!id || !price) return;
    e.preventDefault();
    onDrop(id, price);
  };
  const end = () => {
    dragged.current = null;
    mark(-1);
  };
  const marked = [...orders.keys()];
  if (entry.row >= 0 && !orders.has(entry.row)) marked.push(entry.row);
  return (
    <div className={classes.ladder} data-testid="dom-ladder-rows" data-stale={stale || undefined} onClick={click} onDragStart={dragStart} onDragOver={dragOver} onDrop={drop} onDragEnd={end}>
      <canvas ref={canvas} className={classes.canvas} data-testid="dom-ladder-canvas" role="img" aria-label="DOM ladder: bid sizes left of the prices, ask sizes right; click a bid size to buy at that row, an ask size to sell (Shift: a stop)" />
      {marked.map((i) => (
        <OverlayRow key={`${i}:${grid.prices[i]}`} index={i} price={grid.prices[i]!} orders={orders.get(i) ?? NO_ORDERS} entry={entry.row === i ? entry.text : null} onCancel={onCancel} />
      ))}
      <div ref={dropMark} className={classes.dropMark} data-testid="dom-ladder-drop-target" />
    </div>
  );
}

interface OverlayProps {
  index: number;
  price: string;
  orders: RowOrders;
  entry: string | null;
  onCancel(order: Order): void;
}

/** A row with the trader's orders or the position's entry, over the canvas (it lets clicks through). */
function OverlayRow({ index, price, orders, entry, onCancel }: OverlayProps) {
  return (
    <div className={classes.overlayRow} style={{ top: index * ROW_PX }} data-price={price} data-entry={entry !== null || undefined}>
      <div className={`${classes.orders} ${classes.buyOrders}`} data-col="buy-orders">
        {orders.buys.map((o) => (
          <Chip key={o.id} order={o} onCancel={onCancel} />
        ))}
      </div>
      <div />
      <div className={classes.entry} title={entry ?? undefined} />
      <div />
      <div className={classes.orders} data-col="sell-orders">
        {orders.sells.map((o) => (
          <Chip key={o.id} order={o} onCancel={onCancel} />
        ))}
      </div>
    </div>
  );
}

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
