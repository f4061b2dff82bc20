import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { AlertStatus } from '../../src/api/contracts/alerts';
import type { ExchangeId, Network } from '../../src/api/contracts/common';
import { users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/**
 * Price alerts (SPEC §3), one row per alert, owned by a user. Prices are float8: exactly the JS
 * numbers the browser compared, so the server's crossing check (`POST /v1/alerts/{id}/trigger`)
 * agrees with the browser's to the last bit.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exchange: text('exchange').$type<ExchangeId>().notNull(),
    /**
     * The network whose prices the alert is evaluated on (issue 26 §3): the chart's network when it
     * was set. Rows from before it were evaluated on MAINNET and say so (migration 0010); no default:
     * every insert names it.
     */
    network: text('network').$type<Network>().notNull(),
    symbol: text('symbol').notNull(),
    initialPrice: doublePrecision('initial_price').notNull(),
    triggerPrice: doublePrecision('trigger_price').notNull(),
    status: text('status').$type<AlertStatus>().notNull().default('active'),
    triggeredAt: ts('triggered_at'),
    triggeredPrice: doublePrecision('triggered_price'),
    note: text('note'),
    /** The chart drawing the alert follows (a horizontal line, or a rectangle's `top`/`bottom` edge: `<id>:top`). */
    drawingId: text('drawing_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('alerts_user_id_status_idx').on(t.userId, t.status),
    // The server's evaluator reads one exchange+network's active alerts on every refresh.
    index('alerts_exchange_network_status_idx').on(t.exchange, t.network, t.status),
    check('alerts_status_check', sql`${t.status} in ('active', 'triggered')`),
    check('alerts_exchange_check', sql`${t.exchange} in ('binance', 'bitmex', 'bybit', 'okx')`),
    check('alerts_network_check', sql`${t.network} in ('MAINNET', 'TESTNET')`),
  ],
);

export type AlertRow = typeof alerts.$inferSelect;
