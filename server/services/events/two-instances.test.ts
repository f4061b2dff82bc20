/**
 * Events cross instances (issue 23): two app instances on one database, each with its own exchange
 * connections. What is done through instance 1 is acted on by instance 2's subscribers — a deleted
 * key's stream ends and its connector state goes, a sign-out or a password change closes that
 * session's streams — without waiting for instance 2's periodic session check (set to a minute
 * here, so only the event can do it). With REDIS_URL the same holds with Redis in the path.
 */
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { buildApp } from '../../app';
import { createTestApp, RecordingMailer, TEST_DRIVERS, TestClient, type SignedIn, type TestApp } from '../../test/helper';
import { jobs } from '../../db/schema-jobs';
import { is, StreamClient } from '../../test/stream-client';
import { KEY_DELETED_MESSAGE } from '../jobs/managed-brackets';
import { anyJobPayloadSchema } from '../jobs/payloads';
import { ensureJob, type JobHandler } from '../jobs/runner';
import { until } from '../../test/waiting';

const KEY_PASSWORD = 'key-password-1';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const VARIANTS = TEST_DRIVERS.flatMap((driver) => [
  { driver, redis: false },
  { driver, redis: true },
]);

describe.each(VARIANTS)('events between two instances on $driver (redis: $redis)', ({ driver, redis }) => {
  let one: TestApp;
  let two: FastifyInstance;
  let twoClient: TestClient;
  const redises: Redis[] = [];
  const channel = `ct_events_${Math.random().toString(36).slice(2, 10)}`;
  const redisFor = () => {
    if (!redis) return null;
    const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    redises.push(r);
    return r;
  };
  /** Instance 2 runs jobs: a `key-work` job holds its run until aborted (its lease is renewed while it is pending). */
  const running = new Set<string>();
  const aborted: string[] = [];
  const keyWork: JobHandler = {
    kind: 'key-work',
    payload: anyJobPayloadSchema,
    async run(ctx) {
      running.add(ctx.job.key);
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      running.delete(ctx.job.key);
      aborted.push(ctx.job.key);
    },
  };
  const market = { trade: { backoffMs: () => 50, sessionCheckMs: 60_000 } };
  const marketTwo = { ...market, jobs: { tickMs: 50, leaseMs: 60_000, owner: 'instance-2', extraHandlers: [keyWork] } };

  beforeAll(async () => {
    one = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market, eventChannel: channel, redis: redisFor() });
    const config = { ...one.config, JOBS_ENABLED: true };
    two = await buildApp({ config, db: one.db, driver, mailer: new RecordingMailer(), logger: false, distDir: '/nonexistent', market: marketTwo, eventChannel: channel, redis: redisFor() });
    await two.ready();
    twoClient = new TestClient(two, one.config.JWT_SECRET ?? '');
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    for (const r of redises) r.disconnect();
  });

  const addKey = async (who: SignedIn): Promise<ApiKey> => {
    const c = await one.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: who.accessToken });
    const res = await one.client.post('/v1/api-keys', { name: 'two instances', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  };
  /** A stream on instance 2, authenticated as `who`, subscribed to `key` when given. */
  const streamOnTwo = async (who: SignedIn, key?: ApiKey): Promise<StreamClient> => {
    const s = new StreamClient(await two.injectWS('/v1/trade/stream'));
    s.send({ op: 'auth', accessToken: who.accessToken });
    await s.next(is('authenticated'));
    if (key) {
      s.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
      await s.next(is('snapshot'));
    }
    return s;
  };

  it('a key deleted through instance 1 ends its stream on instance 2 and instance 2 forgets its connector state', async () => {
    const user = await one.signInAs('user');
    const key = await addKey(user);
    const s = await streamOnTwo(user, key);
    const read = await twoClient.get(`/v1/trade/${key.id}/positions`, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
    expect(read.statusCode, read.body).toBe(200);
    expect(two.trading.connectors.holds(key.id)).toBe(true);

    expect((await one.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(204);
    expect((await s.next(is('status', (m) => m.state === 'error'))).reason).toBe('The API key was deleted');
    expect(two.trading.hub.get(key.id)).toBeUndefined();
    await until('instance 2 forgets the key', () => !two.trading.connectors.holds(key.id));
    s.socket.close();
  });

  it('a sign-out through instance 1 closes that session’s stream on instance 2 (4401), not the user’s other session', async () => {
    const user = await one.signInAs('user');
    const again = await one.client.post('/v1/auth/signin', { email: user.email, password: user.password });
    const other = { ...user, ...again.json<{ accessToken: string; refreshToken: string }>() };
    const [s, keep] = [await streamOnTwo(user), await streamOnTwo(other)];
    expect((await one.client.post('/v1/auth/signout', undefined, { token: user.accessToken })).statusCode).toBe(200);
    expect(await s.closed()).toBe(4401);
    expect(s.closeReason).toBe('Signed out: the session ended');
    keep.send({ op: 'ping' });
    await keep.next(is('pong'));
    expect(keep.closeCode).toBeNull();
    keep.socket.close();
  });

  it('a password changed through instance 1 closes the user’s other sessions’ streams on instance 2 and keeps the changing one', async () => {
    const user = await one.signInAs('user');
    const again = await one.client.post('/v1/auth/signin', { email: user.email, password: user.password });
    const other = { ...user, ...again.json<{ accessToken: string; refreshToken: string }>() };
    const [changing, elsewhere] = [await streamOnTwo(user), await streamOnTwo(other)];
    const res = await one.client.patch(`/v1/users/${user.id}`, { password: 'a-new-password-1' }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    expect(await elsewhere.closed()).toBe(4401);
    changing.send({ op: 'ping' });
    await changing.next(is('pong'));
    expect(changing.closeCode).toBeNull();
    changing.socket.close();
  });

  /** A job of the key held by instance 2's runner, and a managed bracket of the key not yet due. */
  const keyJobs = async (key: ApiKey, userId: string) => {
    const work = `key-work:${key.id}`;
    await ensureJob(one.db, { kind: keyWork, key: work, userId, payload: { apiKeyId: key.id } });
    const bracket = `bracket:${key.id}`;
    await one.db.insert(jobs).values({ kind: 'bracket', key: bracket, userId, payload: { apiKeyId: key.id }, runAt: sql`now() + interval '1 hour'` });
    await until('instance 2 runs the key’s job', () => running.has(work));
    return { work, bracket };
  };
  const jobRow = async (key: string) => (await one.db.select().from(jobs).where(eq(jobs.key, key)))[0];

  it('a key deleted through instance 1: its managed brackets fail in the deleting transaction and instance 2’s runs of its jobs abort at once', async () => {
    const user = await one.signInAs('user');
    const key = await addKey(user);
    const { work, bracket } = await keyJobs(key, user.id);
    expect((await one.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(204);
    expect(await jobRow(bracket)).toMatchObject({ state: 'failed', lastError: KEY_DELETED_MESSAGE });
    // The lease is a minute long and renewed: only the event stops the run this soon.
    await until('instance 2 aborts the run', () => aborted.includes(work));
  });

  it('custody withdrawn through instance 1 aborts instance 2’s runs of the key’s jobs', async () => {
    const user = await one.signInAs('user');
    const key = await addKey(user);
    const on = await one.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken });
    expect(on.statusCode, on.body).toBe(200);
    const { work, bracket } = await keyJobs(key, user.id);
    const off = await one.client.delete(`/v1/api-keys/${key.id}/server-custody`, { token: user.accessToken });
    expect(off.statusCode, off.body).toBe(200);
    expect((await jobRow(bracket))?.state).toBe('failed');
    await until('instance 2 aborts the run', () => aborted.includes(work));
  });
});
