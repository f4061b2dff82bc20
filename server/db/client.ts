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

export type OpenDatabaseOptions =
  | { driver: 'postgres'; url: string; poolSize?: number }
  /** `dataDir` undefined → in-memory (tests). */
  | { driver: 'pglite'; dataDir?: string };

export async function openDatabase(opts: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (opts.driver === 'postgres') {
    const pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
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
      migrate: () => migratePg(db, { migrationsFolder: MIGRATIONS_DIR }),
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
