import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { appConfigSchema, type AppConfig } from '../../../src/api/contracts/config';
import { LIVE_ENDPOINTS, simEndpoints } from '../../exchanges/endpoints';

/** `GET /v1/config` (public): what the SPA needs at run time (DESIGN §1), so no rebuild changes it. */
export const configRoutes: FastifyPluginAsyncZod = async (app) => {
  const body: AppConfig = {
    productName: app.config.PRODUCT_NAME,
    marketData: app.config.MARKET_DATA,
    version: app.buildVersion,
    sentryDsn: app.config.SENTRY_DSN ?? null,
    mail: Boolean(app.config.SMTP_URL),
    custody: Boolean(app.config.SERVER_SECRET),
    exchanges: app.config.MARKET_DATA === 'sim' ? simEndpoints() : LIVE_ENDPOINTS,
  };
  app.get('/config', { schema: { tags: ['config'], summary: 'Run-time configuration of the web app', response: { 200: appConfigSchema } } }, async (_req, reply) => {
    reply.header('cache-control', 'no-cache');
    return body;
  });
};
