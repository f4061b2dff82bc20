import { sql } from 'drizzle-orm';
import { check, index, jsonb, numeric, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ApiKeyPermissions } from '../../src/api/contracts/api-keys';
import type { ExchangeId, Network } from '../../src/api/contracts/common';
import type { TransactionType } from '../../src/api/contracts/funded-users';
import { users } from './schema';

/** Same millisecond precision as schema.ts: cursors are built from JS Dates. */
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/** scrypt parameters stored with each key so they can be raised later without re-encrypting old keys. */
export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

/**
 * Exchange API keys (DESIGN §3). `ciphertext` is AES-256-GCM of the JSON `{ apiKey, apiSecret,
 * passphrase? }` under scrypt(key password, `kdf_salt`); the password itself is never stored, so
 * a database dump alone opens nothing. Only the masked key is kept in clear, to recognise it.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    exchange: text('exchange').$type<ExchangeId>().notNull(),
    network: text('network').$type<Network>().notNull(),
    apiKeyMasked: text('api_key_masked').notNull(),
    /** base64 of the GCM ciphertext, its 12-byte IV and 16-byte tag; the salt is 16 bytes. */
    ciphertext: text('ciphertext').notNull(),
    iv: text('iv').notNull(),
    tag: text('tag').notNull(),
    kdfSalt: text('kdf_salt').notNull(),
    kdfParams: jsonb('kdf_params').$type<KdfParams>().notNull(),
    permissions: jsonb('permissions').$type<ApiKeyPermissions>().notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    lastValidatedAt: ts('last_validated_at'),
    /**
     * When the owner allowed the server to keep this key's credentials sealed under SERVER_SECRET
     * while server-managed brackets run (issue 13); null = not allowed. The sealed copy itself is in
     * `sealed_credentials`, only while such a job exists.
     */
    serverCustodyAt: ts('server_custody_at'),
  },
  (t) => [
    check('api_keys_exchange_check', sql`${t.exchange} in ('binance', 'bitmex', 'bybit', 'okx')`),
    check('api_keys_network_check', sql`${t.network} in ('MAINNET', 'TESTNET')`),
    index('api_keys_user_id_created_at_idx').on(t.userId, t.createdAt),
  ],
);

/** Accounts trading with firm-provided API keys (DESIGN §4). */
export const fundedUsers = pgTable(
  'funded_users',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedBy: uuid('added_by').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    createdAt: createdAt(),
  },
  (t) => [index('funded_users_created_at_user_id_idx').on(t.createdAt, t.userId)],
);

/** Per-user limits enforced on orders; a null column is "no limit", an empty symbol list is "all symbols". */
export const tradeSettings = pgTable(
  'trade_settings',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    maxRiskPercent: numeric('max_risk_percent', { precision: 9, scale: 4 }),
    maxPositionNotional: numeric('max_position_notional', { precision: 24, scale: 8 }),
    maxLeverage: numeric('max_leverage', { precision: 9, scale: 4 }),
    dailyLossLimit: numeric('daily_loss_limit', { precision: 24, scale: 8 }),
    allowedSymbols: text('allowed_symbols').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [
    check('trade_settings_max_risk_check', sql`${t.maxRiskPercent} is null or (${t.maxRiskPercent} > 0 and ${t.maxRiskPercent} <= 100)`),
    check('trade_settings_max_leverage_check', sql`${t.maxLeverage} is null or ${t.maxLeverage} >= 1`),
  ],
);

/** Deposits, withdrawals, profit shares... recorded against one API key (DESIGN §4). */
export const transactions = pgTable(
  'transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    type: text('type').$type<TransactionType>().notNull(),
    amount: numeric('amount', { precision: 30, scale: 10 }).notNull(),
    currency: text('currency').notNull(),
    note: text('note'),
    occurredAt: ts('occurred_at').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    check('transactions_type_check', sql`${t.type} in ('deposit', 'withdrawal', 'profit-share', 'fee', 'adjustment')`),
    index('transactions_api_key_id_occurred_at_idx').on(t.apiKeyId, t.occurredAt, t.id),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type FundedUserRow = typeof fundedUsers.$inferSelect;
export type TradeSettingsRow = typeof tradeSettings.$inferSelect;
export type TransactionRow = typeof transactions.$inferSelect;
