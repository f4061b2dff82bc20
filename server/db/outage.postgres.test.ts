import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tokens } from '../../src/api/contracts/auth';
import type { Health } from '../../src/api/contracts/health';
import { buildApp } from '../app';
import { testConfig } from '../config';
import { prepareDatabase } from '../services/bootstrap';
import { createUser } from '../services/users';
import { createPostgresDatabase, RecordingMailer, TestClient, uniqueEmail } from '../test/helper';
import { sql } from 'drizzle-orm';
import { openDatabase, queryTimeoutMs, type DatabaseHandle, type PostgresTimeouts } from './client';
import { classifyDatabaseError } from './errors';

/**
 * A TCP proxy in front of PostgreSQL, to take the database away without touching the shared server:
 * `freeze` stops forwarding bytes but keeps every socket open (a hung host), `refuse` stops listening
 * and drops every connection (a stopped server), `kill` drops the open connections only.
 */
class TcpProxy {
  private server: net.Server | null = null;
  private readonly pairs = new Set<{ down: net.Socket; up: net.Socket | null }>();
  private frozen = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(): Promise<void> {
    const server = net.createServer((down) => this.accept(down));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  private accept(down: net.Socket): void {
    const pair: { down: net.Socket; up: net.Socket | null } = { down, up: null };
    this.pairs.add(pair);
    down.on('error', () => undefined);
    down.on('close', () => {
      pair.up?.destroy();
      this.pairs.delete(pair);
    });
    down.pause();
    if (!this.frozen) this.connect(pair);
  }

  private connect(pair: { down: net.Socket; up: net.Socket | null }): void {
    const up = net.connect(this.target.port, this.target.host);
    pair.up = up;
    up.on('error', () => pair.down.destroy());
    up.on('close', () => pair.down.destroy());
    if (!this.frozen) this.flow(pair);
  }

  private flow(pair: { down: net.Socket; up: net.Socket | null }): void {
    if (!pair.up) return this.connect(pair);
    pair.down.pipe(pair.up);
    pair.up.pipe(pair.down);
  }

  freeze(): void {
    this.frozen = true;
    for (const { down, up } of this.pairs) {
      down.unpipe();
      down.pause();
      up?.unpipe();
      up?.pause();
    }
  }

  unfreeze(): void {
    this.frozen = false;
    for (const pair of this.pairs) this.flow(pair);
  }

  kill(): void {
    for (const { down, up } of this.pairs) {
      down.destroy();
      up?.destroy();
    }
  }

  async refuse(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.kill();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async close(): Promise<void> {
    await this.refuse();
  }
}

/** Small timeouts so the file runs in seconds; the defaults are larger (db/client.ts). */
const TIMEOUTS: PostgresTimeouts = { connectMs: 1000, statementMs: 2000, lockMs: 1500, idleInTransactionMs: 5000 };
const HEALTH_TIMEOUT_MS = 500;
const POOL_SIZE = 6;
/** A value sent as a query parameter: it must never reach a log line. */
const MARKER = `MARK${randomBytes(4).toString('hex').toUpperCase()}`;

interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

describe('the server when PostgreSQL fails (through a TCP proxy)', () => {
  let created: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let proxy: TcpProxy;
  let handle: DatabaseHandle;
  let app: FastifyInstance;
  let client: TestClient;
  let token: string;
  let proxyUrl: string;
  const lines: string[] = [];
  const parsed = (from = 0) => lines.slice(from).map((l) => JSON.parse(l) as LogLine);

  const timed = async (send: () => Promise<LightMyRequestResponse>) => {
    const started = performance.now();
    const res = await send();
    return { res, ms: performance.now() - started };
  };
  const getSettings = () => timed(() => client.get('/v1/users/settings', { token }));
  const patchSettings = () => timed(() => client.patch('/v1/users/settings', { favoritePairs: [{ symbol: MARKER, exchange: 'binance' }] }, { token }));
  const health = () => timed(() => client.get('/v1/health'));
  const expect503 = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json<{ message: string }>().message).toMatch(/^The database is (unavailable|busy)/);
  };
  const waitFor = async (what: () => Promise<boolean>, withinMs: number) => {
    const until = Date.now() + withinMs;
    while (!(await what())) {
      if (Date.now() > until) throw new Error(`not within ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    created = await createPostgresDatabase();
    const direct = await openDatabase({ driver: 'postgres', url: created.url, poolSize: 2 });
    await prepareDatabase(direct);
    const email = uniqueEmail('outage');
    const password = `pw-${randomBytes(6).toString('hex')}`;
    await createUser(direct.db, { email, password, role: 'user' });
    await direct.close();

    proxy = new TcpProxy({ host: '127.0.0.1', port: new URL(created.url).port ? Number(new URL(created.url).port) : 5432 });
    await proxy.listen();
    const viaProxy = new URL(created.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    proxyUrl = viaProxy.toString();
    handle = await openDatabase({ driver: 'postgres', url: proxyUrl, poolSize: POOL_SIZE, timeouts: TIMEOUTS });
    const config = testConfig({
      AUTH_RATE_LIMIT_MAX: 10_000,
      LOG_LEVEL: 'debug',
      DB_POOL_SIZE: POOL_SIZE,
      DB_CONNECT_TIMEOUT_MS: TIMEOUTS.connectMs,
      DB_STATEMENT_TIMEOUT_MS: TIMEOUTS.statementMs,
      DB_LOCK_TIMEOUT_MS: TIMEOUTS.lockMs,
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: TIMEOUTS.idleInTransactionMs,
      DB_HEALTH_TIMEOUT_MS: HEALTH_TIMEOUT_MS,
    });
    app = await buildApp({
      config,
      db: handle.db,
      driver: 'postgres',
      mailer: new RecordingMailer(),
      logger: { level: 'debug', stream: { write: (line: string) => lines.push(line) } },
      distDir: '/nonexistent',
    });
    await app.ready();
    client = new TestClient(app, config.JWT_SECRET ?? '');
    const signin = await client.post('/v1/auth/signin', { email, password });
    expect(signin.statusCode, signin.body).toBe(200);
    token = signin.json<Tokens>().accessToken;
  });

  afterAll(async () => {
    proxy?.unfreeze();
    await app?.close();
    await handle?.close();
    await proxy?.close();
    await created?.drop();
  });

  describe('an outage: frozen, refused, killed, then back', () => {
    let logFrom = 0;

    it('answers normally through the proxy', async () => {
      expect((await patchSettings()).res.statusCode).toBe(200);
      const h = await health();
      expect(h.res.statusCode).toBe(200);
      expect(h.res.json<Health>()).toMatchObject({ status: 'ok', database: { state: 'ok' }, redis: { state: 'off' } });
      logFrom = lines.length;
    });

    it('frozen (no bytes forwarded, sockets open): 503 with Retry-After within seconds, and health says down fast', async () => {
      proxy.freeze();
      const [read, write] = await Promise.all([getSettings(), patchSettings()]);
      for (const { res, ms } of [read, write]) {
        expect503(res);
        expect(ms).toBeLessThan(5000);
      }
      const h = await health();
      expect(h.res.statusCode).toBe(503);
      expect(h.res.headers['retry-after']).toBeDefined();
      expect(h.res.json<Health>()).toMatchObject({ status: 'down', database: { state: 'down' } });
      expect(h.ms).toBeLessThan(HEALTH_TIMEOUT_MS + 500);
    });

    it('refused (nothing listens): 503 at once, not 500', async () => {
      await proxy.refuse();
      const r = await getSettings();
      expect503(r.res);
      expect(r.ms).toBeLessThan(TIMEOUTS.connectMs + 500);
      await waitFor(async () => (await health()).res.json<Health>().database.reason === 'connection refused', 3000);
    });

    it('connections killed while waiting: 503 at once, not 500 and no hang', async () => {
      await proxy.listen(); // same port, still frozen: connections are accepted and held
      const pending = getSettings();
      await new Promise((r) => setTimeout(r, 200));
      proxy.kill();
      const r = await pending;
      expect503(r.res);
      expect(r.ms).toBeLessThan(TIMEOUTS.connectMs + 500);
    });

    it('back: recovers by itself (health 200, requests 200) without a restart', async () => {
      proxy.unfreeze();
      await waitFor(async () => (await health()).res.statusCode === 200, 5000);
      expect((await getSettings()).res.statusCode).toBe(200);
      const w = await patchSettings();
      expect(w.res.statusCode, w.res.body).toBe(200);
    });

    it('logged one warn for the outage and one info for the recovery; no SQL or parameter in any line', async () => {
      const outage = parsed(logFrom);
      const warns = outage.filter((l) => l.level === 40);
      const errors = outage.filter((l) => l.level >= 50);
      expect(errors).toEqual([]);
      expect(warns.map((l) => l.msg)).toEqual([expect.stringMatching(/^database unavailable: /)]);
      expect(outage.filter((l) => l.level === 30 && /^database /.test(l.msg)).map((l) => l.msg)).toEqual(['database available again']);
      expect(outage.filter((l) => l.level === 20 && /^database /.test(l.msg)).length).toBeGreaterThan(0);
      for (const line of lines) {
        expect(line).not.toMatch(/\bselect\b|\binsert into\b|\bupdate "|user_settings|Failed query|params:/i);
        expect(line).not.toContain(MARKER);
      }
    });
  });

  it('a 20 s row lock on user_settings: PATCH answers 503 within the lock timeout, other routes stay fast (the pool does not drain)', async () => {
    expect((await patchSettings()).res.statusCode).toBe(200); // the row to lock
    const logFrom = lines.length;
    const locker = new pg.Client({ connectionString: created.url });
    await locker.connect();
    try {
      const { sub } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string };
      await locker.query('begin');
      const { rowCount } = await locker.query('select 1 from user_settings where user_id = $1 for update', [sub]);
      expect(rowCount).toBe(1);
      await locker.query(`select pg_sleep(0)`); // the lock is held until rollback (the test ends well before 20 s)

      let done = 0;
      const patches = Array.from({ length: 15 }, () =>
        patchSettings().then((r) => {
          done++;
          return r;
        }),
      );
      await new Promise((r) => setTimeout(r, 150));
      // While the 15 wait, requests on other routes still find connections.
      for (const check of [getSettings, health, getSettings]) {
        const { res, ms } = await check();
        expect(res.statusCode, res.body).toBe(200);
        expect(ms).toBeLessThan(400);
      }
      expect(done).toBe(0);

      for (const { res, ms } of await Promise.all(patches)) {
        expect503(res);
        expect(ms).toBeLessThan(TIMEOUTS.lockMs + 1000);
      }
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
    }
    expect((await patchSettings()).res.statusCode).toBe(200);
    // 15 timeouts, one warn line (the others counted in the next), no stack trace, no SQL, no parameter.
    const logged = parsed(logFrom);
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
    expect(logged.filter((l) => l.level === 40).map((l) => l.msg)).toEqual([expect.stringMatching(/^database busy: /)]);
    for (const line of lines.slice(logFrom)) {
      expect(line).not.toMatch(/\bselect\b|\binsert into\b|user_settings|Failed query|params:|"stack"/i);
      expect(line).not.toContain(MARKER);
    }
  });

  it('a transaction whose connection goes silent fails after one read timeout, not a second one for its rollback', async () => {
    const own = await openDatabase({ driver: 'postgres', url: proxyUrl, poolSize: 2, timeouts: TIMEOUTS });
    try {
      const started = performance.now();
      const err = await own.db
        .transaction(async (tx) => {
          await tx.execute(sql`select 1`);
          proxy.freeze();
          await tx.execute(sql`select 2`);
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(classifyDatabaseError(err)?.kind).toBe('unavailable');
      expect(performance.now() - started).toBeLessThan(queryTimeoutMs(TIMEOUTS) + 700);
    } finally {
      proxy.unfreeze();
      await own.close();
    }
  });
});
