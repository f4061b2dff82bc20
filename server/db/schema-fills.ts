import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { ExchangeId, Network } from '../../src/api/contracts/common';
import type { FillSide } from '../../src/api/contracts/trading-volume';
import { users } from './schema';
import { apiKeys } from './schema-api-keys';

/** Exact decimals for quantities and money, read and written as decimal strings (issue 22: never a float). */
const decimal = (name: string) => numeric(name, { precision: 38, scale: 12 });

/**
 * Every fill the server sees (DESIGN §3): the source of trading volume and referral volume.
 * `external_id` is the exchange's execution id, unique per exchange and network, so recording the
 * same execution twice (a retried poll, a re-imported export) keeps one row.
 */
export const fills = pgTable(
  'fills',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exchange: text('exchange').$type<ExchangeId>().notNull(),
    network: text('network').$type<Network>().notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').$type<FillSide>().notNull(),
    qty: decimal('qty').notNull(),
    price: decimal('price').notNull(),
    notionalUsd: decimal('notional_usd').notNull(),
    /** XBT value when known (BitMEX reports it; BTC/XBT instruments derive it); null otherwise. */
    notionalXbt: decimal('notional_xbt'),
    /**
     * Fee in USD; negative for a maker rebate. The default is written as the number 0 because the
     * migrations' snapshot holds it so (`'0'` would make drizzle-kit generate a no-op migration);
     * the database answers the column as a string either way.
     */
    feeUsd: decimal('fee_usd')
      .notNull()
      .default(0 as unknown as string),
    /** The key that traded it (the funded users' day ledger); null for fills recorded before it was kept. */
    apiKeyId: uuid('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    /** Realised PnL of the fill in USD (coin amounts at the fill price), exact; null when not known. */
    realisedPnlUsd: decimal('realised_pnl_usd'),
    time: timestamp('time', { withTimezone: true, precision: 3, mode: 'date' }).notNull(),
    externalId: text('external_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, precision: 3, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('fills_exchange_network_external_id_idx').on(t.exchange, t.network, t.externalId),
    index('fills_user_id_time_idx').on(t.userId, t.time),
    index('fills_api_key_id_time_idx').on(t.apiKeyId, t.time),
    index('fills_exchange_network_time_idx').on(t.exchange, t.network, t.time),
    check('fills_network_check', sql`${t.network} in ('MAINNET', 'TESTNET')`),
    check('fills_side_check', sql`${t.side} in ('BUY', 'SELL')`),
  ],
);

export type FillRow = typeof fills.$inferSelect;
export type NewFillRow = typeof fills.$inferInsert;
