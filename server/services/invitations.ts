import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Role } from '../../src/api/contracts/common';
import type { Db } from '../db/client';
import { isUniqueViolation } from '../db/errors';
import { invitations, type InvitationRow } from '../db/schema';
import { forbidden } from '../lib/http-error';
import { randomCode } from '../lib/tokens';

export const INVITATION_CODE_LENGTH = 10;

export interface NewInvitation {
  /** How many sign-ups the code admits (default 1). */
  maxUses?: number;
  expiresAt?: Date | null;
  /** Restrict the code to one email address. */
  email?: string | null;
  /** Role the invited account gets (default `user`). */
  role?: Role | null;
  createdBy?: string | null;
}

/** Creates one invitation with a fresh random code (used by the admin API and by tests). */
export async function createInvitation(db: Db, input: NewInvitation = {}): Promise<InvitationRow> {
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(invitations)
        .values({
          code: randomCode(INVITATION_CODE_LENGTH),
          maxUses: input.maxUses ?? 1,
          expiresAt: input.expiresAt ?? null,
          email: input.email ? input.email.toLowerCase() : null,
          role: input.role ?? null,
          createdBy: input.createdBy ?? null,
        })
        .returning();
      return row;
    } catch (err) {
      if (isUniqueViolation(err) && attempt < 5) continue;
      throw err;
    }
  }
}

/** `count` single-use (or `maxUses`) codes with the same options, e.g. for the admin "generate" form. */
export async function createInvitations(db: Db, countOfCodes: number, input: NewInvitation = {}): Promise<InvitationRow[]> {
  const out: InvitationRow[] = [];
  for (let i = 0; i < countOfCodes; i++) out.push(await createInvitation(db, input));
  return out;
}

export async function revokeInvitation(db: Db, id: string): Promise<InvitationRow | undefined> {
  const [row] = await db
    .update(invitations)
    .set({ revokedAt: new Date() })
    .where(and(eq(invitations.id, id), isNull(invitations.revokedAt)))
    .returning();
  return row;
}

export const INVALID_INVITATION = 'This invitation code is invalid, expired or already used';

/**
 * Takes one use of the code for `email`, atomically: the conditional UPDATE is the check, so two
 * concurrent sign-ups can never both take the last use. Run it in the sign-up transaction so a
 * failed sign-up gives the use back.
 */
export async function consumeInvitation(db: Db, code: string, email: string): Promise<InvitationRow> {
  const normalized = code.trim().toUpperCase();
  const now = new Date();
  const [row] = await db
    .update(invitations)
    .set({ uses: sql`${invitations.uses} + 1` })
    .where(
      and(
        eq(invitations.code, normalized),
        isNull(invitations.revokedAt),
        or(isNull(invitations.expiresAt), gt(invitations.expiresAt, now)),
        lt(invitations.uses, invitations.maxUses),
        or(isNull(invitations.email), eq(invitations.email, email.toLowerCase())),
      ),
    )
    .returning();
  if (!row) throw forbidden(INVALID_INVITATION);
  return row;
}
