import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { testConfig } from './config';
import { XSRF_MESSAGE, issueXsrfToken } from './plugins/xsrf';
import { createTestApp, createTestDatabase, RecordingMailer, TEST_DRIVERS, type TestApp } from './test/helper';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function xsrfCookieOf(setCookie: string | string[] | undefined): string | undefined {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = all.find((c) => c.startsWith('XSRF-TOKEN='));
  return line?.split(';')[0].slice('XSRF-TOKEN='.length);
}

describe.each(TEST_DRIVERS)('app-wide behaviour on %s', (driver) => {
  let t: TestApp;
  let dist: string;
  let web: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { BODY_LIMIT: 2048 });
    dist = mkdtempSync(path.join(tmpdir(), 'ct-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>SPA</title>');
    writeFileSync(path.join(dist, 'engine-demo.html'), '<!doctype html><title>Engine demo</title>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dist, '.build-stamp'), 'secret-ish');
    web = await createTestApp(driver, {}, { distDir: dist });
  });
  afterAll(async () => {
    await t.close();
    await web.close();
    rmSync(dist, { recursive: true, force: true });
  });

  describe('XSRF (double-submit cookie)', () => {
    it('sets a readable, SameSite=Strict XSRF-TOKEN cookie on the first GET, which then unlocks mutations', async () => {
      const first = await t.app.inject({ method: 'GET', url: '/v1/config' });
      const setCookie = [first.headers['set-cookie']].flat().join('\n');
      expect(setCookie).toMatch(/XSRF-TOKEN=[^;]+; Path=\/; SameSite=Strict/);
      expect(setCookie).not.toMatch(/HttpOnly/i);
      const token = xsrfCookieOf(first.headers['set-cookie']) as string;

      const signin = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/signin',
        cookies: { 'XSRF-TOKEN': token },
        headers: { 'x-xsrf-token': token },
        payload: { email: 'nobody@example.com', password: 'whatever-1' },
      });
      expect(signin.statusCode).toBe(401); // got past XSRF to the credentials check
      // A request that already has a valid cookie is not given a new one.
      expect(xsrfCookieOf(signin.headers['set-cookie'])).toBeUndefined();
    });

    it('answers 403 for every mutating /v1 request without the header, with a mismatch, or with a forged cookie', async () => {
      const user = await t.signInAs('user');
      const good = t.client.xsrfToken;
      const forged = 'abc.def';
      const cases: Array<{ cookies: Record<string, string>; headers: Record<string, string> }> = [
        { cookies: {}, headers: {} },
        { cookies: { 'XSRF-TOKEN': good }, headers: {} },
        { cookies: {}, headers: { 'x-xsrf-token': good } },
        { cookies: { 'XSRF-TOKEN': good }, headers: { 'x-xsrf-token': issueXsrfToken(t.config.JWT_SECRET as string) } },
        { cookies: { 'XSRF-TOKEN': forged }, headers: { 'x-xsrf-token': forged } },
      ];
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        for (const c of cases) {
          const res = await t.app.inject({
            method,
            url: '/v1/users/settings',
            cookies: c.cookies,
            headers: { ...c.headers, authorization: `Bearer ${user.accessToken}` },
            payload: method === 'DELETE' ? undefined : { riskOptions: [9] },
          });
          expect(res.statusCode).toBe(403);
          expect(res.json()).toEqual({ message: XSRF_MESSAGE });
        }
      }
      const settings = await t.client.get('/v1/users/settings', { token: user.accessToken });
      expect(settings.json().riskOptions).not.toEqual([9]);
      const withToken = await t.client.patch('/v1/users/settings', { riskOptions: [9] }, { token: user.accessToken });
      expect(withToken.statusCode).toBe(200);
    });

    it('cannot be bypassed by encoding or re-spelling the path: the matched route decides, not the raw URL', async () => {
      const admin = await t.signInAs('admin');
      const before = await t.client.get('/v1/maintenance', { token: admin.accessToken });
      for (const url of ['/v%31/maintenance', '/%76%31/maintenance', '/v1/%6daintenance', '/v1/maintenance/', '/v1/maintenance?x=/sim/']) {
        const res = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${admin.accessToken}` }, payload: { message: 'bypassed' } });
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ message: XSRF_MESSAGE });
      }
      const after = await t.client.get('/v1/maintenance', { token: admin.accessToken });
      expect(after.body).toBe(before.body);
    });

    it('does not apply to safe methods', async () => {
      expect((await t.client.get('/v1/feature-flags/json', { xsrf: false })).statusCode).toBe(200);
    });
  });

  describe('errors', () => {
    it('answers 413 {message} for a body over BODY_LIMIT and 415 for an unsupported type', async () => {
      const user = await t.signInAs('user');
      const big = await t.client.patch('/v1/users/settings', { riskOptions: [1], pad: 'x'.repeat(4096) }, { token: user.accessToken });
      expect(big.statusCode).toBe(413);
      expect(big.json()).toEqual({ message: expect.any(String) });
      const type = await t.client.post('/v1/auth/signin', 'email=a', { headers: { 'content-type': 'text/csv' } });
      expect(type.statusCode).toBe(415);
      expect(Object.keys(type.json())).toEqual(['message']);
    });

    it('answers a bare 500 {message} without stack or SQL when a handler fails', async () => {
      const { handle, close } = await createTestDatabase(driver);
      const app: FastifyInstance = await buildApp({ config: testConfig(), db: handle.db, driver, mailer: new RecordingMailer(), logger: false, distDir: dist });
      app.get('/v1/boom', async () => {
        await handle.db.execute('select * from no_such_table where password = \'hunter2\'');
      });
      try {
        const res = await app.inject({ method: 'GET', url: '/v1/boom' });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ message: 'Internal server error' });
      } finally {
        await app.close();
        await close();
      }
    });

    it('answers JSON 404s under /v1, /sim and /docs, for any method', async () => {
      for (const [method, url] of [['GET', '/v1/nope'], ['GET', '/sim/binance/fapi/v1/klines'], ['DELETE', '/v1/nope'], ['GET', '/docs/nope']] as const) {
        const res = await web.client.request(method, url);
        expect(res.statusCode).toBe(404);
        expect(res.headers['content-type']).toMatch(/application\/json/);
        expect(res.json().message).toMatch(/^Not found: /);
      }
    });
  });

  describe('web app, docs and security headers', () => {
    it('serves the SPA with history fallback, hashed assets cached, HTML revalidated, dotfiles hidden', async () => {
      for (const url of ['/', '/login', '/admin-panel/users?x=1', '/settings/api-keys/123']) {
        const res = await web.client.get(url);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.body).toContain('<title>SPA</title>');
        expect(res.headers['cache-control']).toBe('no-cache');
      }
      const asset = await web.client.get('/assets/app-abc123.js');
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect((await web.client.get('/.build-stamp')).body).not.toContain('secret-ish');
      const demo = await web.client.get('/engine-demo');
      expect(demo.statusCode).toBe(200);
      expect(demo.body).toContain('Engine demo');
    });

    it('says the web app is not built when dist/ is missing', async () => {
      const res = await t.client.get('/login');
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/not built/);
    });

    it('sends a CSP that allows what the SPA needs and nothing else', async () => {
      const csp = String((await web.client.get('/')).headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("style-src 'self' 'unsafe-inline'");
      // The app's own WebSocket comes from PUBLIC_URL (default http://localhost:<PORT>), not from the Host header.
      expect(csp).toMatch(/connect-src 'self' ws:\/\/localhost:8080 .*https:\/\/fapi\.binance\.com.*wss:\/\/ws\.bitmex\.com/);
      expect(String((await web.app.inject({ url: '/', headers: { host: 'evil.example' } })).headers['content-security-policy'])).not.toContain('evil.example');
      expect(csp).not.toContain('upgrade-insecure-requests');
      const withSentry = await createTestApp(driver, { SENTRY_DSN: 'https://k@o9.ingest.sentry.io/7' });
      try {
        expect(String((await withSentry.client.get('/v1/config')).headers['content-security-policy'])).toContain('https://o9.ingest.sentry.io');
      } finally {
        await withSentry.close();
      }
    });

    it('serves the OpenAPI document built from the zod contracts and the UI at /docs', async () => {
      const doc = (await t.client.get('/docs/json')).json();
      expect(doc.openapi).toBe('3.1.0');
      for (const p of ['/v1/config', '/v1/auth/signin', '/v1/auth/refresh', '/v1/users', '/v1/users/{id}', '/v1/users/settings', '/v1/feature-flags/json', '/v1/maintenance']) {
        expect(Object.keys(doc.paths)).toContain(p);
      }
      expect(doc.paths['/v1/auth/signup'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
      const ui = await t.client.get('/docs/');
      expect(ui.statusCode).toBe(200);
      expect(ui.headers['content-type']).toMatch(/text\/html/);
    });
  });
});

describe('rate limits shared through Redis (DESIGN §6)', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const namespace = `ct-test-${process.pid}-${Date.now()}-`;
    const overrides = { REDIS_URL, AUTH_RATE_LIMIT_MAX: 2, AUTH_RATE_LIMIT_WINDOW_MS: 30_000 };
    a = await createTestApp('postgres', overrides, { rateLimitNamespace: namespace });
    b = await createTestApp('postgres', overrides, { rateLimitNamespace: namespace });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it('counts attempts across two instances as one', async () => {
    const attempt = (t: TestApp) => t.client.post('/v1/auth/signin', { email: 'x@example.com', password: 'wrong-password' });
    expect((await attempt(a)).statusCode).toBe(401);
    expect((await attempt(b)).statusCode).toBe(401);
    expect((await attempt(a)).statusCode).toBe(429);
    expect((await attempt(b)).statusCode).toBe(429);
  });
});
