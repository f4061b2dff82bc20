import type { FastifyInstance } from 'fastify';
import { fixed, type OrderRecord, type PlaceRequest, type TimeInForce } from '../engine';
import type { VenueContext } from '../venue';
import { binanceOrderId, cancelOrderJson, isAlgo, modifyOrderJson, newOrderJson, queryOrderJson, userTradeJson } from './format';
import { BinanceError, refusalError, signed, type Params } from './params';
import { checkPrecision, clientIdOf, findOrder, instrumentOf, lookupOf, matchesOrder } from './shared';

const ALGO_ONLY = ['STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'];
const TIFS = ['GTC', 'IOC', 'FOK', 'GTX', 'GTD'] as const;
const DONE = { code: 200, msg: 'The operation of cancel all open order is done.' };

/** Binance's timeInForce → the engine's (GTX = post-only GTC; GTD is kept as GTC with its date in meta). */
export function timeInForceOf(p: Params, required: boolean): { tif: TimeInForce; postOnly: boolean; meta: Record<string, string> } {
  const tif = p.oneOf('timeInForce', TIFS, new BinanceError(-1115, 'Invalid timeInForce.'));
  if (tif === undefined && required) throw new BinanceError(-1102, "Mandatory parameter 'timeInForce' was not sent, was empty/null, or malformed.");
  if (tif === 'GTD') {
    const gtd = p.int('goodTillDate');
    if (gtd === undefined) throw new BinanceError(-1102, "Mandatory parameter 'goodTillDate' was not sent, was empty/null, or malformed.");
    return { tif: 'GTC', postOnly: false, meta: { timeInForce: 'GTD', goodTillDate: String(gtd) } };
  }
  return { tif: tif === 'GTX' || tif === undefined ? 'GTC' : tif, postOnly: tif === 'GTX', meta: {} };
}

export function sideOf(p: Params): 'BUY' | 'SELL' {
  const side = p.oneOf('side', ['BUY', 'SELL'] as const, new BinanceError(-1117, 'Invalid side.'));
  if (!side) throw new BinanceError(-1102, "Mandatory parameter 'side' was not sent, was empty/null, or malformed.");
  const ps = p.opt('positionSide');
  // The paper account is in one-way mode (dualSidePosition false): only BOTH.
  if (ps !== undefined && ps !== 'BOTH') throw new BinanceError(-4061, "Order's position side does not match user's setting.");
  return side;
}

/** `/fapi/v1/order` (POST, GET, DELETE, PUT), `/openOrder(s)`, `/allOrders`, `/allOpenOrders`, `/userTrades`. */
export function registerBinanceOrders(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.post(
    '/fapi/v1/order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        const side = sideOf(p);
        const type = p.req('type');
        if (ALGO_ONLY.includes(type)) throw new BinanceError(-4120, 'Order type not supported for this endpoint. Please use the Algo Order API endpoints instead.');
        if (type !== 'LIMIT' && type !== 'MARKET') throw new BinanceError(-1116, 'Invalid orderType.');
        const quantity = p.decimal('quantity', true);
        const price = p.decimal('price');
        if (type === 'LIMIT' && price === undefined) throw new BinanceError(-1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed.");
        if (type === 'MARKET' && price !== undefined) throw new BinanceError(-1106, "Parameter 'price' sent when not required.");
        checkPrecision(quantity, spec.qtyStep);
        checkPrecision(price, spec.tickSize);
        const { tif, postOnly, meta } = type === 'LIMIT' ? timeInForceOf(p, true) : { tif: 'GTC' as const, postOnly: false, meta: {} };
        p.oneOf('newOrderRespType', ['ACK', 'RESULT'] as const, new BinanceError(-1130, "Data sent for parameter 'newOrderRespType' is not valid."));
        const req: PlaceRequest = {
          symbol: spec.symbol,
          side,
          type,
          qty: quantity,
          price,
          timeInForce: tif,
          postOnly,
          reduceOnly: p.bool('reduceOnly') ?? false,
          clientId: clientIdOf(p, 'newClientOrderId'),
          meta: { ...meta, ...(p.opt('selfTradePreventionMode') ? { selfTradePreventionMode: p.req('selfTradePreventionMode') } : {}) },
        };
        const r = await runtime.run(account, (id, at) => engine.place(id, req, at));
        if (!r.ok) throw refusalError(r.refusal, 'place');
        return newOrderJson(spec, r.value);
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/order',
    signed(venue, async ({ params: p, account }) => {
      const spec = instrumentOf(venue, p.req('symbol'));
      const l = lookupOf(p, 'orderId', 'origClientOrderId');
      const o = await findOrder(venue, account, (x) => matchesOrder(x, spec.symbol, l), l);
      if (!o) throw new BinanceError(-2013, 'Order does not exist.');
      return queryOrderJson(spec, o);
    }),
  );

  app.get(
    '/fapi/v1/openOrder',
    signed(venue, async ({ params: p, account }) => {
      const spec = instrumentOf(venue, p.req('symbol'));
      const l = lookupOf(p, 'orderId', 'origClientOrderId');
      const o = await findOrder(venue, account, (x) => matchesOrder(x, spec.symbol, l), l);
      if (!o || !(o.status === 'NEW' || o.status === 'PARTIALLY_FILLED')) throw new BinanceError(-2013, 'Order does not exist.');
      return queryOrderJson(spec, o);
    }),
  );

  app.delete(
    '/fapi/v1/order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        const l = lookupOf(p, 'orderId', 'origClientOrderId');
        const r = await runtime.run(account, (id, at) => {
          const o = engine.retained(id).find((x) => matchesOrder(x, spec.symbol, l) && (x.status === 'NEW' || x.status === 'PARTIALLY_FILLED'));
          return o ? engine.cancel(id, { id: o.id }, at) : null;
        });
        if (!r) throw new BinanceError(-2011, 'Unknown order sent.');
        if (!r.ok) throw refusalError(r.refusal, 'cancel');
        return cancelOrderJson(spec, r.value);
      },
      { trade: true },
    ),
  );

  // Modify Order: LIMIT only, price and quantity both required. Binance cancels the order when the new
  // quantity is not above the executed one, or when a GTX order would take at the new price.
  app.put(
    '/fapi/v1/order',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        sideOf(p);
        const l = lookupOf(p, 'orderId', 'origClientOrderId');
        const quantity = p.decimal('quantity', true);
        const price = p.decimal('price', true);
        checkPrecision(quantity, spec.qtyStep);
        checkPrecision(price, spec.tickSize);
        const r = await runtime.run(account, (id, at) => {
          const o = engine.retained(id).find((x) => matchesOrder(x, spec.symbol, l) && (x.status === 'NEW' || x.status === 'PARTIALLY_FILLED'));
          if (!o) return null;
          if (o.price === null) return { ok: false as const, refusal: { code: 'order-not-amendable' as const, message: '' } };
          if (fixed(o.filledQty) > 0n && fixed(quantity) <= fixed(o.filledQty)) return engine.cancel(id, { id: o.id }, at);
          return engine.amend(id, { id: o.id }, { qty: quantity, price, policy: { postOnly: 'cancel' } }, at);
        });
        if (!r) throw new BinanceError(-2013, 'Order does not exist.');
        if (!r.ok) throw refusalError(r.refusal, 'amend');
        return modifyOrderJson(spec, r.value);
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/openOrders',
    signed(venue, async ({ params: p, account }) => {
      const symbol = p.opt('symbol');
      if (symbol !== undefined) instrumentOf(venue, symbol);
      // Waiting conditional orders live in /fapi/v1/openAlgoOrders since 2025-12 (trap 10).
      const open = await runtime.run(account, (id) => engine.openOrders(id, symbol).filter((o) => o.status !== 'UNTRIGGERED'));
      return open.map((o) => queryOrderJson(instrumentOf(venue, o.symbol), o)).sort((a, b) => (a.orderId as number) - (b.orderId as number));
    }),
  );

  app.delete(
    '/fapi/v1/allOpenOrders',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        await runtime.run(account, (id, at) => engine.cancelAll(id, spec.symbol, at, (o) => o.status !== 'UNTRIGGERED'));
        return DONE;
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/allOrders',
    signed(venue, async ({ params: p, account }) => {
      const spec = instrumentOf(venue, p.req('symbol'));
      const limit = limitOf(p);
      const fromId = p.int('orderId');
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      // Waiting or never-fired conditional orders are algo orders, not orders: skip them (fetch a margin more).
      const rows = await store.orders(dbId, { symbol: spec.symbol, startTime: p.int('startTime'), endTime: p.int('endTime'), limit: limit + 500, newest: fromId === undefined });
      const visible = rows.filter((o: OrderRecord) => !isAlgo(o) || o.triggeredAt !== null).filter((o) => fromId === undefined || binanceOrderId(o) >= fromId);
      visible.sort((a, b) => binanceOrderId(a) - binanceOrderId(b));
      const page = fromId === undefined ? visible.slice(-limit) : visible.slice(0, limit);
      return page.map((o) => queryOrderJson(spec, o));
    }),
  );

  app.get(
    '/fapi/v1/userTrades',
    signed(venue, async ({ params: p, account }) => {
      const spec = instrumentOf(venue, p.req('symbol'));
      const limit = limitOf(p);
      const fromId = p.int('fromId');
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      const rows = await store.fills(dbId, { symbol: spec.symbol, fromId, startTime: p.int('startTime'), endTime: p.int('endTime'), limit, newest: fromId === undefined });
      rows.sort((a, b) => a.id - b.id);
      const orders = new Map((await store.ordersByIds(dbId, [...new Set(rows.map((f) => f.orderId))])).map((o) => [o.id, o]));
      const orderId = p.int('orderId');
      return rows
        .map((f) => ({ f, id: orders.get(f.orderId) ? binanceOrderId(orders.get(f.orderId)!) : f.orderId }))
        .filter((x) => orderId === undefined || x.id === orderId)
        .map(({ f, id }) => userTradeJson(spec, f, id));
    }),
  );
}

function limitOf(p: Params): number {
  const limit = p.int('limit') ?? 500;
  if (limit < 1 || limit > 1000) throw new BinanceError(-1130, "Data sent for parameter 'limit' is not valid.");
  return limit;
}
