import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimCredentials } from '../../src/api/contracts/api-keys';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../test/helper';
import { safeErrorMessage, safeErrorSerializer, safeRequestSerializer } from './log-redaction';

describe('safe error serializer', () => {
  it('cuts the SQL and parameters out of a drizzle message', () => {
    expect(safeErrorMessage('Failed query: insert into "api_keys" ("sealed") values ($1)\nparams: c2VjcmV0')).toBe('database query failed');
    expect(safeErrorMessage('boom\nparams: a,b')).toBe('boom');
    expect(safeErrorMessage('plain message')).toBe('plain message');
  });

  it('keeps a driver error code and message, never its query, params, detail or where', () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "t_a_key"'), {
      code: '23505',
      constraint: 't_a_key',
      detail: 'Key (a)=(secret-value) already exists.',
      where: 'SQL statement "insert … secret-value"',
      internalQuery: 'select secret-value',
      query: 'insert into t values ($1)',
      params: ['secret-value'],
    });
    class DrizzleQueryError extends Error {}
    const wrapped = new DrizzleQueryError('Failed query: insert into t values ($1)\nparams: secret-value', { cause: driverError });
    const out = safeErrorSerializer(wrapped);
    expect(JSON.stringify(out)).not.toContain('secret-value');
    expect(JSON.stringify(out)).not.toContain('insert into');
    expect(out).toMatchObject({ code: '23505', constraint: 't_a_key', message: 'duplicate key value violates unique constraint "t_a_key"' });
  });

  it('logs a request by its path, without the query string', () => {
    expect(safeRequestSerializer({ method: 'GET', url: '/v1/users?query=alice%40example.com', ip: '127.0.0.1' })).toMatchObject({ method: 'GET', url: '/v1/users' });
  });
});

describe.each(TEST_DRIVERS)('a failing database write logs no query or parameter on %s', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  const logLines: string[] = [];

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim', LOG_LEVEL: 'trace' }, { logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } } });
    user = await t.signInAs('user');
    // Every insert into api_keys now fails inside the database, with the sealed row as its parameters.
    await t.db.execute(sql`create function ct_test_fail() returns trigger language plpgsql as $$ begin raise exception 'insert refused by test trigger'; end $$`);
    await t.db.execute(sql`create trigger ct_test_fail before insert on api_keys for each row execute function ct_test_fail()`);
  });
  afterAll(() => t?.close());

  it('answers 500 and the log line names the failure but holds no sealed secret, IV, tag, salt or scrypt settings', async () => {
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: user.accessToken })).json<SimCredentials>();
    logLines.length = 0;
    const res = await t.client.post(
      '/v1/api-keys?note=query-secret',
      { name: 'k', exchange: 'binance', network: 'TESTNET', ...creds, keyPassword: 'kp-123456' },
      { token: user.accessToken },
    );
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal server error' });
    const failure = logLines.find((l) => l.includes('insert refused by test trigger'));
    expect(failure, logLines.join('\n')).toBeDefined();
    const all = logLines.join('\n');
    for (const leak of ['insert into', 'kdf_params', '"N":', 'sealed', 'params:', creds.apiSecret, creds.apiKey, 'kp-123456', 'query-secret']) {
      expect(all).not.toContain(leak);
    }
  });
});
