import { fixed, type OrderRecord, type PlaceRequest, type TimeInForce } from '../engine';
import { bool, decimal, int, oneOf, text, type Params } from '../params';
import { cancelPicked, ordersOfFills, settledHistory } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import { binanceOrderId, cancelOrderJson, isAlgo, modifyOrderJson, newOrderJson, queryOrderJson, userTradeJson } from './format';
import { BinanceError, instrumentOf, mandatory, refusalError } from './params';
import { checkPrecision, CLIENT_ID, findOrder, lookupOf, matchesOrder } from './shared';

const ALGO_ONLY = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];
const TIFS = ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'] as const;
export const DONE = { code: 200, msg: 'The operation of cancel all open order is done.' };

export const notRequired = (name: string) => new BinanceError(-1106, `Parameter '${name}' sent when not required.`);
/** A resting order (NEW or PARTIALLY_FILLED): what /fapi/v1/order cancels and modifies. */
const resting = (o: OrderRecord) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED';

/** `side`, and `positionSide` BOTH only: the paper account is in one-way mode (dualSidePosition false). */
export const SIDE = {
  side: oneOf(['BUY', 'SELL'] as const, { required: true, invalid: () => new BinanceError(-1117, 'Invalid side.') }),
  positionSide: oneOf(['BOTH'] as const, { invalid: () => new BinanceError(-4061, "Order's position side does not match user's setting.") }),
};

const NEW_ORDER = {
  ...SIDE,
  type: oneOf(['LIMIT', 'MARKET'] as const, {
    required: true,
    invalid: (t) => (ALGO_ONLY.includes(t) ? new BinanceError(-4120, 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.') : new BinanceError(-1116, 'Invalid orderType.')),
  }),
  quantity: decimal({ required: true }),
  price: decimal(),
};

const NEW_ORDER_EXTRAS = {
  newOrderRespType: oneOf(['ACK', 'RESULT'] as const),
  reduceOnly: bool({ default: false }),
  newClientOrderId: CLIENT_ID,
  selfTradePreventionMode: text(),
};

/** History pages: 500 rows by default, 1 to 1000 (-1130 outside). */
const LIMIT = int({ default: 500, min: 1, max: 1000 });

/** Binance's timeInForce → the engine's (GTX = post-only GTC; GTD is kept as GTC with its date in meta). */
export function timeInForceOf(p: Params, required: boolean): { tif: TimeInForce; postOnly: boolean; meta: Record<string, string> } {
  const tif = p.oneOf('timeInForce', TIFS, { invalid: () => new BinanceError(-1115, 'Invalid timeInForce.') });
  if (tif === undefined && required) throw mandatory('timeInForce');
  if (tif === 'GTD') {
    const gtd = p.int('goodTillDate');
    if (gtd === undefined) throw mandatory('goodTillDate');
    return { tif: 'GTC', postOnly: false, meta: { timeInForce: 'GTD', goodTillDate: String(gtd) } };
  }
  return { tif: tif === 'GTX' || tif === undefined ? 'GTC' : tif, postOnly: tif === 'GTX', meta: {} };
}

export async function placeOrder({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  const o = p.read(NEW_ORDER);
  if (o.type === 'LIMIT' && o.price === undefined) throw mandatory('price');
  if (o.type === 'MARKET' && o.price !== undefined) throw notRequired('price');
  checkPrecision(o.quantity, spec.qtyStep);
  checkPrecision(o.price, spec.tickSize);
  const { tif, postOnly, meta } = o.type === 'LIMIT' ? timeInForceOf(p, true) : { tif: 'GTC' as const, postOnly: false, meta: {} };
  const x = p.read(NEW_ORDER_EXTRAS);
  const req: PlaceRequest = {
    symbol: spec.symbol,
    side: o.side,
    type: o.type,
    qty: o.quantity,
    price: o.price,
    timeInForce: tif,
    postOnly,
    reduceOnly: x.reduceOnly,
    clientId: x.newClientOrderId,
    meta: { ...meta, ...(x.selfTradePreventionMode ? { selfTradePreventionMode: x.selfTradePreventionMode } : {}) },
  };
  const r = await runtime.run(account, (id, at) => engine.place(id, req, at));
  if (!r.ok) throw refusalError(r.refusal, 'place');
  return newOrderJson(spec, r.value);
}

/** GET /fapi/v1/order (any state) and /fapi/v1/openOrder (resting only). */
const queryOrder = (restingOnly: boolean) =>
  async function ({ venue, params: p, account }: SignedCall) {
    const spec = instrumentOf(venue, p.opt('symbol'));
    const l = lookupOf(p, 'orderId', 'origClientOrderId');
    const o = await findOrder(venue, account, (x) => matchesOrder(x, spec.symbol, l), l);
    if (!o || (restingOnly && !resting(o))) throw new BinanceError(-2013, 'Order does not exist.');
    return queryOrderJson(spec, o);
  };

export async function cancelOrder(call: SignedCall) {
  const { venue, params: p, engine } = call;
  const spec = instrumentOf(venue, p.opt('symbol'));
  const l = lookupOf(p, 'orderId', 'origClientOrderId');
  const r = await cancelPicked(call, (id) => engine.retained(id).find((x) => matchesOrder(x, spec.symbol, l) && resting(x)));
  if (!r) throw new BinanceError(-2011, 'Unknown order sent.');
  if (!r.ok) throw refusalError(r.refusal, 'cancel');
  return cancelOrderJson(spec, r.value);
}

// Modify Order: LIMIT only, price and quantity both required. Binance cancels the order when the new
// quantity is not above the executed one, or when a GTX order would take at the new price.
export async function modifyOrder({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  p.read(SIDE);
  const l = lookupOf(p, 'orderId', 'origClientOrderId');
  const { quantity, price } = p.read({ quantity: decimal({ required: true }), price: decimal({ required: true }) });
  checkPrecision(quantity, spec.qtyStep);
  checkPrecision(price, spec.tickSize);
  const r = await runtime.run(account, (id, at) => {
    const o = engine.retained(id).find((x) => matchesOrder(x, spec.symbol, l) && resting(x));
    if (!o) return null;
    if (o.price === null) return { ok: false as const, refusal: { code: 'order-not-amendable' as const, message: '' } };
    if (fixed(o.filledQty) > 0n && fixed(quantity) <= fixed(o.filledQty)) return engine.cancel(id, { id: o.id }, at);
    return engine.amend(id, { id: o.id }, { qty: quantity, price, policy: { postOnly: 'cancel' } }, at);
  });
  if (!r) throw new BinanceError(-2013, 'Order does not exist.');
  if (!r.ok) throw refusalError(r.refusal, 'amend');
  return modifyOrderJson(spec, r.value);
}

async function openOrders({ venue, params: p, runtime, engine, account }: SignedCall) {
  const symbol = p.opt('symbol');
  if (symbol !== undefined) instrumentOf(venue, symbol);
  // Waiting conditional orders live in /fapi/v1/openAlgoOrders since 2025-12 (trap 10).
  const open = await runtime.run(account, (id) => engine.openOrders(id, symbol).filter((o) => o.status !== 'UNTRIGGERED'));
  return open.map((o) => queryOrderJson(instrumentOf(venue, o.symbol), o)).sort((a, b) => (a.orderId as number) - (b.orderId as number));
}

async function cancelAllOpen({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  await runtime.run(account, (id, at) => engine.cancelAll(id, spec.symbol, at, (o) => o.status !== 'UNTRIGGERED'));
  return DONE;
}

async function allOrders(call: SignedCall) {
  const spec = instrumentOf(call.venue, call.params.opt('symbol'));
  const { limit, orderId: fromId, startTime, endTime } = call.params.read({ limit: LIMIT, orderId: int(), startTime: int(), endTime: int() });
  const { store, dbId } = await settledHistory(call);
  // Waiting or never-fired conditional orders are algo orders, not orders: skip them (fetch a margin more).
  const rows = await store.orders(dbId, { symbol: spec.symbol, startTime, endTime, limit: limit + 500, newest: fromId === undefined });
  const visible = rows.filter((o) => !isAlgo(o) || o.triggeredAt !== null).filter((o) => fromId === undefined || binanceOrderId(o) >= fromId);
  visible.sort((a, b) => binanceOrderId(a) - binanceOrderId(b));
  const page = fromId === undefined ? visible.slice(-limit) : visible.slice(0, limit);
  return page.map((o) => queryOrderJson(spec, o));
}

async function userTrades(call: SignedCall) {
  const spec = instrumentOf(call.venue, call.params.opt('symbol'));
  const { limit, fromId, startTime, endTime, orderId } = call.params.read({ limit: LIMIT, fromId: int(), startTime: int(), endTime: int(), orderId: int() });
  const { store, dbId } = await settledHistory(call);
  const rows = await store.fills(dbId, { symbol: spec.symbol, fromId, startTime, endTime, limit, newest: fromId === undefined });
  rows.sort((a, b) => a.id - b.id);
  const orders = await ordersOfFills(store, dbId, rows);
  return rows
    .map((f) => {
      const o = orders.get(f.orderId);
      return { f, id: o ? binanceOrderId(o) : f.orderId };
    })
    .filter((x) => orderId === undefined || x.id === orderId)
    .map(({ f, id }) => userTradeJson(spec, f, id));
}

/** `/fapi/v1/order` (POST, GET, DELETE, PUT), `/openOrder(s)`, `/allOrders`, `/allOpenOrders`, `/userTrades`. */
export const BINANCE_ORDER_ROUTES: RouteGroup = [
  { method: 'POST', url: '/fapi/v1/order', trade: true, handler: placeOrder },
  { method: 'GET', url: '/fapi/v1/order', handler: queryOrder(false) },
  { method: 'GET', url: '/fapi/v1/openOrder', handler: queryOrder(true) },
  { method: 'DELETE', url: '/fapi/v1/order', trade: true, handler: cancelOrder },
  { method: 'PUT', url: '/fapi/v1/order', trade: true, handler: modifyOrder },
  { method: 'GET', url: '/fapi/v1/openOrders', handler: openOrders },
  { method: 'DELETE', url: '/fapi/v1/allOpenOrders', trade: true, handler: cancelAllOpen },
  { method: 'GET', url: '/fapi/v1/allOrders', handler: allOrders },
  { method: 'GET', url: '/fapi/v1/userTrades', handler: userTrades },
];
