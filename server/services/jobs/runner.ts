import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs, type JobRow } from '../../db/schema-jobs';
import { readJobPayload, writeJobPayload, type JobKind, type JobPayload } from './payloads';

/**
 * The job runner (DESIGN §3.6, issue 13). Every server instance runs one; jobs are rows of `jobs`.
 *
 * - **Claim**: each tick an instance takes due jobs nobody holds (or whose lease ran out) with one
 *   `UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP LOCKED)`: of N instances claiming at once each
 *   row goes to exactly one.
 * - **Lease**: the holder renews `lease_until` every tick. An instance that dies (kill -9, a lost
 *   network) stops renewing; once the lease has run out another instance claims the job and runs it
 *   again from its saved `payload`. A holder whose renewal finds the row taken (it was too slow)
 *   aborts its run at once (`ctx.signal`).
 * - **Fencing**: `save`, `complete` and `fail` change the row only while this instance still holds
 *   it. A job's effects (a trigger, a notification, an order) must themselves be idempotent — the
 *   crash window between "did it" and "saved that it did" is covered by the effect, not the runner.
 * - A graceful stop releases the leases, so another instance takes over on its next tick.
 */

export interface JobContext<P extends JobPayload = JobPayload> {
  /** The job's row as claimed (its raw `payload` is `payload` below, parsed). */
  readonly job: Omit<JobRow, 'payload'>;
  /** The job's state, parsed with its kind's schema when the job was claimed (payloads.ts). */
  readonly payload: P;
  /** Aborted when the lease is lost or the runner stops: the run must return soon after. */
  readonly signal: AbortSignal;
  /** The runner's instance id (logs, tests). */
  readonly owner: string;
  /**
   * Saves the job's state, parsed with the kind's schema first (throws `InvalidJobPayloadError`,
   * writing nothing, when it does not parse); false when this instance no longer holds the job.
   */
  save(payload: P): Promise<boolean>;
  /**
   * The job is finished: it will not run again (until `ensureJob` makes it pending). `guard` is a
   * condition checked in the same statement (false when it does not hold: the job goes on).
   */
  complete(guard?: SQL): Promise<boolean>;
  /** The job failed for good (a message the activity log / admins can read). */
  fail(message: string): Promise<boolean>;
}

/**
 * What runs the jobs of one kind. `payload` (the kind's schema, payloads.ts) is checked when a job is
 * claimed: a payload that does not parse fails the job, naming the field, and `run` is not called.
 */
export interface JobHandler<P extends JobPayload = JobPayload> extends JobKind<P> {
  /**
   * Runs the job until it is done (call `ctx.complete()`) or `ctx.signal` aborts. Returning without
   * completing releases the job: it runs again after `retryMs` (default 5 s), here or elsewhere.
   */
  run(ctx: JobContext<P>): Promise<void>;
  retryMs?: number;
}

export interface JobRunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** Jobs claimed at most per tick. */
const CLAIM_BATCH = 100;
/** How long a due job waits for the instance that holds another of its affinity (then anyone takes it). */
export const AFFINITY_WAIT_MS = 2_000;

export interface JobRunnerOptions {
  db: Db;
  handlers: JobHandler[];
  /** Lease length (default 15 s): how long a dead instance's jobs wait before another takes them. */
  leaseMs?: number;
  /** Claim + renew cadence (default 1 s); must be well below `leaseMs`. */
  tickMs?: number;
  /** Jobs one instance holds at most (default 200; the app: JOBS_MAX_PER_INSTANCE). */
  maxJobs?: number;
  owner?: string;
  log?: JobRunnerLog;
  /** Tests: `AFFINITY_WAIT_MS`. */
  affinityWaitMs?: number;
}

interface Held {
  job: JobRow;
  abort: AbortController;
  done: Promise<void>;
}

/** Waits `ms`, or less when `signal` aborts first (a job's pause between rounds). */
export const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

const leaseUntil = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`;

export class JobRunner {
  readonly owner: string;
  private readonly leaseMs: number;
  private readonly tickMs: number;
  private readonly maxJobs: number;
  private readonly affinityWaitMs: number;
  private readonly handlers: Map<string, JobHandler>;
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly opts: JobRunnerOptions) {
    this.owner = opts.owner ?? `${process.pid}-${randomUUID().slice(0, 8)}`;
    this.leaseMs = opts.leaseMs ?? 15_000;
    this.tickMs = opts.tickMs ?? 1000;
    this.maxJobs = opts.maxJobs ?? 200;
    this.affinityWaitMs = opts.affinityWaitMs ?? AFFINITY_WAIT_MS;
    this.handlers = new Map(opts.handlers.map((h) => [h.kind, h]));
  }

  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => void this.tick(), this.tickMs);
    this.timer.unref?.();
    void this.tick();
  }

  /** Job ids this instance runs now. */
  heldJobs(): string[] {
    return [...this.held.keys()];
  }

  /** One claim + renew round (the timer calls it; tests may too). Rounds never overlap. */
  tick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.ticking ??= this.round().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  /**
   * Stops claiming, aborts the runs and waits for them, then releases the leases still held so
   * another instance takes the jobs over at once (a crash leaves them to expire instead).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking?.catch(() => undefined);
    const runs = [...this.held.values()];
    for (const h of runs) h.abort.abort();
    await Promise.all(runs.map((h) => h.done.catch(() => undefined)));
    const ids = runs.map((h) => h.job.id);
    this.held.clear();
    if (ids.length) {
      await this.opts.db
        .update(jobs)
        .set({ leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
        .where(and(inArray(jobs.id, ids), eq(jobs.leaseOwner, this.owner)))
        .catch((err: unknown) => this.opts.log?.warn({ err }, 'Could not release the job leases on stop'));
    }
  }

  /**
   * Tests: dies as a process killed with -9 would — stops renewing and acting at once, releases
   * nothing, so the jobs wait for their leases to run out before another instance takes them.
   */
  kill(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const h of this.held.values()) h.abort.abort();
    this.held.clear();
  }

  private async round(): Promise<void> {
    try {
      await this.renew();
      await this.claim();
    } catch (err) {
      // The database is away: the runs keep going until their leases are found lost.
      this.opts.log?.warn({ err }, 'Job runner round failed');
    }
  }

  /**
   * Aborts this instance's runs of the jobs `which` picks, at once (a deleted key's brackets, on the
   * event): they stop acting now rather than at the next lease renewal. Returns how many.
   */
  abortWhere(which: (job: JobRow) => boolean): number {
    let n = 0;
    for (const [id, h] of this.held) {
      if (!which(h.job)) continue;
      this.held.delete(id);
      h.abort.abort();
      n += 1;
    }
    return n;
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const ids = [...this.held.keys()];
    const kept = await this.opts.db
      .update(jobs)
      .set({ leaseUntil: leaseUntil(this.leaseMs), updatedAt: new Date() })
      .where(and(inArray(jobs.id, ids), eq(jobs.leaseOwner, this.owner), eq(jobs.state, 'pending')))
      .returning({ id: jobs.id });
    const keep = new Set(kept.map((k) => k.id));
    for (const id of ids) {
      if (keep.has(id)) continue;
      const h = this.held.get(id);
      this.held.delete(id);
      // Taken over (this instance was too slow) or finished elsewhere: stop acting at once.
      h?.abort.abort();
    }
  }

  private async claim(): Promise<void> {
    const room = this.maxJobs - this.held.size;
    if (room <= 0 || this.stopped) return;
    const kinds = [...this.handlers.keys()];
    const { db } = this.opts;
    const due = db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          eq(jobs.state, 'pending'),
          inArray(jobs.kind, kinds),
          lte(jobs.runAt, sql`now()`),
          or(isNull(jobs.leaseUntil), lt(jobs.leaseUntil, sql`now()`)),
          // A job whose affinity another live instance holds is left to it for a while (never for good: it may be full).
          or(
            isNull(jobs.affinity),
            lte(jobs.runAt, sql`now() - ${this.affinityWaitMs} * interval '1 millisecond'`),
            sql`not exists (select 1 from ${jobs} as "other" where "other"."affinity" = ${jobs.affinity} and "other"."state" = 'pending' and "other"."lease_owner" <> ${this.owner} and "other"."lease_until" > now())`,
          ),
        ),
      )
      // The affinities this instance holds first: a key's brackets gather where its account state already is.
      .orderBy(
        sql`exists (select 1 from ${jobs} as "mine" where "mine"."affinity" = ${jobs.affinity} and "mine"."state" = 'pending' and "mine"."lease_owner" = ${this.owner}) desc`,
        asc(jobs.runAt),
      )
      // At most CLAIM_BATCH a tick: a dead instance's jobs are shared by the survivors, not all taken by the first.
      .limit(Math.min(room, CLAIM_BATCH))
      .for('update', { skipLocked: true });
    const claimed = await db
      .update(jobs)
      .set({ leaseOwner: this.owner, leaseUntil: leaseUntil(this.leaseMs), attempts: sql`${jobs.attempts} + 1`, updatedAt: new Date() })
      .where(inArray(jobs.id, due))
      .returning();
    for (const job of claimed) this.launch(job);
  }

  private launch(job: JobRow): void {
    const handler = this.handlers.get(job.kind);
    if (!handler) return;
    const abort = new AbortController();
    const done = this.execute(job, handler, abort);
    this.held.set(job.id, { job, abort, done });
  }

  /** One claimed job: its payload checked, its handler run, then the job released unless it finished. */
  private async execute(job: JobRow, handler: JobHandler, abort: AbortController): Promise<void> {
    const { db } = this.opts;
    const mine = and(eq(jobs.id, job.id), eq(jobs.leaseOwner, this.owner), eq(jobs.state, 'pending'));
    const finish = async (state: 'done' | 'failed', lastError: string | null, guard?: SQL) => {
      const rows = await db
        .update(jobs)
        .set({ state, lastError, leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
        .where(and(mine, guard))
        .returning({ id: jobs.id });
      return rows.length > 0;
    };
    let finished = false;
    try {
      const read = readJobPayload(handler, job.payload);
      if (!read.ok) {
        // Never run with a payload its kind does not describe: the job fails, saying which field.
        this.opts.log?.warn({ job: job.key, issues: read.error.issues }, 'Job payload does not match its kind; the job failed');
        finished = await finish('failed', read.error.message.slice(0, 500));
        return;
      }
      await handler.run({
        job,
        payload: read.payload,
        signal: abort.signal,
        owner: this.owner,
        save: async (payload) => (await db.update(jobs).set({ payload: writeJobPayload(handler, payload), updatedAt: new Date() }).where(mine).returning({ id: jobs.id })).length > 0,
        complete: async (guard) => (finished = await finish('done', null, guard)),
        fail: async (message) => (finished = await finish('failed', message.slice(0, 500))),
      });
    } catch (err) {
      if (!abort.signal.aborted) this.opts.log?.error({ err, job: job.key }, 'Job run failed; it will be retried');
    } finally {
      if (this.held.get(job.id)?.abort === abort) this.held.delete(job.id);
      if (!finished && !this.stopped && !abort.signal.aborted) {
        // Released for a retry (here or on another instance) after the handler's pause.
        await db
          .update(jobs)
          .set({ leaseOwner: null, leaseUntil: null, runAt: sql`now() + ${handler.retryMs ?? 5000} * interval '1 millisecond'`, updatedAt: new Date() })
          .where(mine)
          .catch((err: unknown) => this.opts.log?.warn({ err, job: job.key }, 'Could not release a job'));
      }
    }
  }
}

/**
 * Makes sure a job exists and is pending for `key` (idempotent: any number of callers, one row).
 * A finished job with the same key is made pending again, keeping its payload. A new row's payload
 * is `{}`, or — given its kind's `JobKind` (payloads.ts) — `payload` parsed with the kind's schema
 * first (throws `InvalidJobPayloadError`, writing nothing).
 */
export function ensureJob(db: Db, job: { kind: string; key: string; userId?: string | null; affinity?: string | null }): Promise<void>;
export function ensureJob<P extends JobPayload>(db: Db, job: { kind: JobKind<P>; key: string; userId?: string | null; affinity?: string | null; payload: P }): Promise<void>;
export async function ensureJob(db: Db, job: { kind: string | JobKind<JobPayload>; key: string; userId?: string | null; affinity?: string | null; payload?: JobPayload }): Promise<void> {
  const kind = typeof job.kind === 'string' ? job.kind : job.kind.kind;
  const payload = typeof job.kind === 'string' ? {} : writeJobPayload(job.kind, job.payload ?? {});
  await db
    .insert(jobs)
    .values({ kind, key: job.key, userId: job.userId ?? null, affinity: job.affinity ?? null, payload })
    .onConflictDoUpdate({
      target: jobs.key,
      set: { state: 'pending', runAt: sql`now()`, lastError: null, updatedAt: new Date() },
      setWhere: sql`${jobs.state} <> 'pending'`,
    });
}
