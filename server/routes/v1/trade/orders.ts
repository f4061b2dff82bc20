import { z } from 'zod';
import { messageResponseSchema } from '../../../../src/api/contracts/common';
import { dec, isZero } from '../../../../src/api/contracts/decimal';
import { tradeKeyPasswordHeadersSchema } from '../../../../src/api/contracts/api-keys';
import {
  amendOrderBodySchema,
  bracketBodySchema,
  bracketResultSchema,
  cancelAllQuerySchema,
  clientOrderIdSchema,
  fillSchema,
  historyQuerySchema,
  IDEMPOTENCY_HEADER,
  ladderBodySchema,
  ladderPartialSchema,
  managedBracketInfoSchema,
  orderSchema,
  placeOrderBodySchema,
  symbolQuerySchema,
  tradeCursorPageSchema,
  type Order,
} from '../../../../src/api/contracts/trading';
import { notFound } from '../../../lib/http-error';
import { getApiKey } from '../../../services/api-keys';
import { placeGuardedBracket } from '../../../services/jobs/guarded-bracket';
import { listManagedBrackets } from '../../../services/jobs/managed-brackets';
import { tagOrder } from '../../../services/trading/ids';
import { limitsFor } from '../../../services/trading/limits';
import { checkPrice, checkQty, executeNonTriggered, LadderPartial, placeLadder, placeOrder } from '../../../services/trading/orders';
import { tagged } from '../../../services/trading/session';
import { errors, security, tags, type TradeApp, type TradeRouteContext } from './context';

/** The orders' reads: open orders, history, fills, the brackets the server manages. */
export function orderReadRoutes(app: TradeApp, { opts, guard, params, ownerOf, session, route }: TradeRouteContext): void {
  app.get('/orders', route('Open orders, waiting conditionals included', { params, querystring: symbolQuerySchema, response: { 200: z.array(orderSchema), ...errors } }), async (req) => {
    const s = await session(req);
    const inst = req.query.symbol ? s.instrument(req.query.symbol) : undefined;
    return tagged(await s.run((c) => c.openOrders(inst)));
  });

  const page = { params, querystring: historyQuerySchema };
  app.get('/orders/history', route('Closed and open orders of a symbol, newest first, cursor-paged', { ...page, response: { 200: tradeCursorPageSchema(orderSchema), ...errors } }), async (req) => {
    const s = await session(req);
    const inst = s.instrument(req.query.symbol);
    const history = await s.run((c) => c.orderHistory(inst, req.query.cursor));
    return { data: tagged(history.data), nextCursor: history.nextCursor };
  });

  app.get('/fills', route('Fills of a symbol, newest first, cursor-paged (each is recorded once for volume and referrals)', { ...page, response: { 200: tradeCursorPageSchema(fillSchema), ...errors } }), async (req) => {
    const s = await session(req);
    const inst = s.instrument(req.query.symbol);
    const fills = await s.run((c) => c.fills(inst, req.query.cursor));
    await s.record(inst, fills.data);
    return fills;
  });

  app.get(
    '/managed',
    { onRequest: guard, schema: { tags, summary: 'Brackets the server manages on this key (FF_ENABLE_SEMI_AUTO)', security, params, response: { 200: z.array(managedBracketInfoSchema), ...errors } } },
    async (req) => {
      const owner = await ownerOf(req);
      // Someone else's key is a 404 here as on every other route, not an empty list.
      const key = await getApiKey(opts.db, owner, req.params.apiKeyId);
      return listManagedBrackets(opts.db, owner, key.id);
    },
  );
}

const restsUnfilled = (o: Order): boolean => o.type === 'LIMIT' && o.status === 'NEW' && isZero(dec(o.filledQty));

/** New orders: one order, a guarded bracket, a ladder — each under its idempotency key. */
export function placeRoutes(app: TradeApp, { opts, params, session, requireFlag, once, recordAfter, route }: TradeRouteContext): void {
  app.post('/orders', route('Place one order (`clientOrderId`: a retry answers the first order)', { params, body: placeOrderBodySchema, response: { 201: orderSchema, ...errors } }), async (req, reply) => {
    const s = await session(req);
    const limits = await limitsFor(opts.db, s.key.userId, opts.funded);
    const answer = await once(s, req.body.clientOrderId, { route: 'order', body: req.body, field: 'clientOrderId' }, async (reconcile) => ({ status: 201 as const, body: await placeOrder(s, req.body, limits, reconcile) }));
    // A limit order resting with nothing filled made no fills to record (later ones are recorded when read).
    if (!restsUnfilled(answer.body)) void recordAfter(s, req.body.symbol);
    return reply.code(answer.status).send(answer.body);
  });

  app.post(
    '/brackets',
    route('Entry + reduce-only stop-loss + 1–5 take-profits, all or nothing, guarded by the server (a resting entry gets its stop when it fills; the rest is cancelled when the position closes)', {
      params,
      body: bracketBodySchema,
      response: { 201: bracketResultSchema, 207: bracketResultSchema, ...errors },
    }),
    async (req, reply) => {
      if (req.body.managed) await requireFlag('FF_ENABLE_SEMI_AUTO');
      const s = await session(req);
      const limits = await limitsFor(opts.db, s.key.userId, opts.funded);
      const deps = { db: opts.db, secret: app.config.SERVER_SECRET, log: req.log, accounts: opts.accounts, events: app.events };
      const answer = await once(s, req.body.clientOrderId, { route: 'bracket', body: req.body, field: 'clientOrderId' }, (reconcile) => placeGuardedBracket(deps, s, req.body, limits, reconcile));
      void recordAfter(s, req.body.symbol);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.post(
    '/ladders',
    route('FF_LADDER_ORDERS: count limit orders between two prices, all or nothing (207 names what stayed live when undoing failed)', {
      params,
      body: ladderBodySchema,
      response: { 201: z.array(orderSchema), 207: ladderPartialSchema, ...errors },
    }),
    async (req, reply) => {
      await requireFlag('FF_LADDER_ORDERS');
      const s = await session(req);
      const limits = await limitsFor(opts.db, s.key.userId, opts.funded);
      const answer = await once<Order[] | { message: string; orders: Order[] }, 201 | 207>(s, req.body.clientOrderId, { route: 'ladder', body: req.body, field: 'clientOrderId' }, async (reconcile) => {
        const placed = await placeLadder(s, req.body, limits, reconcile);
        return placed instanceof LadderPartial ? { status: 207 as const, body: { message: placed.message, orders: placed.orders } } : { status: 201 as const, body: placed };
      });
      void recordAfter(s, req.body.symbol);
      return reply.code(answer.status).send(answer.body);
    },
  );
}

/** Open orders changed: amend, cancel one, cancel all of a symbol, execute a waiting conditional now. */
export function changeRoutes(app: TradeApp, { opts, params, orderParams, session, requireFlag, openOrder, once, recordAfter, route }: TradeRouteContext): void {
  app.patch('/orders/:orderId', route('Amend an open order: price, trigger price or size', { params: orderParams, body: amendOrderBodySchema, response: { 200: orderSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const order = await openOrder(s, req.params.orderId);
    const inst = s.instrument(order.symbol);
    if (req.body.price) checkPrice(inst, req.body.price, 'price');
    if (req.body.triggerPrice) checkPrice(inst, req.body.triggerPrice, 'triggerPrice');
    if (req.body.qty) {
      checkQty(inst, req.body.qty);
      if (!order.reduceOnly) await (await limitsFor(opts.db, s.key.userId, opts.funded)).order(s, { inst, side: order.side, qty: req.body.qty, price: req.body.price ?? order.price, stop: null, reduceOnly: false });
    }
    return tagOrder(await s.run((c) => c.amend(inst, order.id, req.body)));
  });

  app.delete('/orders/:orderId', route('Cancel an open order', { params: orderParams, response: { 200: orderSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const symbol = s.connector.orderSymbol(req.params.orderId);
    if (!symbol) throw notFound('Order not found');
    const inst = s.instrument(symbol);
    return tagOrder(await s.run((c) => c.cancel(inst, req.params.orderId)));
  });

  app.delete(
    '/orders',
    route('Cancel every open order of a symbol (`Idempotency-Key`: a retry answers the first, cancelling nothing placed since)', {
      params,
      querystring: cancelAllQuerySchema,
      headers: tradeKeyPasswordHeadersSchema.extend({ [IDEMPOTENCY_HEADER]: clientOrderIdSchema.optional() }),
      response: { 200: messageResponseSchema, ...errors },
    }),
    async (req) => {
      const s = await session(req);
      const inst = s.instrument(req.query.symbol);
      const answer = await once(s, req.headers[IDEMPOTENCY_HEADER], { route: 'cancel-all', body: { symbol: inst.symbol }, field: IDEMPOTENCY_HEADER }, async () => {
        await s.run((c) => c.cancelAll(inst));
        return { status: 200 as const, body: { message: `Cancelled all open ${inst.symbol} orders` } };
      });
      return answer.body;
    },
  );

  app.post('/orders/:orderId/execute', route('FF_ENABLE_EXECUTE_NON_TRIGGERED: a waiting conditional becomes a market order now', { params: orderParams, response: { 201: orderSchema, ...errors } }), async (req, reply) => {
    await requireFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED');
    const s = await session(req);
    const order = await openOrder(s, req.params.orderId);
    if (!order.reduceOnly) {
      const inst = s.instrument(order.symbol);
      await (await limitsFor(opts.db, s.key.userId, opts.funded)).order(s, { inst, side: order.side, qty: order.qty, price: null, stop: null, reduceOnly: false });
    }
    const placed = await executeNonTriggered(s, order);
    void recordAfter(s, order.symbol);
    return reply.code(201).send(placed);
  });
}
