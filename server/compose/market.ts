import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import WebSocket from 'ws';
import type { ExchangeId } from '../../src/api/contracts/common';
import { LIVE_ENDPOINTS, liveRestBase, type ProxyTargetId } from '../exchanges/endpoints';
import { exchangeRoutes } from '../routes/v1/exchanges';
import { proxyRoutes } from '../routes/v1/proxy';
import { ExchangeInfoService, type ExchangeInfoOptions, type FetchLike } from '../services/exchange-info';
import { isFeatureEnabled } from '../services/feature-flags';
import type { OpenStreamSocket } from '../services/scanner/streams';
import simPlugin, { SimMarket, setBenchPairs } from '../sim';

/** Where the server's own exchange reads go: the real hosts, or the simulator in-process. */
export interface MarketSource {
  /** True with MARKET_DATA=sim: nothing live is ever read, nothing simulated ever served in live mode. */
  sim: boolean;
  /** Public REST (exchange-info, scanner, jobs). */
  rest: Pick<ExchangeInfoOptions, 'fetch' | 'base'>;
  /** Public WebSocket streams (scanner, market feed). */
  open: OpenStreamSocket;
}

declare module 'fastify' {
  interface FastifyInstance {
    marketSource: MarketSource;
    /** Instrument lists of the four exchanges, cached (services/exchange-info.ts). */
    exchangeInfo: ExchangeInfoService;
  }
}

const globalFetch: FetchLike = (url, init) => fetch(url, init);

/** A live exchange's public stream (`ws` package; these reads never send credentials). */
export const openLive: OpenStreamSocket = (exchange: ExchangeId, path: string) =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(`${LIVE_ENDPOINTS[exchange].ws}${path}`, { handshakeTimeout: 10_000 });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });

/**
 * In sim mode the server reads the simulator in-process, through its own routes and wire formats (so
 * the same parsers as live mode read them), without a network hop.
 */
function simRest(app: FastifyInstance): MarketSource['rest'] {
  return {
    base: (exchange: ExchangeId) => ({ base: `/sim/${exchange}` }),
    fetch: async (url, init) => {
      const res = await app.inject({ method: 'GET', url, headers: init.headers });
      return { status: res.statusCode, json: async () => res.json() };
    },
  };
}

export interface SimulatorOptions {
  /** Sim mode: the market clock (default Date.now) and seed. */
  sim?: { now?: () => number; seed?: string | number };
}

/**
 * `simulator`: with MARKET_DATA=sim, the market simulator (+ `SIM_EXTRA_PAIRS` bench pairs) and paper exchange under `/sim` (its control
 * routes need an admin; the paper accounts live in the product's database, DESIGN §3.5); in both modes
 * `app.marketSource`, where the server's exchange reads go.
 */
export const simulatorPlugin = fp<SimulatorOptions>(
  async (app, opts) => {
    const sim = app.config.MARKET_DATA === 'sim' ? new SimMarket({ seed: opts.sim?.seed, now: opts.sim?.now }) : null;
    if (sim) setBenchPairs(app.config.SIM_EXTRA_PAIRS);
    if (sim) await app.register(simPlugin, { prefix: '/sim', market: sim, controlGuard: app.requireRole('admin'), db: app.db, sealingKey: app.config.SERVER_SECRET, flatWeights: !app.config.ADDRESS_BUDGETS });
    app.decorate('marketSource', {
      sim: sim !== null,
      rest: sim ? simRest(app) : { fetch: globalFetch, base: liveRestBase },
      open: sim ? (exchange: ExchangeId, path: string) => app.injectWS(`/sim/${exchange}${path}`) : openLive,
    });
  },
  { name: 'simulator', dependencies: ['core', 'http'] },
);

export interface ExchangeInfoPluginOptions {
  /** Tests: upstream hosts of the proxies (a local fake instead of the real exchanges). */
  proxyTargets?: Partial<Record<ProxyTargetId, string>>;
  proxyTimeoutMs?: number;
  /** Tests: how the exchange-info service reaches live exchanges (default: global fetch to the real hosts). */
  exchangeInfo?: Partial<Pick<ExchangeInfoOptions, 'fetch' | 'base' | 'ttlMs' | 'timeoutMs' | 'now'>>;
}

/**
 * `exchange-info`: the instrument lists (`app.exchangeInfo`; live lists shared through Redis between
 * instances), `/v1/exchanges*`, and the fixed-host, allow-listed proxies under `/v1/proxy/*`.
 */
export const exchangeInfoPlugin = fp<ExchangeInfoPluginOptions>(
  async (app, opts) => {
    const { redis, marketSource } = app;
    const exchangeInfo = new ExchangeInfoService({
      ...marketSource.rest,
      // Sim instruments are in-process and cheap: only live lists are shared between instances.
      ...(redis && !marketSource.sim
        ? {
            shared: {
              get: (key: string) => redis.get(key),
              set: async (key: string, value: string, ttlSeconds: number) => {
                await redis.set(key, value, 'EX', ttlSeconds);
              },
            },
          }
        : {}),
      ...opts.exchangeInfo,
      onRefreshError: (exchange, testnet, err) => app.log.warn({ exchange, testnet, err }, 'exchange-info refresh failed; serving the cached list'),
    });
    app.decorate('exchangeInfo', exchangeInfo);
    await app.register(exchangeRoutes, { prefix: '/v1', exchangeInfo, isFlagEnabled: (key) => isFeatureEnabled(app.db, key) });
    await app.register(proxyRoutes, { prefix: '/v1/proxy', targets: opts.proxyTargets, timeoutMs: opts.proxyTimeoutMs });
  },
  { name: 'exchange-info', dependencies: ['core', 'http', 'simulator'] },
);
