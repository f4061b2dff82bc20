import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';
import { apiKeys } from './schema-api-keys';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/**
 * Idempotency of the trading routes (issue 21, DESIGN §3.2): one row per (key, client id) of a
 * mutating request — an order, a bracket, a ladder, a close, a cancel-all. The first request inserts
 * it `running`; a retry with the same id finds it and answers the stored result (or 409 while the
 * first is still running), so a request retried after a timeout acts once. `request_hash` is the
 * route and the body's canonical hash: the same id with another request is refused (422).
 * Only final answers are stored (2xx, 4xx); a 5xx (the exchange down or slow) leaves the row `retry`,
 * so a retry runs again — reconciling by the legs' deterministic client ids instead of placing twice.
 */
export const tradeRequests = pgTable(
  'trade_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    clientId: text('client_id').notNull(),
    route: text('route').notNull(),
    requestHash: text('request_hash').notNull(),
    /** running: the first request is at work; done: its final answer is stored; retry: it ended in a 5xx (may be re-run, reconciling). */
    state: text('state').$type<'running' | 'done' | 'retry'>().notNull().default('running'),
    status: integer('status'),
    response: jsonb('response').$type<unknown>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('trade_requests_key_client_id_key').on(t.apiKeyId, t.clientId),
    index('trade_requests_created_at_idx').on(t.createdAt),
    check('trade_requests_state_check', sql`${t.state} in ('running', 'done', 'retry')`),
  ],
);
export type TradeRequestRow = typeof tradeRequests.$inferSelect;

/**
 * What an admin did on a funded user's key through `/v1/users/{userId}/trade/…` (issue 21): who,
 * for whom, on which key, the route and the body (never a secret: the key password travels in a
 * header and is not stored), and the result. Kept when the key is deleted (the id stays as text).
 */
export const adminTradeAudit = pgTable(
  'admin_trade_audit',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: uuid('api_key_id').notNull(),
    method: text('method').notNull(),
    route: text('route').notNull(),
    body: jsonb('body').$type<unknown>(),
    status: integer('status').notNull(),
    result: text('result').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [index('admin_trade_audit_owner_at_idx').on(t.ownerId, t.at)],
);
export type AdminTradeAuditRow = typeof adminTradeAudit.$inferSelect;
