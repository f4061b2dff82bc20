import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '../../../src/api/contracts/common';
import { importFillsBodySchema, importFillsResultSchema, tradingVolumeQuerySchema, tradingVolumeResponseSchema } from '../../../src/api/contracts/trading-volume';
import { importFills } from '../../services/fills';
import { getTradingVolume } from '../../services/trading-volume';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };
const security = [{ bearerAuth: [] }];

/** `/v1/trading-volume` (admin, DESIGN §4): volume per user / exchange / month from recorded fills. */
export const tradingVolumeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['trading-volume'],
        summary: 'Volume per user, exchange, network and month with totals and a monthly series (admin)',
        security,
        querystring: tradingVolumeQuerySchema,
        response: { 200: tradingVolumeResponseSchema, ...errors },
      },
    },
    async (req) => getTradingVolume(app.db, req.query),
  );
};

/** `/v1/fills` (admin): import executions from an exchange export; trading records its own fills. */
export const fillRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/import',
    {
      onRequest: app.requireRole('admin'),
      schema: {
        tags: ['trading-volume'],
        summary: 'Record fills from an export; already recorded executions are skipped (admin)',
        security,
        body: importFillsBodySchema,
        response: { 200: importFillsResultSchema, ...errors },
      },
    },
    async (req) => importFills(app.db, req.body),
  );
};
