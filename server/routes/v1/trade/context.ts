import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { KEY_PASSWORD_HEADER, tradeKeyPasswordHeadersSchema } from '../../../../src/api/contracts/api-keys';
import { errorResponseSchema } from '../../../../src/api/contracts/common';
import type { FeatureFlagKey } from '../../../../src/api/contracts/feature-flags';
import { apiKeyIdParamsSchema, orderIdParamsSchema, type Order } from '../../../../src/api/contracts/trading';
import { forbidden, HttpError, notFound } from '../../../lib/http-error';
import { currentUser } from '../../../plugins/authenticate';
import { USER_NOT_FOUND } from '../../../services/funded-users';
import type { FundedCache } from '../../../services/trading/funded-cache';
import { tagOrder } from '../../../services/trading/ids';
import { idempotent, type Answer } from '../../../services/trading/idempotency';
import type { AccountStates } from '../../../services/trading/account-states';
import { openTradeSession, type TradeSession, type TradeSessionDeps } from '../../../services/trading/session';

/** The app as a zod-typed plugin sees it (the registrars of `trade/*.ts` take it). */
export type TradeApp = Parameters<FastifyPluginAsyncZod>[0];

export const errors = {
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
export const security = [{ bearerAuth: [] }];
export const tags = ['trade'];

export interface TradeRouteOptions extends TradeSessionDeps {
  /** `/v1/users/{userId}/trade/…`: an admin acting for a funded user (recorded as done by the admin). */
  asAdmin: boolean;
  isFlagEnabled: (key: FeatureFlagKey) => Promise<boolean>;
  /** Funded status and limits held in memory, dropped on `funded-user.changed` (`app.fundedCache`). */
  funded: FundedCache;
  /** The instance's account states (the pre-send checks read them where fresh). */
  accounts?: AccountStates;
}

/** What every trade route shares: its guard and params, the key's session, the idempotency wrapper. */
export function tradeRouteContext(app: TradeApp, opts: TradeRouteOptions) {
  const guard = opts.asAdmin ? app.requireRole('admin') : app.requireUser;
  const params = opts.asAdmin ? apiKeyIdParamsSchema.extend({ userId: z.uuid() }) : apiKeyIdParamsSchema;
  const orderParams = opts.asAdmin ? orderIdParamsSchema.extend({ userId: z.uuid() }) : orderIdParamsSchema;

  /** The key's owner: the signed-in user, or (admin routes) the funded user named in the path. */
  const ownerOf = async (req: FastifyRequest): Promise<string> => {
    const me = currentUser(req);
    if (!opts.asAdmin) return me.id;
    const userId = (req.params as { userId: string }).userId;
    if (!(await opts.funded.status(userId)).funded) throw notFound(`${USER_NOT_FOUND} among funded users`);
    return userId;
  };

  const session = async (req: FastifyRequest): Promise<TradeSession> => {
    const owner = await ownerOf(req);
    const me = currentUser(req);
    const { apiKeyId } = req.params as { apiKeyId: string };
    const keyPassword = (req.headers as Record<string, string | undefined>)[KEY_PASSWORD_HEADER];
    // The caller's sign-in holds its unlocks (an admin's, for a funded user's key, are the admin's).
    return openTradeSession(opts, owner, apiKeyId, { sessionId: me.familyId, userId: me.id, keyPassword });
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

  /**
   * A mutating request under its idempotency key (issue 21: a retry never doubles): the first runs,
   * a retry answers its stored answer. `run(true)` is a re-run after a 5xx: it looks up before placing.
   */
  const once = async <T, S extends 200 | 201 | 207>(s: TradeSession, clientId: string | undefined, what: { route: string; body: unknown; field: string }, run: (reconcile: boolean) => Promise<Answer<T, S>>) =>
    idempotent({ db: opts.db, apiKeyId: s.key.id, userId: s.key.userId }, { clientId, ...what }, run);

  /**
   * After an order, the fills it made are recorded in the background (a failure only delays them to the next
   * read) — read from the exchange only while the key's account state is not streaming: when it is, the
   * stream's fill events record them (and a gap's reconnect reads the fills it may have missed), so the read
   * (Binance: 5 of the address's weight per order) is not spent.
   */
  const recordAfter = async (s: TradeSession, symbol: string): Promise<void> => {
    if (opts.accounts?.get(s.key.id)?.ordersFresh) return;
    try {
      const inst = s.instrument(symbol);
      const page = await s.run((c) => c.fills(inst));
      await s.record(inst, page.data);
    } catch (err) {
      app.log.warn({ err: err instanceof HttpError ? err.message : String(err) }, 'recording fills after an order failed; the next read records them');
    }
  };

  const headers = tradeKeyPasswordHeadersSchema;
  const route = <T extends object>(summary: string, extra: T) => ({ onRequest: guard, schema: { tags, summary, security, headers, ...extra } });

  return { opts, guard, params, orderParams, ownerOf, session, requireFlag, openOrder, once, recordAfter, route };
}

export type TradeRouteContext = ReturnType<typeof tradeRouteContext>;
