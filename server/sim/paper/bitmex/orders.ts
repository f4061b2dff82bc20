import { simAccountId } from '../../private/credentials';
import { fixed, formatFixed, type AccountKey, type OrderRecord, type PlaceRequest } from '../engine';
import { bool, decimal, int, oneOf, text, type Params } from '../params';
import { isOpen, ordersOfFills, settledHistory } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import type { VenueContext } from '../venue';
import { accountTagOf, engineIdOf, executionJson, orderJson } from './format';
import { BitmexError, instrumentOf, invalid, refusalError } from './params';

const ORD_TYPES = ['Market', 'Limit', 'Stop', 'StopLimit', 'MarketIfTouched', 'LimitIfTouched'] as const;
type OrdType = (typeof ORD_TYPES)[number];
const ENGINE_TYPE = { Market: 'MARKET', Limit: 'LIMIT', Stop: 'STOP_MARKET', StopLimit: 'STOP_LIMIT', MarketIfTouched: 'TAKE_PROFIT_MARKET', LimitIfTouched: 'TAKE_PROFIT' } as const;
const TIFS: Record<string, PlaceRequest['timeInForce']> = { GoodTillCancel: 'GTC', ImmediateOrCancel: 'IOC', FillOrKill: 'FOK', Day: 'GTC' };
const EXEC_INSTS = ['ReduceOnly', 'Close', 'ParticipateDoNotInitiate', 'LastPrice', 'MarkPrice', 'IndexPrice', 'AllOrNone', 'Fixed'];

const PRICES = { price: decimal(), stopPx: decimal(), ordType: oneOf(ORD_TYPES) };
const ORDER_OPTIONS = {
  timeInForce: oneOf(Object.keys(TIFS)),
  // BitMEX clOrdID: up to 36 characters.
  clOrdID: text({ pattern: /^[\x21-\x7e]{1,36}$/ }),
};
/** List pages: `count` 100 by default (1 to 1000), from `start`, oldest first unless `reverse`. */
const PAGE = {
  count: int({ default: 100, min: 1, max: 1000, outside: () => invalid('count must be between 1 and 1000') }),
  start: int({ default: 0 }),
  reverse: bool({ default: false }),
};

/** Per-request helpers: the account's UUID tag and numeric account. */
export function ids(venue: VenueContext, account: AccountKey) {
  return { tag: accountTagOf(account.apiKey, account.network), accountNo: simAccountId(venue.seed, account.apiKey) };
}

function execInstOf(p: Params): string[] {
  const v = p.opt('execInst');
  if (v === undefined) return [];
  const list = v.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((x) => !EXEC_INSTS.includes(x));
  if (bad !== undefined) throw invalid(`Invalid execInst: ${bad}`);
  return list;
}

/** `side` and `orderQty` (a negative orderQty sells: BitMEX's legacy form); a Close order may omit the quantity. */
function sideAndQty(p: Params, close: boolean): { side: 'BUY' | 'SELL'; qty: string | undefined } {
  let qty = p.opt('orderQty');
  let side = p.opt('side');
  if (qty?.startsWith('-')) {
    qty = qty.slice(1);
    side ??= 'Sell';
  }
  if (qty !== undefined && !p.dialect.decimal.test(qty)) throw invalid('orderQty is invalid');
  if (side !== 'Buy' && side !== 'Sell') throw invalid(side === undefined ? "'side' is required" : `Invalid side: ${side}`);
  if (qty === undefined && !close) throw invalid("'orderQty' is required");
  return { side: side === 'Buy' ? 'BUY' : 'SELL', qty };
}

/** The order type, given or implied by price / stopPx, with the prices it needs. */
function typeOf(p: Params) {
  const { price, stopPx, ordType: given } = p.read(PRICES);
  const ordType: OrdType = given ?? (stopPx ? (price ? 'StopLimit' : 'Stop') : price ? 'Limit' : 'Market');
  const type = ENGINE_TYPE[ordType];
  const priced = type === 'LIMIT' || type === 'STOP_LIMIT' || type === 'TAKE_PROFIT';
  if (priced && price === undefined) throw invalid(`Must specify price with ${ordType} orders`);
  if (type !== 'LIMIT' && type !== 'MARKET' && stopPx === undefined) throw invalid(`Must specify stopPx with ${ordType} orders`);
  return { type, price: priced ? price : undefined, trigger: type === 'LIMIT' || type === 'MARKET' ? undefined : stopPx };
}

/** An order's parameters read and checked (the symbol, execInst, side, quantity, type, prices, options): what `place` needs. */
function placementOf(venue: VenueContext, p: Params) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  const exec = execInstOf(p);
  const close = exec.includes('Close');
  const { side, qty: qtyText } = sideAndQty(p, close);
  const { type, price, trigger } = typeOf(p);
  const { timeInForce, clOrdID } = p.read(ORDER_OPTIONS);
  /** The engine's request on the account now (a Close market / limit without a quantity takes the position's size). */
  const request = (engine: SignedCall['engine'], id: string): PlaceRequest => {
    let qty = qtyText;
    // A Close market / limit without a quantity closes the position's size now; a Close stop, when it fires.
    if (close && qty === undefined && (type === 'LIMIT' || type === 'MARKET')) {
      const [pos] = engine.positions(id, spec.symbol);
      qty = pos ? pos.size.replace('-', '') : '0';
    }
    return {
      symbol: spec.symbol,
      side,
      type,
      qty,
      price,
      trigger,
      timeInForce: timeInForce ? TIFS[timeInForce] : 'GTC',
      postOnly: exec.includes('ParticipateDoNotInitiate'),
      reduceOnly: exec.includes('ReduceOnly') || close,
      closePosition: close && qty === undefined,
      clientId: clOrdID,
      meta: { execInst: exec.join(',') },
    };
  };
  return { spec, request };
}

async function placeOrder({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { tag, accountNo } = ids(venue, account);
  const { spec, request } = placementOf(venue, p);
  const r = await runtime.run(account, (id, at) => engine.place(id, request(engine, id), at));
  if (!r.ok) throw refusalError(r.refusal);
  return orderJson(spec, tag, r.value, String(accountNo));
}

/** `orders` of a bulk request: a JSON array in the body, or its JSON text (a form or query parameter). */
function bulkOf(p: Params): Params[] {
  let v = p.raw('orders');
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v) as unknown;
    } catch {
      throw invalid('Unable to parse orders');
    }
  }
  if (v === undefined) throw invalid("'orders' is required");
  if (!Array.isArray(v) || v.some((o) => typeof o !== 'object' || o === null || Array.isArray(o))) throw invalid('orders must be an array of orders');
  return v.map((o) => p.child(o));
}

/**
 * `POST /api/v1/order/bulk`: every order is read and checked first (one bad order refuses the request),
 * then they are placed in order as `POST /order` places one; the answer is the array of orders.
 */
async function placeBulk({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { tag, accountNo } = ids(venue, account);
  const orders = bulkOf(p);
  const placements = orders.map((one) => placementOf(venue, one));
  // A test's injected refusal (`_control/faults` `refuse`) naming an order refuses the bulk there, as a refusal by the engine does.
  const faulty = orders.map((one) => venue.faults.refuses('bitmex', one.opt('clOrdID') ?? ''));
  const r = await runtime.run(account, (id, at) => {
    const done = [];
    for (const [i, x] of placements.entries()) {
      if (faulty[i]) return { ok: false as const, fault: true as const };
      const one = engine.place(id, x.request(engine, id), at);
      if (!one.ok) return { ok: false as const, refusal: one.refusal };
      done.push(one.value);
    }
    return { ok: true as const, done };
  });
  if (!r.ok) throw 'fault' in r ? new BitmexError(400, 'Invalid price: above the maximum price', 'ValidationError') : refusalError(r.refusal);
  return r.done.map((o) => orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo)));
}

/** The account's order an `orderID` / `origClOrdID` names (open or recently closed). */
function findOne({ engine }: SignedCall, id: string, tag: string, p: Params): OrderRecord | undefined {
  const orderID = p.opt('orderID');
  const cl = p.opt('origClOrdID');
  if (orderID === undefined && cl === undefined) throw invalid('Must specify orderID or origClOrdID');
  const n = orderID !== undefined ? engineIdOf(tag, orderID) : null;
  return engine.retained(id).find((o) => (orderID !== undefined ? o.id === n : o.clientId === cl));
}

async function amendOrder(call: SignedCall) {
  return amendOne(call, call.params);
}

/** One amend (`orderID` / `origClOrdID`, then `orderQty`, `leavesQty`, `price`, `stopPx`) with its parameters `p`. */
async function amendOne(call: SignedCall, p: Params) {
  const { venue, runtime, engine, account } = call;
  const { tag, accountNo } = ids(venue, account);
  const { orderQty, leavesQty, price, stopPx } = p.read({ orderQty: decimal(), leavesQty: decimal(), price: decimal(), stopPx: decimal() });
  const r = await runtime.run(account, (id, at) => {
    const o = findOne(call, id, tag, p);
    if (!o || !isOpen(o)) return null;
    const qty = leavesQty !== undefined ? formatFixed(fixed(o.filledQty) + fixed(leavesQty), 18) : orderQty;
    return { o, result: engine.amend(id, { id: o.id }, { qty, price: o.price === null ? undefined : price, trigger: o.trigger === null || o.triggeredAt !== null ? undefined : stopPx }, at) };
  });
  if (!r) throw new BitmexError(404, 'Not Found');
  if (!r.result.ok) throw refusalError(r.result.refusal);
  return orderJson(engine.instrument(r.o.symbol)!, tag, r.result.value, String(accountNo));
}

/** `PUT /api/v1/order/bulk`: each amend checked first (an id, decimals), then applied in order as `PUT /order` applies one. */
async function amendBulk(call: SignedCall) {
  const list = bulkOf(call.params);
  for (const one of list) {
    if (!one.has('orderID') && !one.has('origClOrdID')) throw invalid('Must specify orderID or origClOrdID');
    one.read({ orderQty: decimal(), leavesQty: decimal(), price: decimal(), stopPx: decimal() });
  }
  const out = [];
  for (const one of list) out.push(await amendOne(call, one));
  return out;
}

async function cancelOrders({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { tag, accountNo } = ids(venue, account);
  const orderIDs = p.list('orderID') ?? [];
  const clOrdIDs = p.list('clOrdID') ?? [];
  if (!orderIDs.length && !clOrdIDs.length) throw invalid('Must specify orderID or clOrdID');
  const results = await runtime.run(account, (id, at) => {
    const held = engine.retained(id);
    const refs: Array<{ key: string; o: OrderRecord | undefined; byId: boolean }> = [
      ...orderIDs.map((x) => ({ key: x, byId: true, o: held.find((o) => o.id === engineIdOf(tag, x)) })),
      ...clOrdIDs.map((x) => ({ key: x, byId: false, o: held.find((o) => o.clientId === x) })),
    ];
    return refs.map((ref) => {
      if (!ref.o) return { ref, o: undefined, error: 'Not Found' };
      if (!isOpen(ref.o)) return { ref, o: ref.o, error: `Unable to cancel order due to existing state: ${ref.o.status === 'FILLED' ? 'Filled' : 'Canceled'}` };
      const c = engine.cancel(id, { id: ref.o.id }, at);
      return c.ok ? { ref, o: c.value, error: undefined } : { ref, o: ref.o, error: 'Not Found' };
    });
  });
  return results.map(({ ref, o, error }) => {
    if (!o) return { orderID: ref.byId ? ref.key : '', clOrdID: ref.byId ? '' : ref.key, error };
    const json = orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo));
    return error ? { ...json, error } : json;
  });
}

async function cancelAll({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { tag, accountNo } = ids(venue, account);
  const symbol = p.opt('symbol');
  const spec = symbol === undefined ? undefined : instrumentOf(venue, symbol);
  const cancelled = await runtime.run(account, (id, at) => {
    const symbols = spec ? [spec.symbol] : [...new Set(engine.openOrders(id).map((o) => o.symbol))];
    return symbols.flatMap((s) => engine.cancelAll(id, s, at));
  });
  return cancelled.map((o) => orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo)));
}

function timeOf(p: Params, name: string): number | undefined {
  const v = p.opt(name);
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw invalid(`Invalid ${name}`);
  return t;
}

/** A list query: `filter` (JSON), the symbol (parameter or filter), the page and the time window. */
function listQuery({ venue, params: p }: SignedCall) {
  const filter = p.json('filter') ?? {};
  const symbol = p.opt('symbol') ?? (typeof filter.symbol === 'string' ? filter.symbol : undefined);
  const spec = symbol === undefined ? undefined : instrumentOf(venue, symbol);
  const page = p.read(PAGE);
  return { filter, spec, ...page, startTime: timeOf(p, 'startTime'), endTime: timeOf(p, 'endTime') };
}

/** Orders: the open ones (`filter.open`), else the store's with what is held, by filter and time. */
async function listOrders(call: SignedCall) {
  const { runtime, engine, account } = call;
  const { tag, accountNo } = ids(call.venue, account);
  const q = listQuery(call);
  let rows: OrderRecord[];
  if (q.filter.open === true) {
    rows = await runtime.run(account, (id) => engine.openOrders(id, q.spec?.symbol));
  } else {
    const { store, dbId } = await settledHistory(call);
    rows = await store.orders(dbId, { symbol: q.spec?.symbol, startTime: q.startTime, endTime: q.endTime, limit: q.start + q.count + 500, newest: q.reverse });
    const held = await runtime.run(account, (id) => engine.retained(id));
    const known = new Set(rows.map((o) => o.id));
    for (const o of held) if (!known.has(o.id) && (!q.spec || o.symbol === q.spec.symbol)) rows.push(o);
  }
  const byFilter = rows.filter((o) => {
    if (typeof q.filter.clOrdID === 'string' && o.clientId !== q.filter.clOrdID) return false;
    if (typeof q.filter.orderID === 'string' && o.id !== engineIdOf(tag, q.filter.orderID)) return false;
    if (typeof q.filter.ordStatus === 'string' && orderJson(engine.instrument(o.symbol)!, tag, o, '').ordStatus !== q.filter.ordStatus) return false;
    return (q.startTime === undefined || o.createdAt >= q.startTime) && (q.endTime === undefined || o.createdAt <= q.endTime);
  });
  byFilter.sort((a, b) => (q.reverse ? b.createdAt - a.createdAt || b.id - a.id : a.createdAt - b.createdAt || a.id - b.id));
  return byFilter.slice(q.start, q.start + q.count).map((o) => orderJson(engine.instrument(o.symbol)!, tag, o, String(accountNo)));
}

async function tradeHistory(call: SignedCall) {
  const { engine, account } = call;
  const { tag, accountNo } = ids(call.venue, account);
  const q = listQuery(call);
  const { store, dbId } = await settledHistory(call);
  const fills = await store.fills(dbId, { symbol: q.spec?.symbol, startTime: q.startTime, endTime: q.endTime, limit: q.start + q.count, newest: q.reverse });
  fills.sort((a, b) => (q.reverse ? b.time - a.time || b.id - a.id : a.time - b.time || a.id - b.id));
  const page = fills.slice(q.start, q.start + q.count);
  const orders = await ordersOfFills(store, dbId, page);
  return page.map((f) => executionJson(engine.instrument(f.symbol)!, tag, f, orders.get(f.orderId), String(accountNo)));
}

/**
 * `/api/v1/order` (POST place, PUT amend, DELETE cancel, GET list), `/api/v1/order/bulk` (POST place, PUT
 * amend: arrays through the same handlers), `/api/v1/order/all` (DELETE) and
 * `/api/v1/execution/tradeHistory`. Conditional orders (Stop, StopLimit, MarketIfTouched,
 * LimitIfTouched) keep their orderID when they fire (BitMEX shows one order).
 */
export const BITMEX_ORDER_ROUTES: RouteGroup = [
  { method: 'GET', url: '/api/v1/order', handler: listOrders },
  { method: 'POST', url: '/api/v1/order', trade: true, handler: placeOrder },
  { method: 'PUT', url: '/api/v1/order', trade: true, handler: amendOrder },
  { method: 'POST', url: '/api/v1/order/bulk', trade: true, handler: placeBulk },
  { method: 'PUT', url: '/api/v1/order/bulk', trade: true, handler: amendBulk },
  { method: 'DELETE', url: '/api/v1/order', trade: true, handler: cancelOrders },
  { method: 'DELETE', url: '/api/v1/order/all', trade: true, handler: cancelAll },
  { method: 'GET', url: '/api/v1/execution/tradeHistory', handler: tradeHistory },
];
