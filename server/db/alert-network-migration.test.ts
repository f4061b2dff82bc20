import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, TEST_DRIVERS, type TestDriver } from '../test/helper';
import { MIGRATIONS_DIR } from './client';

/** The committed migrations up to and including `lastTag` (a database as a release before it left it). */
function migrationsUpTo(lastTag: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ct-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  expect(last, lastTag).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

interface Opened {
  run(query: ReturnType<typeof sql>): Promise<Record<string, unknown>[]>;
  migrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

async function open(driver: TestDriver): Promise<Opened> {
  if (driver === 'pglite') {
    const client = await PGlite.create();
    const db = drizzlePglite({ client });
    return {
      run: async (q) => (await db.execute(q)).rows as Record<string, unknown>[],
      migrate: (folder) => migratePglite(db, { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const { url, drop } = await createPostgresDatabase();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = drizzlePg({ client: pool });
  return {
    run: async (q) => (await db.execute(q)).rows,
    migrate: (folder) => migratePg(db, { migrationsFolder: folder }),
    close: async () => {
      await pool.end();
      await drop();
    },
  };
}

describe.each(TEST_DRIVERS)('migration 0010 (alerts.network) on %s', (driver) => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('says MAINNET for the alerts that were evaluated on mainnet, and takes no alert without a known network after it', async () => {
    const before = migrationsUpTo('0009_paper_events');
    dirs.push(before);
    const db = await open(driver);
    try {
      await db.migrate(before);
      await db.run(sql`insert into users (email, password_hash, referral_code) values ('old@example.com', 'x', 'OLDREF01')`);
      await db.run(sql`insert into alerts (user_id, exchange, symbol, initial_price, trigger_price)
        select id, 'bybit', 'BTCUSDT', 60000, 65000 from users where email = 'old@example.com'`);
      await db.migrate(MIGRATIONS_DIR);

      expect(await db.run(sql`select exchange, network, status from alerts`)).toEqual([{ exchange: 'bybit', network: 'MAINNET', status: 'active' }]);
      // The default only backfilled: an insert must name its network, and only a known one.
      const insert = (network: string | null) =>
        db.run(sql`insert into alerts (user_id, exchange, network, symbol, initial_price, trigger_price)
          select id, 'okx', ${network}, 'ETHUSDT', 3000, 3100 from users where email = 'old@example.com'`);
      await expect(db.run(sql`insert into alerts (user_id, exchange, symbol, initial_price, trigger_price)
          select id, 'okx', 'ETHUSDT', 3000, 3100 from users where email = 'old@example.com'`)).rejects.toThrow();
      await expect(insert('SIMNET')).rejects.toThrow();
      await expect(insert(null)).rejects.toThrow();
      await insert('TESTNET');
      const idx = await db.run(sql`select indexdef from pg_indexes where tablename = 'alerts' and indexname = 'alerts_exchange_network_status_idx'`);
      expect(String(idx[0]?.indexdef)).toContain('(exchange, network, status)');
    } finally {
      await db.close();
    }
  }, 120_000);
});
