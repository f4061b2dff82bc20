import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { ActivityEntry, ManagedBracket, ManagedBracketInfo, PlannedLeg, Side } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import { apiKeys, type ApiKeyRow } from '../../db/schema-api-keys';
import { jobActivity, jobs, sealedCredentials, type JobRow } from '../../db/schema-jobs';
import type { ExchangeCredentials } from '../../exchanges/transport';
import { conflict, notFound } from '../../lib/http-error';
import { serverOpen, serverSeal } from '../../lib/server-seal';
import { API_KEY_NOT_FOUND } from '../api-keys';
import type { EventBus, Tx } from '../events/bus';
import { addNotification, type NotificationEvents } from '../notifications';
import { BRACKET_JOB, BRACKET_JOB_KIND, listedBracketPayloadSchema, writeJobPayload, type BracketJobPayload, type GuardLeg } from './payloads';

/**
 * Every bracket is guarded by the server (issue 21, DESIGN §3.2, §3.6), and some are also managed
 * (FF_ENABLE_SEMI_AUTO, issue 13): one job per bracket (`bracket:<bracketId>`, bracket-guard.ts)
 * places a resting entry's stop and targets the moment it fills, cancels the bracket's remaining
 * orders when its position closes by any path, and — when managed — moves the stop to break-even
 * after the first target and trails it. This file is the database side: custody of the key's
 * credentials, the job's row from the request that places the bracket, the lists and the activity log.
 *
 * - **Credentials**: the key's, sealed under SERVER_SECRET (`lib/server-seal.ts`) when a bracket is
 *   placed — only with the owner's consent for that key — and deleted when the key's last bracket
 *   ends or the consent is withdrawn.
 * - **The row before the orders**: the request writes the job (due in `PLACING_GRACE_MS`) before it
 *   sends anything, then arms it (due now) once its orders are placed, or deletes it when nothing was.
 *   A server that dies between the two leaves a job that wakes up later and finds out from the
 *   exchange, by the legs' client ids, what was placed.
 */

export { BRACKET_JOB_KIND, type BracketJobPayload, type GuardLeg } from './payloads';
export const bracketJobKey = (bracketId: string) => `bracket:${bracketId}`;
/** A key's brackets run on one instance where they can (the runner's affinity): one account state, one REST budget per key. */
export const bracketJobAffinity = (apiKeyId: string) => `api-key:${apiKeyId}`;
export const CUSTODY_REQUIRED_MESSAGE =
  "Brackets are guarded by the server (it places a resting entry's stop when it fills and cancels the rest when the position closes): allow it for this key first (Order entry → the bracket form)";
export const NO_CUSTODY_SECRET_MESSAGE =
  'This server cannot hold exchange credentials: its operator has not set SERVER_SECRET (required with NODE_ENV=production), so brackets cannot be guarded and are not accepted';

/** How long the request that places a bracket has before its job wakes up on its own. */
export const PLACING_GRACE_MS = 5 * 60_000;

const aadOf = (apiKeyId: string, userId: string) => `sealed-credentials:v1:${apiKeyId}:${userId}`;

// ------------------------------------------------------------------------------------ custody

const sealOf = (secret: string, key: Pick<ApiKeyRow, 'id' | 'userId'>, creds: ExchangeCredentials) =>
  serverSeal(JSON.stringify({ k: creds.apiKey, s: creds.apiSecret, ...(creds.passphrase ? { p: creds.passphrase } : {}) }), secret, aadOf(key.id, key.userId));

export async function openSealedCredentials(db: Db, secret: string, apiKeyId: string, userId: string): Promise<ExchangeCredentials | null> {
  const [row] = await db.select().from(sealedCredentials).where(and(eq(sealedCredentials.apiKeyId, apiKeyId), eq(sealedCredentials.userId, userId)));
  if (!row) return null;
  const plain = JSON.parse(serverOpen(row, secret, aadOf(apiKeyId, userId))) as { k: string; s: string; p?: string };
  return { apiKey: plain.k, apiSecret: plain.s, ...(plain.p ? { passphrase: plain.p } : {}) };
}

/** Deletes the key's sealed credentials unless a bracket of the key is still guarded. */
export async function dropSealedIfIdle(db: Db, apiKeyId: string): Promise<void> {
  await db
    .delete(sealedCredentials)
    .where(
      and(
        eq(sealedCredentials.apiKeyId, apiKeyId),
        sql`not exists (select 1 from ${jobs} where ${jobs.kind} = ${BRACKET_JOB_KIND} and ${jobs.state} = 'pending' and ${jobs.payload} ->> 'apiKeyId' = ${apiKeyId})`,
      ),
    );
}

/** Brackets of the key whose entry rests and whose stop the server is still to place. */
const waitingForEntry = (apiKeyId: string) =>
  and(
    eq(jobs.kind, BRACKET_JOB_KIND),
    eq(jobs.state, 'pending'),
    sql`${jobs.payload} ->> 'apiKeyId' = ${apiKeyId}`,
    sql`coalesce(${jobs.payload} ->> 'protectionPlaced', 'true') = 'false'`,
    sql`coalesce(${jobs.payload} ->> 'entrySeen', 'false') <> 'true'`,
  );

/**
 * The owner's consent for a key (`PUT` / `DELETE /v1/api-keys/{id}/server-custody`). Given only when
 * this server can seal credentials (`canSeal`: SERVER_SECRET). Withdrawing it is refused (409) while a
 * bracket of the key waits for its entry to fill — the server is to place that entry's stop; else it
 * deletes the sealed credentials and stops guarding every bracket of the key (their orders stay as
 * they are on the exchange), each noted in the activity log.
 */
export async function setServerCustody(db: Db, events: EventBus, userId: string, apiKeyId: string, on: boolean, canSeal = true): Promise<ApiKeyRow> {
  if (on && !canSeal) throw conflict(NO_CUSTODY_SECRET_MESSAGE);
  return events.transaction(db, async (tx, emit) => {
    if (!on) await refuseWhileEntriesWait(tx, userId, apiKeyId);
    const [row] = await tx
      .update(apiKeys)
      .set({ serverCustodyAt: on ? new Date() : null })
      .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.userId, userId)))
      .returning();
    if (!row) throw notFound(API_KEY_NOT_FOUND);
    // Custody given: the trading calls' copy of the key row (held with its unlocks) is re-read everywhere.
    if (on) await emit('api-key.changed', { apiKeyId, userId });
    if (!on) {
      const stopped = await stopGuardingKey(tx, apiKeyId, CUSTODY_WITHDRAWN_MESSAGE);
      for (const job of stopped) {
        await logActivity(tx, job.userId!, job.key, { action: 'Stopped guarding the bracket', orderId: null, result: 'ok', message: CUSTODY_WITHDRAWN_MESSAGE, dedupe: 'stopped' }, emit);
      }
      await tx.delete(sealedCredentials).where(eq(sealedCredentials.apiKeyId, apiKeyId));
      await emit('api-key.custody-withdrawn', { apiKeyId, userId });
    }
    return row;
  });
}

const CUSTODY_WITHDRAWN_MESSAGE = 'Guarding was turned off for this key: the orders stay as they are, and are no longer cancelled when the position closes';
export const KEY_DELETED_MESSAGE = 'The API key was deleted: the orders stay as they are';

/** 409 while a bracket of the key waits for its entry to fill (the server is to place that entry's stop). */
async function refuseWhileEntriesWait(tx: Tx, userId: string, apiKeyId: string): Promise<void> {
  const waiting = await tx
    .select({ symbol: sql<string>`${jobs.payload} ->> 'symbol'` })
    .from(jobs)
    .where(and(waitingForEntry(apiKeyId), eq(jobs.userId, userId)));
  if (!waiting.length) return;
  const symbols = [...new Set(waiting.map((w) => w.symbol))].join(', ');
  throw conflict(
    `${waiting.length} bracket${waiting.length === 1 ? '' : 's'} of this key (${symbols}) wait${waiting.length === 1 ? 's' : ''} for the entry to fill, and the server is to place the stop then: cancel those entries first`,
  );
}

/**
 * The server stops guarding every bracket of the key (custody withdrawn, the key deleted): their
 * jobs fail with `message`, their runs lose their lease; the orders stay on the exchange.
 */
export async function stopGuardingKey(tx: Tx | Db, apiKeyId: string, message: string): Promise<JobRow[]> {
  return tx
    .update(jobs)
    .set({ state: 'failed', lastError: message, leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
    .where(and(eq(jobs.kind, BRACKET_JOB_KIND), eq(jobs.state, 'pending'), sql`${jobs.payload} ->> 'apiKeyId' = ${apiKeyId}`))
    .returning();
}

// ------------------------------------------------------------------------------------ the guard's row

/** The legs a guard places (or watches), from the planned legs of the bracket. */
export function guardLegs(planned: readonly PlannedLeg[]): GuardLeg[] {
  return planned.map((l) => ({
    role: l.role,
    type: l.role === 'stop-loss' ? 'STOP_MARKET' : 'TAKE_PROFIT',
    qty: l.qty,
    price: l.price,
    triggerPrice: l.triggerPrice ?? l.price ?? '0',
    clientOrderId: l.clientOrderId,
  }));
}

/**
 * Before a bracket's first order is sent: seal the credentials and write its job, due only after the
 * placing grace (so no instance acts while the request is still placing) — one statement, so one round
 * trip to the database on the order's path (issue 25 §1), and the credentials are there whenever the job
 * is. Refused (409) without the key's consent, and when the server holds no SERVER_SECRET.
 */
export async function prepareGuard(
  db: Db,
  secret: string | undefined,
  key: ApiKeyRow,
  creds: ExchangeCredentials,
  bracket: { symbol: string; side: Side; bracketId: string; entryType: NonNullable<BracketJobPayload['entryType']>; options: ManagedBracket | null; legs: GuardLeg[] },
): Promise<void> {
  if (!secret) throw conflict(NO_CUSTODY_SECRET_MESSAGE);
  if (!key.serverCustodyAt) throw conflict(CUSTODY_REQUIRED_MESSAGE, { custody: CUSTODY_REQUIRED_MESSAGE });
  const sealed = sealOf(secret, key, creds);
  const payload = writeJobPayload(BRACKET_JOB, {
    apiKeyId: key.id,
    exchange: key.exchange,
    network: key.network,
    symbol: bracket.symbol,
    side: bracket.side,
    bracketId: bracket.bracketId,
    entryType: bracket.entryType,
    options: bracket.options,
    legs: bracket.legs,
    armed: false,
    // A market entry's stop and targets are placed by the request itself, at once.
    protectionPlaced: bracket.entryType === 'MARKET',
    entrySeen: bracket.entryType === 'MARKET' ? true : undefined,
  });
  const due = sql`now() + ${PLACING_GRACE_MS} * interval '1 millisecond'`;
  // A retry of the same bracket (same id): the job row is reused, and waits again for the request.
  await db.execute(sql`
    with sealed as (
      insert into ${sealedCredentials} (api_key_id, user_id, ciphertext, iv, tag)
      values (${key.id}, ${key.userId}, ${sealed.ciphertext}, ${sealed.iv}, ${sealed.tag})
      on conflict (api_key_id) do update set ciphertext = excluded.ciphertext, iv = excluded.iv, tag = excluded.tag, created_at = now()
    )
    insert into ${jobs} (kind, key, user_id, affinity, payload, run_at)
    values (${BRACKET_JOB_KIND}, ${bracketJobKey(bracket.bracketId)}, ${key.userId}, ${bracketJobAffinity(key.id)}, ${JSON.stringify(payload)}::jsonb, ${due})
    on conflict (key) do update set run_at = ${due}, updated_at = now()
      where ${jobs.state} = 'pending' and ${jobs.leaseOwner} is null
  `);
}

/** The request placed the bracket: the job starts now. */
export async function armGuard(db: Db, key: Pick<ApiKeyRow, 'userId'>, bracketId: string, what: string, events?: NotificationEvents): Promise<void> {
  // One field of a payload already written through the schema: the merge keeps it valid.
  const armed: Pick<BracketJobPayload, 'armed'> = { armed: true };
  await db
    .update(jobs)
    .set({ payload: sql`${jobs.payload} || ${JSON.stringify(armed)}::jsonb`, runAt: sql`now()`, updatedAt: new Date() })
    .where(and(eq(jobs.key, bracketJobKey(bracketId)), eq(jobs.state, 'pending'), isNull(jobs.leaseOwner)));
  await logActivity(db, key.userId, bracketJobKey(bracketId), { action: 'Guarding the bracket', orderId: null, result: 'ok', message: what, dedupe: 'started' }, events);
}

/** Nothing of the bracket is live (refused and undone): its job and, when idle, the sealed credentials go. */
export async function dropGuard(db: Db, apiKeyId: string, bracketId: string): Promise<void> {
  await db.delete(jobs).where(and(eq(jobs.key, bracketJobKey(bracketId)), eq(jobs.state, 'pending'), isNull(jobs.leaseOwner)));
  await dropSealedIfIdle(db, apiKeyId);
}

// ------------------------------------------------------------------------------------ reads

const infoOf = (job: JobRow): ManagedBracketInfo | null => {
  // Rows written before every bracket was guarded carry `cancelOnClose` and no legs (the listing schema allows them).
  const read = listedBracketPayloadSchema.safeParse(job.payload);
  if (!read.success) return null;
  const p = read.data;
  const options = p.options && (p.options.breakEven || p.options.trail) ? { breakEven: p.options.breakEven, trail: p.options.trail } : null;
  const running = job.state === 'pending';
  const waiting = running && !p.protectionPlaced && p.entrySeen !== true;
  return {
    bracketId: p.bracketId,
    symbol: p.symbol,
    side: p.side,
    options,
    phase: !running ? 'finished' : waiting ? 'waiting' : 'open',
    planned: waiting
      ? (p.legs ?? []).map((l) => ({ role: l.role, type: l.type, side: p.side === 'BUY' ? ('SELL' as const) : ('BUY' as const), qty: l.qty, price: l.price, triggerPrice: l.triggerPrice, clientOrderId: l.clientOrderId }))
      : [],
    state: job.state === 'pending' ? 'running' : job.state,
    breakEvenDone: p.beDone === true,
    message: job.lastError,
    createdAt: job.createdAt.toISOString(),
  };
};

/** The key's guarded brackets, running first, then the newest finished (100 in all). */
export async function listManagedBrackets(db: Db, userId: string, apiKeyId: string): Promise<ManagedBracketInfo[]> {
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, BRACKET_JOB_KIND), eq(jobs.userId, userId), sql`${jobs.payload} ->> 'apiKeyId' = ${apiKeyId}`))
    .orderBy(sql`case when ${jobs.state} = 'pending' then 0 else 1 end`, desc(jobs.createdAt))
    .limit(100);
  // A row no schema reads (damaged by hand) is left out rather than failing the whole list.
  return rows.flatMap((row) => infoOf(row) ?? []);
}

export async function listActivity(db: Db, userId: string, limit = 100): Promise<ActivityEntry[]> {
  const rows = await db.select().from(jobActivity).where(eq(jobActivity.userId, userId)).orderBy(desc(jobActivity.at), desc(jobActivity.id)).limit(limit);
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), job: r.jobKey, action: r.action, orderId: r.orderId, result: r.result === 'failed' ? 'failed' : 'ok', message: r.message }));
}

/**
 * One activity entry; `dedupe` (within the job) makes a replay after a crash add nothing. A `notify`
 * entry's notification is published through `events` (the user's open tabs get it at once).
 */
export async function logActivity(
  db: Db,
  userId: string,
  jobKey: string,
  e: { action: string; orderId: string | null; result: 'ok' | 'failed'; message: string; dedupe: string; notify?: boolean },
  events?: NotificationEvents,
): Promise<void> {
  const [row] = await db
    .insert(jobActivity)
    .values({ userId, jobKey, action: e.action, orderId: e.orderId, result: e.result, message: e.message.slice(0, 1000), dedupeKey: `${jobKey}:${e.dedupe}` })
    .onConflictDoNothing()
    .returning({ id: jobActivity.id });
  if (row && e.notify) {
    await addNotification(db, { userId, kind: 'job', title: e.action, body: e.message, refId: jobKey, dedupeKey: `activity:${jobKey}:${e.dedupe}` }, events);
  }
  // The user's tabs read the guarded brackets and the activity again (they do not poll while their socket is up).
  // Best effort: a bus that cannot take it costs the tabs this refresh (they read again on their next change or
  // reconnect), never the guard its round — the entry is written.
  if (row && events) {
    if (typeof events === 'function') await events('managed.changed', { userId });
    else await events.publish('managed.changed', { userId }).catch(() => undefined);
  }
}

