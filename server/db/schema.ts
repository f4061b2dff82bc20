import { sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Role } from '../../src/api/contracts/common';

/**
 * Millisecond precision (not PostgreSQL's default microseconds) so a timestamp survives a round
 * trip through a JS Date: the users list pages on (created_at, id) cursors built from Dates.
 */
const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Always stored lower-case (the contracts lower-case input), so equality is case-insensitive. */
    email: text('email').notNull().unique(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull().default('user'),
    referralCode: text('referral_code').notNull().unique(),
    referrerId: uuid('referrer_id').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    invitationId: uuid('invitation_id').references(() => invitations.id, { onDelete: 'set null' }),
    /** Bumped when every session must end at once (password reset, admin sets a password): access tokens carry it. */
    sessionVersion: integer('session_version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    check('users_role_check', sql`${t.role} in ('user', 'referrer', 'admin')`),
    index('users_created_at_id_idx').on(t.createdAt, t.id),
    index('users_referrer_id_idx').on(t.referrerId),
  ],
);

/**
 * Opaque refresh tokens, stored as SHA-256 hashes. A family is every token descending from one
 * sign-in; presenting a token that was already rotated revokes the whole family (DESIGN §5).
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: uuid('family_id').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    rotatedAt: ts('rotated_at'),
    revokedAt: ts('revoked_at'),
  },
  (t) => [index('refresh_tokens_family_id_idx').on(t.familyId), index('refresh_tokens_user_id_idx').on(t.userId)],
);

/** Single-use, 30-minute password reset tokens (DESIGN §4), stored hashed. */
export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [index('password_reset_tokens_user_id_idx').on(t.userId)],
);

/** Invitation codes: the way in while FF_ENABLE_REGISTRATION is off (DESIGN §4). */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull().unique(),
    maxUses: integer('max_uses').notNull().default(1),
    uses: integer('uses').notNull().default(0),
    expiresAt: ts('expires_at'),
    /** When set, only this (lower-case) address may sign up with the code. */
    email: text('email'),
    /** Role the new account gets; `user` when null. */
    role: text('role').$type<Role>(),
    createdBy: uuid('created_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    check('invitations_uses_check', sql`${t.uses} >= 0 and ${t.uses} <= ${t.maxUses}`),
    check('invitations_max_uses_check', sql`${t.maxUses} >= 1`),
    check('invitations_role_check', sql`${t.role} is null or ${t.role} in ('user', 'referrer', 'admin')`),
  ],
);

export const featureFlags = pgTable('feature_flags', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  enabled: boolean('enabled').notNull(),
  createdAt: createdAt(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/** One row (id = 1): the maintenance banner message. */
export const maintenance = pgTable(
  'maintenance',
  {
    id: integer('id').primaryKey().default(1),
    message: text('message'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [check('maintenance_single_row_check', sql`${t.id} = 1`)],
);

/** Server-side user settings (SPEC §3) as one JSON object per user; keys are validated by the contract. */
export const userSettings = pgTable('user_settings', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type UserRow = typeof users.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type FeatureFlagRow = typeof featureFlags.$inferSelect;
