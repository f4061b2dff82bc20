import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { DataDirLockedError, lockDataDir, readOrCreateSecret } from './boot/data-dir';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase, postgresTimeoutsFromConfig, type DatabaseHandle } from './db/client';
import { ensureFirstAdmin, prepareDatabase } from './services/bootstrap';
import { redisReachable } from './services/redis-health';

/**
 * Boot only (DESIGN §1, §5): configuration, the data-dir lock, database + migrations, the first
 * admin, listen, and a clean shutdown on SIGTERM/SIGINT. Everything else is in app.ts.
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const dataDir = path.resolve(config.DATA_DIR);
  let releaseLock = () => {};
  let handle: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;

  const shutdown = async (code: number) => {
    try {
      if (app) await app.close();
      if (handle) await handle.close();
    } finally {
      releaseLock();
      process.exit(code);
    }
  };

  try {
    // The lock guards the embedded database; PostgreSQL handles its own concurrency.
    if (!config.DATABASE_URL) releaseLock = lockDataDir(dataDir);
    const jwtSecret = config.JWT_SECRET ?? readOrCreateSecret(dataDir);
    // Sealed credentials of guarded brackets (issues 13, 21) open only with this one. In production it
    // must come from the environment: one generated into DATA_DIR would let a copy of the data
    // directory alone open them. Without it the server holds no credentials (brackets are refused).
    const production = process.env.NODE_ENV === 'production';
    const serverSecret = config.SERVER_SECRET ?? (production ? undefined : readOrCreateSecret(dataDir, 'server-secret'));
    handle = await openDatabase(
      config.DATABASE_URL
        ? { driver: 'postgres', url: config.DATABASE_URL, poolSize: config.DB_POOL_SIZE, timeouts: postgresTimeoutsFromConfig(config) }
        : { driver: 'pglite', dataDir: path.join(dataDir, 'pglite') },
    );
    await prepareDatabase(handle);

    app = await buildApp({ config: { ...config, JWT_SECRET: jwtSecret, SERVER_SECRET: serverSecret }, db: handle.db, driver: handle.driver });
    if (config.DATABASE_URL && !config.JWT_SECRET) {
      app.log.warn('JWT_SECRET is not set: using the one in DATA_DIR. Several instances on one database must share one JWT_SECRET.');
    }
    if (production && !config.SERVER_SECRET) {
      app.log.warn(
        'SERVER_SECRET is not set: with NODE_ENV=production the server holds no exchange credentials, so brackets (guarded by the server) are refused. Set SERVER_SECRET (at least 32 characters, the same on every instance) to allow them.',
      );
    } else if (config.DATABASE_URL && !config.SERVER_SECRET) {
      app.log.warn('SERVER_SECRET is not set: using the one in DATA_DIR. Several instances on one database must share one SERVER_SECRET, or guarded brackets stop on the others.');
    }
    if (app.redis) {
      // Not fatal: the rate limits count per instance until Redis answers (services/rate-limit-store.ts).
      const redis = await redisReachable(app.redis, 3000);
      if (!redis.ok) console.warn(`Redis (REDIS_URL) is unreachable: ${redis.reason}. Starting anyway; rate limits count per instance until it answers.`);
    }

    const admin = await ensureFirstAdmin(handle.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
    if (admin.created) {
      const lines = [
        admin.promoted ? `Made the existing account ${admin.email} an admin.` : `Created the admin account ${admin.email}.`,
        ...(admin.generatedPassword
          ? [`Its password is: ${admin.generatedPassword}`, 'It is shown only this once: sign in and change it in Settings.']
          : []),
      ];
      console.log(`\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
    }

    let stopping = false;
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      process.on(signal, () => {
        if (stopping) {
          // A second signal while closing: give up waiting.
          releaseLock();
          process.exit(1);
        }
        stopping = true;
        app?.log.info(`${signal}: closing`);
        void shutdown(0);
      });
    }

    await app.listen({ port: config.PORT, host: config.HOST });
    const shownHost = config.HOST === '0.0.0.0' || config.HOST === '::' ? 'localhost' : config.HOST;
    const port = (app.server.address() as { port?: number } | null)?.port ?? config.PORT;
    console.log(
      `${config.PRODUCT_NAME} is running at http://${shownHost}:${port} (API docs: /docs; ` +
        `database: ${handle.driver === 'pglite' ? `PGlite in ${path.join(dataDir, 'pglite')}` : 'PostgreSQL'}; market data: ${config.MARKET_DATA})`,
    );
  } catch (err) {
    if (err instanceof DataDirLockedError) {
      console.error(err.message);
    } else {
      console.error('The server could not start:', err instanceof Error ? err.message : err);
      if (app) app.log.error({ err }, 'start failed');
    }
    await shutdown(1);
  }
}

void main();
