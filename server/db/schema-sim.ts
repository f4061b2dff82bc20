import { sql } from 'drizzle-orm';
import { check, pgTable, timestamp, varchar } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/**
 * The simulator's API keys (issue 24, server/sim/private/README.md): minted at random, never derived
 * from the key's name. The secret and the passphrase (OKX's) are sealed under the server's key
 * (SERVER_SECRET, `lib/server-seal.ts`) as `iv.tag.ciphertext` (base64), bound to the row's key: the
 * table holds no plaintext. Every instance on the database reads it (a key minted on one works on all).
 */
export const simCredentials = pgTable(
  'sim_credentials',
  {
    /** `sim-…` (SIM_KEY_PATTERN: at most 64 characters). */
    apiKey: varchar('api_key', { length: 64 }).primaryKey(),
    exchange: varchar('exchange', { length: 16 }).notNull(),
    secretSealed: varchar('secret_sealed', { length: 512 }).notNull(),
    /** Every key has one; only OKX asks for it (the API hands it out for OKX keys only). */
    passphraseSealed: varchar('passphrase_sealed', { length: 512 }).notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [check('sim_credentials_exchange_check', sql`${t.exchange} in ('binance', 'bybit', 'okx', 'bitmex')`)],
);
export type SimCredentialRow = typeof simCredentials.$inferSelect;
