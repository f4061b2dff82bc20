import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { TransactionsPage } from '../../../src/api/contracts/funded-users';
import { apiKeys } from '../../db/schema-api-keys';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
const UUID0 = '00000000-0000-4000-8000-000000000000';

describe.each(TEST_DRIVERS)('/v1/api-keys on %s (simulator mode)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  let other: SignedIn;
  /** Every log line the app wrote, at trace level (pino JSON). */
  const logLines: string[] = [];
  /** Every credential sent in this file: none may appear in a response or a log line. */
  const secrets = new Set<string>([KEY_PASSWORD]);

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim', LOG_LEVEL: 'trace' }, { logger: { level: 'trace', stream: { write: (line: string) => logLines.push(line) } } });
    user = await t.signInAs('user');
    other = await t.signInAs('user');
  });
  afterAll(() => t?.close());

  const simCreds = async (exchange: string, extra: Record<string, unknown> = {}): Promise<SimCredentials> => {
    const res = await t.client.post('/v1/api-keys/sim-credentials', { exchange, ...extra }, { token: user.accessToken });
    expect(res.statusCode).toBe(200);
    const creds = res.json<SimCredentials>();
    for (const v of Object.values(creds)) secrets.add(v);
    return creds;
  };
  const addKey = async (who: SignedIn, exchange: string, creds: SimCredentials, name = `${exchange} key`) =>
    t.client.post('/v1/api-keys', { name, exchange, network: 'TESTNET', ...creds, keyPassword: KEY_PASSWORD }, { token: who.accessToken });
  const expectNoSecrets = (body: string) => {
    for (const s of secrets) expect(body).not.toContain(s);
  };

  describe('authentication', () => {
    it.each([
      ['GET', '/v1/api-keys'],
      ['POST', '/v1/api-keys'],
      ['POST', '/v1/api-keys/sim-credentials'],
      ['GET', `/v1/api-keys/${UUID0}`],
      ['PATCH', `/v1/api-keys/${UUID0}`],
      ['DELETE', `/v1/api-keys/${UUID0}`],
      ['POST', `/v1/api-keys/${UUID0}/verify`],
      ['POST', `/v1/api-keys/${UUID0}/unlock`],
      ['GET', `/v1/api-keys/${UUID0}/transactions`],
    ] as const)('%s %s answers 401 without a token', async (method, url) => {
      const res = await t.client.request(method, url, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(res.statusCode).toBe(401);
    });

    it('answers 401 "Invalid access token" for an expired token', async () => {
      const res = await t.client.get('/v1/api-keys', { token: t.expiredAccessToken(user) });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Invalid access token' });
    });
  });

  describe('adding a key', () => {
    it.each(['binance', 'bybit', 'bitmex', 'okx'])('%s: checks a simulator key with the exchange and stores it without ever answering its secrets', async (exchange) => {
      const creds = await simCreds(exchange);
      const res = await addKey(user, exchange, creds);
      expect(res.statusCode).toBe(201);
      expectNoSecrets(res.body);
      const key = res.json<ApiKey>();
      expect(key).toMatchObject({ name: `${exchange} key`, exchange, network: 'TESTNET', userId: user.id, permissions: { read: true, trade: true, withdraw: false } });
      expect(key.apiKeyMasked).toMatch(/^sim-…[0-9a-f]{4}$/);
      expect(Object.keys(key).sort()).toEqual(['apiKeyMasked', 'createdAt', 'exchange', 'id', 'lastValidatedAt', 'name', 'network', 'permissions', 'serverCustody', 'userId']);

      const list = await t.client.get('/v1/api-keys', { token: user.accessToken });
      expect(list.statusCode).toBe(200);
      expect(list.json<ApiKey[]>().map((k) => k.id)).toContain(key.id);
      expectNoSecrets(list.body);

      // At rest: only ciphertext, no plaintext credential or password in any column.
      const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
      const stored = JSON.stringify(row);
      expectNoSecrets(stored);
      expect(row.kdfParams).toEqual({ N: 32768, r: 8, p: 1 });
    });

    it('flags the withdrawal permission of a key that has it', async () => {
      const creds = await simCreds('bybit', { label: 'risky', withdraw: true });
      expect(creds.apiKey).toMatch(/^sim-risky-withdraw-[0-9a-f]{8}$/);
      const res = await addKey(user, 'bybit', creds, 'risky');
      expect(res.statusCode).toBe(201);
      expect(res.json<ApiKey>().permissions).toMatchObject({ withdraw: true });
    });

    it('refuses a key the exchange rejects, with the exchange’s message on the field, and stores nothing', async () => {
      const creds = await simCreds('binance');
      const before = (await t.client.get('/v1/api-keys', { token: user.accessToken })).json<ApiKey[]>().length;
      const res = await addKey(user, 'binance', { ...creds, apiSecret: 'f'.repeat(64) });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: 'binance rejected the key: Signature for this request is not valid. (-1022)',
        fields: { apiSecret: 'Signature for this request is not valid.' },
      });
      expect((await t.client.get('/v1/api-keys', { token: user.accessToken })).json<ApiKey[]>()).toHaveLength(before);
    });

    it('refuses a wrong OKX passphrase on the passphrase field', async () => {
      const creds = await simCreds('okx');
      const res = await addKey(user, 'okx', { ...creds, passphrase: 'not-the-passphrase' });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toEqual({ passphrase: 'OK-ACCESS-PASSPHRASE incorrect.' });
    });

    it.each([
      ['keyPassword', { keyPassword: undefined }],
      ['keyPassword', { keyPassword: 'short' }],
      ['name', { name: '   ' }],
      ['exchange', { exchange: 'ftx' }],
      ['network', { network: 'DEVNET' }],
      ['apiSecret', { apiSecret: '' }],
      ['passphrase', { exchange: 'okx', passphrase: undefined }],
      ['passphrase', { exchange: 'binance', passphrase: 'only-okx-has-one' }],
    ])('answers 400 naming %s', async (field, patch) => {
      const body = { name: 'k', exchange: 'binance', network: 'MAINNET', apiKey: 'sim-x', apiSecret: 'y', keyPassword: KEY_PASSWORD, ...patch };
      const res = await t.client.post('/v1/api-keys', body, { token: user.accessToken });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain(field);
      expect(Object.keys(res.json().fields)).toContain(field);
    });
  });

  describe('one key', () => {
    let key: ApiKey;
    beforeAll(async () => {
      key = (await addKey(user, 'bitmex', await simCreds('bitmex'), 'Main')).json<ApiKey>();
    });

    it('reads, renames and answers 404 to anyone else', async () => {
      const got = await t.client.get(`/v1/api-keys/${key.id}`, { token: user.accessToken });
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(key);

      const renamed = await t.client.patch(`/v1/api-keys/${key.id}`, { name: '  Renamed  ' }, { token: user.accessToken });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json<ApiKey>().name).toBe('Renamed');

      expect((await t.client.get(`/v1/api-keys/${key.id}`, { token: other.accessToken })).statusCode).toBe(404);
      expect((await t.client.patch(`/v1/api-keys/${key.id}`, { name: 'x' }, { token: other.accessToken })).statusCode).toBe(404);
      expect((await t.client.delete(`/v1/api-keys/${key.id}`, { token: other.accessToken })).statusCode).toBe(404);
      expect((await t.client.get('/v1/api-keys', { token: other.accessToken })).json()).toEqual([]);
    });

    it('answers 400 naming the field for a bad id, an empty name or another field', async () => {
      const badId = await t.client.get('/v1/api-keys/not-a-uuid', { token: user.accessToken });
      expect(badId.statusCode).toBe(400);
      expect(badId.json().fields).toHaveProperty('id');
      const empty = await t.client.patch(`/v1/api-keys/${key.id}`, { name: '' }, { token: user.accessToken });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields).toHaveProperty('name');
      const extra = await t.client.patch(`/v1/api-keys/${key.id}`, { name: 'a', apiSecret: 'b' }, { token: user.accessToken });
      expect(extra.statusCode).toBe(400);
      expect(extra.json().fields).toHaveProperty('apiSecret');
    });

    it('re-checks the key with the exchange when the key password opens it', async () => {
      const res = await t.client.post(`/v1/api-keys/${key.id}/verify`, {}, { token: user.accessToken, headers: { 'X-Key-Password': KEY_PASSWORD } });
      expect(res.statusCode).toBe(200);
      expectNoSecrets(res.body);
      expect(Date.parse(res.json<ApiKey>().lastValidatedAt ?? '')).toBeGreaterThan(Date.parse(key.lastValidatedAt ?? ''));
    });

    it('unlock: 204 when the key password opens the key, 403 "Wrong key password" at the field when not, 404 for another user', async () => {
      const ok = await t.client.post(`/v1/api-keys/${key.id}/unlock`, {}, { token: user.accessToken, headers: { 'X-Key-Password': KEY_PASSWORD } });
      expect(ok.statusCode).toBe(204);
      expect(ok.body).toBe('');
      const wrong = await t.client.post(`/v1/api-keys/${key.id}/unlock`, {}, { token: user.accessToken, headers: { 'X-Key-Password': 'not-the-password' } });
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual({ message: 'Wrong key password', fields: { keyPassword: 'Wrong key password' } });
      expect((await t.client.post(`/v1/api-keys/${key.id}/unlock`, {}, { token: other.accessToken, headers: { 'X-Key-Password': KEY_PASSWORD } })).statusCode).toBe(404);
    });

    it('rejects a wrong key password with 403 "Wrong key password"', async () => {
      const res = await t.client.post(`/v1/api-keys/${key.id}/verify`, {}, { token: user.accessToken, headers: { 'X-Key-Password': 'not-the-password' } });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Wrong key password');
    });

    it('answers 400 naming the header when the key password is missing', async () => {
      const res = await t.client.post(`/v1/api-keys/${key.id}/verify`, {}, { token: user.accessToken });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty('x-key-password');
    });

    it('lists the key’s transactions, and 404 for a key that is not yours', async () => {
      const tx = await t.client.post(
        '/v1/users/transactions',
        { apiKeyId: key.id, type: 'deposit', amount: 1000, currency: 'usdt', occurredAt: new Date().toISOString() },
        { token: user.accessToken },
      );
      expect(tx.statusCode).toBe(201);
      const res = await t.client.get(`/v1/api-keys/${key.id}/transactions`, { token: user.accessToken });
      expect(res.statusCode).toBe(200);
      expect(res.json<TransactionsPage>().data).toMatchObject([{ apiKeyId: key.id, type: 'deposit', amount: '1000', currency: 'USDT' }]);
      expect((await t.client.get(`/v1/api-keys/${key.id}/transactions`, { token: other.accessToken })).statusCode).toBe(404);
    });

    it('deletes the key: then 404', async () => {
      expect((await t.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(204);
      expect((await t.client.get(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(404);
      expect((await t.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(404);
    });
  });

  it('sim credentials: 400 naming the field for an unknown exchange', async () => {
    const res = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'kraken' }, { token: user.accessToken });
    expect(res.statusCode).toBe(400);
    expect(res.json().fields).toHaveProperty('exchange');
  });

  // Last: every request above has been logged by now.
  it('never writes a key, secret, passphrase or key password to the log', () => {
    expect(logLines.length).toBeGreaterThan(20);
    expect(logLines.some((l) => l.includes('/v1/api-keys'))).toBe(true);
    for (const line of logLines) for (const s of secrets) expect(line).not.toContain(s);
  });
});

describe.each(TEST_DRIVERS)('/v1/api-keys on %s (live mode)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  const calls: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      driver,
      { MARKET_DATA: 'live' },
      {
        apiKeys: {
          fetch: async (url) => {
            calls.push(url);
            throw new TypeError('fetch failed', { cause: { code: 'ENOTFOUND' } });
          },
        },
      },
    );
    user = await t.signInAs('user');
  });
  afterAll(() => t?.close());

  it('answers 502 naming the exchange when it cannot be reached, and stores nothing', async () => {
    const res = await t.client.post(
      '/v1/api-keys',
      { name: 'live', exchange: 'bybit', network: 'TESTNET', apiKey: 'live-key-123456', apiSecret: 'live-secret-abcdef', keyPassword: KEY_PASSWORD },
      { token: user.accessToken },
    );
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ message: 'Could not reach bybit: fetch failed (ENOTFOUND)' });
    expect(calls).toEqual(['https://api-testnet.bybit.com/v5/user/query-api']);
    expect((await t.client.get('/v1/api-keys', { token: user.accessToken })).json()).toEqual([]);
  });

  it('has no simulator credentials (404)', async () => {
    const res = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: user.accessToken });
    expect(res.statusCode).toBe(404);
  });
});
