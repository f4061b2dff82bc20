import type { FastifyInstance } from 'fastify';
import type { ExchangeId } from '../../src/api/contracts/common';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { liveRestBase, type ProxyTargetId } from '../exchanges/endpoints';
import { ExchangeInfoService, type ExchangeInfoOptions, type FetchLike } from '../services/exchange-info';
import { isFeatureEnabled } from '../services/feature-flags';
import simPlugin, { SimMarket } from '../sim';
import { registerJobs, type JobsDeps } from '../services/jobs';
import { openLive, registerScannerRoutes, type ScannerRouteDeps } from './scanner';
import { registerTradeRoutes, type TradeRouteDeps } from './trade';
import { exchangeRoutes } from './v1/exchanges';
import { proxyRoutes } from './v1/proxy';

export interface MarketRouteDeps {
  config: Config;
  db: Db;
  /** Tests: upstream hosts of the proxies (a local fake instead of the real exchanges). */
  proxyTargets?: Partial<Record<ProxyTargetId, string>>;
  proxyTimeoutMs?: number;
  /** Tests: how the exchange-info service reaches live exchanges (default: global fetch to the real hosts). */
  exchangeInfo?: Partial<Pick<ExchangeInfoOptions, 'fetch' | 'base' | 'ttlMs' | 'timeoutMs' | 'now'>>;
  /** Sim mode: the market clock (default Date.now) and seed. */
  sim?: { now?: () => number; seed?: string | number };
  /** Tests: the scanner service's TTLs, clock, shared store, stream opener, push cadence. */
  scanner?: Pick<ScannerRouteDeps, 'scanner' | 'pushIntervalMs' | 'flagCheckMs'>;
  /** Tests: the job runner's lease, cadences, instance name and clock. */
  jobs?: JobsDeps['tuning'];
  /** Tests: how live-mode trading reaches the exchanges. */
  trade?: Pick<TradeRouteDeps, 'fetch' | 'timeoutMs' | 'backoffMs' | 'sessionCheckMs'>;
}

/**
 * Where the market-data side of the server plugs in: `/v1/exchanges*`, the exchange proxies under
 * `/v1/proxy/*` and, with MARKET_DATA=sim, the simulator under `/sim`. `buildApp` calls this once,
 * after the core API and before the SPA fallback. In live mode nothing is simulated, ever.
 */
export async function registerMarketRoutes(app: FastifyInstance, deps: MarketRouteDeps): Promise<void> {
  const sim = deps.config.MARKET_DATA === 'sim' ? new SimMarket({ seed: deps.sim?.seed, now: deps.sim?.now }) : null;
  // The control routes are test aids: an admin's token, not an open door (issue "Hardening").
  // The paper exchange keeps its accounts in the product's database (DESIGN §3.5).
  if (sim) await app.register(simPlugin, { prefix: '/sim', market: sim, controlGuard: app.requireRole('admin'), db: deps.db });

  const redis = app.redis;
  const exchangeInfo = new ExchangeInfoService({
    ...(sim ? simSource(app) : { fetch: globalFetch, base: liveRestBase }),
    // Sim instruments are in-process and cheap: only live lists are shared between instances.
    ...(redis && !sim
      ? {
          shared: {
            get: (key: string) => redis.get(key),
            set: async (key: string, value: string, ttlSeconds: number) => {
              await redis.set(key, value, 'EX', ttlSeconds);
            },
          },
        }
      : {}),
    ...deps.exchangeInfo,
    onRefreshError: (exchange, testnet, err) => app.log.warn({ exchange, testnet, err }, 'exchange-info refresh failed; serving the cached list'),
  });

  await app.register(exchangeRoutes, {
    prefix: '/v1',
    exchangeInfo,
    isFlagEnabled: (key) => isFeatureEnabled(deps.db, key),
  });
  await app.register(proxyRoutes, { prefix: '/v1/proxy', targets: deps.proxyTargets, timeoutMs: deps.proxyTimeoutMs });
  const trade = await registerTradeRoutes(app, { db: deps.db, exchangeInfo, sim: sim !== null, ...deps.trade });
  await registerScannerRoutes(app, {
    source: sim ? simSource(app) : { fetch: globalFetch, base: liveRestBase },
    sim: sim !== null,
    exchangeInfo,
    isFlagEnabled: (key) => isFeatureEnabled(deps.db, key),
    ...deps.scanner,
  });
  // Server-side jobs read the same hosts: the simulator in sim mode, the live exchanges (mainnet) otherwise.
  registerJobs(app, {
    instruments: (exchange, testnet = false) => exchangeInfo.instruments(exchange, testnet),
    connectors: trade.connectors,
    rest: sim ? simSource(app) : { fetch: globalFetch, base: liveRestBase },
    open: sim ? (exchange, path) => app.injectWS(`/sim/${exchange}${path}`) : openLive,
    tuning: { now: deps.sim?.now, ...deps.jobs },
  });
}

const globalFetch: FetchLike = (url, init) => fetch(url, init);

/**
 * In sim mode the instrument lists come from the simulator in-process, through its own routes and
 * wire formats (so the same parsers as live mode read them), without a network hop.
 */
function simSource(app: FastifyInstance): Pick<ExchangeInfoOptions, 'fetch' | 'base'> {
  return {
    base: (exchange: ExchangeId) => ({ base: `/sim/${exchange}` }),
    fetch: async (url, init) => {
      const res = await app.inject({ method: 'GET', url, headers: init.headers });
      return { status: res.statusCode, json: async () => res.json() };
    },
  };
}
