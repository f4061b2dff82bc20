import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';
import { apiKeys } from './schema-api-keys';

const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

/**
 * Server-side jobs (DESIGN §3.6, issue 13): one row per job, claimed by any server instance with
 * `FOR UPDATE SKIP LOCKED` and held by a lease (`lease_owner`, `lease_until`) its holder renews.
 * An instance that dies stops renewing; when the lease runs out another instance claims the job and
 * resumes it from `payload`. `key` names the job's subject (one job per subject: `alerts:binance`).
 * Lease times are the database's clock (`now()`), never an instance's.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** The job's own state, saved by its holder (fenced by the lease). */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state').$type<JobState>().notNull().default('pending'),
    runAt: ts('run_at').notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseUntil: ts('lease_until'),
    /**
     * Jobs with the same affinity run on one instance where they can (a managed bracket's: its key, so one
     * instance holds the key's account state and its REST budget): while another instance holds a job of it,
     * this one is left to that instance for `AFFINITY_WAIT_MS` after it is due, then anyone takes it.
     */
    affinity: text('affinity'),
    /** Times claimed (a takeover after a crash counts). */
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    unique('jobs_key_key').on(t.key),
    index('jobs_state_run_at_idx').on(t.state, t.runAt),
    index('jobs_affinity_idx').on(t.affinity).where(sql`${t.state} = 'pending' and ${t.affinity} is not null`),
    check('jobs_state_check', sql`${t.state} in ('pending', 'done', 'failed')`),
  ],
);
export type JobState = 'pending' | 'done' | 'failed';
export type JobRow = typeof jobs.$inferSelect;

/**
 * What the server tells a user (an alert fired; a job acted): listed in the app with an unread
 * count. `dedupe_key` makes the insert idempotent: a job that crashes between "did it" and "marked
 * done" and runs again inserts nothing new.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'alert' | 'job'>().notNull(),
    title: text('title').notNull(),
    body: text('body').notNull(),
    /** What it is about (an alert id, a job id): the app links to it. */
    refId: text('ref_id'),
    /** Extra data the app needs to react (the alert as it fired). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    dedupeKey: text('dedupe_key').notNull(),
    readAt: ts('read_at'),
    emailedAt: ts('emailed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    unique('notifications_user_dedupe_key').on(t.userId, t.dedupeKey),
    index('notifications_user_created_idx').on(t.userId, t.createdAt),
    check('notifications_kind_check', sql`${t.kind} in ('alert', 'job')`),
  ],
);
export type NotificationRow = typeof notifications.$inferSelect;

/** Every action a job took for a user (what, when, which order, result): the activity log. */
export const jobActivity = pgTable(
  'job_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobKey: text('job_key').notNull(),
    action: text('action').notNull(),
    orderId: text('order_id'),
    result: text('result').notNull(),
    message: text('message').notNull(),
    dedupeKey: text('dedupe_key').notNull(),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [unique('job_activity_user_dedupe_key').on(t.userId, t.dedupeKey), index('job_activity_user_at_idx').on(t.userId, t.at)],
);
export type JobActivityRow = typeof jobActivity.$inferSelect;

/**
 * A key's credentials sealed under the server's key (SERVER_SECRET, `lib/server-seal.ts`) so a job
 * can trade with no browser there (DESIGN §3.6). Present only while a managed job of the key lives
 * and the owner's consent stands; deleted with the last job, with the consent, or with the key.
 */
export const sealedCredentials = pgTable('sealed_credentials', {
  apiKeyId: uuid('api_key_id')
    .primaryKey()
    .references(() => apiKeys.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** base64 AES-256-GCM ciphertext, IV and tag of `{ apiKey, apiSecret, passphrase? }`. */
  ciphertext: text('ciphertext').notNull(),
  iv: text('iv').notNull(),
  tag: text('tag').notNull(),
  createdAt: ts('created_at').notNull().defaultNow(),
});
