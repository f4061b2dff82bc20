import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { FetchFn } from '../exchanges/transport';
import { createKeyValidator, type InjectFn } from '../services/key-validation';
import { apiKeyRoutes } from './v1/api-keys';
import { fundedUserRoutes } from './v1/funded-users';

export interface ApiKeyRouteDeps {
  config: Config;
  /** Tests: how live-mode key checks reach the exchanges (default: global fetch to the real hosts). */
  fetch?: FetchFn;
  timeoutMs?: number;
}

/**
 * Mounts `/v1/api-keys` and the funded-user routes under `/v1/users`, with the key validator:
 * in simulator mode it signs requests to the simulator's private endpoints in-process (same bytes
 * as to a real exchange), in live mode to the exchanges' real hosts.
 */
export async function registerApiKeyRoutes(app: FastifyInstance, deps: ApiKeyRouteDeps): Promise<void> {
  const sim = deps.config.MARKET_DATA === 'sim';
  const inject: InjectFn = async (req) => {
    const res = await app.inject({ method: req.method as 'GET', url: req.url, headers: req.headers });
    return { status: res.statusCode, text: res.body };
  };
  const validator = createKeyValidator(sim ? { mode: 'sim', inject } : { mode: 'live', fetch: deps.fetch, timeoutMs: deps.timeoutMs });
  await app.register(apiKeyRoutes, { prefix: '/v1/api-keys', validator, simInject: sim ? inject : null });
  await app.register(fundedUserRoutes, { prefix: '/v1/users', validator });
}
