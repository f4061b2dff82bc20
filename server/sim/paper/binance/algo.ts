import type { PlaceRequest } from '../engine';
import { bool, decimal, int, oneOf, text } from '../params';
import { cancelPicked, settledHistory } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import { ENGINE_ALGO_TYPE, listAlgoJson, newAlgoJson, type BinanceAlgoType } from './format';
import { DONE, notRequired, SIDE, timeInForceOf } from './orders';
import { BinanceError, instrumentOf, mandatory, refusalError } from './params';
import { checkPrecision, CLIENT_ID, findOrder, lookupOf, matchesAlgo } from './shared';

const invalidType = () => new BinanceError(-1116, 'Invalid orderType.');

const ALGO_ORDER = {
  ...SIDE,
  // TRAILING_STOP_MARKET is not simulated.
  type: oneOf(Object.keys(ENGINE_ALGO_TYPE) as BinanceAlgoType[], { required: true, invalid: invalidType }),
  closePosition: bool({ default: false }),
  reduceOnly: bool(),
  quantity: decimal(),
  price: decimal(),
  triggerPrice: decimal({ required: true }),
};

const ALGO_EXTRAS = {
  clientAlgoId: CLIENT_ID,
  priceProtect: bool({ default: false }),
  selfTradePreventionMode: text({ default: 'EXPIRE_MAKER' }),
};

async function placeAlgo({ venue, params: p, runtime, engine, account }: SignedCall) {
  p.read({ algoType: oneOf(['CONDITIONAL'] as const, { required: true, invalid: () => new BinanceError(-1116, 'Invalid algoType.') }) });
  const spec = instrumentOf(venue, p.opt('symbol'));
  const o = p.read(ALGO_ORDER);
  const engineType = ENGINE_ALGO_TYPE[o.type];
  const limit = engineType === 'STOP_LIMIT' || engineType === 'TAKE_PROFIT';
  if (o.closePosition && o.quantity !== undefined) throw new BinanceError(-4136, 'Target strategy invalid for orderType STOP_MARKET,closePosition true');
  if (o.closePosition && o.reduceOnly !== undefined) throw notRequired('reduceonly');
  if (!o.closePosition && o.quantity === undefined) throw mandatory('quantity');
  if (limit && o.price === undefined) throw mandatory('price');
  if (!limit && o.price !== undefined) throw notRequired('price');
  checkPrecision(o.quantity, spec.qtyStep);
  checkPrecision(o.price, spec.tickSize);
  checkPrecision(o.triggerPrice, spec.tickSize);
  const { workingType } = p.read({ workingType: oneOf(['MARK_PRICE', 'CONTRACT_PRICE'] as const, { default: 'CONTRACT_PRICE' }) });
  const { tif, meta } = limit ? timeInForceOf(p, false) : { tif: 'GTC' as const, meta: {} };
  const x = p.read(ALGO_EXTRAS);
  const req: PlaceRequest = {
    symbol: spec.symbol,
    side: o.side,
    type: engineType,
    qty: o.quantity,
    price: o.price,
    trigger: o.triggerPrice,
    timeInForce: tif,
    reduceOnly: o.reduceOnly ?? false,
    closePosition: o.closePosition,
    clientId: x.clientAlgoId,
    // The sim's mark is the last trade: MARK_PRICE and CONTRACT_PRICE trigger alike (kept for the answer).
    meta: { ...meta, workingType, priceProtect: String(x.priceProtect), selfTradePreventionMode: x.selfTradePreventionMode },
  };
  const r = await runtime.run(account, (id, at) => engine.place(id, req, at));
  if (!r.ok) throw refusalError(r.refusal, 'place');
  return newAlgoJson(spec, r.value);
}

async function queryAlgo({ venue, params: p, account }: SignedCall) {
  const l = lookupOf(p, 'algoId', 'clientAlgoId');
  const o = await findOrder(venue, account, (x) => matchesAlgo(x, l), l);
  if (!o) throw new BinanceError(-2013, 'Order does not exist.');
  return listAlgoJson(instrumentOf(venue, o.symbol), o);
}

async function cancelAlgo(call: SignedCall) {
  const l = lookupOf(call.params, 'algoId', 'clientAlgoId');
  const r = await cancelPicked(call, (id) => call.engine.retained(id).find((x) => matchesAlgo(x, l) && x.status === 'UNTRIGGERED'));
  if (!r) throw new BinanceError(-2011, 'Unknown order sent.');
  if (!r.ok) throw refusalError(r.refusal, 'cancel');
  // Binance prints this code as a string here (binance.md §1).
  return { algoId: r.value.id, clientAlgoId: r.value.clientId, code: '200', msg: 'success' };
}

async function openAlgos({ venue, params: p, runtime, engine, account }: SignedCall) {
  const symbol = p.opt('symbol');
  if (symbol !== undefined) instrumentOf(venue, symbol);
  const open = await runtime.run(account, (id) => engine.openOrders(id, symbol).filter((o) => o.status === 'UNTRIGGERED'));
  return open.map((o) => listAlgoJson(instrumentOf(venue, o.symbol), o));
}

async function cancelOpenAlgos({ venue, params: p, runtime, engine, account }: SignedCall) {
  const spec = instrumentOf(venue, p.opt('symbol'));
  await runtime.run(account, (id, at) => engine.cancelAll(id, spec.symbol, at, (o) => o.status === 'UNTRIGGERED'));
  return DONE;
}

async function allAlgos(call: SignedCall) {
  const spec = instrumentOf(call.venue, call.params.opt('symbol'));
  const { limit, startTime, endTime } = call.params.read({ limit: int({ default: 500 }), startTime: int(), endTime: int() });
  const { store, dbId } = await settledHistory(call);
  const rows = await store.orders(dbId, { symbol: spec.symbol, startTime, endTime, limit: Math.min(1000, limit) + 500, newest: true });
  return rows
    .filter((o) => o.type in { STOP_MARKET: 1, STOP_LIMIT: 1, TAKE_PROFIT: 1, TAKE_PROFIT_MARKET: 1 })
    .slice(0, limit)
    .reverse()
    .map((o) => listAlgoJson(spec, o));
}

/**
 * Conditional orders in Binance's "Algo Service" (since 2025-12-09; binance.md §6):
 * `POST|GET|DELETE /fapi/v1/algoOrder`, `GET /fapi/v1/openAlgoOrders`, `DELETE /fapi/v1/algoOpenOrders`,
 * `GET /fapi/v1/allAlgoOrders`. `triggerPrice` (not stopPrice); no margin check before the trigger;
 * untriggered orders cannot be modified. When one fires, the order it releases (a new `orderId`,
 * `actualOrderId` here) appears in /fapi/v1/openOrders, allOrders and userTrades.
 */
export const BINANCE_ALGO_ROUTES: RouteGroup = [
  { method: 'POST', url: '/fapi/v1/algoOrder', trade: true, handler: placeAlgo },
  { method: 'GET', url: '/fapi/v1/algoOrder', handler: queryAlgo },
  { method: 'DELETE', url: '/fapi/v1/algoOrder', trade: true, handler: cancelAlgo },
  { method: 'GET', url: '/fapi/v1/openAlgoOrders', handler: openAlgos },
  { method: 'DELETE', url: '/fapi/v1/algoOpenOrders', trade: true, handler: cancelOpenAlgos },
  { method: 'GET', url: '/fapi/v1/allAlgoOrders', handler: allAlgos },
];
