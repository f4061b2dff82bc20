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

  /** Client connections accepted and still open. */
  get connections(): number {
    return this.pairs.size;
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
/**
 * When the test calls a request hung: three times the longest wait the server itself allows (a
 * pooled connection, a statement and its read timeout, a lock, the health ping). Not a speed limit:
 * "fails fast" is asserted as "answered 503 at all, before this guard" — a request that waits on a
 * dead database with no timeout of its own fails here, however slow or busy the machine is.
 */
const GUARD_MS = 3 * Math.max(TIMEOUTS.connectMs, queryTimeoutMs(TIMEOUTS), TIMEOUTS.lockMs, HEALTH_TIMEOUT_MS);
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

  /** `what` settles before the guard, or the test fails saying it hung (see GUARD_MS). */
  const guarded = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const guard = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${GUARD_MS} ms — it hangs`)), GUARD_MS);
    });
    try {
      return await Promise.race([work(), guard]);
    } finally {
      clearTimeout(timer);
    }
  };
  const getSettings = () => guarded('GET /v1/users/settings', () => client.get('/v1/users/settings', { token }));
  const patchSettings = () => guarded('PATCH /v1/users/settings', () => client.patch('/v1/users/settings', { favoritePairs: [{ symbol: MARKER, exchange: 'binance' }] }, { token }));
  const health = () => guarded('GET /v1/health', () => client.get('/v1/health'));
  /** Why the requests logged since line `from` failed (their debug lines while the outage is on; not the probe's). */
  const failureReasons = (from: number) =>
    parsed(from).flatMap((l) => (l.level === 20 && l.reqId !== undefined && /^database /.test(l.msg) ? [(l.db as { reason?: string } | undefined)?.reason] : []));
  const expect503 = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(res.json<{ message: string }>().message).toMatch(/^The database is (unavailable|busy)/);
  };
  /** Polls `what` until true; the guard only turns a hang into a clear failure. */
  const waitFor = async (what: () => Promise<boolean>, withinMs = GUARD_MS) => {
    const until = Date.now() + withinMs;
    while (!(await what())) {
      if (Date.now() > until) throw new Error(`not within ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 50));
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
      expect((await patchSettings()).statusCode).toBe(200);
      const h = await health();
      expect(h.statusCode).toBe(200);
      expect(h.json<Health>()).toMatchObject({ status: 'ok', database: { state: 'ok' }, redis: { state: 'off' } });
      logFrom = lines.length;
    });

    it('frozen (no bytes forwarded, sockets open): 503 with Retry-After within seconds, and health says down fast', async () => {
      proxy.freeze();
      // Nothing ever comes back from a frozen database: only the server's own timeouts can end these
      // (a missing one makes `guarded` fail the test as hung).
      const [read, write] = await Promise.all([getSettings(), patchSettings()]);
      for (const res of [read, write]) expect503(res);
      const h = await health();
      expect(h.statusCode).toBe(503);
      expect(h.headers['retry-after']).toBeDefined();
      // "Fast": the health check's own short ping timeout answered, not a query timeout of the pool.
      expect(h.json<Health>()).toMatchObject({ status: 'down', database: { state: 'down', reason: `no answer within ${HEALTH_TIMEOUT_MS} ms` } });
    });

    it('refused (nothing listens): 503 at once, not 500', async () => {
      await proxy.refuse();
      const from = lines.length;
      const res = await getSettings();
      expect503(res);
      // "At once": failed on the refusal itself, not after waiting out a connect timeout.
      expect(failureReasons(from)).toContain('connection refused');
      await waitFor(async () => (await health()).json<Health>().database.reason === 'connection refused');
    });

    it('connections killed while waiting: 503 at once, not 500 and no hang', async () => {
      await proxy.listen(); // same port, still frozen: connections are accepted and held
      const from = lines.length;
      let settled = false;
      const pending = getSettings().finally(() => (settled = true));
      // Kill whatever the frozen proxy holds (the request's connection, or the health probe's) until
      // the request has its answer.
      while (!settled) {
        if (proxy.connections > 0) proxy.kill();
        await new Promise((r) => setTimeout(r, 20));
      }
      expect503(await pending);
      // Answered because the connection died, not because a timeout ran out meanwhile.
      expect(failureReasons(from)).toEqual(['connection lost']);
    });

    it('back: recovers by itself (health 200, requests 200) without a restart', async () => {
      proxy.unfreeze();
      await waitFor(async () => (await health()).statusCode === 200);
      expect((await getSettings()).statusCode).toBe(200);
      const w = await patchSettings();
      expect(w.statusCode, w.body).toBe(200);
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
    expect((await patchSettings()).statusCode).toBe(200); // the row to lock
    const logFrom = lines.length;
    const locker = new pg.Client({ connectionString: created.url });
    await locker.connect();
    const watcher = new pg.Client({ connectionString: created.url });
    await watcher.connect();
    try {
      const { sub } = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string };
      await locker.query('begin');
      const { rowCount } = await locker.query('select 1 from user_settings where user_id = $1 for update', [sub]);
      expect(rowCount).toBe(1);
      await locker.query(`select pg_sleep(0)`); // the lock is held until rollback (the test ends well before 20 s)

      const patches = Array.from({ length: 15 }, () => patchSettings());
      // The PATCHes hold their share of the pool (half of it), each waiting on the row lock.
      const lockWaits = async () =>
        (await watcher.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n;
      await waitFor(async () => (await lockWaits()) >= POOL_SIZE / 2);
      // Meanwhile requests on other routes still find connections: 200, where a drained pool would
      // make them wait for one and answer 503 after the connect timeout (shorter than the lock timeout).
      for (const res of await Promise.all([getSettings(), health(), getSettings()])) expect(res.statusCode, res.body).toBe(200);

      // The lock never goes away while they wait: each PATCH is ended by the server's lock (or pool
      // share) timeout with a 503, before the guard.
      for (const res of await Promise.all(patches)) expect503(res);
    } finally {
      await locker.query('rollback').catch(() => undefined);
      await locker.end();
      await watcher.end();
    }
    expect((await patchSettings()).statusCode).toBe(200);
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
      const err = await guarded('the silent transaction', () =>
        own.db
          .transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            proxy.freeze();
            await tx.execute(sql`select 2`);
          })
          .then(
            () => null,
            (e: unknown) => e,
          ),
      );
      expect(classifyDatabaseError(err)?.kind).toBe('unavailable');
      // drizzle answers with its rollback's error: refused at once because the connection is known
      // to be silent (a rollback sent on it would instead wait out a second read timeout, and fail with that).
      const rollback = (err as Error).cause as Error;
      expect(rollback.message).toMatch(/^Connection terminated: an earlier query on this connection got no answer/);
      expect((rollback.cause as Error).message).toBe('Query read timeout');
    } finally {
      proxy.unfreeze();
      await own.close();
    }
  });
});
