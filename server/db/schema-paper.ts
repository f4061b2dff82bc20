import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, numeric, pgTable, primaryKey, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/**
 * The simulator's paper exchange (DESIGN §3.5, server/sim/paper/): one account per simulator key ×
 * exchange × network, with its balances, per-symbol settings, positions, orders and fills. The
 * matching engine keeps the live state in memory and writes every acknowledged change here in one
 * transaction before the venue answers, so a restart (or kill -9) loses nothing acknowledged.
 *
 * Amounts are the engine's exact decimals: numeric(38, 18) read back as strings (never floats).
 * Times have millisecond precision like the rest of the schema (`schema.ts`).
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const amount = (name: string) => numeric(name, { precision: 38, scale: 18 });
const id = (name: string) => bigint(name, { mode: 'number' });

export const paperAccounts = pgTable(
  'paper_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    apiKey: text('api_key').notNull(),
    exchange: text('exchange').notNull(),
    network: text('network').notNull(),
    /** Every trade of the simulated tape up to this time has been applied to the account. */
    asOf: ts('as_of').notNull(),
    /** Next order / fill id (one sequence per account). */
    nextId: id('next_id').notNull(),
    /** Bumped by every commit: a writer holding an older version lost a race and must reload. */
    version: integer('version').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [unique('paper_accounts_key_exchange_network_key').on(t.apiKey, t.exchange, t.network), check('paper_accounts_network_check', sql`${t.network} in ('MAINNET', 'TESTNET')`)],
);

const account = () =>
  uuid('account_id')
    .notNull()
    .references(() => paperAccounts.id, { onDelete: 'cascade' });

export const paperBalances = pgTable(
  'paper_balances',
  {
    accountId: account(),
    currency: text('currency').notNull(),
    wallet: amount('wallet').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.currency] })],
);

export const paperSettings = pgTable(
  'paper_settings',
  {
    accountId: account(),
    symbol: text('symbol').notNull(),
    leverage: integer('leverage').notNull(),
    marginMode: text('margin_mode').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol] }), check('paper_settings_margin_mode_check', sql`${t.marginMode} in ('cross', 'isolated')`)],
);

export const paperPositions = pgTable(
  'paper_positions',
  {
    accountId: account(),
    symbol: text('symbol').notNull(),
    /** Signed, in the order unit (contracts for inverse). */
    size: amount('size').notNull(),
    cost: amount('cost').notNull(),
    isolatedMargin: amount('isolated_margin').notNull(),
    openFees: amount('open_fees').notNull(),
    realisedPnl: amount('realised_pnl').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.symbol] })],
);

export const paperOrders = pgTable(
  'paper_orders',
  {
    accountId: account(),
    orderId: id('order_id').notNull(),
    clientId: text('client_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    type: text('type').notNull(),
    timeInForce: text('time_in_force').notNull(),
    postOnly: boolean('post_only').notNull(),
    reduceOnly: boolean('reduce_only').notNull(),
    closePosition: boolean('close_position').notNull(),
    qty: amount('qty').notNull(),
    filledQty: amount('filled_qty').notNull(),
    price: amount('price'),
    triggerPrice: amount('trigger_price'),
    triggerDirection: text('trigger_direction'),
    status: text('status').notNull(),
    triggeredAt: ts('triggered_at'),
    releasedId: id('released_id'),
    sumPriceQty: amount('sum_price_qty').notNull(),
    fee: amount('fee').notNull(),
    realisedPnl: amount('realised_pnl').notNull(),
    reason: text('reason'),
    /** The venue's own order fields (Binance workingType, priceProtect, …). */
    meta: jsonb('meta').$type<Record<string, string>>().notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.orderId] }),
    index('paper_orders_account_status_idx').on(t.accountId, t.status),
    index('paper_orders_account_symbol_idx').on(t.accountId, t.symbol, t.orderId),
    index('paper_orders_account_client_id_idx').on(t.accountId, t.clientId),
    check('paper_orders_side_check', sql`${t.side} in ('BUY', 'SELL')`),
  ],
);

export const paperFills = pgTable(
  'paper_fills',
  {
    accountId: account(),
    fillId: id('fill_id').notNull(),
    orderId: id('order_id').notNull(),
    symbol: text('symbol').notNull(),
    side: text('side').notNull(),
    qty: amount('qty').notNull(),
    price: amount('price').notNull(),
    fee: amount('fee').notNull(),
    feeCurrency: text('fee_currency').notNull(),
    realisedPnl: amount('realised_pnl').notNull(),
    maker: boolean('maker').notNull(),
    liquidation: boolean('liquidation').notNull(),
    time: ts('time').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.fillId] }),
    index('paper_fills_account_symbol_time_idx').on(t.accountId, t.symbol, t.time),
    check('paper_fills_side_check', sql`${t.side} in ('BUY', 'SELL')`),
  ],
);

/**
 * The events of each committed change set (server/sim/paper/runtime.ts), so that every instance on the
 * database publishes them to its own private streams: written in the commit's transaction with a
 * `pg_notify('paper_events', …)`; an instance reads an account's rows after the last id it has seen
 * (in id order = commit order: one account's commits are serialised by its version). Kept a few
 * minutes (an instance catching up after a dropped listener), then pruned.
 */
export const paperEvents = pgTable(
  'paper_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: account(),
    /** The account's version after the commit (a reader holding an older copy reloads it). */
    version: integer('version').notNull(),
    /** The engine's events (server/sim/paper/engine/events.ts EngineEvent[]), in order. */
    payload: jsonb('payload').$type<unknown[]>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('paper_events_account_id_idx').on(t.accountId, t.id), index('paper_events_created_at_idx').on(t.createdAt)],
);
