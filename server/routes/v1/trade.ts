import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordAdminTrade } from '../../services/trading/admin-audit';
import { accountReadRoutes, positionRoutes } from './trade/account';
import { tradeRouteContext, type TradeRouteOptions } from './trade/context';
import { changeRoutes, orderReadRoutes, placeRoutes } from './trade/orders';

export type { TradeRouteOptions } from './trade/context';

/**
 * `/v1/trade/{apiKeyId}/…` (DESIGN §3.2): trading on one of the user's stored keys, opened with the
 * key password of `X-Key-Password` for the call only. Every route answers the one model of §3.1.
 * The routes live in `trade/`: the account's reads and the position (`account.ts`), orders read,
 * placed and changed (`orders.ts`), on the context they share (`context.ts`).
 */
export const tradeRoutes: FastifyPluginAsyncZod<TradeRouteOptions> = async (app, opts) => {
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
  const ctx = tradeRouteContext(app, opts);
  accountReadRoutes(app, ctx);
  orderReadRoutes(app, ctx);
  placeRoutes(app, ctx);
  changeRoutes(app, ctx);
  positionRoutes(app, ctx);
};
