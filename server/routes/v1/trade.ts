import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KEY_PASSWORD_HEADER, keyPasswordHeadersSchema } from '../../../src/api/contracts/api-keys';
import { errorResponseSchema, messageResponseSchema } from '../../../src/api/contracts/common';
import type { FeatureFlagKey } from '../../../src/api/contracts/feature-flags';
import {
  amendOrderBodySchema,
  apiKeyIdParamsSchema,
  balanceSchema,
  bracketBodySchema,
  bracketResultSchema,
  cancelAllQuerySchema,
  closePositionBodySchema,
  fillSchema,
  historyQuerySchema,
  ladderBodySchema,
  leverageBodySchema,
  managedBracketInfoSchema,
  marginModeBodySchema,
  orderIdParamsSchema,
  orderSchema,
  placeOrderBodySchema,
  positionSchema,
  symbolQuerySchema,
  tradeCursorPageSchema,
  type Order,
} from '../../../src/api/contracts/trading';
import { conflict, forbidden, HttpError, notFound } from '../../lib/http-error';
import { CUSTODY_REQUIRED_MESSAGE, listManagedBrackets, startManagedBracket } from '../../services/jobs/managed-brackets';
import { currentUser } from '../../plugins/authenticate';
import { getFundedUser, USER_NOT_FOUND } from '../../services/funded-users';
import { tagOrder } from '../../services/trading/ids';
import { limitsFor } from '../../services/trading/limits';
import { checkPrice, checkQty, closePosition, executeNonTriggered, placeBracket, placeLadder, placeOrder } from '../../services/trading/orders';
import { openTradeSession, tagged, type TradeSession, type TradeSessionDeps } from '../../services/trading/session';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  422: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
  503: errorResponseSchema,
  504: errorResponseSchema,
};
const security = [{ bearerAuth: [] }];

export interface TradeRouteOptions extends TradeSessionDeps {
  /** `/v1/users/{userId}/trade/…`: an admin acting for a funded user (recorded as done by the admin). */
  asAdmin: boolean;
  isFlagEnabled: (key: FeatureFlagKey) => Promise<boolean>;
}

/**
 * `/v1/trade/{apiKeyId}/…` (DESIGN §3.2): trading on one of the user's stored keys, opened with the
 * key password of `X-Key-Password` for the call only. Every route answers the one model of §3.1.
 */
export const tradeRoutes: FastifyPluginAsyncZod<TradeRouteOptions> = async (app, opts) => {
  const guard = opts.asAdmin ? app.requireRole('admin') : app.requireUser;
  const params = opts.asAdmin ? apiKeyIdParamsSchema.extend({ userId: z.uuid() }) : apiKeyIdParamsSchema;
  const orderParams = opts.asAdmin ? orderIdParamsSchema.extend({ userId: z.uuid() }) : orderIdParamsSchema;
  const tags = ['trade'];

  /** The key's owner: the signed-in user, or (admin routes) the funded user named in the path. */
  const ownerOf = async (req: FastifyRequest): Promise<string> => {
    const me = currentUser(req);
    if (!opts.asAdmin) return me.id;
    const userId = (req.params as { userId: string }).userId;
    if (!(await getFundedUser(opts.db, userId))) throw notFound(`${USER_NOT_FOUND} among funded users`);
    return userId;
  };

  const session = async (req: FastifyRequest): Promise<TradeSession> => {
    const owner = await ownerOf(req);
    const { apiKeyId } = req.params as { apiKeyId: string };
    const password = (req.headers as Record<string, string>)[KEY_PASSWORD_HEADER];
    const s = await openTradeSession(opts, owner, apiKeyId, password);
    if (opts.asAdmin && req.method !== 'GET') {
      req.log.info({ actorId: currentUser(req).id, ownerId: owner, apiKeyId, action: `${req.method} ${req.routeOptions.url}` }, 'admin trading for a funded user');
    }
    return s;
  };

  const requireFlag = async (flag: FeatureFlagKey) => {
    if (!(await opts.isFlagEnabled(flag))) throw forbidden(`${flag} is turned off`);
  };

  /** The order behind an id, from the exchange's open orders (404 when it is not open). */
  const openOrder = async (s: TradeSession, orderId: string): Promise<Order> => {
    const symbol = s.connector.orderSymbol(orderId);
    if (!symbol) throw notFound('Order not found');
    const inst = s.instrument(symbol);
    const order = (await s.run((c) => c.openOrders(inst))).find((o) => o.id === orderId);
    if (!order) throw notFound('Order not found (not open)');
    return tagOrder(order);
  };

  const headers = keyPasswordHeadersSchema;
  const route = <T extends object>(summary: string, extra: T) => ({ onRequest: guard, schema: { tags, summary, security, headers, ...extra } });

  app.get('/balance', route('Balance: total, available, unrealised PnL, margin in use', { params, response: { 200: balanceSchema, ...errors } }), async (req) => {
    const s = await session(req);
    return s.run((c) => c.balance());
  });

  app.get('/positions', route('Open positions (optionally of one symbol)', { params, querystring: symbolQuerySchema, response: { 200: z.array(positionSchema), ...errors } }), async (req) => {
    const s = await session(req);
    const inst = req.query.symbol ? s.instrument(req.query.symbol) : undefined;
    return s.run((c) => c.positions(inst));
  });

  app.get('/orders', route('Open orders, waiting conditionals included', { params, querystring: symbolQuerySchema, response: { 200: z.array(orderSchema), ...errors } }), async (req) => {
    const s = await session(req);
    const inst = req.query.symbol ? s.instrument(req.query.symbol) : undefined;
    return tagged(await s.run((c) => c.openOrders(inst)));
  });

  app.get(
    '/orders/history',
    route('Closed and open orders of a symbol, newest first, cursor-paged', { params, querystring: historyQuerySchema, response: { 200: tradeCursorPageSchema(orderSchema), ...errors } }),
    async (req) => {
      const s = await session(req);
      const inst = s.instrument(req.query.symbol);
      const page = await s.run((c) => c.orderHistory(inst, req.query.cursor));
      return { data: tagged(page.data), nextCursor: page.nextCursor };
    },
  );

  app.get(
    '/fills',
    route('Fills of a symbol, newest first, cursor-paged (each is recorded once for volume and referrals)', {
      params,
      querystring: historyQuerySchema,
      response: { 200: tradeCursorPageSchema(fillSchema), ...errors },
    }),
    async (req) => {
      const s = await session(req);
      const inst = s.instrument(req.query.symbol);
      const page = await s.run((c) => c.fills(inst, req.query.cursor));
      await s.record(inst, page.data);
      return page;
    },
  );

  app.post('/orders', route('Place one order', { params, body: placeOrderBodySchema, response: { 201: orderSchema, ...errors } }), async (req, reply) => {
    const s = await session(req);
    const order = await placeOrder(s, req.body, await limitsFor(opts.db, s.key.userId));
    void recordAfter(s, req.body.symbol);
    return reply.code(201).send(order);
  });

  app.post(
    '/brackets',
    route('Entry + reduce-only stop-loss + 1–5 take-profits; a filled entry is never left without its stop', {
      params,
      body: bracketBodySchema,
      response: { 201: bracketResultSchema, ...errors },
    }),
    async (req, reply) => {
      const { managed } = req.body;
      if (managed) await requireFlag('FF_ENABLE_SEMI_AUTO');
      const s = await session(req);
      // Refused before anything is placed: a managed bracket needs the key's consent.
      if (managed && !s.key.serverCustodyAt) throw conflict(CUSTODY_REQUIRED_MESSAGE, { managed: CUSTODY_REQUIRED_MESSAGE });
      const placed = await placeBracket(s, req.body, await limitsFor(opts.db, s.key.userId));
      void recordAfter(s, req.body.symbol);
      let isManaged = false;
      if (managed) {
        try {
          await startManagedBracket(opts.db, app.config.SERVER_SECRET ?? '', s.key, s.credentials(), s.instrument(req.body.symbol), { side: req.body.side, managed }, { ...placed, managed: true });
          isManaged = true;
        } catch (err) {
          // The orders stand (the stop protects the entry); only the management did not start.
          req.log.error({ err }, 'Could not start managing a bracket');
        }
      }
      return reply.code(201).send({ ...placed, managed: isManaged });
    },
  );

  app.get(
    '/managed',
    { onRequest: guard, schema: { tags, summary: 'Brackets the server manages on this key (FF_ENABLE_SEMI_AUTO)', security, params, response: { 200: z.array(managedBracketInfoSchema), ...errors } } },
    async (req) => listManagedBrackets(opts.db, await ownerOf(req), (req.params as { apiKeyId: string }).apiKeyId),
  );

  app.post(
    '/ladders',
    route('FF_LADDER_ORDERS: count limit orders between two prices', { params, body: ladderBodySchema, response: { 201: z.array(orderSchema), ...errors } }),
    async (req, reply) => {
      await requireFlag('FF_LADDER_ORDERS');
      const s = await session(req);
      return reply.code(201).send(await placeLadder(s, req.body, await limitsFor(opts.db, s.key.userId)));
    },
  );

  app.patch(
    '/orders/:orderId',
    route('Amend an open order: price, trigger price or size', { params: orderParams, body: amendOrderBodySchema, response: { 200: orderSchema, ...errors } }),
    async (req) => {
      const s = await session(req);
      const order = await openOrder(s, req.params.orderId);
      const inst = s.instrument(order.symbol);
      if (req.body.price) checkPrice(inst, req.body.price, 'price');
      if (req.body.triggerPrice) checkPrice(inst, req.body.triggerPrice, 'triggerPrice');
      if (req.body.qty) {
        checkQty(inst, req.body.qty);
        if (!order.reduceOnly) await (await limitsFor(opts.db, s.key.userId)).order(s, { inst, side: order.side, qty: req.body.qty, price: req.body.price ?? order.price, stop: null, reduceOnly: false });
      }
      return tagOrder(await s.run((c) => c.amend(inst, order.id, req.body)));
    },
  );

  app.delete('/orders/:orderId', route('Cancel an open order', { params: orderParams, response: { 200: orderSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const symbol = s.connector.orderSymbol(req.params.orderId);
    if (!symbol) throw notFound('Order not found');
    const inst = s.instrument(symbol);
    return tagOrder(await s.run((c) => c.cancel(inst, req.params.orderId)));
  });

  app.delete('/orders', route('Cancel every open order of a symbol', { params, querystring: cancelAllQuerySchema, response: { 200: messageResponseSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const inst = s.instrument(req.query.symbol);
    await s.run((c) => c.cancelAll(inst));
    return { message: `Cancelled all open ${inst.symbol} orders` };
  });

  app.post(
    '/orders/:orderId/execute',
    route('FF_ENABLE_EXECUTE_NON_TRIGGERED: a waiting conditional becomes a market order now', { params: orderParams, response: { 201: orderSchema, ...errors } }),
    async (req, reply) => {
      await requireFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED');
      const s = await session(req);
      const order = await openOrder(s, req.params.orderId);
      if (!order.reduceOnly) {
        const inst = s.instrument(order.symbol);
        await (await limitsFor(opts.db, s.key.userId)).order(s, { inst, side: order.side, qty: order.qty, price: null, stop: null, reduceOnly: false });
      }
      const placed = await executeNonTriggered(s, order);
      void recordAfter(s, order.symbol);
      return reply.code(201).send(placed);
    },
  );

  app.post(
    '/positions/close',
    route('Close a percentage of a position at market or at a limit price (reduce-only)', { params, body: closePositionBodySchema, response: { 201: orderSchema, ...errors } }),
    async (req, reply) => {
      const s = await session(req);
      const order = await closePosition(s, req.body);
      void recordAfter(s, req.body.symbol);
      return reply.code(201).send(order);
    },
  );

  app.put('/leverage', route("Set a symbol's leverage", { params, body: leverageBodySchema, response: { 200: messageResponseSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const inst = s.instrument(req.body.symbol);
    await (await limitsFor(opts.db, s.key.userId)).leverage(s, inst, req.body.leverage);
    await s.run((c) => c.setLeverage(inst, req.body.leverage));
    return { message: `Leverage of ${inst.symbol} set to ${req.body.leverage}×` };
  });

  app.put('/margin-mode', route("Set a symbol's margin mode (Bybit: the whole account)", { params, body: marginModeBodySchema, response: { 200: messageResponseSchema, ...errors } }), async (req) => {
    const s = await session(req);
    const inst = s.instrument(req.body.symbol);
    await s.run((c) => c.setMarginMode(inst, req.body.marginMode));
    return { message: `Margin mode of ${inst.symbol} set to ${req.body.marginMode.toLowerCase()}` };
  });

  /** After an order, the fills it made are recorded in the background (a failure only delays them to the next read). */
  async function recordAfter(s: TradeSession, symbol: string): Promise<void> {
    try {
      const inst = s.instrument(symbol);
      const page = await s.run((c) => c.fills(inst));
      await s.record(inst, page.data);
    } catch (err) {
      app.log.warn({ err: err instanceof HttpError ? err.message : String(err) }, 'recording fills after an order failed; the next read records them');
    }
  }
};
