import net from 'node:net';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Health } from '../../../src/api/contracts/health';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { openDatabase } from '../../db/client';
import { prepareDatabase } from '../../services/bootstrap';
import { createUser } from '../../services/users';
import { createTestApp, RecordingMailer, TEST_DRIVERS, TestClient, uniqueEmail, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('GET /v1/health on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { AUTH_RATE_LIMIT_MAX: 1 });
  });
  afterAll(() => t?.close());

  it('is public, answers 200 with the database round trip, Redis off without REDIS_URL, and is never cached', async () => {
    const res = await t.client.get('/v1/health', { xsrf: false });
    expect(res.statusCode).toBe(200);
    const body = res.json<Health>();
    expect(body).toEqual({ status: 'ok', database: { state: 'ok', latencyMs: expect.any(Number) }, redis: { state: 'off' } });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is not rate limited', async () => {
    for (let i = 0; i < 5; i++) expect((await t.client.get('/v1/health')).statusCode).toBe(200);
    expect((await t.client.get('/v1/health')).headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await t.client.get('/docs/json')).json<{ paths: Record<string, { get?: { responses: Record<string, unknown> } }> }>();
    expect(Object.keys(doc.paths['/v1/health']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503']));
  });
});

/** A local port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('GET /v1/health and Redis', () => {
  it('ok with a reachable Redis, degraded (still 200: the database answers) when Redis is down', async () => {
    const live = new Redis({ host: '127.0.0.1', port: 6379, maxRetriesPerRequest: 1 });
    const dead = new Redis({ host: '127.0.0.1', port: await deadPort(), lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    dead.on('error', () => undefined);
    const withLive = await createTestApp('pglite', {}, { redis: live, rateLimitNamespace: `health-test-${process.pid}-` });
    const withDead = await createTestApp('pglite', {}, { redis: dead });
    try {
      await expect.poll(() => live.status, { timeout: 5000 }).toBe('ready');
      const ok = await withLive.client.get('/v1/health');
      expect(ok.statusCode).toBe(200);
      expect(ok.json<Health>()).toMatchObject({ status: 'ok', redis: { state: 'ok' } });

      const degraded = await withDead.client.get('/v1/health');
      expect(degraded.statusCode).toBe(200);
      expect(degraded.json<Health>()).toMatchObject({ status: 'degraded', database: { state: 'ok' }, redis: { state: 'down' } });
    } finally {
      await withLive.close();
      await withDead.close();
      live.disconnect();
      dead.disconnect();
    }
  });
});

describe('a closed PGlite', () => {
  it('answers 503 with Retry-After (not 500), and health says down', async () => {
    const handle = await openDatabase({ driver: 'pglite' });
    await prepareDatabase(handle);
    const config = testConfig({ AUTH_RATE_LIMIT_MAX: 10_000, LOG_LEVEL: 'silent' });
    const app = await buildApp({ config, db: handle.db, driver: 'pglite', mailer: new RecordingMailer(), logger: false, distDir: '/nonexistent' });
    try {
      const client = new TestClient(app, config.JWT_SECRET ?? '');
      const email = uniqueEmail('pglite-closed');
      await createUser(handle.db, { email, password: 'password-123', role: 'user' });
      const signin = await client.post('/v1/auth/signin', { email, password: 'password-123' });
      const { accessToken } = signin.json<{ accessToken: string }>();
      await handle.close();

      const res = await client.get('/v1/users/settings', { token: accessToken });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ message: 'The database is unavailable: try again in a few seconds' });

      const health = await client.get('/v1/health');
      expect(health.statusCode).toBe(503);
      expect(health.json<Health>()).toEqual({ status: 'down', database: { state: 'down', reason: 'database closed' }, redis: { state: 'off' } });
    } finally {
      await app.close();
    }
  });
});
