import { randomBytes } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import type { Role } from '../../src/api/contracts/common';
import type { Tokens } from '../../src/api/contracts/auth';
import { buildApp, type AppDeps } from '../app';
import { testConfig, type Config } from '../config';
import { openDatabase, type DatabaseHandle, type Db, type DbDriver } from '../db/client';
import { featureFlags } from '../db/schema';
import { signAccessToken } from '../lib/jwt';
import { XSRF_COOKIE, XSRF_HEADER, issueXsrfToken } from '../plugins/xsrf';
import { prepareDatabase } from '../services/bootstrap';
import type { MailMessage, Mailer } from '../services/mailer';
import { createUser } from '../services/users';

/**
 * Server test harness (STYLE pattern 9): a real app on a fresh database with the real migrations,
 * driven with `app.inject`, for each driver. Use it in every route test file:
 *
 *   describe.each(TEST_DRIVERS)('my routes on %s', (driver) => {
 *     let t: TestApp;
 *     beforeAll(async () => { t = await createTestApp(driver); });
 *     afterAll(() => t.close());
 *     it('...', async () => { const admin = await t.signInAs('admin'); const res = await t.client.get('/v1/x', { token: admin.accessToken }); });
 *   });
 */

export type TestDriver = DbDriver;

/**
 * Both drivers always; PostgreSQL being down is a failure, not a skip. Only outside CI may a
 * developer without PostgreSQL narrow the run with TEST_DB_DRIVERS=pglite.
 */
export const TEST_DRIVERS: TestDriver[] = (() => {
  const wanted = process.env.TEST_DB_DRIVERS?.split(',').map((s) => s.trim()).filter(Boolean);
  if (!wanted?.length || process.env.CI) return ['pglite', 'postgres'];
  return wanted.filter((d): d is TestDriver => d === 'pglite' || d === 'postgres');
})();

/** Where test databases are created: trust auth on the local PostgreSQL (STACK.md). */
export const TEST_PG_ADMIN_URL = process.env.TEST_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A uniquely named, empty PostgreSQL database and the function that drops it. */
export async function createPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `ct_test_${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: TEST_PG_ADMIN_URL, connectionTimeoutMillis: 5000 });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL tests need a server at ${TEST_PG_ADMIN_URL} (set TEST_PG_ADMIN_URL to use another): ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: TEST_PG_ADMIN_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A fresh, migrated and seeded database for `driver` (in-memory PGlite is the fast path). */
export async function createTestDatabase(driver: TestDriver): Promise<{ handle: DatabaseHandle; close: () => Promise<void> }> {
  if (driver === 'pglite') {
    const handle = await openDatabase({ driver: 'pglite' });
    await prepareDatabase(handle);
    return { handle, close: () => handle.close() };
  }
  const created = await createPostgresDatabase();
  const handle = await openDatabase({ driver: 'postgres', url: created.url, poolSize: 4 });
  await prepareDatabase(handle);
  return {
    handle,
    close: async () => {
      await handle.close();
      await created.drop();
    },
  };
}

/** Records every e-mail; `waitFor` resolves with the first one to `to` (mail goes out after the response). */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  async send(message: MailMessage): Promise<void> {
    this.sent.push(message);
  }
  async waitFor(to: string, timeoutMs = 5000): Promise<MailMessage> {
    const started = Date.now();
    for (;;) {
      const found = this.sent.find((m) => m.to === to.toLowerCase());
      if (found) return found;
      if (Date.now() - started > timeoutMs) throw new Error(`No e-mail to ${to} within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

export interface RequestOptions {
  /** Bearer token (access, or refresh for /v1/auth/refresh). */
  token?: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  /** Send the XSRF cookie + header (default true); false to test the rejection. */
  xsrf?: boolean;
}

/**
 * What the SPA's axios does for us: the XSRF cookie and matching header on every request, and the
 * Bearer token when given.
 */
export class TestClient {
  readonly xsrfToken: string;
  constructor(
    readonly app: FastifyInstance,
    secret: string,
  ) {
    this.xsrfToken = issueXsrfToken(secret);
  }

  request(method: InjectOptions['method'], url: string, body?: unknown, opts: RequestOptions = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    const cookies: Record<string, string> = {};
    if (opts.xsrf !== false) {
      cookies[XSRF_COOKIE] = this.xsrfToken;
      headers[XSRF_HEADER] = this.xsrfToken;
    }
    return this.app.inject({
      method,
      url,
      headers,
      cookies,
      ...(opts.query ? { query: opts.query } : {}),
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
  }
  get = (url: string, opts?: RequestOptions) => this.request('GET', url, undefined, opts);
  post = (url: string, body?: unknown, opts?: RequestOptions) => this.request('POST', url, body, opts);
  put = (url: string, body?: unknown, opts?: RequestOptions) => this.request('PUT', url, body, opts);
  patch = (url: string, body?: unknown, opts?: RequestOptions) => this.request('PATCH', url, body, opts);
  delete = (url: string, opts?: RequestOptions) => this.request('DELETE', url, undefined, opts);
}

export interface SignedIn extends Tokens {
  id: string;
  email: string;
  password: string;
  role: Role;
}

export interface TestApp {
  driver: TestDriver;
  app: FastifyInstance;
  db: Db;
  config: Config;
  mailer: RecordingMailer;
  client: TestClient;
  /** A new account with `role` (created directly in the database), signed in through the API. */
  signInAs(role?: Role, email?: string): Promise<SignedIn>;
  /** Sets a flag's stored value directly (e.g. FF_ENABLE_REGISTRATION for sign-up tests). */
  setFlag(name: string, enabled: boolean): Promise<void>;
  /** An access token that expired a minute ago, for the 401 'Invalid access token' checks. */
  expiredAccessToken(user: SignedIn): string;
  close(): Promise<void>;
}

let counter = 0;
/** A unique address per call, so tests sharing a database never collide. */
export const uniqueEmail = (prefix = 'user') => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}@test.example.com`;

export async function createTestApp(driver: TestDriver, overrides: Partial<Config> = {}, deps: Partial<AppDeps> = {}): Promise<TestApp> {
  const database = await createTestDatabase(driver);
  // Generous route rate limits so suites do not trip them; the rate-limit tests lower them themselves.
  // (The key-password limits keep their defaults: only the limit tests send more than a few wrong ones.)
  const config = testConfig({ AUTH_RATE_LIMIT_MAX: 10_000, SESSION_RATE_LIMIT_MAX: 10_000, SIM_CREDENTIALS_RATE_LIMIT_MAX: 10_000, LOG_LEVEL: 'silent', ...overrides });
  const mailer = new RecordingMailer();
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, db: database.handle.db, driver, mailer, logger: false, distDir: '/nonexistent', ...deps });
    await app.ready();
  } catch (err) {
    await database.close(); // never leave a test database behind
    throw err;
  }
  const client = new TestClient(app, config.JWT_SECRET ?? '');
  const db = database.handle.db;

  return {
    driver,
    app,
    db,
    config,
    mailer,
    client,
    async signInAs(role = 'user', email = uniqueEmail(role)) {
      const password = `pw-${randomBytes(6).toString('hex')}`;
      const user = await createUser(db, { email, password, role });
      const res = await client.post('/v1/auth/signin', { email, password });
      if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
      return { id: user.id, email: user.email, password, role, ...(res.json() as Tokens) };
    },
    async setFlag(name, enabled) {
      await db
        .insert(featureFlags)
        .values({ name, enabled })
        .onConflictDoUpdate({ target: featureFlags.name, set: { enabled } });
    },
    expiredAccessToken(user) {
      const claims = JSON.parse(Buffer.from(user.accessToken.split('.')[1], 'base64url').toString()) as { sv: number; fam: string };
      const past = Math.floor(Date.now() / 1000) - 16 * 60;
      return signAccessToken(config.JWT_SECRET ?? '', { sub: user.id, role: user.role, sv: claims.sv, fam: claims.fam }, past);
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}
