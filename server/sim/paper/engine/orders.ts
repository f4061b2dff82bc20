import type { EngineContext } from './context';
import { formatFixed } from './decimal';
import { applyFill, expireStaleReduceOnly, finish, orderEvent, planTake } from './fills';
import { currencyTotals, marginFor, reducible } from './margin';
import { fire } from './matching';
import { isConditional, isMarketType, isOpen, isWaiting, type AccountState, type OrderState } from './state';
import type { AmendRequest, EnginePolicy, OrderRef, PlaceRequest, Refusal, RefusalCode, Result, TriggerDirection } from './types';
import type { Units } from './units';

const no = (code: RefusalCode, message: string, field?: string, detail?: Record<string, string>): { ok: false; refusal: Refusal } => ({
  ok: false,
  refusal: { code, message, ...(field ? { field } : {}), ...(detail ? { detail } : {}) },
});

function parsePrice(u: Units, s: string | undefined, field: 'price' | 'trigger'): bigint | Refusal | null {
  if (s === undefined) return null;
  const v = u.toTicks(s);
  if (v === 'invalid') return { code: field === 'price' ? 'invalid-price' : 'invalid-trigger', message: `Invalid ${field}.`, field };
  if (v === 'off-grid') return { code: field === 'price' ? 'invalid-price-tick' : 'invalid-trigger-tick', message: `${field} is not a multiple of the tick size ${u.spec.tickSize}.`, field };
  return v;
}

function parseQty(u: Units, s: string, market: boolean): bigint | Refusal {
  const v = u.toSteps(s);
  if (v === 'invalid') return { code: 'invalid-qty', message: 'Invalid quantity.', field: 'qty' };
  if (v === 'off-grid') return { code: 'qty-step', message: `Quantity is not a multiple of the step size ${u.spec.qtyStep}.`, field: 'qty' };
  if (v < u.minQty) return { code: 'qty-below-min', message: `Quantity is less than the minimum ${u.spec.minQty}.`, field: 'qty' };
  if (v > (market ? u.maxMarketQty : u.maxQty)) return { code: 'qty-above-max', message: 'Quantity is greater than the maximum.', field: 'qty' };
  return v;
}

const isRefusal = (v: unknown): v is Refusal => typeof v === 'object' && v !== null && 'code' in v;

/** Default trigger direction: a stop buys on the way up and sells on the way down; a take-profit the opposite. */
export function defaultDirection(type: PlaceRequest['type'], side: PlaceRequest['side']): TriggerDirection {
  const stop = type === 'STOP_MARKET' || type === 'STOP_LIMIT';
  return (side === 'BUY') === stop ? 'rise' : 'fall';
}

export function findOrder(acc: AccountState, ref: OrderRef): OrderState | undefined {
  if ('id' in ref) return acc.orders.get(ref.id);
  let best: OrderState | undefined;
  for (const o of acc.orders.values()) {
    if (o.clientId !== ref.clientId) continue;
    // An open order with the id wins over a closed one; otherwise the most recent.
    if (!best || (isOpen(o) && !isOpen(best)) || (isOpen(o) === isOpen(best) && o.id > best.id)) best = o;
  }
  return best;
}

/** Beyond this position value the chosen leverage is not allowed (leverage brackets / risk limits). */
function withinBrackets(ctx: EngineContext, symbol: string, leverage: number, value: bigint): boolean {
  const allowed = ctx.brackets(symbol).filter((b) => b.maxLeverage >= leverage);
  if (allowed.length === 0) return false;
  const cap = allowed[allowed.length - 1].cap;
  return cap === null || value <= cap;
}

/** A request that passed every check, in the engine's units, ready to become an order. */
interface CheckedOrder {
  req: PlaceRequest;
  policy: EnginePolicy;
  conditional: boolean;
  market: boolean;
  price: bigint | null;
  trigger: bigint | null;
  closePosition: boolean;
  reduceOnly: boolean;
  qty: bigint;
  tif: NonNullable<PlaceRequest['timeInForce']>;
  last: bigint;
}

/** Price, trigger and quantity in the instrument's units, and their shapes for the order type. */
function parseOrderNumbers(u: NonNullable<ReturnType<EngineContext['units']>>, req: PlaceRequest): Result<Pick<CheckedOrder, 'conditional' | 'market' | 'price' | 'trigger' | 'closePosition' | 'qty'>> {
  const conditional = isConditional(req.type);
  const market = isMarketType(req.type);
  const price = parsePrice(u, req.price, 'price');
  if (isRefusal(price)) return { ok: false, refusal: price };
  const trigger = parsePrice(u, req.trigger, 'trigger');
  if (isRefusal(trigger)) return { ok: false, refusal: trigger };
  if (!market && price === null) return no('invalid-order', 'A limit order needs a price.', 'price');
  if (market && price !== null) return no('invalid-order', 'A market order takes no price.', 'price');
  if (conditional && trigger === null) return no('invalid-order', 'A conditional order needs a trigger price.', 'trigger');
  if (!conditional && trigger !== null) return no('invalid-order', 'Only conditional orders take a trigger price.', 'trigger');
  const closePosition = conditional && req.closePosition === true;
  if (req.closePosition && !conditional) return no('invalid-order', 'closePosition applies to conditional orders only.', 'closePosition');
  let qty = 0n;
  if (!closePosition) {
    if (req.qty === undefined) return no('invalid-qty', 'Quantity is required.', 'qty');
    const q = parseQty(u, req.qty, market);
    if (isRefusal(q)) return { ok: false, refusal: q };
    qty = q;
  }
  return { ok: true, value: { conditional, market, price, trigger, closePosition, qty } };
}

/** Every check a new order passes before anything changes (the exchange's refusals, in its order). */
function checkOrder(ctx: EngineContext, acc: AccountState, req: PlaceRequest, at: number): Result<CheckedOrder> {
  const u = ctx.units(req.symbol);
  if (!u) return no('unknown-symbol', `Unknown symbol ${req.symbol}.`, 'symbol');
  const policy: EnginePolicy = { ...ctx.policy, ...req.policy };
  const numbers = parseOrderNumbers(u, req);
  if (!numbers.ok) return numbers;
  const { conditional, market, price, trigger, closePosition, qty } = numbers.value;
  const lastTrade = ctx.tape.last(req.symbol, at);
  if (!lastTrade) return no('no-market', `${req.symbol} has not traded yet.`, 'symbol');
  const last = lastTrade.price;
  acc.marks.set(req.symbol, last);
  const reduceOnly = req.reduceOnly === true || closePosition;
  if (!reduceOnly && u.minNotional !== null && u.category === 'linear') {
    const value = u.value(qty, price ?? trigger ?? last);
    if (value < u.minNotional) return no('notional-below-min', 'Order value is below the minimum.', 'qty', { minNotional: formatFixed(u.minNotional, 8) });
  }
  const tif = req.timeInForce ?? 'GTC';
  if (req.postOnly && (market || tif !== 'GTC')) return no('invalid-order', 'Post-only applies to GTC limit orders.', 'postOnly');
  if (req.clientId !== undefined) {
    const dup = [...acc.orders.values()].some((o) => o.clientId === req.clientId && (policy.clientIdScope === 'all' || isOpen(o)));
    if (dup) return no('duplicate-client-id', 'Client order id is duplicated.', 'clientId');
  }
  // A conditional reduce-only order is checked when it fires (Binance answers "Reduce Only reject" in ALGO_UPDATE then).
  if (reduceOnly && !conditional) {
    const r = reducible(acc, req.symbol, req.side);
    if (r === 0n) return no('reduce-only-rejected', 'Reduce-only order would not reduce the position.', 'reduceOnly');
    if (policy.reduceOnly === 'reject' && qty > r) return no('reduce-only-rejected', 'Reduce-only order is larger than the position.', 'qty');
  }
  if (!reduceOnly) {
    const s = acc.settings.get(req.symbol)?.leverage ?? ctx.defaultLeverage(req.symbol);
    const grow = qty - (qty < reducible(acc, req.symbol, req.side) ? qty : reducible(acc, req.symbol, req.side));
    const value = (acc.positions.get(req.symbol)?.cost ?? 0n) + u.value(grow, price ?? trigger ?? last);
    if (grow > 0n && !withinBrackets(ctx, req.symbol, s, value)) return no('position-limit-exceeded', 'Exceeded the maximum allowable position at current leverage.', 'qty');
  }
  return { ok: true, value: { req, policy, conditional, market, price, trigger, closePosition, reduceOnly, qty, tif, last } };
}

/** The order in the book (its `new` event sent). */
function makeOrder(ctx: EngineContext, acc: AccountState, c: CheckedOrder, at: number): OrderState {
  const { req } = c;
  const id = acc.takeId();
  const o: OrderState = {
    id,
    clientId: req.clientId ?? `paper-${id}`,
    symbol: req.symbol,
    side: req.side,
    type: req.type,
    timeInForce: c.tif,
    postOnly: req.postOnly === true,
    reduceOnly: c.reduceOnly,
    closePosition: c.closePosition,
    qty: c.qty,
    filled: 0n,
    price: c.price,
    trigger: c.trigger,
    triggerDirection: c.conditional ? (req.triggerDirection ?? defaultDirection(req.type, req.side)) : null,
    status: c.conditional ? 'UNTRIGGERED' : 'NEW',
    triggeredAt: null,
    releasedId: null,
    sumPriceQty: 0n,
    fee: 0n,
    realised: 0n,
    reason: null,
    meta: { ...req.meta },
    createdAt: at,
    updatedAt: at,
  };
  acc.orders.set(id, o);
  orderEvent(ctx, acc, o, 'new', at);
  return o;
}

/** A conditional order waits (no margin check before it triggers) or fires at once when the price is already past. */
function placeConditional(ctx: EngineContext, acc: AccountState, c: CheckedOrder, at: number): Result<OrderState> {
  const dir = c.req.triggerDirection ?? defaultDirection(c.req.type, c.req.side);
  const immediate = dir === 'rise' ? c.last >= c.trigger! : c.last <= c.trigger!;
  if (immediate && c.policy.immediateTrigger === 'reject') return no('would-immediately-trigger', 'Order would immediately trigger.', 'trigger');
  // No margin check while it waits (Binance: "no margin check before the conditional order gets triggered").
  const o = makeOrder(ctx, acc, c, at);
  if (immediate) fire(ctx, acc, o, c.last, at);
  return { ok: true, value: o };
}

/** A plain order takes what it can at once (IOC/FOK/post-only rules), and a GTC rest waits in the book if its margin allows. */
function placePlain(ctx: EngineContext, acc: AccountState, c: CheckedOrder, at: number): Result<OrderState> {
  const { req } = c;
  const plan = planTake(ctx, acc, { symbol: req.symbol, side: req.side, limit: c.price, remaining: c.qty, reduceOnly: c.reduceOnly }, c.last);
  if (plan !== 'rest' && 'code' in plan) return { ok: false, refusal: plan };
  if (plan !== 'rest') {
    if (req.postOnly) {
      if (c.policy.postOnly === 'reject') return no('post-only-would-take', 'The post-only order would take liquidity.', 'postOnly');
      const o = makeOrder(ctx, acc, c, at);
      finish(ctx, acc, o, 'CANCELED', 'post-only-would-take', at);
      return { ok: true, value: o };
    }
    const o = makeOrder(ctx, acc, c, at);
    if (c.tif === 'FOK' && plan.qty < c.qty) {
      finish(ctx, acc, o, 'EXPIRED', 'fok', at);
      return { ok: true, value: o };
    }
    applyFill(ctx, acc, o, plan.qty, plan.price, false, at);
    if (isOpen(o)) finish(ctx, acc, o, 'EXPIRED', 'reduce-only', at);
    expireStaleReduceOnly(ctx, acc, req.symbol, at);
    return { ok: true, value: o };
  }
  if (c.tif !== 'GTC') {
    const o = makeOrder(ctx, acc, c, at);
    finish(ctx, acc, o, 'EXPIRED', c.tif.toLowerCase(), at);
    return { ok: true, value: o };
  }
  if (!c.reduceOnly) {
    const settle = ctx.units(req.symbol)!.spec.settle;
    const need = marginFor(ctx, acc, req.symbol, req.side, c.qty, c.price!);
    if (need > 0n && need > currencyTotals(ctx, acc, settle).available) return no('insufficient-margin', 'Margin is insufficient.');
  }
  return { ok: true, value: makeOrder(ctx, acc, c, at) };
}

export function placeOrder(ctx: EngineContext, acc: AccountState, req: PlaceRequest, at: number): Result<OrderState> {
  const checked = checkOrder(ctx, acc, req, at);
  if (!checked.ok) return checked;
  return checked.value.conditional ? placeConditional(ctx, acc, checked.value, at) : placePlain(ctx, acc, checked.value, at);
}

export function amendOrder(ctx: EngineContext, acc: AccountState, ref: OrderRef, req: AmendRequest, at: number): Result<OrderState> {
  const o = findOrder(acc, ref);
  if (!o) return no('unknown-order', 'Order does not exist.');
  if (!isOpen(o)) return no('order-closed', 'Order is already filled, canceled or expired.');
  const u = ctx.units(o.symbol)!;
  const policy: EnginePolicy = { ...ctx.policy, ...req.policy };
  const waiting = isWaiting(o);
  if (o.type === 'LIQUIDATION' || (o.price === null && !waiting)) return no('order-not-amendable', 'This order cannot be amended.');
  const price = parsePrice(u, req.price, 'price');
  if (isRefusal(price)) return { ok: false, refusal: price };
  const trigger = parsePrice(u, req.trigger, 'trigger');
  if (isRefusal(trigger)) return { ok: false, refusal: trigger };
  if (price !== null && o.price === null) return no('order-not-amendable', 'A market order has no price to amend.', 'price');
  if (trigger !== null && !waiting) return no('order-not-amendable', 'Only a waiting conditional order has a trigger to amend.', 'trigger');
  let qty = o.qty;
  if (req.qty !== undefined) {
    const q = parseQty(u, req.qty, o.price === null);
    if (isRefusal(q)) return { ok: false, refusal: q };
    if (q <= o.filled) return no('invalid-qty', 'Quantity must be greater than the filled quantity.', 'qty');
    qty = q;
  }
  const newPrice = price ?? o.price;
  const newTrigger = trigger ?? o.trigger;
  if (qty === o.qty && newPrice === o.price && newTrigger === o.trigger) return no('no-change', 'No need to modify the order.');
  const last = ctx.tape.last(o.symbol, at)?.price ?? acc.marks.get(o.symbol)!;
  if (o.reduceOnly && policy.reduceOnly === 'reject' && !o.closePosition && qty - o.filled > reducible(acc, o.symbol, o.side) && !waiting) {
    return no('reduce-only-rejected', 'Reduce-only order is larger than the position.', 'qty');
  }
  if (waiting) {
    const immediate = o.triggerDirection === 'rise' ? last >= newTrigger! : last <= newTrigger!;
    if (immediate && policy.immediateTrigger === 'reject') return no('would-immediately-trigger', 'Order would immediately trigger.', 'trigger');
    Object.assign(o, { qty, price: newPrice, trigger: newTrigger });
    orderEvent(ctx, acc, o, 'amended', at);
    if (immediate) fire(ctx, acc, o, last, at);
    return { ok: true, value: o };
  }
  const plan = planTake(ctx, acc, { symbol: o.symbol, side: o.side, limit: newPrice, remaining: qty - o.filled, reduceOnly: o.reduceOnly, exclude: o }, last);
  if (plan !== 'rest' && 'code' in plan) return { ok: false, refusal: plan };
  if (plan !== 'rest' && o.postOnly && policy.postOnly === 'reject') return no('post-only-would-take', 'The post-only order would take liquidity.', 'price');
  if (plan === 'rest' && !o.reduceOnly) {
    const need = marginFor(ctx, acc, o.symbol, o.side, qty - o.filled, newPrice!);
    if (need > 0n && need > currencyTotals(ctx, acc, u.spec.settle, o).available) return no('insufficient-margin', 'Margin is insufficient.');
  }
  Object.assign(o, { qty, price: newPrice });
  orderEvent(ctx, acc, o, 'amended', at);
  if (plan !== 'rest') {
    if (o.postOnly) finish(ctx, acc, o, 'CANCELED', 'post-only-would-take', at);
    else {
      applyFill(ctx, acc, o, plan.qty, plan.price, false, at);
      if (isOpen(o)) finish(ctx, acc, o, 'EXPIRED', 'reduce-only', at);
      expireStaleReduceOnly(ctx, acc, o.symbol, at);
    }
  }
  return { ok: true, value: o };
}

export function cancelOrder(ctx: EngineContext, acc: AccountState, ref: OrderRef, at: number): Result<OrderState> {
  const o = findOrder(acc, ref);
  if (!o) return no('unknown-order', 'Unknown order sent.');
  if (!isOpen(o)) return no('order-closed', 'Order is already filled, canceled or expired.');
  finish(ctx, acc, o, 'CANCELED', 'canceled', at);
  return { ok: true, value: o };
}
