import { and, eq } from 'drizzle-orm';
import type { PageMeta } from '../../../src/api/contracts/common';
import type { AdminTradeAuditEntry } from '../../../src/api/contracts/funded-users';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { apiKeys } from '../../db/schema-api-keys';
import { adminTradeAudit } from '../../db/schema-trading';
import { requireUser } from '../funded-users';
import { keysetPage } from '../keyset-page';

/**
 * The audit of admin trading (issue 21): every mutating request an admin sends through
 * `/v1/users/{userId}/trade/{apiKeyId}/…` leaves one `admin_trade_audit` row — who, for whom, which
 * key, the route pattern, the body, the status and a short result — written by the trade plugin's
 * `onSend` hook once the answer is final. Headers are never kept (the key password is one).
 */

/** What the hook knows of one request and its answer. */
export interface AdminTradeRequest {
  actorId: string;
  params: unknown;
  method: string;
  route: string;
  body: unknown;
  status: number;
  /** The serialised answer (JSON for every route of the plugin). */
  payload: unknown;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A body is an order, a bracket, a ladder: small. A refused oversized one is kept as its start. */
const MAX_BODY_CHARS = 8_000;
const MAX_RESULT_CHARS = 500;

/** The answer's `message` (errors), or "ok". */
export function auditResult(status: number, payload: unknown): string {
  if (status < 400) return 'ok';
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : '';
  let message = `HTTP ${status}`;
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') message = (parsed as { message: string }).message;
  } catch {
    // not JSON: keep the status
  }
  return message.length > MAX_RESULT_CHARS ? `${message.slice(0, MAX_RESULT_CHARS - 1)}…` : message;
}

function auditBody(body: unknown): unknown {
  if (body === undefined || body === null) return null;
  const text = JSON.stringify(body);
  return text.length > MAX_BODY_CHARS ? { truncated: true, start: text.slice(0, MAX_BODY_CHARS) } : body;
}

/**
 * Writes the row. Requests whose path does not name a user and a key (400 before anything ran) have
 * nothing to attribute and are skipped; so is a user id that names nobody (404, the row's owner must exist).
 */
export async function recordAdminTrade(db: Db, req: AdminTradeRequest): Promise<boolean> {
  const { userId, apiKeyId } = (req.params ?? {}) as { userId?: unknown; apiKeyId?: unknown };
  if (typeof userId !== 'string' || typeof apiKeyId !== 'string' || !UUID_RE.test(userId) || !UUID_RE.test(apiKeyId)) return false;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  if (!owner) return false;
  await db.insert(adminTradeAudit).values({
    actorId: req.actorId,
    ownerId: userId,
    apiKeyId,
    method: req.method,
    route: req.route,
    body: auditBody(req.body),
    status: req.status,
    result: auditResult(req.status, req.payload),
  });
  return true;
}

interface AuditRow {
  id: string;
  at: Date;
  actorId: string | null;
  actorEmail: string | null;
  apiKeyId: string;
  apiKeyName: string | null;
  method: string;
  route: string;
  body: unknown;
  status: number;
  result: string;
}

/** `GET /v1/users/{userId}/trade-audit` (admin): the user's rows, newest first, cursor-paged. 404 for an unknown user. */
export async function listAdminTradeAudit(db: Db, ownerId: string, q: { cursor?: string; limit: number }): Promise<{ data: AdminTradeAuditEntry[]; meta: PageMeta }> {
  await requireUser(db, ownerId);
  const page = await keysetPage<AuditRow>({
    cursor: q.cursor,
    limit: q.limit,
    time: adminTradeAudit.at,
    id: adminTradeAudit.id,
    position: (row) => ({ time: row.at, id: row.id }),
    run: (beyond, order, limit) =>
      db
        .select({
          id: adminTradeAudit.id,
          at: adminTradeAudit.at,
          actorId: adminTradeAudit.actorId,
          actorEmail: users.email,
          apiKeyId: adminTradeAudit.apiKeyId,
          apiKeyName: apiKeys.name,
          method: adminTradeAudit.method,
          route: adminTradeAudit.route,
          body: adminTradeAudit.body,
          status: adminTradeAudit.status,
          result: adminTradeAudit.result,
        })
        .from(adminTradeAudit)
        .leftJoin(users, eq(users.id, adminTradeAudit.actorId))
        .leftJoin(apiKeys, eq(apiKeys.id, adminTradeAudit.apiKeyId))
        .where(and(eq(adminTradeAudit.ownerId, ownerId), ...(beyond ? [beyond] : [])))
        .orderBy(...order)
        .limit(limit),
  });
  return { data: page.data.map((r) => ({ ...r, at: r.at.toISOString() })), meta: page.meta };
}
