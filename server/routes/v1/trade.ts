import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KEY_PASSWORD_HEADER, keyPasswordHeadersSchema } from '../../../src/api/contracts/api-keys';
import { errorResponseSchema, messageResponseSchema } from '../../../src/api/contracts/common';
import { tradeLimitsStatusSchema } from '../../../src/api/contracts/funded-users';
import type { FeatureFlagKey } from '../../../src/api/contracts/feature-flags';
import {
  amendOrderBodySchema,
  apiKeyIdParamsSchema,
  balanceSchema,
  bracketBodySchema,
  bracketResultSchema,
  cancelAllQuerySchema,
  clientOrderIdSchema,
  closePositionBodySchema,
  fillSchema,
  historyQuerySchema,
  IDEMPOTENCY_HEADER,
  ladderBodySchema,
  ladderPartialSchema,
  leverageBodySchema,
  managedBracketInfoSchema,
  marginModeBodySchema,
  orderIdParamsSchema,
  orderSchema,
  placeOrderBodySchema,
  positionSchema,
  symbolQuerySchema,
  symbolSettingsQuerySchema,
  symbolSettingsSchema,
  tradeCursorPageSchema,
  type Order,
} from '../../../src/api/contracts/trading';
import { forbidden, HttpError, notFound } from '../../lib/http-error';
import { placeGuardedBracket } from '../../services/jobs/guarded-bracket';
import { listManagedBrackets } from '../../services/jobs/managed-brackets';
import { currentUser } from '../../plugins/authenticate';
import { getApiKey } from '../../services/api-keys';
import { getFundedUser, USER_NOT_FOUND } from '../../services/funded-users';
import { tagOrder } from '../../services/trading/ids';
import { leverageProblem } from '../../services/trading/leverage-rules';
import { recordAdminTrade } from '../../services/trading/admin-audit';
import { limitsFor, tradeLimitsStatus } from '../../services/trading/limits';
import { idempotent, type Answer } from '../../services/trading/idempotency';
import { checkPrice, checkQty, closePosition, executeNonTriggered, LadderPartial, placeLadder, placeOrder } from '../../services/trading/orders';
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

  if (opts.asAdmin) {
    // Issue 21: every mutating admin request on a funded user's key leaves one audit row, written once
    // the answer is final (onSend: its status and message are known). Never the headers (the key
    // password is one); a failed write is logged and the answer goes out unchanged.
    app.addHook('onSend', async (req, reply, payload) => {
      const actor = req.authUser;
      if (req.method === 'GET' || req.method === 'HEAD' || actor?.role !== 'admin') return payload;
      try {
        await recordAdminTrade(opts.db, { actorId: actor.id, params: req.params, method: req.method, route: req.routeOptions.url ?? req.url, body: req.body, status: reply.statusCode, payload });
      } catch (err) {
        req.log.error({ err: err instanceof Error ? err.message : String(err) }, 'could not write the admin trade audit');
      }
      return payload;
    });
  }

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
    return openTradeSession(opts, owner, apiKeyId, password);
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

  app.get(
    '/symbol-settings',
    route("A symbol's leverage and margin mode as the exchange holds them for the key, with or without a position (what its next order is margined with)", {
      params,
      querystring: symbolSettingsQuerySchema,
      response: { 200: symbolSettingsSchema, ...errors },
    }),
    async (req) => {
      const s = await session(req);
      const inst = s.instrument(req.query.symbol);
      return s.run((c) => c.symbolSettings(inst));
    },
  );

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

  /**
   * A mutating request under its idempotency key (issue 21: a retry never doubles): the first runs,
   * a retry answers its stored answer. `run(true)` is a re-run after a 5xx: it looks up before placing.
   */
  const once = async <T, S extends 200 | 201 | 207>(s: TradeSession, clientId: string | undefined, what: { route: string; body: unknown; field: string }, run: (reconcile: boolean) => Promise<Answer<T, S>>) =>
    idempotent({ db: opts.db, apiKeyId: s.key.id, userId: s.key.userId }, { clientId, ...what }, run);

  app.post('/orders', route('Place one order (`clientOrderId`: a retry answers the first order)', { params, body: placeOrderBodySchema, response: { 201: orderSchema, ...errors } }), async (req, reply) => {
    const s = await session(req);
    const limits = await limitsFor(opts.db, s.key.userId);
    const answer = await once(s, req.body.clientOrderId, { route: 'order', body: req.body, field: 'clientOrderId' }, async (reconcile) => ({ status: 201 as const, body: await placeOrder(s, req.body, limits, reconcile) }));
    void recordAfter(s, req.body.symbol);
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
      const limits = await limitsFor(opts.db, s.key.userId);
      const deps = { db: opts.db, secret: app.config.SERVER_SECRET, log: req.log };
      const answer = await once(s, req.body.clientOrderId, { route: 'bracket', body: req.body, field: 'clientOrderId' }, (reconcile) => placeGuardedBracket(deps, s, req.body, limits, reconcile));
      void recordAfter(s, req.body.symbol);
      return reply.code(answer.status).send(answer.body);
    },
  );

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
      const limits = await limitsFor(opts.db, s.key.userId);
      const answer = await once<Order[] | { message: string; orders: Order[] }, 201 | 207>(s, req.body.clientOrderId, { route: 'ladder', body: req.body, field: 'clientOrderId' }, async (reconcile) => {
        const placed = await placeLadder(s, req.body, limits, reconcile);
        return placed instanceof LadderPartial ? { status: 207 as const, body: { message: placed.message, orders: placed.orders } } : { status: 201 as const, body: placed };
      });
      void recordAfter(s, req.body.symbol);
      return reply.code(answer.status).send(answer.body);
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

  app.delete(
    '/orders',
    route('Cancel every open order of a symbol (`Idempotency-Key`: a retry answers the first, cancelling nothing placed since)', {
      params,
      querystring: cancelAllQuerySchema,
      headers: keyPasswordHeadersSchema.extend({ [IDEMPOTENCY_HEADER]: clientOrderIdSchema.optional() }),
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
      const answer = await once(s, req.body.clientOrderId, { route: 'close', body: req.body, field: 'clientOrderId' }, async (reconcile) => ({ status: 201 as const, body: await closePosition(s, req.body, reconcile) }));
      void recordAfter(s, req.body.symbol);
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.put('/leverage', route("Set a symbol's leverage", { params, body: leverageBodySchema, response: { 200: messageResponseSchema, ...errors } }), async (req) => {
    // The exchange's own rules (leverage-rules.ts) before the key is opened: nothing is sent, no password is tried.
    const { exchange } = await getApiKey(opts.db, await ownerOf(req), req.params.apiKeyId);
    const problem = leverageProblem(exchange, req.body.leverage);
    if (problem) throw new HttpError(400, `Invalid leverage: ${problem}`, { leverage: problem });
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

  app.get(
    '/limits',
    route("Funded users: today's loss (every symbol, realised − fees + open PnL, USD) against the daily loss limit, and whether new risk is locked until 00:00 UTC", {
      params,
      response: { 200: tradeLimitsStatusSchema, ...errors },
    }),
    async (req) => tradeLimitsStatus(opts.db, await session(req)),
  );

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
