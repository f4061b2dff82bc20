import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createTestApp, TEST_DRIVERS, type TestApp } from '../../test/helper';

/**
 * Route limits added in issue "Hardening": refresh and sign-out per client IP
 * (SESSION_RATE_LIMIT_MAX), simulator credentials per user (SIM_CREDENTIALS_RATE_LIMIT_MAX), and
 * TRUST_PROXY as a number of trusted hops, so a rotating X-Forwarded-For does not escape the sign-in
 * limit. (Sign-in/sign-up: auth.test.ts; key passwords: api-keys-limits.test.ts.)
 */

const randomIp = () => [...randomBytes(4)].map((b) => Math.max(1, b)).join('.');

describe.each(TEST_DRIVERS)('session and simulator-credential limits on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim', SESSION_RATE_LIMIT_MAX: 3, SIM_CREDENTIALS_RATE_LIMIT_MAX: 3 });
  });
  afterAll(() => t?.close());

  const from = (ip: string, url: string, headers: Record<string, string> = {}, payload?: object) =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress: ip,
      cookies: { 'XSRF-TOKEN': t.client.xsrfToken },
      headers: { 'x-xsrf-token': t.client.xsrfToken, ...headers },
      ...(payload ? { payload } : {}),
    });

  it.each(['/v1/auth/refresh', '/v1/auth/signout'])('%s: 429 with Retry-After after SESSION_RATE_LIMIT_MAX per client IP, other IPs unaffected', async (url) => {
    const ip = randomIp();
    const bogus = { authorization: `Bearer ${randomBytes(32).toString('base64url')}` };
    for (let i = 0; i < 3; i++) expect((await from(ip, url, bogus)).statusCode).toBe(401);
    const limited = await from(ip, url, bogus);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ message: expect.stringMatching(/^Too many attempts: try again in /) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await from(randomIp(), url, bogus)).statusCode).toBe(401);
  });

  it('POST /v1/api-keys/sim-credentials: 429 after SIM_CREDENTIALS_RATE_LIMIT_MAX per user, wherever they come from; others unaffected', async () => {
    const user = await t.signInAs('user');
    const other = await t.signInAs('user');
    const ask = (token: string) => from(randomIp(), '/v1/api-keys/sim-credentials', { authorization: `Bearer ${token}` }, { exchange: 'bybit' });
    for (let i = 0; i < 3; i++) expect((await ask(user.accessToken)).statusCode).toBe(200);
    const limited = await ask(user.accessToken);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await ask(other.accessToken)).statusCode).toBe(200);
    // Without a session: 401 first, nothing counted.
    expect((await from(randomIp(), '/v1/api-keys/sim-credentials', {}, { exchange: 'bybit' })).statusCode).toBe(401);
  });
});

// Client addresses are the app's business, not the database's: one driver.
describe('TRUST_PROXY: only the addresses trusted proxies appended count (pglite)', () => {
  const apps: TestApp[] = [];
  const build = async (trustProxy: string) => {
    const t = await createTestApp('pglite', { TRUST_PROXY: loadConfig({ TRUST_PROXY: trustProxy }).TRUST_PROXY, AUTH_RATE_LIMIT_MAX: 3 });
    apps.push(t);
    return t;
  };
  afterAll(async () => {
    for (const t of apps) await t.close();
  });

  const signin = (t: TestApp, socket: string, xff: string) =>
    t.app.inject({
      method: 'POST',
      url: '/v1/auth/signin',
      remoteAddress: socket,
      cookies: { 'XSRF-TOKEN': t.client.xsrfToken },
      headers: { 'x-xsrf-token': t.client.xsrfToken, 'x-forwarded-for': xff },
      payload: { email: 'someone@example.com', password: 'wrong-password' },
    });

  it('true = one hop: a rotating first X-Forwarded-For entry shares the limit of the proxy-appended address', async () => {
    const t = await build('true');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await signin(t, '127.0.0.1', `${randomIp()}, 10.0.0.1`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    // Another client behind the same proxy is counted apart (not everyone in one bucket).
    expect((await signin(t, '127.0.0.1', `${randomIp()}, 10.0.0.2`)).statusCode).toBe(401);
  });

  it('2 hops: the address the second proxy appended counts, whatever the client put before it', async () => {
    const t = await build('2');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await signin(t, '127.0.0.1', `${randomIp()}, 203.0.113.7, 10.0.0.1`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await signin(t, '127.0.0.1', `${randomIp()}, 203.0.113.8, 10.0.0.1`)).statusCode).toBe(401);
  });

  it('proxy addresses: headers count only from those proxies; a direct client is its own socket address', async () => {
    const t = await build('127.0.0.1/32');
    const viaProxy: number[] = [];
    for (let i = 0; i < 4; i++) viaProxy.push((await signin(t, '127.0.0.1', `${randomIp()}, 10.0.0.1`)).statusCode);
    expect(viaProxy).toEqual([401, 401, 401, 429]);
    const direct: number[] = [];
    for (let i = 0; i < 4; i++) direct.push((await signin(t, '192.0.2.5', `${randomIp()}`)).statusCode);
    expect(direct).toEqual([401, 401, 401, 429]);
  });
});
