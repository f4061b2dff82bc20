import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Config } from '../config';
import { guardPool } from './pool-guard';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type services use: drizzle over PGlite and over node-postgres share it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DbDriver = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Db;
  driver: DbDriver;
  /** Applies the committed SQL migrations from server/drizzle (idempotent). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../drizzle');

/**
 * How long PostgreSQL may take before a request gives up and answers 503 (plugins/errors.ts) instead
 * of hanging: without them a frozen database held every request for 20 s, and 15 requests waiting
 * on one row lock held the whole pool.
 */
export interface PostgresTimeouts {
  /** TCP + TLS + authentication of a new connection, and the wait for a pooled one (pg-pool uses one knob for both). */
  connectMs: number;
  /** Server side `statement_timeout`: the server cancels a statement running longer (57014). */
  statementMs: number;
  /** Server side `lock_timeout`: a statement waiting longer for a row or table lock fails (55P03). */
  lockMs: number;
  /** Server side `idle_in_transaction_session_timeout`: ends a session whose transaction the app left open, releasing its locks. */
  idleInTransactionMs: number;
}

export const DEFAULT_POSTGRES_TIMEOUTS: PostgresTimeouts = { connectMs: 3000, statementMs: 5000, lockMs: 2000, idleInTransactionMs: 10_000 };

/**
 * The client-side read timeout is the backstop for a database that does not answer at all (frozen
 * host, dropped network): the server's own statement timeout should fire first and keep the
 * connection usable, so the client waits a little longer than that.
 */
export const queryTimeoutMs = (t: PostgresTimeouts) => t.statementMs + Math.min(1000, Math.max(200, Math.round(t.statementMs / 2)));

/** The DB_* settings of the environment as openDatabase options. */
export function postgresTimeoutsFromConfig(config: Config): PostgresTimeouts {
  return {
    connectMs: config.DB_CONNECT_TIMEOUT_MS,
    statementMs: config.DB_STATEMENT_TIMEOUT_MS,
    lockMs: config.DB_LOCK_TIMEOUT_MS,
    idleInTransactionMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
  };
}

export type OpenDatabaseOptions =
  | { driver: 'postgres'; url: string; poolSize?: number; timeouts?: Partial<PostgresTimeouts> }
  /** `dataDir` undefined → in-memory (tests). */
  | { driver: 'pglite'; dataDir?: string };

export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (opts.driver === 'postgres') {
    const t = { ...DEFAULT_POSTGRES_TIMEOUTS, ...opts.timeouts };
    const max = opts.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: opts.url,
      max,
      connectionTimeoutMillis: t.connectMs,
      statement_timeout: t.statementMs,
      lock_timeout: t.lockMs,
      idle_in_transaction_session_timeout: t.idleInTransactionMs,
      query_timeout: queryTimeoutMs(t),
      // Lets the kernel notice a peer that vanished without a FIN (host down, network cut).
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      // Timestamps cross the wire as text: read and written in UTC whatever the server's own zone is.
      options: '-c TimeZone=UTC',
    });
    // One route may hold half the pool: the other half keeps serving everything else (pool-guard.ts).
    guardPool(pool, { perScopeMax: Math.max(1, Math.ceil(max / 2)), acquireTimeoutMs: t.connectMs });
    // Fail at start, with the driver's reason, rather than on the first request.
    const probe = await pool.connect().catch(async (err: unknown) => {
      await pool.end().catch(() => undefined);
      throw new Error(`Cannot connect to PostgreSQL (DATABASE_URL): ${err instanceof Error ? err.message : String(err)}`);
    });
    probe.release();
    // An idle client that errors (server restart) must not crash the process; the pool replaces it.
    pool.on('error', () => undefined);
    const db = drizzlePg({ client: pool, schema });
    return {
      db: db as unknown as Db,
      driver: 'postgres',
      // Migrations may rewrite a big table or wait for a lock: no statement or lock timeout for them.
      migrate: async () => {
        const own = new pg.Pool({ connectionString: opts.url, max: 1, connectionTimeoutMillis: t.connectMs });
        own.on('error', () => undefined);
        try {
          await migratePg(drizzlePg({ client: own, schema }), { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await own.end();
        }
      },
      close: () => pool.end(),
    };
  }

  let client: PGlite;
  if (opts.dataDir) {
    // PGlite creates only the last folder of its path (STACK.md pitfalls).
    mkdirSync(opts.dataDir, { recursive: true });
    client = await PGlite.create(opts.dataDir);
  } else {
    client = await PGlite.create();
  }
  const db = drizzlePglite({ client, schema });
  return {
    db: db as unknown as Db,
    driver: 'pglite',
    migrate: () => migratePglite(db, { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
  };
}
