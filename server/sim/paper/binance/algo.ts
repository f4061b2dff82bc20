import type { FastifyInstance } from 'fastify';
import type { PlaceRequest } from '../engine';
import type { VenueContext } from '../venue';
import { ENGINE_ALGO_TYPE, listAlgoJson, newAlgoJson, type BinanceAlgoType } from './format';
import { timeInForceOf, sideOf } from './orders';
import { BinanceError, refusalError, signed } from './params';
import { checkPrecision, clientIdOf, findOrder, instrumentOf, lookupOf, matchesAlgo } from './shared';

const DONE = { code: 200, msg: 'The operation of cancel all open order is done.' };

/**
 * Conditional orders in Binance's "Algo Service" (since 2025-12-09; binance.md §6):
 * `POST|GET|DELETE /fapi/v1/algoOrder`, `GET /fapi/v1/openAlgoOrders`, `DELETE /fapi/v1/algoOpenOrders`,
 * `GET /fapi/v1/allAlgoOrders`. `triggerPrice` (not stopPrice); no margin check before the trigger;
 * untriggered orders cannot be modified. When one fires, the order it releases (a new `orderId`,
 * `actualOrderId` here) appears in /fapi/v1/openOrders, allOrders and userTrades.
 */
export function registerBinanceAlgo(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.post(
    '/fapi/v1/algoOrder',
    signed(
      venue,
      async ({ params: p, account }) => {
        const algoType = p.req('algoType');
        if (algoType !== 'CONDITIONAL') throw new BinanceError(-1116, 'Invalid algoType.');
        const spec = instrumentOf(venue, p.req('symbol'));
        const side = sideOf(p);
        const type = p.req('type');
        if (type === 'TRAILING_STOP_MARKET') throw new BinanceError(-1116, 'Invalid orderType.'); // not simulated
        if (!(type in ENGINE_ALGO_TYPE)) throw new BinanceError(-1116, 'Invalid orderType.');
        const engineType = ENGINE_ALGO_TYPE[type as BinanceAlgoType];
        const limit = engineType === 'STOP_LIMIT' || engineType === 'TAKE_PROFIT';
        const closePosition = p.bool('closePosition') ?? false;
        const reduceOnly = p.bool('reduceOnly');
        const quantity = p.decimal('quantity');
        const price = p.decimal('price');
        const triggerPrice = p.decimal('triggerPrice', true);
        if (closePosition && quantity !== undefined) throw new BinanceError(-4136, 'Target strategy invalid for orderType STOP_MARKET,closePosition true');
        if (closePosition && reduceOnly !== undefined) throw new BinanceError(-1106, "Parameter 'reduceonly' sent when not required.");
        if (!closePosition && quantity === undefined) throw new BinanceError(-1102, "Mandatory parameter 'quantity' was not sent, was empty/null, or malformed.");
        if (limit && price === undefined) throw new BinanceError(-1102, "Mandatory parameter 'price' was not sent, was empty/null, or malformed.");
        if (!limit && price !== undefined) throw new BinanceError(-1106, "Parameter 'price' sent when not required.");
        checkPrecision(quantity, spec.qtyStep);
        checkPrecision(price, spec.tickSize);
        checkPrecision(triggerPrice, spec.tickSize);
        const workingType = p.oneOf('workingType', ['MARK_PRICE', 'CONTRACT_PRICE'] as const, new BinanceError(-1130, "Data sent for parameter 'workingType' is not valid.")) ?? 'CONTRACT_PRICE';
        const { tif, meta } = limit ? timeInForceOf(p, false) : { tif: 'GTC' as const, meta: {} };
        const req: PlaceRequest = {
          symbol: spec.symbol,
          side,
          type: engineType,
          qty: quantity,
          price,
          trigger: triggerPrice,
          timeInForce: tif,
          reduceOnly: reduceOnly ?? false,
          closePosition,
          clientId: clientIdOf(p, 'clientAlgoId'),
          // The sim's mark is the last trade: MARK_PRICE and CONTRACT_PRICE trigger alike (kept for the answer).
          meta: { ...meta, workingType, priceProtect: String(p.bool('priceProtect') ?? false), selfTradePreventionMode: p.opt('selfTradePreventionMode') ?? 'EXPIRE_MAKER' },
        };
        const r = await runtime.run(account, (id, at) => engine.place(id, req, at));
        if (!r.ok) throw refusalError(r.refusal, 'place');
        return newAlgoJson(spec, r.value);
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/algoOrder',
    signed(venue, async ({ params: p, account }) => {
      const l = lookupOf(p, 'algoId', 'clientAlgoId');
      const o = await findOrder(venue, account, (x) => matchesAlgo(x, l), l);
      if (!o) throw new BinanceError(-2013, 'Order does not exist.');
      return listAlgoJson(instrumentOf(venue, o.symbol), o);
    }),
  );

  app.delete(
    '/fapi/v1/algoOrder',
    signed(
      venue,
      async ({ params: p, account }) => {
        const l = lookupOf(p, 'algoId', 'clientAlgoId');
        const r = await runtime.run(account, (id, at) => {
          const o = engine.retained(id).find((x) => matchesAlgo(x, l) && x.status === 'UNTRIGGERED');
          return o ? engine.cancel(id, { id: o.id }, at) : null;
        });
        if (!r) throw new BinanceError(-2011, 'Unknown order sent.');
        if (!r.ok) throw refusalError(r.refusal, 'cancel');
        // Binance prints this code as a string here (binance.md §1).
        return { algoId: r.value.id, clientAlgoId: r.value.clientId, code: '200', msg: 'success' };
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/openAlgoOrders',
    signed(venue, async ({ params: p, account }) => {
      const symbol = p.opt('symbol');
      if (symbol !== undefined) instrumentOf(venue, symbol);
      const open = await runtime.run(account, (id) => engine.openOrders(id, symbol).filter((o) => o.status === 'UNTRIGGERED'));
      return open.map((o) => listAlgoJson(instrumentOf(venue, o.symbol), o));
    }),
  );

  app.delete(
    '/fapi/v1/algoOpenOrders',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        await runtime.run(account, (id, at) => engine.cancelAll(id, spec.symbol, at, (o) => o.status === 'UNTRIGGERED'));
        return DONE;
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/allAlgoOrders',
    signed(venue, async ({ params: p, account }) => {
      const spec = instrumentOf(venue, p.req('symbol'));
      const limit = p.int('limit') ?? 500;
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const rows = await store.orders(await runtime.dbId(account), { symbol: spec.symbol, startTime: p.int('startTime'), endTime: p.int('endTime'), limit: Math.min(1000, limit) + 500, newest: true });
      return rows
        .filter((o) => o.type in { STOP_MARKET: 1, STOP_LIMIT: 1, TAKE_PROFIT: 1, TAKE_PROFIT_MARKET: 1 })
        .slice(0, limit)
        .reverse()
        .map((o) => listAlgoJson(spec, o));
    }),
  );
}
