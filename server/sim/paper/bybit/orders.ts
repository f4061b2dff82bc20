import type { FastifyInstance } from 'fastify';
import { fixed, type OrderRecord, type PlaceRequest, type TimeInForce, type TriggerDirection } from '../engine';
import type { VenueContext } from '../venue';
import { bybitOrderId, historyOrderJson, isConditional, realtimeOrderJson } from './format';
import { BybitError, categoryOf, instrumentOf, missing, paramError, refusalError, signed, type Params } from './params';
import { findOrders, isOpenOrder, matchesRef, openOrderOf, ORDER_LINK_ID, orderRefOf, page, symbolFilter, timeWindow } from './shared';

const TIFS = ['GTC', 'IOC', 'FOK', 'PostOnly', 'RPI'] as const;
const TRIGGER_BY = ['LastPrice', 'IndexPrice', 'MarkPrice'] as const;

/** One-way mode only: positionIdx 0 (hedge-mode indices 1 / 2 are refused like Bybit does in one-way mode). */
function checkPositionIdx(p: Params): void {
  const idx = p.int('positionIdx');
  if (idx !== undefined && idx !== 0) throw new BybitError(10001, 'position idx not match position mode');
}

/** Conditional engine type from Bybit's orderType, side and trigger direction (stops buy rising / sell falling). */
function conditionalType(orderType: 'Market' | 'Limit', side: 'BUY' | 'SELL', dir: TriggerDirection): PlaceRequest['type'] {
  const stop = (side === 'BUY') === (dir === 'rise');
  if (orderType === 'Market') return stop ? 'STOP_MARKET' : 'TAKE_PROFIT_MARKET';
  return stop ? 'STOP_LIMIT' : 'TAKE_PROFIT';
}

const ack = (account: Parameters<typeof bybitOrderId>[0], o: OrderRecord) => ({ orderId: bybitOrderId(account, o.id), orderLinkId: o.meta.orderLinkId ?? '' });

/**
 * `/v5/order/create|amend|cancel|cancel-all` (POST, JSON) and `/v5/order/realtime|history` (GET),
 * categories linear and inverse. A `triggerPrice` makes a conditional order that keeps its own
 * orderId when it fires (Untriggered → New/Filled); answers are Bybit's acknowledgements
 * `{ orderId, orderLinkId }`, the state goes to the private stream.
 */
export function registerBybitOrders(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.post(
    '/v5/order/create',
    signed(
      venue,
      async ({ params: p, account }) => {
        const category = categoryOf(p)!;
        const spec = instrumentOf(venue, p.req('symbol'), category);
        const side = p.oneOf('side', ['Buy', 'Sell'] as const);
        if (!side) throw missing('side');
        const orderType = p.oneOf('orderType', ['Market', 'Limit'] as const);
        if (!orderType) throw missing('orderType');
        const qty = p.decimal('qty');
        if (qty === undefined) throw missing('qty');
        const price = orderType === 'Limit' ? p.decimal('price') : undefined; // "Market order will ignore this field"
        if (orderType === 'Limit' && price === undefined) throw missing('price');
        const trigger = p.decimal('triggerPrice');
        const conditional = trigger !== undefined && fixed(trigger) !== 0n;
        const dirCode = p.int('triggerDirection');
        if (dirCode !== undefined && dirCode !== 1 && dirCode !== 2) throw paramError('triggerDirection');
        const triggerBy = p.oneOf('triggerBy', TRIGGER_BY);
        const tif = p.oneOf('timeInForce', TIFS);
        if (tif === 'RPI') throw new BybitError(10001, 'params error: RPI orders are for market makers only');
        checkPositionIdx(p);
        const orderLinkId = p.opt('orderLinkId');
        if (orderLinkId !== undefined && !ORDER_LINK_ID.test(orderLinkId)) throw paramError('orderLinkId');
        const reduceOnly = p.bool('reduceOnly') ?? false;
        const closeOnTrigger = p.bool('closeOnTrigger') ?? false;
        if (p.has('takeProfit') || p.has('stopLoss') || p.has('tpslMode')) {
          throw new BybitError(10001, 'params error: attached takeProfit / stopLoss are not simulated; place a conditional order (triggerPrice) instead');
        }
        if (p.has('isLeverage') || p.has('marketUnit') || p.has('orderFilter')) throw new BybitError(10001, 'params error: spot parameters are not valid for linear and inverse');
        // qty "0" with reduceOnly and closeOnTrigger closes the whole position.
        const closeAll = fixed(qty) === 0n && reduceOnly && closeOnTrigger;
        const r = await runtime.run(account, (id, at) => {
          const last = engine.lastPrice(spec.symbol, at);
          let direction: TriggerDirection | undefined;
          if (conditional) direction = dirCode === 1 ? 'rise' : dirCode === 2 ? 'fall' : last !== null && fixed(trigger!) > fixed(last) ? 'rise' : 'fall';
          let amount: string | undefined = qty;
          if (closeAll && !conditional) {
            const [pos] = engine.positions(id, spec.symbol);
            const size = pos ? fixed(pos.size) : 0n;
            if (size !== 0n) amount = pos.size.replace('-', '');
          }
          const req: PlaceRequest = {
            symbol: spec.symbol,
            side: side === 'Buy' ? 'BUY' : 'SELL',
            type: conditional ? conditionalType(orderType, side === 'Buy' ? 'BUY' : 'SELL', direction!) : orderType === 'Market' ? 'MARKET' : 'LIMIT',
            qty: closeAll && conditional ? undefined : amount,
            price,
            trigger: conditional ? trigger : undefined,
            triggerDirection: direction,
            timeInForce: orderType === 'Market' || tif === 'PostOnly' || tif === undefined ? 'GTC' : (tif as TimeInForce),
            postOnly: orderType === 'Limit' && tif === 'PostOnly',
            reduceOnly,
            closePosition: closeAll && conditional,
            clientId: orderLinkId,
            meta: {
              ...(orderLinkId !== undefined ? { orderLinkId } : {}),
              ...(conditional ? { triggerBy: triggerBy ?? 'LastPrice' } : {}),
              ...(closeOnTrigger ? { closeOnTrigger: 'true' } : {}),
              ...(last !== null ? { lastPriceOnCreated: last } : {}),
            },
          };
          return { result: engine.place(id, req, at), direction, last };
        });
        if (!r.result.ok) throw refusalError(r.result.refusal, { direction: r.direction, trigger, last: r.last ?? undefined });
        return ack(account, r.result.value);
      },
      { trade: true },
    ),
  );

  app.post(
    '/v5/order/amend',
    signed(
      venue,
      async ({ params: p, account }) => {
        const category = categoryOf(p)!;
        const spec = instrumentOf(venue, p.req('symbol'), category);
        const ref = orderRefOf(p, account, true);
        const qty = p.decimal('qty');
        const price = p.decimal('price');
        const trigger = p.decimal('triggerPrice');
        p.oneOf('triggerBy', TRIGGER_BY);
        if (p.has('takeProfit') || p.has('stopLoss')) throw new BybitError(10001, 'params error: takeProfit / stopLoss are not simulated');
        const r = await runtime.run(account, (id, at) => {
          const o = openOrderOf(engine.retained(id), spec.symbol, ref);
          if (!o) return null;
          const amend = { qty, price: o.price === null ? undefined : price, trigger: isConditional(o) && o.triggeredAt === null ? trigger : undefined };
          return { result: engine.amend(id, { id: o.id }, amend, at), direction: o.triggerDirection ?? undefined, last: engine.lastPrice(spec.symbol, at) };
        });
        if (!r) throw new BybitError(110001, 'Order does not exist');
        if (!r.result.ok) throw refusalError(r.result.refusal, { direction: r.direction, trigger, last: r.last ?? undefined });
        return ack(account, r.result.value);
      },
      { trade: true },
    ),
  );

  app.post(
    '/v5/order/cancel',
    signed(
      venue,
      async ({ params: p, account }) => {
        const category = categoryOf(p)!;
        const spec = instrumentOf(venue, p.req('symbol'), category);
        const ref = orderRefOf(p, account, true);
        const r = await runtime.run(account, (id, at) => {
          const o = openOrderOf(engine.retained(id), spec.symbol, ref);
          return o ? engine.cancel(id, { id: o.id }, at) : null;
        });
        if (!r) throw new BybitError(110001, 'Order does not exist');
        if (!r.ok) throw refusalError(r.refusal);
        return ack(account, r.value);
      },
      { trade: true },
    ),
  );

  app.post(
    '/v5/order/cancel-all',
    signed(
      venue,
      async ({ params: p, account }) => {
        const category = categoryOf(p)!;
        const symbol = p.opt('symbol');
        if (symbol !== undefined) instrumentOf(venue, symbol, category);
        const symbols = symbolFilter(p, category);
        if (!symbols) throw new BybitError(10001, 'Missing some parameters that must be filled in, symbol or settleCoin or baseCoin');
        const filter = p.oneOf('orderFilter', ['Order', 'StopOrder', 'OpenOrder'] as const);
        const stopOrderType = p.oneOf('stopOrderType', ['Stop'] as const);
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
      },
      { trade: true },
    ),
  );

  app.get(
    '/v5/order/realtime',
    signed(venue, async ({ params: p, account }) => {
      const category = categoryOf(p)!;
      const symbol = p.opt('symbol');
      if (symbol !== undefined) instrumentOf(venue, symbol, category);
      const ref = orderRefOf(p, account, false);
      const symbols = symbolFilter(p, category);
      if (category === 'linear' && !symbols && ref.id === undefined && ref.orderLinkId === undefined) {
        throw new BybitError(10001, 'Missing some parameters that must be filled in, symbol or settleCoin or baseCoin');
      }
      const openOnly = p.int('openOnly') ?? 0;
      if (openOnly < 0 || openOnly > 2) throw paramError('openOnly');
      const filter = p.oneOf('orderFilter', ['Order', 'StopOrder', 'tpslOrder', 'OcoOrder', 'BidirectionalTpslOrder'] as const);
      const byRef = ref.id !== undefined || ref.orderLinkId !== undefined;
      // Query by id: any status ("openOnly is ignored"), older ones from the store; otherwise open, or the recent closed.
      let orders = byRef ? await findOrders(venue, account, ref) : await runtime.run(account, (id) => engine.retained(id));
      orders = orders.filter((o) => {
        const spec = engine.instrument(o.symbol);
        if (!spec || spec.category !== category || (symbols && !symbols.has(o.symbol)) || !matchesRef(o, ref)) return false;
        if (filter === 'StopOrder' && !isConditional(o)) return false;
        if (filter === 'Order' && isConditional(o)) return false;
        if (filter !== undefined && filter !== 'StopOrder' && filter !== 'Order') return false;
        return byRef || (openOnly === 0 ? isOpenOrder(o) : !isOpenOrder(o));
      });
      orders.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      const { rows, nextPageCursor } = page(orders, p, 50, 20);
      return { list: rows.map((o) => realtimeOrderJson(engine.instrument(o.symbol)!, account, o)), nextPageCursor, category };
    }),
  );

  app.get(
    '/v5/order/history',
    signed(venue, async ({ params: p, account }) => {
      const category = categoryOf(p)!;
      const symbol = p.opt('symbol');
      if (symbol !== undefined) instrumentOf(venue, symbol, category);
      const ref = orderRefOf(p, account, false);
      const symbols = symbolFilter(p, category);
      const filter = p.oneOf('orderFilter', ['Order', 'StopOrder', 'tpslOrder', 'OcoOrder', 'BidirectionalTpslOrder'] as const);
      const status = p.oneOf('orderStatus', ['New', 'PartiallyFilled', 'Untriggered', 'Rejected', 'PartiallyFilledCanceled', 'Filled', 'Cancelled', 'Triggered', 'Deactivated'] as const);
      const now = runtime.now();
      const { startTime, endTime } = timeWindow(p, now);
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      const byRef = ref.id !== undefined || ref.orderLinkId !== undefined;
      const found = byRef
        ? await findOrders(venue, account, ref)
        : await store.orders(dbId, { symbol: symbols && symbols.size === 1 ? [...symbols][0] : undefined, startTime, endTime, limit: 1000, newest: true });
      const list = found.filter((o) => {
        const spec = engine.instrument(o.symbol);
        if (!spec || spec.category !== category || (symbols && !symbols.has(o.symbol)) || !matchesRef(o, ref)) return false;
        if (filter === 'StopOrder' && !isConditional(o)) return false;
        if (filter === 'Order' && isConditional(o)) return false;
        if (filter !== undefined && filter !== 'StopOrder' && filter !== 'Order') return false;
        const json = historyOrderJson(spec, account, o);
        return status === undefined || json.orderStatus === status;
      });
      list.sort((a, b) => b.createdAt - a.createdAt || b.id - a.id);
      const { rows, nextPageCursor } = page(list, p, 50, 20);
      return { list: rows.map((o) => historyOrderJson(engine.instrument(o.symbol)!, account, o)), nextPageCursor, category };
    }),
  );
}
