import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createJsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import { trustProxyOption, type Config } from './config';
import type { Db, DbDriver } from './db/client';
import { HttpError } from './lib/http-error';
import { withRedaction } from './lib/log-redaction';
import { RetryLaterError } from './lib/retry-later';
import { registerAuthentication } from './plugins/authenticate';
import { registerDatabaseGuard } from './plugins/database';
import { answerFrameworkError, registerErrorHandler } from './plugins/errors';
import { registerInputGuard } from './plugins/input-guard';
import { registerSecurityHeaders, registerSpa } from './plugins/web';
import { registerXsrf } from './plugins/xsrf';
import { registerApiKeyRoutes, type ApiKeyRouteDeps } from './routes/api-keys';
import { registerMarketRoutes, type MarketRouteDeps } from './routes/market';
import { alertRoutes } from './routes/v1/alerts';
import { authRoutes } from './routes/v1/auth';
import { configRoutes } from './routes/v1/config';
import { featureFlagRoutes } from './routes/v1/feature-flags';
import { healthRoutes } from './routes/v1/health';
import { maintenanceRoutes } from './routes/v1/maintenance';
import { notificationRoutes } from './routes/v1/notifications';
import { settingsRoutes } from './routes/v1/settings';
import { userRoutes } from './routes/v1/users';
import { invitationRoutes } from './routes/v1/invitations';
import { referralRoutes } from './routes/v1/referrals';
import { fillRoutes, tradingVolumeRoutes } from './routes/v1/trading-volume';
import { userAdminRoutes } from './routes/v1/user-admin';
import type { AuthContext } from './services/auth';
import { EventBus } from './services/events/bus';
import { postgresTransport, redisTransport } from './services/events/transports';
import { KeyPasswordLimiter } from './services/key-password-limit';
import { createMailer, type Mailer } from './services/mailer';
import { rateLimitStore, ResilientCounter } from './services/rate-limit-store';
import { REDIS_CLIENT_OPTIONS, watchRedis, type RedisState } from './services/redis-health';
import { appVersion } from './version';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    dbDriver: DbDriver;
    /** Shared Redis connection when REDIS_URL is set (rate limits, caches, jobs across instances: DESIGN §6). */
    redis: Redis | null;
    /**
     * Redis as `/v1/health` reports it: `ok`, `down` (configured but not answering: rate limits count
     * per instance until it is back) or `off` (no REDIS_URL).
     */
    redisHealth: () => { state: RedisState };
    /** Wrong-key-password limits: pass it to `openApiKey` (services/key-password-limit.ts). */
    keyPasswordLimiter: KeyPasswordLimiter;
    mailer: Mailer;
    /** Build version shown in `/v1/config`. */
    buildVersion: string;
    authContext: AuthContext;
    /** What happened, told to every instance (services/events): key deleted, sessions ended... */
    events: EventBus;
  }
}

export interface AppDeps {
  /** JWT_SECRET must be set (main.ts fills it from DATA_DIR when the environment does not). */
  config: Config;
  db: Db;
  driver?: DbDriver;
  /** Default: SMTP when SMTP_URL is set, else the log. Tests pass one that records messages. */
  mailer?: Mailer;
  /** Default: a connection to REDIS_URL when set (closed with the app), else none. */
  redis?: Redis | null;
  version?: string;
  /** Prefix of rate-limit keys in Redis (tests isolate runs with it). */
  rateLimitNamespace?: string;
  /** The NOTIFY / Redis channel of the event bus (default `ct_events`; tests isolate runs with it). */
  eventChannel?: string;
  /** The built SPA; default `<repo>/dist`. */
  distDir?: string;
  logger?: FastifyServerOptions['logger'];
  /** Market-data test seams: proxy upstreams, exchange-info fetcher, sim clock (see routes/market.ts). */
  market?: Omit<MarketRouteDeps, 'config' | 'db'>;
  /** API-key test seams: how live-mode key checks reach the exchanges (see routes/api-keys.ts). */
  apiKeys?: Omit<ApiKeyRouteDeps, 'config'>;
}

export const DEFAULT_DIST_DIR = fileURLToPath(new URL('../dist', import.meta.url));

/**
 * The whole server as one Fastify instance (STYLE pattern 9): tests build it on a fresh database
 * and drive it with `app.inject`; main.ts only adds boot concerns (lock, migrations, listen).
 */
/** The largest WebSocket message any socket route takes (ws `maxPayload`). */
export const WEBSOCKET_MAX_PAYLOAD_BYTES = 64 * 1024;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const secret = config.JWT_SECRET;
  if (!secret) throw new Error('buildApp: config.JWT_SECRET is required');

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

  // Fails fast while Redis is away (REDIS_CLIENT_OPTIONS: no offline queue, 250 ms command timeout).
  const ownRedis = deps.redis === undefined && config.REDIS_URL ? new Redis(config.REDIS_URL, REDIS_CLIENT_OPTIONS) : null;
  const redis = deps.redis ?? ownRedis;
  // Before any await: ioredis reports a refused connection as an 'error' event, unhandled without a listener.
  const redisWatch = watchRedis(redis, app.log);
  const counter = new ResilientCounter({ redis, health: redisWatch, namespace: deps.rateLimitNamespace ?? 'ct-rate-limit-' });
  const mailer = deps.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM ?? `${config.PRODUCT_NAME} <no-reply@localhost>`, log: app.log });

  const eventChannel = deps.eventChannel ?? 'ct_events';
  const events = new EventBus({
    db: deps.db,
    log: app.log,
    transports: [postgresTransport(deps.db, eventChannel, app.log), ...(redis ? [redisTransport(redis, eventChannel, app.log)] : [])],
  });
  app.decorate('events', events);
  // Other instances' events arrive once the app is ready (inject and listen both make it ready).
  app.addHook('onReady', () => events.start());

  app.decorate('config', config);
  app.decorate('db', deps.db);
  app.decorate('dbDriver', deps.driver ?? 'pglite');
  app.decorate('redis', redis);
  app.decorate('redisHealth', () => ({ state: redisWatch.state() }));
  app.decorate(
    'keyPasswordLimiter',
    new KeyPasswordLimiter(counter, { perKey: config.KEY_PASSWORD_MAX_PER_KEY, perUser: config.KEY_PASSWORD_MAX_PER_USER, windowMs: config.KEY_PASSWORD_WINDOW_MS }),
  );
  app.decorate('mailer', mailer);
  app.decorate('buildVersion', deps.version ?? appVersion());
  app.decorate('authContext', {
    db: deps.db,
    secret,
    mailer,
    publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`,
    productName: config.PRODUCT_NAME,
    log: app.log,
    events,
  });
  app.addHook('onClose', async () => {
    await events.stop();
    mailer.close?.();
    if (ownRedis) await ownRedis.quit().catch(() => ownRedis.disconnect());
    redisWatch.close();
  });

  registerDatabaseGuard(app);
  registerErrorHandler(app);
  // NUL, lone surrogates and over-deep JSON answer 400 before any route sees them.
  registerInputGuard(app);
  // Services' 429/503 (key passwords, busy scrypt) say when to come back, like the route limits do.
  app.addHook('onError', async (_req, reply, err) => {
    if (err instanceof RetryLaterError) reply.header('retry-after', String(err.retryAfterSeconds));
  });
  await registerSecurityHeaders(app, { publicUrl: config.PUBLIC_URL ?? `http://localhost:${config.PORT}`, sentryDsn: config.SENTRY_DSN });
  await app.register(cookie);
  registerXsrf(app, secret);
  await app.register(rateLimit, {
    global: false,
    // Shared through Redis while it answers, per instance while it does not (services/rate-limit-store.ts).
    store: rateLimitStore(counter),
    errorResponseBuilder: (_req, ctx) => new HttpError(ctx.statusCode, `Too many attempts: try again in ${ctx.after}`),
  });
  // Every socket route (the trade and scanner streams, the simulator's exchange sockets) gets small
  // JSON messages: ws refuses a larger frame with 1009 from its length header, before buffering it
  // (its default would take 100 MiB). The trade stream allows only 4 KB until it is authenticated.
  await app.register(websocket, { options: { maxPayload: WEBSOCKET_MAX_PAYLOAD_BYTES } });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: `${config.PRODUCT_NAME} API`, version: app.buildVersion },
      components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    },
    transform: createJsonSchemaTransform({ skipList: ['/docs', '/docs/', '/docs/*', '/docs/json', '/docs/yaml', '/docs/static/*'] }),
  });
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      // "Try it out" must pass the XSRF check like the SPA does: copy the cookie into the header.
      // Serialised into the page with Function#toString, so it must stay self-contained.
      requestInterceptor: (request) => {
        const match = /(?:^|;\s*)XSRF-TOKEN=([^;]+)/.exec(document.cookie);
        if (match) (request.headers as unknown as Record<string, string>)['X-XSRF-TOKEN'] = decodeURIComponent(match[1]);
        return request;
      },
    },
    staticCSP: true,
    // Same reason as the app's CSP: plain-http deployments must keep loading the page's own assets.
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });

  registerAuthentication(app, deps.db, secret);
  await app.register(configRoutes, { prefix: '/v1' });
  await app.register(healthRoutes, { prefix: '/v1' });
  await app.register(authRoutes, { prefix: '/v1/auth' });
  await app.register(userRoutes, { prefix: '/v1/users' });
  await app.register(settingsRoutes, { prefix: '/v1/users' });
  await registerApiKeyRoutes(app, { ...deps.apiKeys, config });
  await app.register(featureFlagRoutes, { prefix: '/v1/feature-flags' });
  await app.register(maintenanceRoutes, { prefix: '/v1/maintenance' });
  await app.register(userAdminRoutes, { prefix: '/v1/users' });
  await app.register(invitationRoutes, { prefix: '/v1/invitations' });
  await app.register(referralRoutes, { prefix: '/v1/referrals' });
  await app.register(tradingVolumeRoutes, { prefix: '/v1/trading-volume' });
  await app.register(fillRoutes, { prefix: '/v1/fills' });
  await app.register(alertRoutes, { prefix: '/v1/alerts' });
  await app.register(notificationRoutes, { prefix: '/v1/notifications' });

  await registerMarketRoutes(app, { ...deps.market, config, db: deps.db });

  await registerSpa(app, { distDir: deps.distDir ?? DEFAULT_DIST_DIR });
  return app;
}

