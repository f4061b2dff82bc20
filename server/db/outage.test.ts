import { PGlite } from '@electric-sql/pglite';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { drizzle } from 'drizzle-orm/pglite';
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { classifyDatabaseError } from './errors';
import { DatabaseStatus, type OutageLog } from './outage';
import { PoolShareTimeoutError } from './pool-guard';

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });
/** What drizzle throws: the SQL and its parameters in the message, the driver error as cause. */
const wrapped = (cause: Error) => new DrizzleQueryError('update "user_settings" set "data" = $1', ['{"secret":"hunter2"}'], cause);

describe('classifyDatabaseError', () => {
  it.each([
    ['57014 statement timeout', pgError('57014', 'canceling statement due to statement timeout'), 'timeout', 'statement timeout'],
    ['55P03 lock timeout', pgError('55P03', 'canceling statement due to lock timeout'), 'timeout', 'lock timeout'],
    ['57P01 admin shutdown', pgError('57P01', 'terminating connection due to administrator command'), 'unavailable', 'database shutting down'],
    ['57P03 cannot connect now', pgError('57P03', 'the database system is starting up'), 'unavailable', 'database not accepting connections'],
    ['08006 connection failure', pgError('08006', 'connection failure'), 'unavailable', 'connection failure'],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' }), 'unavailable', 'connection refused'],
    ['ETIMEDOUT', Object.assign(new Error('connect ETIMEDOUT'), { code: 'ETIMEDOUT' }), 'unavailable', 'connection timed out'],
    ['ECONNRESET', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }), 'unavailable', 'connection reset'],
    ['pg-pool acquire timeout', new Error('timeout exceeded when trying to connect'), 'unavailable', 'no connection within the connect timeout'],
    ['pg-pool connect timeout', new Error('Connection terminated due to connection timeout', { cause: new Error('timeout expired') }), 'unavailable', 'connect timeout'],
    ['lost connection', new Error('Connection terminated unexpectedly'), 'unavailable', 'connection lost'],
    ['query read timeout', new Error('Query read timeout'), 'unavailable', 'no answer'],
    ['closed PGlite', new Error('PGlite is closed'), 'unavailable', 'database closed'],
    ['route share timeout', new PoolShareTimeoutError('PATCH /v1/users/settings', 3000), 'timeout', 'too many requests waiting for the database'],
  ])('%s', (_name, err, kind, reason) => {
    expect(classifyDatabaseError(err)).toMatchObject({ kind, reason });
    // The same inside drizzle's wrapper, with only the driver's message kept.
    const inDrizzle = classifyDatabaseError(wrapped(err));
    expect(inDrizzle).toMatchObject({ kind, reason });
    expect(JSON.stringify(inDrizzle)).not.toMatch(/user_settings|hunter2|Failed query/);
  });

  it('finds ECONNREFUSED inside the AggregateError of a dual-stack connect', () => {
    const agg = new AggregateError([Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' })], 'connect failed');
    expect(classifyDatabaseError(agg)).toMatchObject({ kind: 'unavailable', code: 'ECONNREFUSED' });
  });

  it('leaves errors about the request itself alone (they are 4xx or 500)', () => {
    expect(classifyDatabaseError(wrapped(pgError('23505', 'duplicate key value violates unique constraint')))).toBeNull();
    expect(classifyDatabaseError(wrapped(pgError('22P02', 'invalid input syntax for type uuid: "Connection terminated"')))).toBeNull();
    expect(classifyDatabaseError(new TypeError('x is undefined'))).toBeNull();
    expect(classifyDatabaseError('Connection terminated')).toBeNull();
    // A parameter that looks like a driver message is user text, not a diagnosis.
    expect(classifyDatabaseError(new DrizzleQueryError('select 1', ['Query read timeout'], new Error('boom')))).toBeNull();
  });

  it('classifies what a closed PGlite really throws', async () => {
    const client = await PGlite.create();
    const db = drizzle({ client });
    await db.execute(sql`select 1`);
    await client.close();
    const err = await db.execute(sql`select 1`).then(
      () => null,
      (e: unknown) => e,
    );
    expect(classifyDatabaseError(err)).toMatchObject({ kind: 'unavailable', reason: 'database closed' });
  });
});

/** A logger that records (level, message, fields). */
function recordingLog() {
  const lines: { level: 'warn' | 'info' | 'debug'; msg: string; obj: object }[] = [];
  const log: OutageLog = {
    warn: (obj, msg) => lines.push({ level: 'warn', msg, obj }),
    info: (obj, msg) => lines.push({ level: 'info', msg, obj }),
    debug: (obj, msg) => lines.push({ level: 'debug', msg, obj }),
  };
  return { log, lines };
}

const refused = classifyDatabaseError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))!;
const lockTimeout = classifyDatabaseError(pgError('55P03', 'canceling statement due to lock timeout'))!;

describe('DatabaseStatus', () => {
  it('logs one warn when the database goes away, debug lines after, one info when it is back', async () => {
    const { log, lines } = recordingLog();
    let up = false;
    const status = new DatabaseStatus({ log, ping: async () => (up ? 1 : Promise.reject(refused)), pingTimeoutMs: 200, probeIntervalMs: 20 });
    for (let i = 0; i < 5; i++) status.unavailable(refused);
    expect(status.state).toBe('down');
    expect(lines.filter((l) => l.level === 'warn')).toEqual([{ level: 'warn', msg: 'database unavailable: connection refused', obj: { db: { code: 'ECONNREFUSED', reason: 'connection refused', message: 'connect ECONNREFUSED 127.0.0.1:5432' } } }]);
    up = true;
    // The probe notices by itself, without a request.
    await expect.poll(() => status.state, { timeout: 15_000 }).toBe('ok'); // a guard against a hang, not a speed limit
    expect(lines.filter((l) => l.level !== 'debug').map((l) => l.msg)).toEqual(['database unavailable: connection refused', 'database available again']);
    expect(lines.filter((l) => l.level === 'debug').length).toBeGreaterThanOrEqual(4);
    status.close();
  });

  it('does not open a new outage for a request that was already stuck before the recovery', () => {
    const { log, lines } = recordingLog();
    let now = 1000;
    const status = new DatabaseStatus({ log, ping: async () => 1, pingTimeoutMs: 100, now: () => now });
    status.unavailable(refused);
    now = 2000;
    status.available();
    status.unavailable(refused, log, 1500);
    expect(status.state).toBe('ok');
    status.unavailable(refused, log, 2500);
    expect(status.state).toBe('down');
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
    status.close();
  });

  it('logs lock and statement timeouts at most once per period, with the count of the others', () => {
    const { log, lines } = recordingLog();
    let now = 0;
    const status = new DatabaseStatus({ log, ping: async () => 1, pingTimeoutMs: 100, contentionLogMs: 10_000, now: () => now });
    for (let i = 0; i < 15; i++) status.timedOut(lockTimeout);
    now = 11_000;
    status.timedOut(lockTimeout);
    const warns = lines.filter((l) => l.level === 'warn');
    expect(warns.map((l) => l.msg)).toEqual(['database busy: lock timeout', 'database busy: lock timeout']);
    expect(warns[1].obj).toMatchObject({ db: { earlierTimeouts: 14 } });
    expect(status.state).toBe('ok');
  });

  it('check() answers within its timeout when the ping hangs, and shares one ping between callers', async () => {
    const { log } = recordingLog();
    let pings = 0;
    const status = new DatabaseStatus({
      log,
      ping: () => {
        pings++;
        return new Promise(() => undefined);
      },
      pingTimeoutMs: 50,
      probeIntervalMs: 10_000,
    });
    // The ping never answers; the clock is the test's: the answer comes when 50 ms have passed on it, not before.
    vi.useFakeTimers();
    try {
      let answered = false;
      const both = Promise.all([status.check(), status.check()]).finally(() => (answered = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(answered).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect(answered).toBe(true);
      const [a, b] = await both;
      expect(a).toEqual({ state: 'down', reason: 'no answer within 50 ms' });
      expect(b).toBe(a);
      const again = status.check(); // the hung ping is still the one in flight: no second query
      await vi.advanceTimersByTimeAsync(50);
      await again;
      expect(pings).toBe(1);
      expect(status.state).toBe('down');
    } finally {
      status.close();
      vi.useRealTimers();
    }
  });

  it('check() reports the latency when the database answers', async () => {
    const { log } = recordingLog();
    const status = new DatabaseStatus({ log, ping: async () => 1, pingTimeoutMs: 500 });
    const check = await status.check();
    expect(check.state).toBe('ok');
    expect(check.latencyMs).toBeGreaterThanOrEqual(0);
  });
});
