import { cmp, dec } from '../../../api/contracts/decimal';
import type { Order, Position } from '../../../api/contracts/trading';
import { show } from './format';

/**
 * What a dragged or ✕-ed order of the chart's lines and of the DOM ladder's chips does: the role an
 * order plays (its bracket role, else its type), where a moved order may go and what the move sends,
 * and the question its cancel asks. Exact: prices are the exchange's strings.
 */
export type OrderRole = 'stop' | 'take-profit' | 'entry';

export const orderRole = (o: Order): OrderRole => {
  if (o.role === 'stop-loss') return 'stop';
  if (o.role === 'take-profit') return 'take-profit';
  if (o.role === 'entry') return 'entry';
  if (o.type === 'STOP_MARKET' || o.type === 'STOP_LIMIT' || o.type === 'STOP' || o.type === 'TRAILING_STOP_MARKET') return 'stop';
  if (o.type === 'TAKE_PROFIT' || o.type === 'TAKE_PROFIT_MARKET') return 'take-profit';
  return 'entry';
};

/**
 * Why a dropped stop cannot go there (null: it can): a long's stop at or below the liquidation
 * price (a short's at or above) would never fire before the liquidation.
 */
export function stopDropProblem(order: Order, position: Position | undefined, price: number | string): string | null {
  if (!position?.liquidationPrice || orderRole(order) !== 'stop') return null;
  const liq = dec(position.liquidationPrice);
  if (position.side === 'BUY' && cmp(dec(price), liq) <= 0) return `The stop must stay above the liquidation price ${position.liquidationPrice}`;
  if (position.side === 'SELL' && cmp(dec(price), liq) >= 0) return `The stop must stay below the liquidation price ${position.liquidationPrice}`;
  return null;
}

/** Whether the order waits for its trigger (a move changes the trigger, not the limit price). */
export const waitsForTrigger = (order: Order): boolean => order.triggerPrice !== null && order.status === 'UNTRIGGERED';

/** What to send when an order is dropped at `price` (a waiting order moves its trigger, a resting one its price). */
export function amendFor(order: Order, price: string): { price: string } | { triggerPrice: string } {
  return waitsForTrigger(order) ? { triggerPrice: price } : { price };
}

/** "Cancel the buy limit 0.01 BTCUSDT order at 60000?" — what a ✕ asks under the confirm flag. */
export function cancelQuestion(order: Order): string {
  const what = `${order.side === 'BUY' ? 'buy' : 'sell'} ${order.type.replace(/_/g, ' ').toLowerCase()} ${show(order.qty)} ${order.symbol}`;
  return `Cancel the ${what} order at ${show(order.triggerPrice ?? order.price)}?`;
}
