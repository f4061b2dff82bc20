import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import { adminTradeAuditPageSchema, adminTradeAuditQuerySchema, fundedDailyLossSchema, userIdParamSchema } from '../../../src/api/contracts/funded-users';
import { listAdminTradeAudit } from '../../services/trading/admin-audit';
import { fundedDailyLoss } from '../../services/trading/day-ledger';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
const security = [{ bearerAuth: [] }];
const tags = ['funded-users'];

/**
 * Under `/v1/users` (admin, issue 21): what admins did on a funded user's keys (the rows the trade
 * plugin's audit hook writes) and each key's loss today against the daily loss limit. Read only: the
 * admin pages show a lock, they cannot lift it.
 */
export const tradeAuditRoutes: FastifyPluginAsyncZod = async (app) => {
  const admin = app.requireRole('admin');

  app.get(
    '/:userId/trade-audit',
    {
      onRequest: admin,
      schema: {
        tags,
        summary: 'Admin trading on a user’s keys: who, when, which key and route, the body and the result; newest first, cursor-paged (admin)',
        security,
        params: userIdParamSchema,
        querystring: adminTradeAuditQuerySchema,
        response: { 200: adminTradeAuditPageSchema, ...errors },
      },
    },
    async (req) => listAdminTradeAudit(app.db, req.params.userId, req.query),
  );

  app.get(
    '/:userId/daily-loss',
    {
      onRequest: admin,
      schema: {
        tags,
        summary: 'Each key’s loss today (recorded fills, UTC day) against the user’s daily loss limit (admin)',
        security,
        params: userIdParamSchema,
        response: { 200: fundedDailyLossSchema, ...errors },
      },
    },
    async (req) => fundedDailyLoss(app.db, req.params.userId),
  );
};
