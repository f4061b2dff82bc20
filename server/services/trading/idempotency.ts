import { createHash } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tradeRequests } from '../../db/schema-trading';
import { HttpError } from '../../lib/http-error';
import { RetryLaterError } from '../../lib/retry-later';

/**
 * A retry never doubles (issue 21, DESIGN §3.2): the client id of an order, bracket, ladder, close
 * or cancel-all is an idempotency key, kept per API key in `trade_requests`.
 *
 * - The first request with an id runs; its final answer (2xx, 4xx) is stored.
 * - A retry with the same id and the same request answers that stored answer, status and body, and
 *   does nothing on the exchange. While the first is still running it answers 409 (try again).
 * - The same id with a different request is refused (422): an idempotency key names one intent.
 * - A first request that ended in a 5xx (the exchange down or slow, the server stopped) may run
 *   again: `run(true)` then looks every leg up by its deterministic client id before placing it.
 *   So does a request whose first run has been silent for `STALE_MS` (its server died mid-way).
 * - One round trip before the exchange (the claim); a success is answered without waiting for its
 *   answer to be stored (issue 25 §1). A retry arriving meanwhile on this instance waits for that
 *   store and answers the stored answer; on another instance it hears 409 (try again) until the row
 *   says done. Should the store fail, the row stays "running" until `STALE_MS`, then a retry
 *   reconciles by client id: never a second order.
 */

/** A success answer: its status (200, 201, or 207 for a partial multi-leg result) and body. */
export interface Answer<T, S extends 200 | 201 | 207 = 200 | 201 | 207> {
  status: S;
  body: T;
}

export interface IdempotencyScope {
  db: Db;
  apiKeyId: string;
  userId: string;
}

/** A run silent for this long is taken to be dead (its instance crashed); a retry takes it over. */
const STALE_MS = 120_000;
/** Stored answers are kept this long: long enough for any client's retry. */
const KEEP_HOURS = 24;
/** Statuses that say "nothing decided yet": not stored, so a retry runs again. */
const NOT_FINAL = new Set([408, 409, 425, 429]);

/** The first request with the id has not answered yet: 409 with Retry-After 1 s (a client's retry comes after it). */
const stillRunning = (field: string) =>
  new RetryLaterError(409, 'The first request with this client id is still being processed: try again in a moment', 1, { [field]: 'Still being processed' });

/**
 * A request refused and fully undone (nothing of it is live): its answer is final whatever its
 * status — even a 502/504 from the exchange — so a retry answers it instead of running again.
 */
export class UndoneError extends HttpError {
  constructor(status: number, message: string, fields?: Record<string, string>) {
    super(status, message, fields);
    this.name = 'UndoneError';
  }
}

/** The request's identity: its route and body with keys in a fixed order. */
export function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(`${route}\n${canonical(body)}`).digest('hex');
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

interface StoredError {
  message: string;
  fields?: Record<string, string>;
}

const replay = <T, S extends 200 | 201 | 207>(status: number, response: unknown): Answer<T, S> => {
  if (status >= 400) {
    const e = response as StoredError;
    throw new HttpError(status, e.message, e.fields);
  }
  // Stored from this route's own answers: the same statuses it answers.
  return { status: status as S, body: response as T };
};

/** How often a process sweeps old answers (issue 25 §1: not a query on every order's path). */
const SWEEP_EVERY_MS = 60_000;
let nextSweepAt = 0;

/**
 * Answers older than KEEP_HOURS are dropped a few at a time by the requests themselves: at most once a
 * minute per process, beside the request rather than before it (a failed sweep is tried again next time).
 */
function sweepOldAnswers(db: Db): void {
  const now = Date.now();
  if (now < nextSweepAt) return;
  nextSweepAt = now + SWEEP_EVERY_MS;
  db.delete(tradeRequests)
    .where(
      inArray(
        tradeRequests.id,
        db
          .select({ id: tradeRequests.id })
          .from(tradeRequests)
          .where(lt(tradeRequests.createdAt, sql`now() - ${KEEP_HOURS} * interval '1 hour'`))
          .limit(50),
      ),
    )
    .then(
      () => undefined,
      () => {
        nextSweepAt = 0;
      },
    );
}

/** Answers of this process being stored after they were sent, by API key and client id. */
const storing = new Map<string, Promise<unknown>>();
const slot = (apiKeyId: string, clientId: string) => `${apiKeyId}\0${clientId}`;

/** Stores a success in the background, after the answer; a retry of it meanwhile waits for it (`storing`). One second try on failure. */
function storeInBackground(apiKeyId: string, clientId: string, store: () => Promise<unknown>): void {
  const key = slot(apiKeyId, clientId);
  const attempt = async () => {
    await store();
  };
  // Begun after this turn of the event loop, so the answer is written to its socket first (an embedded
  // database's write runs on this thread and would hold the answer back).
  const done = new Promise((r) => setImmediate(r))
    .then(attempt)
    .catch(attempt)
    .catch(() => undefined)
    .finally(() => {
      if (storing.get(key) === done) storing.delete(key);
    });
  storing.set(key, done);
}

/** The row of (key, client id), after this process's store of its answer, if one is under way, has ended. */
async function storedRow(db: Db, apiKeyId: string, clientId: string) {
  await storing.get(slot(apiKeyId, clientId));
  const [row] = await db
    .select()
    .from(tradeRequests)
    .where(and(eq(tradeRequests.apiKeyId, apiKeyId), eq(tradeRequests.clientId, clientId)));
  return row;
}

/**
 * Runs `run` once per (API key, client id). `clientId` absent: runs it every time (no key was given).
 * `field` names the request's idempotency field in a refusal (`clientOrderId`, or the header).
 */
export async function idempotent<T, S extends 200 | 201 | 207>(
  scope: IdempotencyScope,
  request: { clientId: string | undefined; route: string; body: unknown; field: string },
  run: (retry: boolean) => Promise<Answer<T, S>>,
): Promise<Answer<T, S>> {
  const { db, apiKeyId, userId } = scope;
  const { clientId } = request;
  if (!clientId) return run(false);
  const hash = requestHash(request.route, request.body);

  sweepOldAnswers(db);

  const [mine] = await db
    .insert(tradeRequests)
    .values({ apiKeyId, userId, clientId, route: request.route, requestHash: hash })
    .onConflictDoNothing()
    .returning({ id: tradeRequests.id });
  let id = mine?.id;
  let retry = false;
  if (!id) {
    const row = await storedRow(db, apiKeyId, clientId);
    if (!row) throw stillRunning(request.field);
    if (row.requestHash !== hash) {
      throw new HttpError(422, `The client id ${clientId} was already used for a different request: use a new id for a new order`, {
        [request.field]: 'Already used for a different request',
      });
    }
    if (row.state === 'done' && row.status !== null) return replay<T, S>(row.status, row.response);
    const stale = row.state === 'running' && Date.now() - row.updatedAt.getTime() > STALE_MS;
    if (row.state === 'running' && !stale) {
      throw stillRunning(request.field);
    }
    // A failed (5xx) or dead first run: take it over, once, and reconcile with the exchange.
    const [taken] = await db
      .update(tradeRequests)
      .set({ state: 'running', updatedAt: new Date() })
      .where(and(eq(tradeRequests.id, row.id), eq(tradeRequests.state, row.state), eq(tradeRequests.updatedAt, row.updatedAt)))
      .returning({ id: tradeRequests.id });
    if (!taken) throw stillRunning(request.field);
    id = taken.id;
    retry = true;
  }

  const store = (state: 'done' | 'retry', status: number | null, response: unknown) =>
    db
      .update(tradeRequests)
      .set({ state, status, response: response ?? null, updatedAt: new Date() })
      .where(eq(tradeRequests.id, id));
  let answer: Answer<T, S>;
  try {
    answer = await run(retry);
  } catch (err) {
    const final = err instanceof UndoneError || (err instanceof HttpError && err.status >= 400 && err.status < 500 && !NOT_FINAL.has(err.status));
    if (final) await store('done', err.status, { message: err.message, ...(err.fields ? { fields: err.fields } : {}) } satisfies StoredError);
    else await store('retry', null, null).catch(() => undefined);
    throw err;
  }
  // Answered now; stored right after (a retry on this instance waits for it, storedRow).
  storeInBackground(apiKeyId, clientId, () => store('done', answer.status, answer.body));
  return answer;
}
