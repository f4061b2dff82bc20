import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Config } from '../config';
import type { Db, DbDriver } from '../db/client';
import type { AuthContext } from '../services/auth';
import { KeyPasswordLimiter } from '../services/key-password-limit';
import { createMailer, type Mailer } from '../services/mailer';
import { ResilientCounter } from '../services/rate-limit-store';
import { REDIS_CLIENT_OPTIONS, watchRedis, type RedisState } from '../services/redis-health';
import { appVersion } from '../version';

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
    /** Fixed-window counters in Redis while it answers, in memory otherwise (the rate limits' store). */
    rateCounter: ResilientCounter;
    /** Wrong-key-password limits: pass it to `openApiKey` (services/key-password-limit.ts). */
    keyPasswordLimiter: KeyPasswordLimiter;
    mailer: Mailer;
    /** Build version shown in `/v1/config`. */
    buildVersion: string;
    authContext: AuthContext;
  }
}

export interface CoreOptions {
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
}

/**
 * `core`: what every other part reads — the configuration, the database, Redis (and its health), the
 * mailer, the wrong-key-password limiter, the auth context. The connections it opened close with the app.
 */
export const corePlugin = fp<CoreOptions>(
  async (app, deps) => {
    const { config } = deps;
    const secret = config.JWT_SECRET;
    if (!secret) throw new Error('buildApp: config.JWT_SECRET is required');
    // Fails fast while Redis is away (REDIS_CLIENT_OPTIONS: no offline queue, 250 ms command timeout).
    const ownRedis = deps.redis === undefined && config.REDIS_URL ? new Redis(config.REDIS_URL, REDIS_CLIENT_OPTIONS) : null;
    const redis = deps.redis ?? ownRedis;
    // Before any await: ioredis reports a refused connection as an 'error' event, unhandled without a listener.
    const redisWatch = watchRedis(redis, app.log);
    const counter = new ResilientCounter({ redis, health: redisWatch, namespace: deps.rateLimitNamespace ?? 'ct-rate-limit-' });
    const mailer = deps.mailer ?? createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM ?? `${config.PRODUCT_NAME} <no-reply@localhost>`, log: app.log });

    app.decorate('config', config);
    app.decorate('db', deps.db);
    app.decorate('dbDriver', deps.driver ?? 'pglite');
    app.decorate('redis', redis);
    app.decorate('redisHealth', () => ({ state: redisWatch.state() }));
    app.decorate('rateCounter', counter);
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
      events: null,
    });
    app.addHook('onClose', async () => {
      mailer.close?.();
      if (ownRedis) await ownRedis.quit().catch(() => ownRedis.disconnect());
      redisWatch.close();
    });
  },
  { name: 'core' },
);
