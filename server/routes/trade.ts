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
  // A deleted key's stream ends for every tab (the key's routes live in routes/v1/api-keys.ts, funded-users.ts).
  app.addHook('onResponse', async (req, reply) => {
    if (req.method !== 'DELETE' || reply.statusCode >= 300) return;
    const url = req.routeOptions.url;
    const p = req.params as { id?: string; apiKeyId?: string };
    if (url === '/v1/api-keys/:id' && p.id) hub.closeKey(p.id);
    else if (url === '/v1/users/:userId/api-keys/:apiKeyId' && p.apiKeyId) hub.closeKey(p.apiKeyId);
  });
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
