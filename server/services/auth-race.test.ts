import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from '../../src/api/contracts/auth';
import { buildApp } from '../app';
import { testConfig } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { createPostgresDatabase, createTestApp, TestClient, TEST_DRIVERS, type TestApp } from '../test/helper';
import { prepareDatabase } from './bootstrap';
import { createUser } from './users';

/**
 * Refresh-token races (issue "Hardening"): reuse detection and sign-out must win every race. Before
 * the family lock, the winner of two concurrent refreshes kept a working session in about half the
 * trials, and a sign-out racing a refresh on another instance left the refreshed session alive.
 */
const TRIALS = 25;

async function statusOf(client: TestClient, token: string) {
  return (await client.get('/v1/users/me', { token })).statusCode;
}

describe.each(TEST_DRIVERS)('concurrent refreshes of one token on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
  });
  afterAll(() => t?.close());

  it(`never leaves a working session behind (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const user = await t.signInAs('user');
      const answers = await Promise.all([0, 1].map(() => t.client.post('/v1/auth/refresh', undefined, { token: user.refreshToken })));
      const codes = answers.map((a) => a.statusCode).sort();
      // One use wins the rotation, the other is reuse: the whole family is revoked.
      expect(codes, `trial ${trial}`).toEqual([200, 401]);
      const winner = answers.find((a) => a.statusCode === 200)!.json<Tokens>();
      expect(await statusOf(t.client, winner.accessToken), `trial ${trial}: the winner's access token`).toBe(401);
      const again = await t.client.post('/v1/auth/refresh', undefined, { token: winner.refreshToken });
      expect(again.statusCode, `trial ${trial}: the winner's refresh token`).toBe(401);
    }
  });
});

describe('two instances on one PostgreSQL', () => {
  let a: FastifyInstance;
  let b: FastifyInstance;
  let clientA: TestClient;
  let clientB: TestClient;
  const handles: DatabaseHandle[] = [];
  let drop: () => Promise<void> = async () => undefined;
  const config = testConfig({ AUTH_RATE_LIMIT_MAX: 100_000, SESSION_RATE_LIMIT_MAX: 100_000, LOG_LEVEL: 'silent' });

  beforeAll(async () => {
    const created = await createPostgresDatabase();
    drop = created.drop;
    for (let i = 0; i < 2; i++) handles.push(await openDatabase({ driver: 'postgres', url: created.url, poolSize: 4 }));
    await prepareDatabase(handles[0]);
    const build = (h: DatabaseHandle) => buildApp({ config, db: h.db, driver: 'postgres', logger: false, distDir: '/nonexistent' });
    a = await build(handles[0]);
    b = await build(handles[1]);
    clientA = new TestClient(a, config.JWT_SECRET ?? '');
    clientB = new TestClient(b, config.JWT_SECRET ?? '');
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    for (const h of handles) await h.close();
    await drop();
  });

  const signIn = async (n: number): Promise<Tokens> => {
    const email = `race-${process.pid}-${n}-${Date.now()}@test.example.com`;
    await createUser(handles[0].db, { email, password: 'password-123', role: 'user' });
    const res = await clientA.post('/v1/auth/signin', { email, password: 'password-123' });
    expect(res.statusCode).toBe(200);
    return res.json<Tokens>();
  };

  it(`a sign-out racing a refresh on the other instance always ends the sign-in (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const tokens = await signIn(trial);
      const [refreshed, signedOut] = await Promise.all([
        clientA.post('/v1/auth/refresh', undefined, { token: tokens.refreshToken }),
        clientB.post('/v1/auth/signout', undefined, { token: tokens.accessToken }),
      ]);
      expect(signedOut.statusCode, `trial ${trial}`).toBe(200);
      if (refreshed.statusCode === 200) {
        const next = refreshed.json<Tokens>();
        expect(await statusOf(clientB, next.accessToken), `trial ${trial}: refreshed access token`).toBe(401);
        expect((await clientB.post('/v1/auth/refresh', undefined, { token: next.refreshToken })).statusCode, `trial ${trial}: refreshed refresh token`).toBe(401);
      } else {
        expect(refreshed.statusCode).toBe(401);
      }
    }
  });

  it(`concurrent refreshes of one token on two instances leave no working session (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const tokens = await signIn(1000 + trial);
      const answers = await Promise.all([clientA, clientB].map((c) => c.post('/v1/auth/refresh', undefined, { token: tokens.refreshToken })));
      expect(answers.map((r) => r.statusCode).sort(), `trial ${trial}`).toEqual([200, 401]);
      const winner = answers.find((r) => r.statusCode === 200)!.json<Tokens>();
      expect(await statusOf(clientA, winner.accessToken)).toBe(401);
      expect(await statusOf(clientB, winner.accessToken)).toBe(401);
    }
  });
});
