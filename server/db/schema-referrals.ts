import { sql } from 'drizzle-orm';
import { check, index, numeric, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { Currency, Network } from '../../src/api/contracts/common';
import type { ReferralExchange } from '../../src/api/contracts/referrals';
import { users } from './schema';

/** Exact amounts, read and written as decimal strings (issue 22: never a float). */
const decimal = (name: string) => numeric(name, { precision: 38, scale: 12 });
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/**
 * What an exchange reported for the firm's whole account in one month (SPEC §3 monthly referral
 * record: totalExchangeVolume, totalExchangeIncome), per exchange, network and currency — BitMEX
 * reports in XBT as well as USD. Admin-entered or imported (`PATCH /v1/referrals/volume`).
 * `month` is the first instant of the month, UTC.
 */
export const referralExchangeMonths = pgTable(
  'referral_exchange_months',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    exchange: text('exchange').$type<ReferralExchange>().notNull(),
    network: text('network').$type<Network>().notNull(),
    currency: text('currency').$type<Currency>().notNull(),
    month: ts('month').notNull(),
    totalExchangeVolume: decimal('total_exchange_volume').notNull(),
    totalExchangeIncome: decimal('total_exchange_income').notNull(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referral_exchange_months_key_idx').on(t.exchange, t.network, t.currency, t.month),
    check('referral_exchange_months_exchange_check', sql`${t.exchange} in ('BITMEX', 'BINANCE')`),
    check('referral_exchange_months_network_check', sql`${t.network} in ('MAINNET', 'TESTNET')`),
    check('referral_exchange_months_currency_check', sql`${t.currency} in ('USD', 'XBT')`),
  ],
);

/**
 * The income paid to a referrer for one month (USD), as the admin submitted it (SPEC §2 'Referrer
 * monthly income'); a new submission for the same month replaces the old one.
 */
export const referrerIncomes = pgTable(
  'referrer_incomes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    referrerId: uuid('referrer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exchange: text('exchange').$type<ReferralExchange>().notNull(),
    network: text('network').$type<Network>().notNull(),
    month: ts('month').notNull(),
    income: decimal('income').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('referrer_incomes_key_idx').on(t.referrerId, t.exchange, t.network, t.month),
    index('referrer_incomes_exchange_month_idx').on(t.exchange, t.network, t.month),
    check('referrer_incomes_exchange_check', sql`${t.exchange} in ('BITMEX', 'BINANCE')`),
    check('referrer_incomes_network_check', sql`${t.network} in ('MAINNET', 'TESTNET')`),
  ],
);
