import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { healthSchema, type Health } from '../../../src/api/contracts/health';
import { DATABASE_RETRY_AFTER_SECONDS } from '../../plugins/errors';

/**
 * `GET /v1/health` (public, not rate limited): one shared `select 1` with its own short timeout
 * (`app.dbStatus.check()`), and Redis as the rate limiter sees it. Answers within
 * DB_HEALTH_TIMEOUT_MS, 503 when the database is down so a load balancer takes the instance out.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['health'],
        summary: 'Database and Redis state, for load balancers (503 when the database does not answer)',
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (_req, reply) => {
      const database = await app.dbStatus.check();
      const redis = app.redisHealth();
      const status: Health['status'] = database.state === 'down' ? 'down' : redis.state === 'down' ? 'degraded' : 'ok';
      const body: Health = {
        status,
        database: { state: database.state, ...(database.latencyMs === undefined ? {} : { latencyMs: database.latencyMs }), ...(database.reason ? { reason: database.reason } : {}) },
        redis: { state: redis.state },
      };
      reply.header('cache-control', 'no-store');
      if (status === 'down') reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS.unavailable));
      return reply.code(status === 'down' ? 503 : 200).send(body);
    },
  );
};
