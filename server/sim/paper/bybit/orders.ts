import { fixed, type AccountKey, type OrderRecord, type PaperEngine, type PlaceRequest, type TriggerDirection } from '../engine';
import { bool, decimal, int, oneOf, text, type Params } from '../params';
import { cancelPicked, isOpen, settledHistory } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import { bybitOrderId, historyOrderJson, isConditional, realtimeOrderJson } from './format';
import { BybitAnswer, BybitError, CATEGORY, instrumentOf, missing, paramError, refusalError } from './params';
import { byRef, findOrders, matchesRef, openOrderOf, ORDER_LINK_ID, orderRefOf, page, scopeOf, timeWindow } from './shared';

const TRIGGER_BY = ['LastPrice', 'IndexPrice', 'MarkPrice'] as const;
const ORDER_FILTERS = ['Order', 'StopOrder', 'tpslOrder', 'OcoOrder', 'BidirectionalTpslOrder'] as const;
const NEEDS_SCOPE = 'Missing some parameters that must be filled in, symbol or settleCoin or baseCoin';

const CREATE = {
  side: oneOf(['Buy', 'Sell'] as const, { required: true }),
  orderType: oneOf(['Market', 'Limit'] as const, { required: true }),
  qty: decimal({ required: true }),
};

const CREATE_OPTIONS = {
  triggerPrice: decimal(),
  triggerDirection: int({ min: 1, max: 2 }),
  triggerBy: oneOf(TRIGGER_BY),
  timeInForce: oneOf(['GTC', 'IOC', 'FOK', 'PostOnly'] as const, {
    invalid: (t) => (t === 'RPI' ? new BybitError(10001, 'params error: RPI orders are for market makers only') : paramError('timeInForce')),
  }),
  // One-way mode only: positionIdx 0 (hedge-mode indices 1 / 2 are refused like Bybit does in one-way mode).
  positionIdx: int({ min: 0, max: 0, outside: () => new BybitError(10001, 'position idx not match position mode') }),
  orderLinkId: text({ pattern: ORDER_LINK_ID }),
  reduceOnly: bool({ default: false }),
  closeOnTrigger: bool({ default: false }),
};

type Create = ReturnType<typeof readCreate>;

/** Conditional engine type from Bybit's orderType, side and trigger direction (stops buy rising / sell falling). */
function conditionalType(orderType: 'Market' | 'Limit', side: 'BUY' | 'SELL', dir: TriggerDirection): PlaceRequest['type'] {
  const stop = (side === 'BUY') === (dir === 'rise');
  if (orderType === 'Market') return stop ? 'STOP_MARKET' : 'TAKE_PROFIT_MARKET';
  return stop ? 'STOP_LIMIT' : 'TAKE_PROFIT';
}

const ack = (account: AccountKey, o: OrderRecord) => ({ orderId: bybitOrderId(account, o.id), orderLinkId: o.meta.orderLinkId ?? '' });

function readCreate(p: Params) {
  const o = p.read(CREATE);
  // "Market order will ignore this field"
  const price = o.orderType === 'Limit' ? p.decimal('price') : undefined;
  if (o.orderType === 'Limit' && price === undefined) throw missing('price');
  const x = p.read(CREATE_OPTIONS);
  if (p.has('takeProfit') || p.has('stopLoss') || p.has('tpslMode')) {
    throw new BybitError(10001, 'params error: attached takeProfit / stopLoss are not simulated; place a conditional order (triggerPrice) instead');
  }
  if (p.has('isLeverage') || p.has('marketUnit') || p.has('orderFilter')) throw new BybitError(10001, 'params error: spot parameters are not valid for linear and inverse');
  const conditional = x.triggerPrice !== undefined && fixed(x.triggerPrice) !== 0n;
  // qty "0" with reduceOnly and closeOnTrigger closes the whole position.
  const closeAll = fixed(o.qty) === 0n && x.reduceOnly && x.closeOnTrigger;
  return { ...o, ...x, price, conditional, closeAll, side: o.side === 'Buy' ? ('BUY' as const) : ('SELL' as const) };
}

/** The engine request of a create, at `at` (the trigger's direction and a close-all's size depend on the market and position). */
function placeRequest(engine: PaperEngine, id: string, symbol: string, c: Create, at: number) {
  const last = engine.lastPrice(symbol, at);
  let direction: TriggerDirection | undefined;
  if (c.conditional) direction = c.triggerDirection === 1 ? 'rise' : c.triggerDirection === 2 ? 'fall' : last !== null && fixed(c.triggerPrice!) > fixed(last) ? 'rise' : 'fall';
  let amount: string | undefined = c.qty;
  if (c.closeAll && !c.conditional) {
    const [pos] = engine.positions(id, symbol);
    const size = pos ? fixed(pos.size) : 0n;
    if (size !== 0n) amount = pos.size.replace('-', '');
  }
  const req: PlaceRequest = {
    symbol,
    side: c.side,
    type: c.conditional ? conditionalType(c.orderType, c.side, direction!) : c.orderType === 'Market' ? 'MARKET' : 'LIMIT',
    qty: c.closeAll && c.conditional ? undefined : amount,
    price: c.price,
    trigger: c.conditional ? c.triggerPrice : undefined,
    triggerDirection: direction,
    timeInForce: c.orderType === 'Market' || c.timeInForce === 'PostOnly' || c.timeInForce === undefined ? 'GTC' : c.timeInForce,
    postOnly: c.orderType === 'Limit' && c.timeInForce === 'PostOnly',
    reduceOnly: c.reduceOnly,
    closePosition: c.closeAll && c.conditional,
    clientId: c.orderLinkId,
    meta: {
      ...(c.orderLinkId !== undefined ? { orderLinkId: c.orderLinkId } : {}),
      ...(c.conditional ? { triggerBy: c.triggerBy ?? 'LastPrice' } : {}),
      ...(c.closeOnTrigger ? { closeOnTrigger: 'true' } : {}),
      ...(last !== null ? { lastPriceOnCreated: last } : {}),
    },
  };
  return { req, direction, last };
}

/** One `/v5/order/create` (also one item of `create-batch`): the placed order. */
async function placeOne({ venue, params: p, runtime, engine, account }: SignedCall): Promise<OrderRecord> {
  const { category } = p.read({ category: CATEGORY });
  const spec = instrumentOf(venue, p.opt('symbol'), category);
  const c = readCreate(p);
  const r = await runtime.run(account, (id, at) => {
    const { req, direction, last } = placeRequest(engine, id, spec.symbol, c, at);
    return { result: engine.place(id, req, at), direction, last };
  });
  if (!r.result.ok) throw refusalError(r.result.refusal, { direction: r.direction, trigger: c.triggerPrice, last: r.last ?? undefined });
  return r.result.value;
}

/** One `/v5/order/amend` (also one item of `amend-batch`): the amended order. */
async function amendOne({ venue, params: p, runtime, engine, account }: SignedCall): Promise<OrderRecord> {
  const { category } = p.read({ category: CATEGORY });
  const spec = instrumentOf(venue, p.opt('symbol'), category);
  const ref = orderRefOf(p, account, true);
  const { qty, price, triggerPrice: trigger } = p.read({ qty: decimal(), price: decimal(), triggerPrice: decimal(), triggerBy: oneOf(TRIGGER_BY) });
  if (p.has('takeProfit') || p.has('stopLoss')) throw new BybitError(10001, 'params error: takeProfit / stopLoss are not simulated');
  const r = await runtime.run(account, (id, at) => {
    const o = openOrderOf(engine.retained(id), spec.symbol, ref);
    if (!o) return null;
    const amend = { qty, price: o.price === null ? undefined : price, trigger: isConditional(o) && o.triggeredAt === null ? trigger : undefined };
    return { result: engine.amend(id, { id: o.id }, amend, at), direction: o.triggerDirection ?? undefined, last: engine.lastPrice(spec.symbol, at) };
  });
  if (!r) throw new BybitError(110001, 'Order does not exist');
  if (!r.result.ok) throw refusalError(r.result.refusal, { direction: r.direction, trigger, last: r.last ?? undefined });
  return r.result.value;
}

/** One `/v5/order/cancel` (also one item of `cancel-batch`): the cancelled order. */
async function cancelOne(call: SignedCall): Promise<OrderRecord> {
  const { venue, params: p, engine, account } = call;
  const { category } = p.read({ category: CATEGORY });
  const spec = instrumentOf(venue, p.opt('symbol'), category);
  const ref = orderRefOf(p, account, true);
  const r = await cancelPicked(call, (id) => openOrderOf(engine.retained(id), spec.symbol, ref));
  if (!r) throw new BybitError(110001, 'Order does not exist');
  if (!r.ok) throw refusalError(r.refusal);
  return r.value;
}

const createOrder = async (call: SignedCall) => ack(call.account, await placeOne(call));
const amendOrder = async (call: SignedCall) => ack(call.account, await amendOne(call));
const cancelOrder = async (call: SignedCall) => ack(call.account, await cancelOne(call));

/** At most 20 items per batch request for linear and inverse (docs/v5/order/batch-place.mdx @072c197). */
export const BATCH_MAX = 20;

/**
 * `create-batch` / `amend-batch` / `cancel-batch`: `{ category, request: [item…] }`, each item done in
 * order exactly like the single endpoint (its own symbol, the request's category); `result.list` has one
 * entry per item (a failed one with an empty orderId) and `retExtInfo.list` its `{ code, msg }`.
 */
function batch(one: (call: SignedCall) => Promise<OrderRecord>, created: boolean) {
  return async (call: SignedCall) => {
    const { params: p, account } = call;
    const { category } = p.read({ category: CATEGORY });
    const raw = p.raw('request');
    if (raw === undefined) throw missing('request');
    if (!Array.isArray(raw)) throw paramError('request');
    if (raw.length === 0) throw new BybitError(10001, 'params error: request is empty');
    if (raw.length > BATCH_MAX) throw new BybitError(10001, `params error: too many requests in the batch, at most ${BATCH_MAX}`);
    const list: Array<Record<string, string>> = [];
    const ext: Array<{ code: number; msg: string }> = [];
    for (const item of raw) {
      const params = p.child({ ...(typeof item === 'object' && item !== null ? item : {}), category });
      const given = { category, symbol: params.opt('symbol') ?? '', orderLinkId: typeof params.raw('orderLinkId') === 'string' ? (params.raw('orderLinkId') as string) : '' };
      try {
        // A test's injected refusal (`_control/faults` `refuse`) names this item: the fault answer's own error.
        if (created && call.venue.faults.refuses('bybit', JSON.stringify(item))) throw new BybitError(110003, 'Order price is out of permissible range');
        const o = await one({ ...call, params });
        list.push({ category, symbol: o.symbol, ...ack(account, o), ...(created ? { createAt: String(o.createdAt) } : {}) });
        ext.push({ code: 0, msg: 'OK' });
      } catch (err) {
        if (!(err instanceof BybitError)) throw err;
        list.push({ ...given, orderId: '', ...(created ? { createAt: '' } : {}) });
        ext.push({ code: err.retCode, msg: err.retMsg });
      }
    }
    return new BybitAnswer({ list }, { list: ext });
  };
}

async function cancelAll(call: SignedCall) {
  const { params: p, runtime, engine, account } = call;
  const { category, symbols } = scopeOf(call);
  if (!symbols) throw new BybitError(10001, NEEDS_SCOPE);
  const { orderFilter: filter, stopOrderType } = p.read({ orderFilter: oneOf(['Order', 'StopOrder', 'OpenOrder'] as const), stopOrderType: oneOf(['Stop'] as const) });
  const keep = (o: OrderRecord) => {
    if (filter === 'StopOrder') return isConditional(o) && (stopOrderType === undefined || (o.meta.stopOrderType ?? 'Stop') === 'Stop');
    if (filter === 'Order' || filter === 'OpenOrder') return !isConditional(o) || o.triggeredAt !== null;
    return true;
  };
  const canceled = await runtime.run(account, (id, at) => {
    const out: OrderRecord[] = [];
    for (const s of [...symbols].sort()) if (engine.instrument(s)?.category === category) out.push(...engine.cancelAll(id, s, at, keep));
    return out;
  });
  return { list: canceled.map((o) => ack(account, o)), success: '1' };
}

/** The orders a list query keeps: its category, symbols and reference, and `orderFilter` (conditional or not). */
function orderFilterOf(call: SignedCall, scope: ReturnType<typeof scopeOf>, ref: ReturnType<typeof orderRefOf>) {
  const { orderFilter: filter } = call.params.read({ orderFilter: oneOf(ORDER_FILTERS) });
  return (o: OrderRecord) => {
    const spec = call.engine.instrument(o.symbol);
    if (!spec || spec.category !== scope.category || (scope.symbols && !scope.symbols.has(o.symbol)) || !matchesRef(o, ref)) return false;
    if (filter === 'StopOrder' && !isConditional(o)) return false;
    if (filter === 'Order' && isConditional(o)) return false;
    return filter === undefined || filter === 'StopOrder' || filter === 'Order';
  };
}

const newestFirst = (a: OrderRecord, b: OrderRecord) => b.createdAt - a.createdAt || b.id - a.id;

async function realtimeOrders(call: SignedCall) {
  const { params: p, runtime, engine, account } = call;
  const scope = scopeOf(call);
  const ref = orderRefOf(p, account, false);
  if (scope.category === 'linear' && !scope.symbols && !byRef(ref)) throw new BybitError(10001, NEEDS_SCOPE);
  const { openOnly } = p.read({ openOnly: int({ default: 0, min: 0, max: 2 }) });
  const keep = orderFilterOf(call, scope, ref);
  // Query by id: any status ("openOnly is ignored"), older ones from the store; otherwise open, or the recent closed.
  const found = byRef(ref) ? await findOrders(call, ref) : await runtime.run(account, (id) => engine.retained(id));
  const orders = found.filter((o) => keep(o) && (byRef(ref) || (openOnly === 0 ? isOpen(o) : !isOpen(o))));
  orders.sort(newestFirst);
  const { rows, nextPageCursor } = page(orders, p, 50, 20);
  return { list: rows.map((o) => realtimeOrderJson(engine.instrument(o.symbol)!, account, o)), nextPageCursor, category: scope.category };
}

async function orderHistory(call: SignedCall) {
  const { params: p, runtime, engine, account } = call;
  const scope = scopeOf(call);
  const ref = orderRefOf(p, account, false);
  const keep = orderFilterOf(call, scope, ref);
  const { orderStatus: status } = p.read({ orderStatus: oneOf(['New', 'PartiallyFilled', 'Untriggered', 'Rejected', 'PartiallyFilledCanceled', 'Filled', 'Cancelled', 'Triggered', 'Deactivated'] as const) });
  const { startTime, endTime } = timeWindow(p, runtime.now());
  const { store, dbId } = await settledHistory(call);
  const one = scope.symbols && scope.symbols.size === 1 ? [...scope.symbols][0] : undefined;
  const found = byRef(ref) ? await findOrders(call, ref) : await store.orders(dbId, { symbol: one, startTime, endTime, limit: 1000, newest: true });
  const list = found.filter((o) => keep(o) && (status === undefined || historyOrderJson(engine.instrument(o.symbol)!, account, o).orderStatus === status));
  list.sort(newestFirst);
  const { rows, nextPageCursor } = page(list, p, 50, 20);
  return { list: rows.map((o) => historyOrderJson(engine.instrument(o.symbol)!, account, o)), nextPageCursor, category: scope.category };
}

/**
 * `/v5/order/create|amend|cancel|cancel-all`, their batches `/v5/order/create-batch|amend-batch|cancel-batch`
 * (POST, JSON) and `/v5/order/realtime|history` (GET),
 * categories linear and inverse. A `triggerPrice` makes a conditional order that keeps its own
 * orderId when it fires (Untriggered → New/Filled); answers are Bybit's acknowledgements
 * `{ orderId, orderLinkId }`, the state goes to the private stream.
 */
export const BYBIT_ORDER_ROUTES: RouteGroup = [
  { method: 'POST', url: '/v5/order/create', trade: true, handler: createOrder },
  { method: 'POST', url: '/v5/order/amend', trade: true, handler: amendOrder },
  { method: 'POST', url: '/v5/order/cancel', trade: true, handler: cancelOrder },
  { method: 'POST', url: '/v5/order/cancel-all', trade: true, handler: cancelAll },
  { method: 'POST', url: '/v5/order/create-batch', trade: true, handler: batch(placeOne, true) },
  { method: 'POST', url: '/v5/order/amend-batch', trade: true, handler: batch(amendOne, false) },
  { method: 'POST', url: '/v5/order/cancel-batch', trade: true, handler: batch(cancelOne, false) },
  { method: 'GET', url: '/v5/order/realtime', handler: realtimeOrders },
  { method: 'GET', url: '/v5/order/history', handler: orderHistory },
];
