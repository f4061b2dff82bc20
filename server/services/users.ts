import { and, count, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { PageMeta, Role } from '../../src/api/contracts/common';
import type { PatchUserBody, User, UsersQuery } from '../../src/api/contracts/users';
import type { Db } from '../db/client';
import { escapeLike } from '../db/like';
import { isUniqueViolation } from '../db/errors';
import { refreshTokens, users, type UserRow } from '../db/schema';
import { conflict, forbidden, notFound } from '../lib/http-error';
import { hashPassword } from '../lib/password';
import { randomCode } from '../lib/tokens';
import { withEvents, type EventBus } from './events/bus';
import { keysetPage } from './keyset-page';

export const REFERRAL_CODE_LENGTH = 8;

export function toUserDto(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    referralCode: row.referralCode,
    referrerId: row.referrerId,
    createdAt: row.createdAt.toISOString(),
  };
}

export interface NewUser {
  email: string;
  password: string;
  role?: Role;
  referrerId?: string | null;
  invitationId?: string | null;
}

/** Inserts a user with a fresh unique referral code; 409 when the email is taken. */
export async function createUser(db: Db, input: NewUser): Promise<UserRow> {
  const passwordHash = await hashPassword(input.password);
  // A collision of 8 symbols from 31 is ~1e-12 per pair; retry rather than check-then-insert.
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(users)
        .values({
          email: input.email.toLowerCase(),
          passwordHash,
          role: input.role ?? 'user',
          referralCode: randomCode(REFERRAL_CODE_LENGTH),
          referrerId: input.referrerId ?? null,
          invitationId: input.invitationId ?? null,
        })
        .returning();
      return row;
    } catch (err) {
      if (isUniqueViolation(err, 'users_email_unique') && !isUniqueViolation(err, 'users_referral_code_unique')) {
        throw conflict('An account with this email already exists', { email: 'An account with this email already exists' });
      }
      if (isUniqueViolation(err, 'users_referral_code_unique') && attempt < 5) continue;
      throw err;
    }
  }
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase())).limit(1);
  return row;
}

export async function findUserByReferralCode(db: Db, code: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.referralCode, code.trim().toUpperCase())).limit(1);
  return row;
}

export async function countAdmins(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(users).where(eq(users.role, 'admin'));
  return row?.n ?? 0;
}

/**
 * Sets a new password. `keepFamily` is the refresh-token family of the session making a change to
 * its own password: that session stays signed in while every other one is revoked. Without it
 * (reset link, admin) every session ends, including live access tokens (session version bump).
 */
export async function setPassword(db: Db, userId: string, password: string, keepFamily?: string, events?: EventBus | null): Promise<void> {
  const passwordHash = await hashPassword(password);
  await withEvents(db, events, async (tx, emit) => {
    await tx
      .update(users)
      .set({
        passwordHash,
        updatedAt: new Date(),
        ...(keepFamily ? {} : { sessionVersion: sql`${users.sessionVersion} + 1` }),
      })
      .where(eq(users.id, userId));
    const open = and(eq(refreshTokens.userId, userId), sql`${refreshTokens.revokedAt} is null`);
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(keepFamily ? and(open, ne(refreshTokens.familyId, keepFamily)) : open);
    await emit('user.sessions-ended', { userId, keepFamilyId: keepFamily ?? null });
  });
}

export interface Actor {
  id: string;
  role: Role;
  /** Refresh-token family of the actor's session. */
  familyId: string;
}

/** `PATCH /v1/users/{id}`: admins change anything; others only their own password (SPEC §7). */
export async function patchUser(db: Db, actor: Actor, id: string, body: PatchUserBody, events?: EventBus | null): Promise<UserRow> {
  const isSelf = actor.id === id;
  if (actor.role !== 'admin') {
    if (!isSelf) throw forbidden('You may change only your own account');
    const others = Object.keys(body).filter((k) => k !== 'password');
    if (others.length) throw forbidden(`Only an admin may change ${others.join(', ')}`);
  }
  const target = await findUserById(db, id);
  if (!target) throw notFound('User not found');

  if (body.role && body.role !== 'admin' && target.role === 'admin' && (await countAdmins(db)) <= 1) {
    throw conflict('This is the last admin account: make another user admin first', { role: 'The last admin cannot lose the admin role' });
  }
  const changes: Partial<typeof users.$inferInsert> = {};
  if (body.email && body.email !== target.email) changes.email = body.email;
  if (body.role && body.role !== target.role) changes.role = body.role;
  if (Object.keys(changes).length) {
    try {
      // Every instance re-reads the user on their next request (sign-in checks are held briefly in memory).
      await withEvents(db, events, async (tx, emit) => {
        await tx
          .update(users)
          .set({ ...changes, updatedAt: new Date() })
          .where(eq(users.id, id));
        await emit('user.changed', { userId: id });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('An account with this email already exists', { email: 'Email already in use' });
      throw err;
    }
  }
  if (body.password) await setPassword(db, id, body.password, isSelf ? actor.familyId : undefined, events);
  const updated = await findUserById(db, id);
  if (!updated) throw notFound('User not found');
  return updated;
}

/** `GET /v1/users` (admin): newest first, cursor-paged; `query` searches emails, `role` filters. */
export async function listUsers(db: Db, q: UsersQuery): Promise<{ data: UserRow[]; meta: PageMeta }> {
  const filters: SQL[] = [];
  if (q.query) filters.push(ilike(users.email, `%${escapeLike(q.query.toLowerCase())}%`));
  if (q.role) filters.push(eq(users.role, q.role));
  return keysetPage<UserRow>({
    cursor: q.cursor,
    limit: q.limit,
    time: users.createdAt,
    id: users.id,
    position: (row) => ({ time: row.createdAt, id: row.id }),
    run: (beyond, order, limit) =>
      db
        .select()
        .from(users)
        .where(and(...filters, beyond))
        .orderBy(...order)
        .limit(limit),
  });
}
