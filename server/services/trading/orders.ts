import { add, cmp, dec, div, isZero, mul, roundToStep, str, sub, type Decimal } from '../../../src/api/contracts/decimal';
import type { ClosePositionBody, LadderBody, Order, PlaceOrderBody } from '../../../src/api/contracts/trading';
import { isConditional, type NewOrder, type TradingInstrument } from '../../exchanges/trading';
import { badRequest, HttpError } from '../../lib/http-error';
import { ladderIdFor, ladderLegId, newClientOrderId, tagOrder } from './ids';
import { UndoneError } from './idempotency';
import type { LimitsCheck } from './limits';
import { firstMissing, placeLegs } from './legs';
import { checkLegs, checkPrice, checkQty, type Leg } from './preflight';
import type { TradeSession } from './session';

/**
 * The order paths of `/v1/trade` (DESIGN §3.2): every price and size checked against the instrument
 * (400 naming the field, nothing sent), funded-user limits (422 naming the limit), then the exchange.
 * A request that timed out is reconciled by its client order id, never blindly retried; a request
 * retried after a 5xx (`reconcile`) looks its orders up by client id before placing anything.
 * Brackets live in brackets.ts.
 */

const ZERO = dec(0);

export { checkPrice, checkQty };

/**
 * Places one order; when the exchange does not answer in time, asks it for the client order id: the
 * order is either there (answered as placed) or not (504 saying nothing was placed).
 */
export async function placeReconciled(s: TradeSession, order: NewOrder): Promise<Order> {
  const inst = s.instrument(order.symbol);
  try {
    return tagOrder(await s.run((c) => c.place(order)));
  } catch (err) {
    if (!(err instanceof HttpError) || (err.status !== 504 && err.status !== 502)) throw err;
    const conditional = order.type !== 'MARKET' && order.type !== 'LIMIT';
    const found = await s.run((c) => c.orderByClientId(inst, order.clientOrderId, conditional)).catch(() => undefined);
    if (found) return tagOrder(found);
    if (found === null) throw new HttpError(err.status, `${err.message}. The order was not placed (checked with the exchange by its client id ${order.clientOrderId})`);
    throw new HttpError(err.status, `${err.message}. Whether the order was placed is unknown: it has client id ${order.clientOrderId}; check open orders before sending it again`);
  }
}

/** A retry of a request that may have placed `order`: the exchange's order with its client id, if any. */
async function alreadyPlaced(s: TradeSession, inst: TradingInstrument, order: NewOrder): Promise<Order | null> {
  const found = await s.run((c) => c.orderByClientId(inst, order.clientOrderId, isConditional(order.type)));
  return found ? tagOrder(found) : null;
}

export async function placeOrder(s: TradeSession, body: PlaceOrderBody, limits: LimitsCheck, reconcile = false): Promise<Order> {
  const inst = s.instrument(body.symbol);
  checkQty(inst, body.qty);
  if (body.price) checkPrice(inst, body.price, 'price');
  if (body.triggerPrice) checkPrice(inst, body.triggerPrice, 'triggerPrice');
  const order: NewOrder = {
    symbol: inst.exchangeSymbol,
    side: body.side,
    type: body.type,
    qty: body.qty,
    ...(body.price ? { price: body.price } : {}),
    ...(body.triggerPrice ? { triggerPrice: body.triggerPrice } : {}),
    reduceOnly: body.reduceOnly,
    postOnly: body.postOnly,
    timeInForce: body.timeInForce,
    clientOrderId: body.clientOrderId ?? newClientOrderId(),
  };
  if (reconcile) {
    const found = await alreadyPlaced(s, inst, order);
    if (found) return found;
  }
  await limits.order(s, { inst, side: body.side, qty: body.qty, price: body.price ?? body.triggerPrice ?? null, stop: null, reduceOnly: body.reduceOnly });
  return placeReconciled(s, order);
}

/** Splits `qty` by percentages, each rounded down to the step; the last part takes the remainder. */
export function splitQty(inst: TradingInstrument, qty: string, percents: number[]): string[] {
  const total = dec(qty);
  const step = dec(inst.stepSize);
  const parts: Decimal[] = [];
  let used = ZERO;
  percents.forEach((p, i) => {
    if (i === percents.length - 1) {
      parts.push(sub(total, used));
      return;
    }
    const part = roundToStep(div(mul(total, dec(p)), dec(100)), step, 'down');
    parts.push(part);
    used = add(used, part);
  });
  return parts.map(str);
}

/** A ladder refused part-way whose undoing failed (207): what is still live. */
export class LadderPartial {
  constructor(
    readonly message: string,
    readonly orders: Order[],
  ) {}
}

/**
 * `count` limit orders between `from` and `to` (FF_LADDER_ORDERS): equal sizes, or growing towards
 * `to` (weighted). All or nothing like a bracket: every order is checked before the first is sent;
 * a refused order cancels those placed and closes at market what they filled (an opening ladder),
 * and the answer says so. When undoing fails the answer is a `LadderPartial` (207) naming what is live.
 */
export async function placeLadder(s: TradeSession, body: LadderBody, limits: LimitsCheck, reconcile = false): Promise<Order[] | LadderPartial> {
  const inst = s.instrument(body.symbol);
  checkQty(inst, body.qty);
  checkPrice(inst, body.from, 'from', 'The first price');
  checkPrice(inst, body.to, 'to', 'The last price');
  const ladderId = ladderIdFor(s.key.id, body.clientOrderId);
  const legs = ladderLegs(inst, body, ladderId);
  const [last, openOrders] = await Promise.all([s.run((c) => c.lastPrice(inst)), s.run((c) => c.openOrders(inst))]);
  checkLegs(inst, legs, { last, openOrders }, 'count');
  const from = dec(body.from);
  const worst = body.side === 'BUY' ? (cmp(from, dec(body.to)) > 0 ? body.from : body.to) : cmp(from, dec(body.to)) < 0 ? body.from : body.to;
  await limits.order(s, { inst, side: body.side, qty: body.qty, price: worst, stop: null, reduceOnly: body.reduceOnly });
  // Every rung at once, in batches where the exchange has them (legs.ts).
  const outcomes = await placeLegs(s, inst, legs, reconcile);
  const placed = outcomes.flatMap((o) => (o.state === 'placed' ? [o.order] : []));
  const failed = firstMissing(outcomes);
  if (failed) return undoLadder(s, inst, body, `${ladderId}X`, placed, failed.leg, failed.error);
  return placed;
}

function ladderLegs(inst: TradingInstrument, body: LadderBody, ladderId: string): Leg[] {
  const tick = dec(inst.tickSize);
  const from = dec(body.from);
  const span = sub(dec(body.to), from);
  const prices = Array.from({ length: body.count }, (_, i) => str(roundToStep(add(from, div(mul(span, dec(i)), dec(body.count - 1))), tick, 'half-even')));
  const weights = Array.from({ length: body.count }, (_, i) => (body.distribution === 'weighted' ? i + 1 : 1));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const sizes = splitQty(
    inst,
    body.qty,
    weights.map((w) => (w * 100) / totalWeight),
  );
  sizes.forEach((q, i) => {
    if (isZero(dec(q)) || cmp(dec(q), dec(inst.minQty)) < 0) throw badRequest(`Order ${i + 1} of the ladder would be ${q}, below the minimum size ${inst.minQty}`, { count: 'Fewer orders or a larger size' });
  });
  return sizes.map((qty, i) => ({
    name: `Order ${i + 1} of the ladder`,
    order: {
      symbol: inst.exchangeSymbol,
      side: body.side,
      type: 'LIMIT' as const,
      qty,
      price: prices[i],
      reduceOnly: body.reduceOnly,
      postOnly: body.postOnly,
      timeInForce: 'GTC' as const,
      clientOrderId: ladderLegId(ladderId, i + 1),
    },
    fields: { price: i === 0 ? 'from' : 'to', qty: 'qty' },
  }));
}

/** Cancels the ladder's orders placed so far and flattens what they filled; throws when nothing is live. */
async function undoLadder(s: TradeSession, inst: TradingInstrument, body: LadderBody, flattenClientId: string, placed: readonly Order[], failed: Leg, cause: unknown): Promise<LadderPartial> {
  const reason = cause instanceof Error ? cause.message : String(cause);
  const status = cause instanceof HttpError ? cause.status : 500;
  const live: Order[] = [];
  let filled = ZERO;
  // All cancelled at once; what each had filled is counted once they are all done.
  const after = await Promise.all(
    placed.map(async (o): Promise<{ now: Order | null; live: boolean }> => {
      try {
        return { now: tagOrder(await s.run((c) => c.cancel(inst, o.id))), live: false };
      } catch {
        // Gone already (filled in full) is not live; open and not cancellable is.
        const now = await s.run((c) => c.orderByClientId(inst, o.clientOrderId ?? '', false)).catch(() => o);
        return { now, live: now !== null && (now.status === 'NEW' || now.status === 'PARTIALLY_FILLED') };
      }
    }),
  );
  for (const a of after) {
    if (a.live && a.now) live.push(a.now);
    if (a.now) filled = add(filled, dec(a.now.filledQty));
  }
  const notes = [placed.length ? `the ${placed.length} orders placed before it were cancelled${live.length ? ` (${live.length} could not be)` : ''}` : 'nothing had been placed'];
  let position = false;
  if (!isZero(filled) && !body.reduceOnly) {
    try {
      await placeReconciled(s, { symbol: inst.exchangeSymbol, side: body.side === 'BUY' ? 'SELL' : 'BUY', type: 'MARKET', qty: str(filled), reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: flattenClientId });
      notes.push(`the ${str(filled)} they had filled was closed at market`);
    } catch (err) {
      position = true;
      notes.push(`the ${str(filled)} they had filled could not be closed (${err instanceof Error ? err.message : String(err)}): that position is open`);
    }
  } else if (!isZero(filled)) {
    notes.push(`${str(filled)} had already filled (reduce-only: the position is that much smaller)`);
  }
  const summary = `${failed.name} was refused (${reason}): ${notes.join('; ')}`;
  if (!live.length && !position) throw new UndoneError(status, `${summary}. None of this ladder's orders is live.`, cause instanceof HttpError ? cause.fields : undefined);
  return new LadderPartial(`${summary}. Still live: ${[...live.map((o) => `the order at ${o.price}`), ...(position ? ['the position they opened'] : [])].join(', ')} — check the Orders panel.`, live);
}

/** Closes `percent` of the position (rounded down to the step; 100 % closes all of it), reduce-only. */
export async function closePosition(s: TradeSession, body: ClosePositionBody, reconcile = false): Promise<Order> {
  const inst = s.instrument(body.symbol);
  if (body.price) checkPrice(inst, body.price, 'price');
  const clientOrderId = body.clientOrderId ?? newClientOrderId();
  if (reconcile) {
    const found = await alreadyPlaced(s, inst, { symbol: inst.exchangeSymbol, side: 'BUY', type: body.type, qty: '0', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId });
    if (found) return found;
  }
  const positions = await s.run((c) => c.positions(inst));
  const p = positions.find((x) => x.symbol === inst.symbol);
  if (!p || isZero(dec(p.size))) throw new HttpError(404, `No open ${inst.symbol} position`);
  const qty = body.percent >= 100 ? p.size : str(roundToStep(div(mul(dec(p.size), dec(body.percent)), dec(100)), dec(inst.stepSize), 'down'));
  if (isZero(dec(qty)) || cmp(dec(qty), dec(inst.minQty)) < 0) throw badRequest(`${body.percent} % of ${p.size} is below the minimum size ${inst.minQty}`, { percent: `At least ${inst.minQty}` });
  return placeReconciled(s, {
    symbol: inst.exchangeSymbol,
    side: p.side === 'BUY' ? 'SELL' : 'BUY',
    type: body.type,
    qty,
    ...(body.price ? { price: body.price } : {}),
    reduceOnly: true,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId,
  });
}

/** FF_ENABLE_EXECUTE_NON_TRIGGERED: a waiting conditional becomes a market order now (cancel, then market). */
export async function executeNonTriggered(s: TradeSession, order: Order): Promise<Order> {
  if (order.status !== 'UNTRIGGERED') throw new HttpError(422, `Only a waiting (untriggered) order can be executed; this one is ${order.status}`);
  const inst = s.instrument(order.symbol);
  await s.run((c) => c.cancel(inst, order.id));
  return placeReconciled(s, {
    symbol: inst.exchangeSymbol,
    side: order.side,
    type: 'MARKET',
    qty: order.qty,
    reduceOnly: order.reduceOnly,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId: order.clientOrderId ? `${order.clientOrderId.slice(0, 30)}X1` : newClientOrderId(),
  });
}
