import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from '../../../src/api/contracts/auth';
import type { NotificationList } from '../../../src/api/contracts/notifications';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { openDatabase, type DatabaseHandle, type Db } from '../../db/client';
import { featureFlags } from '../../db/schema';
import { alerts } from '../../db/schema-alerts';
import { jobs, notifications } from '../../db/schema-jobs';
import { manualClock, type Clock } from '../../sim/testing';
import { AppStreamClient, isApp } from '../../test/app-stream-client';
import { createPostgresDatabase, createTestDatabase, RecordingMailer, TEST_DRIVERS, TestClient, uniqueEmail, type TestDriver } from '../../test/helper';
import { ensureAlertJob } from '../alerts';
import { prepareDatabase } from '../bootstrap';
import { patchServerSettings } from '../settings';
import { createUser } from '../users';
import { anyJobPayloadSchema } from './payloads';
import { ensureJob, JobRunner, type JobContext, type JobHandler } from './runner';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(50);
  }
}

/** A job that runs until aborted, recording what happened to it. */
function parked(name: string, log: string[], contexts: Map<string, JobContext>): JobHandler {
  return {
    kind: 'test',
    payload: anyJobPayloadSchema,
    async run(ctx) {
      log.push(`${name}:start:${ctx.job.key}`);
      contexts.set(`${name}:${ctx.job.key}`, ctx);
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      log.push(`${name}:aborted:${ctx.job.key}`);
    },
  };
}

describe.each(TEST_DRIVERS)('job runner on %s', (driver) => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const created = await createTestDatabase(driver);
    handle = created.handle;
    close = created.close;
  });
  afterAll(() => close());

  it('gives each due job to exactly one of two runners claiming at once', async () => {
    const db = handle.db;
    for (let k = 0; k < 20; k++) await ensureJob(db, { kind: 'test', key: `test:many:${k}` });
    const log: string[] = [];
    const contexts = new Map<string, JobContext>();
    const a = new JobRunner({ db, handlers: [parked('A', log, contexts)], owner: 'A', leaseMs: 60_000 });
    const b = new JobRunner({ db, handlers: [parked('B', log, contexts)], owner: 'B', leaseMs: 60_000 });
    await Promise.all([a.tick(), b.tick(), a.tick(), b.tick()]);
    await Promise.all([a.tick(), b.tick()]);
    const held = [...a.heldJobs(), ...b.heldJobs()];
    expect(held).toHaveLength(20);
    expect(new Set(held).size).toBe(20);
    expect(log.filter((l) => l.includes(':start:'))).toHaveLength(20);
    await Promise.all([a.stop(), b.stop()]);
    // A graceful stop releases the leases: the jobs are free for the next instance at once.
    const rows = await db.select().from(jobs).where(eq(jobs.kind, 'test'));
    expect(rows.every((r) => r.leaseOwner === null && r.state === 'pending')).toBe(true);
    await db.delete(jobs).where(eq(jobs.kind, 'test'));
  });

  it('hands a dead holder’s job to another runner when the lease runs out, and fences the old holder off', async () => {
    const db = handle.db;
    await ensureJob(db, { kind: 'test', key: 'test:lease' });
    const log: string[] = [];
    const contexts = new Map<string, JobContext>();
    const a = new JobRunner({ db, handlers: [parked('A', log, contexts)], owner: 'A', leaseMs: 60_000 });
    const b = new JobRunner({ db, handlers: [parked('B', log, contexts)], owner: 'B', leaseMs: 60_000 });
    await a.tick(); // A claims, then "dies": it never renews
    expect(a.heldJobs()).toHaveLength(1);
    // The lease runs leaseMs on the database's clock (checked with a 10 s allowance for a slow machine).
    const [lease] = await db
      .select({ fullLength: sql<boolean>`${jobs.leaseUntil} > now() + interval '50 seconds'` })
      .from(jobs)
      .where(eq(jobs.key, 'test:lease'));
    expect(lease!.fullLength).toBe(true);
    await b.tick();
    expect(b.heldJobs()).toHaveLength(0); // the lease is still A's
    // The minute passes with nobody renewing (moved on the database's clock, not waited out).
    await db.update(jobs).set({ leaseUntil: sql`now() - interval '1 millisecond'` }).where(eq(jobs.key, 'test:lease'));
    await b.tick();
    expect(b.heldJobs()).toHaveLength(1);
    const [row] = await db.select().from(jobs).where(eq(jobs.key, 'test:lease'));
    expect(row).toMatchObject({ leaseOwner: 'B', attempts: 2, state: 'pending' });
    // A comes back: its renewal finds the job taken, its run is aborted, its writes change nothing.
    expect(await contexts.get('A:test:lease')!.save({ from: 'A' })).toBe(false);
    await a.tick();
    expect(a.heldJobs()).toHaveLength(0);
    expect(log).toContain('A:aborted:test:lease');
    expect(await contexts.get('A:test:lease')!.complete()).toBe(false);
    expect(await contexts.get('B:test:lease')!.save({ from: 'B' })).toBe(true);
    expect(await contexts.get('B:test:lease')!.complete()).toBe(true);
    const [done] = await db.select().from(jobs).where(eq(jobs.key, 'test:lease'));
    expect(done).toMatchObject({ state: 'done', payload: { from: 'B' }, leaseOwner: null });
    // ensureJob wakes a finished job, keeping its state; a pending one is left alone.
    await ensureJob(db, { kind: 'test', key: 'test:lease' });
    await ensureJob(db, { kind: 'test', key: 'test:lease' });
    const again = await db.select().from(jobs).where(eq(jobs.key, 'test:lease'));
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ state: 'pending', payload: { from: 'B' } });
    await Promise.all([a.stop(), b.stop()]);
    await db.delete(jobs).where(eq(jobs.kind, 'test'));
  });

  it('keeps jobs of one affinity (a key’s brackets) on the instance holding one of them; a full or dead holder’s wait ends', async () => {
    const db = handle.db;
    const log: string[] = [];
    const contexts = new Map<string, JobContext>();
    const a = new JobRunner({ db, handlers: [parked('A', log, contexts)], owner: 'A', leaseMs: 60_000, maxJobs: 3, affinityWaitMs: 60_000 });
    const b = new JobRunner({ db, handlers: [parked('B', log, contexts)], owner: 'B', leaseMs: 60_000, affinityWaitMs: 60_000 });
    await ensureJob(db, { kind: 'test', key: 'test:aff:k1', affinity: 'api-key:K' });
    await a.tick();
    expect(a.heldJobs()).toHaveLength(1);
    // More of K's jobs and one of L's: B, ticking first, takes only L's; A takes K's.
    for (const k of ['k2', 'k3', 'k4']) await ensureJob(db, { kind: 'test', key: `test:aff:${k}`, affinity: 'api-key:K' });
    await ensureJob(db, { kind: 'test', key: 'test:aff:l1', affinity: 'api-key:L' });
    await b.tick();
    expect(log.filter((l) => l.startsWith('B:start')).sort()).toEqual(['B:start:test:aff:l1']);
    await a.tick();
    expect(log.filter((l) => l.startsWith('A:start')).sort()).toEqual(['A:start:test:aff:k1', 'A:start:test:aff:k2', 'A:start:test:aff:k3']);
    // A is full: k4 is not starved — once it has waited its turn, B takes it.
    await b.tick();
    expect(log).not.toContain('B:start:test:aff:k4');
    await db.update(jobs).set({ runAt: sql`now() - interval '61 seconds'` }).where(eq(jobs.key, 'test:aff:k4'));
    await b.tick();
    expect(log).toContain('B:start:test:aff:k4');
    // A dies: once its leases run out, K's jobs are anyone's at once (no wait for a holder that is gone).
    await ensureJob(db, { kind: 'test', key: 'test:aff:k5', affinity: 'api-key:K' });
    await b.tick();
    expect(log).not.toContain('B:start:test:aff:k5'); // A's leases still run
    await db.update(jobs).set({ leaseUntil: sql`now() - interval '1 millisecond'` }).where(eq(jobs.leaseOwner, 'A'));
    await b.tick();
    expect(log.filter((l) => l.startsWith('B:start')).sort()).toEqual(['B:start:test:aff:k1', 'B:start:test:aff:k2', 'B:start:test:aff:k3', 'B:start:test:aff:k4', 'B:start:test:aff:k5', 'B:start:test:aff:l1']);
    await Promise.all([a.stop(), b.stop()]);
    await db.delete(jobs).where(eq(jobs.kind, 'test'));
  });
});

// ------------------------------------------------------------------ alerts evaluated by the server

interface Instance {
  app: FastifyInstance;
  client: TestClient;
}

/** The simulator's BTCUSDT last price on binance at the clock's time. */
async function lastPrice(app: FastifyInstance): Promise<number> {
  return Number((await app.inject('/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT')).json().lastPrice);
}

async function minuteBars(app: FastifyInstance, from: number, n: number): Promise<Array<{ time: number; high: number; low: number; close: number }>> {
  const rows = (await app.inject(`/sim/binance/fapi/v1/klines?symbol=BTCUSDT&interval=1m&startTime=${from}&limit=${n}`)).json() as unknown[][];
  return rows.map((r) => ({ time: Number(r[0]), high: Number(r[2]), low: Number(r[3]), close: Number(r[4]) }));
}

describe.each(TEST_DRIVERS)('price alerts evaluated by the server on %s (simulator, no browser)', (driver: TestDriver) => {
  // A fixed market time (the seeded path is the same on every run); alerts are set at market times.
  const t0 = Date.UTC(2026, 5, 1, 12, 0, 0);
  const clock: Clock = manualClock(t0);
  const mailer = new RecordingMailer();
  const handles: DatabaseHandle[] = [];
  let url: string | null = null;
  let drop: (() => Promise<void>) | null = null;
  let db: Db;
  const running: Instance[] = [];
  let token = '';
  let userId = '';
  let email = '';

  async function start(owner: string): Promise<Instance> {
    let h: DatabaseHandle;
    if (driver === 'postgres') {
      h = await openDatabase({ driver: 'postgres', url: url!, poolSize: 4 });
      handles.push(h);
    } else {
      h = handles[0]!;
    }
    const config = testConfig({ MARKET_DATA: 'sim', JOBS_ENABLED: true, LOG_LEVEL: 'silent', SMTP_URL: 'smtp://mail.test:25', AUTH_RATE_LIMIT_MAX: 10_000 });
    const app = await buildApp({
      config,
      db: h.db,
      driver,
      mailer,
      logger: false,
      distDir: '/nonexistent',
      market: { sim: { now: clock.now, seed: 'alerts-on-the-server' }, jobs: { leaseMs: 1500, tickMs: 150, refreshMs: 150, owner } },
    });
    await app.ready();
    const inst = { app, client: new TestClient(app, config.JWT_SECRET ?? '') };
    running.push(inst);
    return inst;
  }
  async function stop(inst: Instance): Promise<void> {
    running.splice(running.indexOf(inst), 1);
    await inst.app.close();
  }

  beforeAll(async () => {
    if (driver === 'postgres') {
      const created = await createPostgresDatabase();
      url = created.url;
      drop = created.drop;
      const h = await openDatabase({ driver: 'postgres', url, poolSize: 2 });
      await prepareDatabase(h);
      handles.push(h);
      db = h.db;
    } else {
      const h = await openDatabase({ driver: 'pglite' });
      await prepareDatabase(h);
      handles.push(h);
      db = h.db;
    }
    await db.insert(featureFlags).values({ name: 'FF_ENABLE_ALERTS', enabled: true }).onConflictDoUpdate({ target: featureFlags.name, set: { enabled: true } });
    email = uniqueEmail('alerts');
    const user = await createUser(db, { email, password: 'password-1', role: 'user' });
    userId = user.id;
    await patchServerSettings(db, userId, { alertEmails: true });
  });
  afterAll(async () => {
    for (const inst of [...running]) await stop(inst);
    for (const h of handles) await h.close();
    await drop?.();
  });

  /**
   * An alert set at `at` on the market clock (as the API would at that moment: the simulated
   * clock runs ahead of the wall clock here), and the evaluator woken like the route does.
   */
  const setAlert = async (v: { initialPrice: number; triggerPrice: number; note?: string }, at: number): Promise<string> => {
    const [row] = await db
      .insert(alerts)
      .values({ userId, exchange: 'binance', network: 'MAINNET', symbol: 'BTCUSDT', ...v, createdAt: new Date(at), updatedAt: new Date(at) })
      .returning();
    await ensureAlertJob(db, 'binance', 'MAINNET');
    return row!.id;
  };

  const signIn = async (inst: Instance) => {
    const res = await inst.client.post('/v1/auth/signin', { email, password: 'password-1' });
    token = (res.json() as Tokens).accessToken;
  };

  it(`fires a crossing exactly once ${driver === 'postgres' ? 'with two instances on one database' : 'on the one instance'}, notifies in the app and by e-mail`, async () => {
    const a = await start('A');
    const b = driver === 'postgres' ? await start('B') : null;
    await signIn(a);
    // Find when the simulated price first rises clearly above its t0 level.
    clock.set(t0);
    const p0 = await lastPrice(a.app);
    let t1 = 0;
    let p1 = 0;
    for (let k = 1; k <= 240 && !t1; k++) {
      clock.set(t0 + k * 30_000);
      const p = await lastPrice(a.app);
      if (p > p0 * 1.0005) [t1, p1] = [t0 + k * 30_000, p];
    }
    expect(t1, 'the simulated price rises within two hours').toBeGreaterThan(0);
    clock.set(t0);
    const trigger = Math.round(((p0 + p1) / 2) * 10) / 10;
    const id = await setAlert({ initialPrice: p0, triggerPrice: trigger, note: 'server side' }, t0);

    // One instance takes the exchange's evaluator; the price has not moved, nothing fires.
    await until('the alert job to be held', async () => (await db.select().from(jobs).where(eq(jobs.key, 'alerts:binance')))[0]?.leaseOwner);
    await wait(800);
    expect((await db.select().from(alerts).where(eq(alerts.id, id)))[0]?.status).toBe('active');

    // A tab open on the instance that may not be the one evaluating: the firing is pushed to it.
    const tab = new AppStreamClient(await (b ?? a).app.injectWS('/v1/stream'));
    tab.send({ op: 'auth', accessToken: token });
    await tab.next(isApp('notifications', (m) => m.resume));

    clock.set(t1);
    const push = await tab.next(isApp('notifications', (m) => !m.resume));
    expect(push.items[0]).toMatchObject({ kind: 'alert', alert: { id, status: 'triggered' } });
    tab.socket.close();
    const fired = await until('the alert to fire', async () => {
      const [row] = await db.select().from(alerts).where(eq(alerts.id, id));
      return row?.status === 'triggered' ? row : null;
    });
    // Heard on the pair's trade stream (aggTrade): the first print at or through the trigger fires it,
    // at that print's price, when it was heard.
    expect(fired.triggeredPrice).toBeGreaterThanOrEqual(trigger);
    expect(fired.triggeredPrice).toBeLessThanOrEqual(Math.max(p1, trigger) * 1.01);
    expect(fired.triggeredAt?.getTime()).toBe(t1);
    expect(push.items[0]?.alert?.triggeredPrice, 'the tab heard the price it fired at').toBe(fired.triggeredPrice);
    // Both instances kept running a while longer: still one notification, one e-mail.
    await wait(800);
    const rows = await db.select().from(notifications).where(eq(notifications.refId, id));
    expect(rows).toHaveLength(1);
    const list = (await (b ?? a).client.get('/v1/notifications', { token })).json() as NotificationList;
    expect(list.unread).toBe(1);
    expect(list.items[0]).toMatchObject({ kind: 'alert', title: 'Alert triggered: BTCUSDT', read: false, alert: { id, status: 'triggered', network: 'MAINNET', triggeredPrice: fired.triggeredPrice } });
    expect(list.items[0]!.body).toContain('BTCUSDT on binance rose to');
    expect(list.items[0]!.body).toContain('— server side');
    expect(mailer.sent.filter((m) => m.to === email)).toHaveLength(1);
    expect(mailer.sent.find((m) => m.to === email)?.subject).toBe('Crypto Terminal: Alert triggered: BTCUSDT');

    const read = await a.client.post('/v1/notifications/read', {}, { token });
    expect(read.json()).toEqual({ unread: 0 });
    expect(((await a.client.get('/v1/notifications', { token })).json() as NotificationList).items[0]?.read).toBe(true);

    for (const inst of [...running]) await stop(inst);
  });

  it('after a restart, fires an alert whose price was reached while the server was down (from the candles)', async () => {
    clock.set(t0 + 6 * 3_600_000);
    const a = await start('C');
    await signIn(a);
    const base = t0 + 3 * 3_600_000;
    clock.set(base);
    const p0 = await lastPrice(a.app);
    // A stretch where the price went up and came back: the high is only in the candles.
    clock.set(base + 3 * 3_600_000);
    const bars = await minuteBars(a.app, base, 180);
    let trigger = 0;
    let t2 = 0;
    let high = 0;
    for (let k = 2; k < bars.length && !trigger; k++) {
      high = Math.max(high, bars[k - 1]!.high);
      const floor = Math.max(p0, bars[k - 1]!.close, bars[k]!.low);
      if (high > floor * 1.0004) {
        trigger = Math.round((high - (high - floor) / 4) * 10) / 10;
        t2 = bars[k]!.time;
      }
    }
    expect(trigger, 'the simulated price rises and falls back within three hours').toBeGreaterThan(0);
    clock.set(base);
    const id = await setAlert({ initialPrice: p0, triggerPrice: trigger }, base);
    await until('the evaluator to hear the stream at the alert’s time', async () => {
      const [job] = await db.select().from(jobs).where(eq(jobs.key, 'alerts:binance'));
      return job?.payload.seenUntil === base;
    });
    await wait(500);
    expect((await db.select().from(alerts).where(eq(alerts.id, id)))[0]?.status).toBe('active');
    await stop(a);

    // Down while the price went through the trigger and back.
    clock.set(t2);
    expect(await lastPriceAt(t2)).toBeLessThan(trigger);
    await start('D');
    const fired = await until('the alert to fire from the candles', async () => {
      const [row] = await db.select().from(alerts).where(eq(alerts.id, id));
      return row?.status === 'triggered' ? row : null;
    });
    expect(fired.triggeredPrice).toBe(trigger);
    expect(fired.triggeredAt!.getTime()).toBeGreaterThan(base - 60_000);
    expect(fired.triggeredAt!.getTime()).toBeLessThan(t2);
    // The bar it names did reach the trigger.
    const bar = bars.find((x) => x.time === fired.triggeredAt!.getTime());
    expect(bar?.high).toBeGreaterThanOrEqual(trigger);
    expect(await db.select().from(notifications).where(eq(notifications.refId, id))).toHaveLength(1);
  });

  async function lastPriceAt(t: number): Promise<number> {
    clock.set(t);
    const inst = running[0];
    if (inst) return lastPrice(inst.app);
    // No instance running: ask a throwaway simulator-only app.
    const probe = await buildApp({
      config: testConfig({ MARKET_DATA: 'sim', LOG_LEVEL: 'silent' }),
      db,
      driver,
      logger: false,
      distDir: '/nonexistent',
      market: { sim: { now: clock.now, seed: 'alerts-on-the-server' } },
    });
    try {
      return await lastPrice(probe);
    } finally {
      await probe.close();
    }
  }
});
