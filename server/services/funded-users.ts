import { and, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { PageMeta } from '../../src/api/contracts/common';
import type { AddFundedUserBody, FundedUser, FundedUsersQuery } from '../../src/api/contracts/funded-users';
import type { Db } from '../db/client';
import { escapeLike } from '../db/like';
import { isUniqueViolation } from '../db/errors';
import { users } from '../db/schema';
import { apiKeys, fundedUsers } from '../db/schema-api-keys';
import { conflict, notFound } from '../lib/http-error';
import { withEvents, type EventBus } from './events/bus';
import { keysetPage } from './keyset-page';
import { findUserById } from './users';

export const USER_NOT_FOUND = 'User not found';

const fundedColumns = {
  userId: fundedUsers.userId,
  email: users.email,
  role: users.role,
  note: fundedUsers.note,
  addedBy: fundedUsers.addedBy,
  createdAt: fundedUsers.createdAt,
  apiKeyCount: sql<number>`(select count(*) from ${apiKeys} where ${apiKeys.userId} = ${fundedUsers.userId})::int`,
};
type FundedRow = Omit<FundedUser, 'createdAt'> & { createdAt: Date };

const toDto = (row: FundedRow): FundedUser => ({ ...row, apiKeyCount: Number(row.apiKeyCount), createdAt: row.createdAt.toISOString() });

/** `GET /v1/users/funded`: newest first, cursor-paged, `query` searches emails. */
export async function listFundedUsers(db: Db, q: FundedUsersQuery): Promise<{ data: FundedUser[]; meta: PageMeta }> {
  const filters: SQL[] = q.query ? [ilike(users.email, `%${escapeLike(q.query.toLowerCase())}%`)] : [];
  const page = await keysetPage<FundedRow>({
    cursor: q.cursor,
    limit: q.limit,
    time: fundedUsers.createdAt,
    id: fundedUsers.userId,
    position: (row) => ({ time: row.createdAt, id: row.userId }),
    run: (beyond, order, limit) =>
      db
        .select(fundedColumns)
        .from(fundedUsers)
        .innerJoin(users, eq(users.id, fundedUsers.userId))
        .where(and(...filters, ...(beyond ? [beyond] : [])))
        .orderBy(...order)
        .limit(limit),
  });
  return { data: page.data.map(toDto), meta: page.meta };
}

export async function getFundedUser(db: Db, userId: string): Promise<FundedUser | null> {
  const [row] = await db.select(fundedColumns).from(fundedUsers).innerJoin(users, eq(users.id, fundedUsers.userId)).where(eq(fundedUsers.userId, userId)).limit(1);
  return row ? toDto(row) : null;
}

/**
 * `POST /v1/users/funded`: 404 for an unknown user, 409 when already funded. Every instance hears
 * `funded-user.changed` with the commit (the trading routes hold a user's funded status in memory).
 */
export async function addFundedUser(db: Db, actorId: string, body: AddFundedUserBody, events?: EventBus | null): Promise<FundedUser> {
  if (!(await findUserById(db, body.userId))) throw notFound(USER_NOT_FOUND);
  try {
    await withEvents(db, events, async (tx, emit) => {
      await tx.insert(fundedUsers).values({ userId: body.userId, addedBy: actorId, note: body.note || null });
      await emit('funded-user.changed', { userId: body.userId });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('This user is already a funded user', { userId: 'Already a funded user' });
    throw err;
  }
  const added = await getFundedUser(db, body.userId);
  if (!added) throw notFound(USER_NOT_FOUND);
  return added;
}

/** `DELETE /v1/users/funded/{userId}`: the user leaves the list; their keys, settings and transactions stay. */
export async function removeFundedUser(db: Db, userId: string, events?: EventBus | null): Promise<void> {
  await withEvents(db, events, async (tx, emit) => {
    const removed = await tx.delete(fundedUsers).where(eq(fundedUsers.userId, userId)).returning({ userId: fundedUsers.userId });
    if (!removed.length) throw notFound('This user is not a funded user');
    await emit('funded-user.changed', { userId });
  });
}

/** 404 unless the user exists (admin routes on `/v1/users/{userId}/...`). */
export async function requireUser(db: Db, userId: string): Promise<void> {
  if (!(await findUserById(db, userId))) throw notFound(USER_NOT_FOUND);
}
