import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import type { FetchFn } from '../exchanges/transport';
import type { ExchangeInfoService } from '../services/exchange-info';
import { isFeatureEnabled } from '../services/feature-flags';
import { TradingConnectors, type SimInject } from '../services/trading/connect';
import { TradeStreamHub } from '../services/trading/stream-hub';
import { tradeRoutes } from './v1/trade';
import { tradeAuditRoutes } from './v1/trade-audit';
import { tradeStreamRoutes } from './v1/trade-stream';

declare module 'fastify' {
  interface FastifyInstance {
    /** The trading room's long-lived parts: the connectors (clocks, rate budgets) and the account streams. */
    trading: { connectors: TradingConnectors; hub: TradeStreamHub };
  }
}

export interface TradeRouteDeps {
  db: Db;
  exchangeInfo: ExchangeInfoService;
  /** MARKET_DATA=sim: the connectors reach the paper exchange under `/sim` in-process (same bytes as live). */
  sim: boolean;
  /** Tests: how live-mode trading reaches the exchanges, and for how long. */
  fetch?: FetchFn;
  timeoutMs?: number;
  /** Tests: the account stream's reconnect back-off. */
  backoffMs?: (attempt: number) => number;
  /** Tests: how often a stream re-checks its session (sign-out closes it). */
  sessionCheckMs?: number;
}

/**
 * Mounts `/v1/trade/{apiKeyId}/…` and the admin's `/v1/users/{userId}/trade/{apiKeyId}/…` (DESIGN §3.2)
 * over one set of connectors (clocks and rate budgets kept across calls).
 */
export async function registerTradeRoutes(app: FastifyInstance, deps: TradeRouteDeps): Promise<{ connectors: TradingConnectors; hub: TradeStreamHub }> {
  const simInject: SimInject = async (req) => {
    const res = await app.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: req.headers,
      ...(req.body === undefined ? {} : { payload: req.body }),
    });
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = String(v);
    return { status: res.statusCode, text: res.body, headers };
  };
  const connectors = new TradingConnectors(
    deps.sim
      ? { mode: 'sim', simInject, simInjectWs: (url, headers) => app.injectWS(url, { headers }), timeoutMs: deps.timeoutMs }
      : { mode: 'live', fetch: deps.fetch, timeoutMs: deps.timeoutMs },
  );
  const hub = new TradeStreamHub({ db: deps.db, connectors, exchangeInfo: deps.exchangeInfo, log: app.log, backoffMs: deps.backoffMs });
  app.addHook('onClose', async () => hub.close());
  app.decorate('trading', { connectors, hub });
  // A deleted key's stream ends for every tab on every instance, and its connector state goes.
  app.events.on('api-key.deleted', ({ apiKeyId }) => {
    hub.closeKey(apiKeyId);
    connectors.forget(apiKeyId);
  });
  app.events.onResync(() => hub.closeDeletedKeys());
  await app.register(tradeStreamRoutes, { prefix: '/v1/trade', hub, sessionCheckMs: deps.sessionCheckMs });
  const common = {
    db: deps.db,
    connectors,
    exchangeInfo: deps.exchangeInfo,
    limiter: app.keyPasswordLimiter,
    isFlagEnabled: (key: Parameters<typeof isFeatureEnabled>[1]) => isFeatureEnabled(deps.db, key),
  };
  await app.register(tradeRoutes, { prefix: '/v1/trade/:apiKeyId', ...common, asAdmin: false });
  await app.register(tradeRoutes, { prefix: '/v1/users/:userId/trade/:apiKeyId', ...common, asAdmin: true });
  // What admins did on funded users' keys (written by the admin plugin's audit hook) and each key's day.
  await app.register(tradeAuditRoutes, { prefix: '/v1/users' });
  return { connectors, hub };
}
