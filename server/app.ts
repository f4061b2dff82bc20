import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { accountsPlugin, type AppStreamOptions } from './compose/accounts';

import { corePlugin, type CoreOptions } from './compose/core';
import { docsPlugin } from './compose/docs';
import { eventsPlugin } from './compose/events';
import { httpPlugin } from './compose/http';
import { jobsPlugin } from './compose/jobs';
import { exchangeInfoPlugin, simulatorPlugin, type ExchangeInfoPluginOptions, type SimulatorOptions } from './compose/market';
import { scannerPlugin, type ScannerPluginOptions } from './compose/scanner';
import { apiKeysPlugin, tradingPlugin, type ApiKeysOptions, type TradingOptions } from './compose/trading';
import { trustProxyOption } from './config';
import { withRedaction } from './lib/log-redaction';
import { answerFrameworkError } from './plugins/errors';
import { registerSpa } from './plugins/web';
import type { JobsDeps } from './services/jobs';

export { WEBSOCKET_MAX_PAYLOAD_BYTES } from './compose/http';

/** Market-data test seams: proxy upstreams, exchange-info fetcher, sim clock, scanner, jobs, trading. */
export interface MarketDeps extends SimulatorOptions, ExchangeInfoPluginOptions {
  /** Tests: the scanner service's TTLs, clock, shared store, stream opener, push cadence. */
  scanner?: ScannerPluginOptions;
  /** Tests: the job runner's lease, cadences, instance name and clock. */
  jobs?: JobsDeps['tuning'];
  /** Tests: how live-mode trading reaches the exchanges. */
  trade?: TradingOptions;
}

export interface AppDeps extends CoreOptions {
  /** The NOTIFY / Redis channel of the event bus (default `ct_events`; tests isolate runs with it). */
  eventChannel?: string;
  /** The built SPA; default `<repo>/dist`. */
  distDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Market-data test seams: proxy upstreams, exchange-info fetcher, sim clock (see compose/). */
  market?: MarketDeps;
  /** API-key test seams: how live-mode key checks reach the exchanges (see compose/trading.ts). */
  apiKeys?: ApiKeysOptions;
  /** Tests: `/v1/stream`'s session check and keepalive cadence. */
  appStream?: AppStreamOptions;
}

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../dist', import.meta.url));

/**
 * The whole server as one Fastify instance (STYLE pattern 9), composed of named plugins that declare
 * what they need (server/compose/README.md): tests build it on a fresh database and drive it with
 * `app.inject`; main.ts only adds boot concerns (lock, migrations, listen).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    // Credentials never reach a log line (lib/log-redaction.ts), whatever logger a caller passes.
    logger: withRedaction(deps.logger ?? { level: config.LOG_LEVEL }, config.LOG_LEVEL),
    bodyLimit: config.BODY_LIMIT,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // `/v1/users/` and `/v1/users` are the same resource.
    routerOptions: { ignoreTrailingSlash: true },
    // A malformed %-escape in the path: 400 `{ message, fields }` naming the parameter, not Fastify's own body.
    frameworkErrors: answerFrameworkError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const market = deps.market ?? {};

  await app.register(corePlugin, { config, db: deps.db, driver: deps.driver, mailer: deps.mailer, redis: deps.redis, version: deps.version, rateLimitNamespace: deps.rateLimitNamespace });
  await app.register(eventsPlugin, { channel: deps.eventChannel });
  await app.register(httpPlugin);
  await app.register(docsPlugin);
  await app.register(accountsPlugin, { appStream: deps.appStream });
  await app.register(simulatorPlugin, { sim: market.sim });
  await app.register(apiKeysPlugin, deps.apiKeys ?? {});
  await app.register(exchangeInfoPlugin, { proxyTargets: market.proxyTargets, proxyTimeoutMs: market.proxyTimeoutMs, exchangeInfo: market.exchangeInfo });
  await app.register(tradingPlugin, market.trade ?? {});
  await app.register(scannerPlugin, market.scanner ?? {});
  await app.register(jobsPlugin, { tuning: { now: market.sim?.now, ...market.jobs } });
  // Last: the built SPA and its history fallback answer what no route above did.
  await app.register(spaPlugin, { distDir: deps.distDir ?? DEFAULT_DIST_DIR });
  return app;
}

/** `spa`: the built app from `dist/` with its history fallback, and the JSON 404s (plugins/web.ts). */
const spaPlugin = fp<{ distDir: string }>((app, opts) => registerSpa(app, opts), { name: 'spa', dependencies: ['core', 'http'] });
