import { cmp, dec } from '../../api/contracts/decimal';
import type { AmendOrderBody, Order, PlaceOrderBody, Position, Side } from '../../api/contracts/trading';
import { newClientOrderId } from '../../api/trade/trade-key';
import { show } from '../shared/trading/format';
import { amendFor, orderRole, stopDropProblem, waitsForTrigger } from '../shared/trading/order-moves';
import { notionalProblem, qtyProblem, type EntryTerms } from '../shared/trading/size-checks';

/**
 * What a click or a drop on the ladder sends (no React), or why it is refused — said in words and
 * never sent. A limit buy rests below the best ask and a limit sell above the best bid (at or past
 * them it would fill at once: that is a market order, Order entry's); a buy stop waits above the best
 * ask and a sell stop below the best bid (elsewhere it would trigger at once). Prices are the rows'
 * exact strings, the size the header's, checked against the instrument's step and minimum.
 */
export interface Touch {
  bid: string | null;
  ask: string | null;
}

export type Outcome<T> = { body: T; problem?: undefined } | { problem: string; body?: undefined };

export interface ClickInput {
  symbol: string;
  side: Side;
  /** Shift held: a stop-market order, not a limit. */
  stop: boolean;
  price: string;
  size: string;
  terms: EntryTerms;
  touch: Touch;
  /** A funded user's key at its daily loss limit: only orders that reduce the position. */
  locked: boolean;
  position: Position | undefined;
}

/** Why an order of `side` and `kind` cannot rest at `price` now (null: it can). */
export function sideProblem(side: Side, kind: 'limit' | 'stop' | 'take-profit', price: string, touch: Touch): string | null {
  const buy = side === 'BUY';
  const ref = buy ? touch.ask : touch.bid;
  if (ref === null) return 'No order book yet: wait for the prices';
  const c = cmp(dec(price), dec(ref));
  const at = `${buy ? 'the best ask' : 'the best bid'} ${show(ref)}`;
  // A limit and a take-profit both wait on the far side of the touch; a stop on the near side.
  const below = kind === 'stop' ? !buy : buy;
  if (below && c >= 0) return `A ${buy ? 'buy' : 'sell'} ${kind === 'limit' ? 'limit' : kind} goes below ${at}${kind === 'limit' ? ' (at or above it, it would fill at once)' : ''}`;
  if (!below && c <= 0) return `A ${buy ? 'buy' : 'sell'} ${kind === 'limit' ? 'limit' : kind} goes above ${at}${kind === 'limit' ? ' (at or below it, it would fill at once)' : ''}`;
  return null;
}

/** A ladder click as an order: a limit (or with Shift a stop-market) at the row's price, with a new client order id. */
export function clickOrder(input: ClickInput): Outcome<PlaceOrderBody> {
  const { side, stop, price, size, terms, touch, position } = input;
  const sizeProblem = qtyProblem(size, terms);
  if (sizeProblem) return { problem: `Size: ${sizeProblem}` };
  const wrong = sideProblem(side, stop ? 'stop' : 'limit', price, touch);
  if (wrong) return { problem: wrong };
  // At the daily loss limit only what reduces the position goes out (the server refuses the rest).
  const reduces = position !== undefined && position.side !== side;
  if (input.locked && !reduces) return { problem: 'Daily loss limit reached: only orders that reduce the position until 00:00 UTC' };
  const value = notionalProblem(size, price, terms, input.locked);
  if (value) return { problem: `Size: ${value}` };
  const common = { symbol: input.symbol, side, qty: size, clientOrderId: newClientOrderId(), reduceOnly: input.locked, postOnly: false, timeInForce: 'GTC' as const };
  return { body: stop ? { ...common, type: 'STOP_MARKET', triggerPrice: price } : { ...common, type: 'LIMIT', price } };
}

/** The price an order sits at on the ladder: its trigger while it waits, else its limit price. */
export const orderPrice = (o: Order): string | null => (waitsForTrigger(o) ? o.triggerPrice : (o.price ?? o.triggerPrice));

/** An order's chip dropped on the row at `price`: the amend to send, or why not (null: not moved). */
export function dropAmend(order: Order, price: string, touch: Touch, position: Position | undefined): Outcome<AmendOrderBody> | null {
  const now = orderPrice(order);
  if (now !== null && cmp(dec(now), dec(price)) === 0) return null;
  if (order.status === 'TEMPORARY') return { problem: 'The order is not acknowledged by the exchange yet' };
  const liquidation = stopDropProblem(order, position, price);
  if (liquidation) return { problem: liquidation };
  const role = orderRole(order);
  // A waiting stop or take-profit moves its trigger; a resting order its limit price.
  const kind = waitsForTrigger(order) ? (role === 'take-profit' ? 'take-profit' : 'stop') : 'limit';
  const wrong = sideProblem(order.side, kind, price, touch);
  if (wrong) return { problem: wrong };
  return { body: amendFor(order, price) };
}
