import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, or, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { PageMeta } from '../../src/api/contracts/common';
import type { createInvitationsBodySchema, Invitation, InvitationsQuery, InvitationStatus } from '../../src/api/contracts/invitations';
import type { Db } from '../db/client';
import { invitations, users, type InvitationRow } from '../db/schema';
import { conflict, notFound } from '../lib/http-error';
import { createInvitations, revokeInvitation } from './invitations';
import { keysetPage } from './keyset-page';

/** DESIGN §4 statuses; a revoked or fully used code keeps that status after its expiry. */
export function invitationStatus(row: InvitationRow, now = new Date()): InvitationStatus {
  if (row.revokedAt) return 'revoked';
  if (row.uses >= row.maxUses) return 'used';
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'unused';
}

function statusCondition(status: InvitationStatus, now: Date): SQL | undefined {
  const live = isNull(invitations.revokedAt);
  switch (status) {
    case 'revoked':
      return isNotNull(invitations.revokedAt);
    case 'used':
      return and(live, gte(invitations.uses, invitations.maxUses));
    case 'expired':
      return and(live, lt(invitations.uses, invitations.maxUses), lte(invitations.expiresAt, now));
    case 'unused':
      return and(live, lt(invitations.uses, invitations.maxUses), or(isNull(invitations.expiresAt), gt(invitations.expiresAt, now)));
  }
}

async function toDtos(db: Db, rows: InvitationRow[]): Promise<Invitation[]> {
  const ids = rows.map((r) => r.id);
  const usedBy = new Map<string, { id: string; email: string }[]>();
  if (ids.length) {
    const signups = await db
      .select({ id: users.id, email: users.email, invitationId: users.invitationId })
      .from(users)
      .where(inArray(users.invitationId, ids))
      .orderBy(asc(users.createdAt));
    for (const s of signups) {
      const key = s.invitationId ?? '';
      usedBy.set(key, [...(usedBy.get(key) ?? []), { id: s.id, email: s.email }]);
    }
  }
  const now = new Date();
  return rows.map((row) => ({
    id: row.id,
    code: row.code,
    maxUses: row.maxUses,
    uses: row.uses,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    email: row.email,
    role: row.role,
    status: invitationStatus(row, now),
    usedBy: usedBy.get(row.id) ?? [],
    createdAt: row.createdAt.toISOString(),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

/** `GET /v1/invitations`: newest first, cursor-paged, optionally one status. */
export async function listInvitations(db: Db, q: InvitationsQuery): Promise<{ data: Invitation[]; meta: PageMeta }> {
  const filter = q.status ? statusCondition(q.status, new Date()) : undefined;
  const page = await keysetPage<InvitationRow>({
    cursor: q.cursor,
    limit: q.limit,
    time: invitations.createdAt,
    id: invitations.id,
    position: (row) => ({ time: row.createdAt, id: row.id }),
    run: (beyond, order, limit) =>
      db
        .select()
        .from(invitations)
        .where(and(filter, beyond))
        .orderBy(...order)
        .limit(limit),
  });
  return { data: await toDtos(db, page.data), meta: page.meta };
}

/** `POST /v1/invitations`: `count` codes with the same options, in one transaction. */
export async function generateInvitations(db: Db, body: z.output<typeof createInvitationsBodySchema>, adminId: string): Promise<Invitation[]> {
  const rows = await db.transaction((tx) =>
    createInvitations(tx, body.count, {
      maxUses: body.maxUses,
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      email: body.email,
      role: body.role,
      createdBy: adminId,
    }),
  );
  return toDtos(db, rows);
}

/** `DELETE /v1/invitations/{id}`: revokes a code (404 unknown, 409 already revoked). */
export async function revokeInvitationById(db: Db, id: string): Promise<Invitation> {
  const [existing] = await db.select().from(invitations).where(eq(invitations.id, id)).limit(1);
  if (!existing) throw notFound('Invitation not found');
  if (existing.revokedAt) throw conflict('This invitation is already revoked');
  const row = await revokeInvitation(db, id);
  if (!row) throw conflict('This invitation is already revoked');
  const [dto] = await toDtos(db, [row]);
  return dto;
}
