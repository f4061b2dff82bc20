import { z } from 'zod';

export const HEALTH_STATUSES = ['ok', 'degraded', 'down'] as const;

/**
 * `GET /v1/health` (public, for load balancers): 200 while the database answers — `degraded` when
 * Redis is configured but down (rate limits then fall back to this instance) — and 503 `down` when
 * the database does not answer within `DB_HEALTH_TIMEOUT_MS`.
 */
export const healthSchema = z.object({
  status: z.enum(HEALTH_STATUSES),
  database: z.object({
    state: z.enum(['ok', 'down']),
    /** Round trip of `select 1`, when it answered. */
    latencyMs: z.number().nonnegative().optional(),
    /** Why it is down: a short cause ("connection refused", "no answer within 1500 ms"), never a host or a query. */
    reason: z.string().optional(),
  }),
  /** `off`: no REDIS_URL. */
  redis: z.object({ state: z.enum(['ok', 'down', 'off']) }),
});
export type Health = z.infer<typeof healthSchema>;
