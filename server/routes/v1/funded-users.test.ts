import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { FundedUser, FundedUsersPage, TradeSettings, Transaction, TransactionsPage } from '../../../src/api/contracts/funded-users';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const UUID0 = '00000000-0000-4000-8000-000000000000';
const KEY_PASSWORD = 'firm-key-password';

describe.each(TEST_DRIVERS)('funded users, trade settings, their keys and transactions on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  let funded: SignedIn;
  const secrets = new Set<string>([KEY_PASSWORD]);

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
    funded = await t.signInAs('user');
  });
  afterAll(() => t?.close());

  const simCreds = async (exchange: string): Promise<SimCredentials> => {
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange }, { token: admin.accessToken })).json<SimCredentials>();
    for (const v of Object.values(creds)) secrets.add(v);
    return creds;
  };

  describe('every admin route: 401 without a token, 403 for a non-admin', () => {
    const routes = [
      ['GET', '/v1/users/funded'],
      ['POST', '/v1/users/funded'],
      ['DELETE', `/v1/users/funded/${UUID0}`],
      ['PATCH', '/v1/users/settings/trade'],
      ['GET', `/v1/users/${UUID0}/api-keys`],
      ['POST', `/v1/users/${UUID0}/api-keys`],
      ['GET', `/v1/users/${UUID0}/api-keys/${UUID0}`],
      ['PATCH', `/v1/users/${UUID0}/api-keys/${UUID0}`],
      ['DELETE', `/v1/users/${UUID0}/api-keys/${UUID0}`],
      ['GET', `/v1/users/${UUID0}/api-keys/${UUID0}/transactions`],
    ] as const;
    it.each(routes)('%s %s', async (method, url) => {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      expect((await t.client.request(method, url, body)).statusCode).toBe(401);
      const res = await t.client.request(method, url, body, { token: user.accessToken });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'This needs the admin role' });
    });
    it('GET /v1/users/settings/trade/{id} and POST /v1/users/transactions need a token', async () => {
      expect((await t.client.get(`/v1/users/settings/trade/${UUID0}`)).statusCode).toBe(401);
      expect((await t.client.post('/v1/users/transactions', {})).statusCode).toBe(401);
    });
  });

  describe('funded list', () => {
    it('adds users, pages newest first with "Load more" cursors, searches by email, refuses duplicates', async () => {
      const extra = [await t.signInAs('user', `funded-a-${Date.now()}@test.example.com`), await t.signInAs('user', `funded-b-${Date.now()}@test.example.com`)];
      for (const u of [funded, ...extra]) {
        const res = await t.client.post('/v1/users/funded', { userId: u.id, note: 'Prop account' }, { token: admin.accessToken });
        expect(res.statusCode).toBe(201);
        expect(res.json<FundedUser>()).toMatchObject({ userId: u.id, email: u.email, role: 'user', note: 'Prop account', addedBy: admin.id, apiKeyCount: 0 });
      }
      const first = await t.client.get('/v1/users/funded', { token: admin.accessToken, query: { limit: '2' } });
      expect(first.statusCode).toBe(200);
      const page1 = first.json<FundedUsersPage>();
      expect(page1.data.map((f) => f.userId)).toEqual([extra[1].id, extra[0].id]);
      expect(page1.meta.previousCursor).toBeNull();
      expect(page1.meta.nextCursor).toEqual(expect.any(String));
      const page2 = (await t.client.get('/v1/users/funded', { token: admin.accessToken, query: { limit: '2', cursor: page1.meta.nextCursor ?? '' } })).json<FundedUsersPage>();
      expect(page2.data.map((f) => f.userId)).toEqual([funded.id]);
      expect(page2.meta.nextCursor).toBeNull();

      const search = (await t.client.get('/v1/users/funded', { token: admin.accessToken, query: { query: 'FUNDED-A' } })).json<FundedUsersPage>();
      expect(search.data.map((f) => f.userId)).toEqual([extra[0].id]);

      const dup = await t.client.post('/v1/users/funded', { userId: funded.id }, { token: admin.accessToken });
      expect(dup.statusCode).toBe(409);
      expect(dup.json().message).toBe('This user is already a funded user');

      expect((await t.client.delete(`/v1/users/funded/${extra[1].id}`, { token: admin.accessToken })).statusCode).toBe(204);
      const after = (await t.client.get('/v1/users/funded', { token: admin.accessToken })).json<FundedUsersPage>();
      expect(after.data.map((f) => f.userId)).not.toContain(extra[1].id);
    });

    it('answers 404 for an unknown user, and for removing someone who is not funded', async () => {
      const add = await t.client.post('/v1/users/funded', { userId: UUID0 }, { token: admin.accessToken });
      expect(add.statusCode).toBe(404);
      expect(add.json().message).toBe('User not found');
      expect((await t.client.delete(`/v1/users/funded/${user.id}`, { token: admin.accessToken })).statusCode).toBe(404);
    });

    it('answers 400 naming the field', async () => {
      const bad = await t.client.post('/v1/users/funded', { userId: 'nope' }, { token: admin.accessToken });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().fields).toHaveProperty('userId');
      const limit = await t.client.get('/v1/users/funded', { token: admin.accessToken, query: { limit: '0' } });
      expect(limit.statusCode).toBe(400);
      expect(limit.json().fields).toHaveProperty('limit');
      const cursor = await t.client.get('/v1/users/funded', { token: admin.accessToken, query: { cursor: 'garbage' } });
      expect(cursor.statusCode).toBe(400);
      expect(cursor.json().fields).toHaveProperty('cursor');
    });
  });

  describe('trade settings', () => {
    it('start with no limits, and only an admin or the user may read them', async () => {
      const own = await t.client.get(`/v1/users/settings/trade/${funded.id}`, { token: funded.accessToken });
      expect(own.statusCode).toBe(200);
      expect(own.json()).toEqual({
        userId: funded.id,
        maxRiskPercent: null,
        maxPositionNotional: null,
        maxLeverage: null,
        dailyLossLimit: null,
        allowedSymbols: [],
        updatedAt: null,
        updatedBy: null,
      });
      expect((await t.client.get(`/v1/users/settings/trade/${funded.id}`, { token: user.accessToken })).statusCode).toBe(403);
      expect((await t.client.get(`/v1/users/settings/trade/${funded.id}`, { token: admin.accessToken })).statusCode).toBe(200);
      expect((await t.client.get(`/v1/users/settings/trade/${UUID0}`, { token: admin.accessToken })).statusCode).toBe(404);
    });

    it('are changed by an admin, field by field', async () => {
      const res = await t.client.patch(
        '/v1/users/settings/trade',
        { userId: funded.id, maxRiskPercent: 1.5, maxLeverage: 10, allowedSymbols: ['btcusdt', 'ETHUSDT', 'BTCUSDT'] },
        { token: admin.accessToken },
      );
      expect(res.statusCode).toBe(200);
      expect(res.json<TradeSettings>()).toMatchObject({ maxRiskPercent: '1.5', maxLeverage: '10', maxPositionNotional: null, allowedSymbols: ['BTCUSDT', 'ETHUSDT'], updatedBy: admin.id });
      const second = await t.client.patch('/v1/users/settings/trade', { userId: funded.id, dailyLossLimit: 2500, maxLeverage: null }, { token: admin.accessToken });
      expect(second.json<TradeSettings>()).toMatchObject({ maxRiskPercent: '1.5', maxLeverage: null, dailyLossLimit: '2500', allowedSymbols: ['BTCUSDT', 'ETHUSDT'] });
      const read = (await t.client.get(`/v1/users/settings/trade/${funded.id}`, { token: funded.accessToken })).json<TradeSettings>();
      expect(read).toMatchObject({ maxRiskPercent: '1.5', dailyLossLimit: '2500', maxLeverage: null });
      expect(read.updatedAt).toEqual(expect.any(String));
    });

    it.each([
      ['maxLeverage', { maxLeverage: 500 }],
      ['maxRiskPercent', { maxRiskPercent: 0 }],
      ['maxPositionNotional', { maxPositionNotional: -5 }],
      ['allowedSymbols', { allowedSymbols: ['BTC USDT'] }],
      ['userId', { userId: 'x', maxLeverage: 5 }],
    ])('answer 400 naming %s', async (field, patch) => {
      const res = await t.client.patch('/v1/users/settings/trade', { userId: funded.id, ...patch }, { token: admin.accessToken });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields).some((k) => k.startsWith(field))).toBe(true);
    });

    it('answer 400 when nothing would change, 404 for an unknown user', async () => {
      const nothing = await t.client.patch('/v1/users/settings/trade', { userId: funded.id }, { token: admin.accessToken });
      expect(nothing.statusCode).toBe(400);
      expect(nothing.json().message).toBe('Nothing to update: send at least one trade setting');
      expect((await t.client.patch('/v1/users/settings/trade', { userId: UUID0, maxLeverage: 2 }, { token: admin.accessToken })).statusCode).toBe(404);
    });
  });

  describe('a funded user’s API keys and transactions', () => {
    let key: ApiKey;

    it('an admin adds a key for the user; the user sees it as theirs, without secrets', async () => {
      const creds = await simCreds('binance');
      const res = await t.client.post(
        `/v1/users/${funded.id}/api-keys`,
        { name: 'Firm key', exchange: 'binance', network: 'MAINNET', ...creds, keyPassword: KEY_PASSWORD },
        { token: admin.accessToken },
      );
      expect(res.statusCode).toBe(201);
      key = res.json<ApiKey>();
      expect(key).toMatchObject({ userId: funded.id, name: 'Firm key', exchange: 'binance' });
      for (const s of secrets) expect(res.body).not.toContain(s);

      const mine = await t.client.get('/v1/api-keys', { token: funded.accessToken });
      expect(mine.json<ApiKey[]>().map((k) => k.id)).toEqual([key.id]);
      const list = await t.client.get(`/v1/users/${funded.id}/api-keys`, { token: admin.accessToken });
      expect(list.statusCode).toBe(200);
      expect(list.json<ApiKey[]>()).toEqual([key]);
      const fundedList = (await t.client.get('/v1/users/funded', { token: admin.accessToken })).json<FundedUsersPage>();
      expect(fundedList.data.find((f) => f.userId === funded.id)?.apiKeyCount).toBe(1);
    });

    it('an admin reads and renames it; 404 under another user or for an unknown user', async () => {
      expect((await t.client.get(`/v1/users/${funded.id}/api-keys/${key.id}`, { token: admin.accessToken })).json()).toEqual(key);
      const renamed = await t.client.patch(`/v1/users/${funded.id}/api-keys/${key.id}`, { name: 'Firm key 1' }, { token: admin.accessToken });
      expect(renamed.json<ApiKey>().name).toBe('Firm key 1');
      expect((await t.client.get(`/v1/users/${user.id}/api-keys/${key.id}`, { token: admin.accessToken })).statusCode).toBe(404);
      expect((await t.client.get(`/v1/users/${UUID0}/api-keys`, { token: admin.accessToken })).statusCode).toBe(404);
      const addForNobody = await t.client.post(
        `/v1/users/${UUID0}/api-keys`,
        { name: 'x', exchange: 'binance', network: 'MAINNET', apiKey: 'sim-x', apiSecret: 'y', keyPassword: KEY_PASSWORD },
        { token: admin.accessToken },
      );
      expect(addForNobody.statusCode).toBe(404);
    });

    it('answers 400 naming the field for a bad key body or ids', async () => {
      const res = await t.client.post(`/v1/users/${funded.id}/api-keys`, { name: 'x', exchange: 'binance', network: 'MAINNET', apiKey: 'k', apiSecret: 's' }, { token: admin.accessToken });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty('keyPassword');
      const badId = await t.client.get(`/v1/users/${funded.id}/api-keys/nope`, { token: admin.accessToken });
      expect(badId.statusCode).toBe(400);
      expect(badId.json().fields).toHaveProperty('apiKeyId');
    });

    it('the user records transactions on their key; the admin sees them newest first, paged', async () => {
      const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
      const record = (who: SignedIn, body: Record<string, unknown>) => t.client.post('/v1/users/transactions', body, { token: who.accessToken });
      const dep = await record(funded, { apiKeyId: key.id, type: 'deposit', amount: 10_000, currency: 'USDT', occurredAt: at(30), note: 'Initial funding' });
      expect(dep.statusCode).toBe(201);
      expect(dep.json<Transaction>()).toMatchObject({ userId: funded.id, apiKeyId: key.id, type: 'deposit', amount: '10000', currency: 'USDT', note: 'Initial funding', createdBy: funded.id });
      expect((await record(funded, { apiKeyId: key.id, type: 'fee', amount: 12.5, currency: 'USDT', occurredAt: at(20) })).statusCode).toBe(201);
      // An admin records for the user by naming them.
      const share = await record(admin, { userId: funded.id, apiKeyId: key.id, type: 'profit-share', amount: 420.25, currency: 'USDT', occurredAt: at(10) });
      expect(share.statusCode).toBe(201);
      expect(share.json<Transaction>()).toMatchObject({ userId: funded.id, createdBy: admin.id });
      expect((await record(funded, { apiKeyId: key.id, type: 'adjustment', amount: -3.2, currency: 'USDT', occurredAt: at(5) })).statusCode).toBe(201);

      const url = `/v1/users/${funded.id}/api-keys/${key.id}/transactions`;
      const p1 = (await t.client.get(url, { token: admin.accessToken, query: { limit: '3' } })).json<TransactionsPage>();
      expect(p1.data.map((x) => x.type)).toEqual(['adjustment', 'profit-share', 'fee']);
      expect(p1.data[0].amount).toBe('-3.2');
      const p2 = (await t.client.get(url, { token: admin.accessToken, query: { limit: '3', cursor: p1.meta.nextCursor ?? '' } })).json<TransactionsPage>();
      expect(p2.data.map((x) => x.type)).toEqual(['deposit']);
      expect(p2.meta).toEqual({ nextCursor: null, previousCursor: expect.any(String) });
    });

    it('refuses transactions on someone else’s key: 404 for your own account, 403 naming another user', async () => {
      const body = { apiKeyId: key.id, type: 'deposit', amount: 1, currency: 'USDT', occurredAt: new Date().toISOString() };
      expect((await t.client.post('/v1/users/transactions', body, { token: user.accessToken })).statusCode).toBe(404);
      const forOther = await t.client.post('/v1/users/transactions', { ...body, userId: funded.id }, { token: user.accessToken });
      expect(forOther.statusCode).toBe(403);
      expect(forOther.json().message).toBe('You may record transactions only on your own API keys');
      expect((await t.client.get(`/v1/users/${funded.id}/api-keys/${UUID0}/transactions`, { token: admin.accessToken })).statusCode).toBe(404);
    });

    it.each([
      ['amount', { amount: -5 }],
      ['amount', { amount: 0 }],
      ['currency', { currency: 'US DOLLAR' }],
      ['type', { type: 'bonus' }],
      ['occurredAt', { occurredAt: 'yesterday' }],
      ['occurredAt', { occurredAt: new Date(Date.now() + 86_400_000).toISOString() }],
      ['apiKeyId', { apiKeyId: 'x' }],
    ])('answers 400 naming %s', async (field, patch) => {
      const body = { apiKeyId: key.id, type: 'deposit', amount: 1, currency: 'USDT', occurredAt: new Date().toISOString(), ...patch };
      const res = await t.client.post('/v1/users/transactions', body, { token: funded.accessToken });
      expect(res.statusCode).toBe(400);
      expect(res.json().fields).toHaveProperty(field);
    });

    it('an admin deletes the key, and its transactions with it', async () => {
      expect((await t.client.delete(`/v1/users/${funded.id}/api-keys/${key.id}`, { token: admin.accessToken })).statusCode).toBe(204);
      expect((await t.client.get(`/v1/users/${funded.id}/api-keys/${key.id}/transactions`, { token: admin.accessToken })).statusCode).toBe(404);
      expect((await t.client.get('/v1/api-keys', { token: funded.accessToken })).json()).toEqual([]);
    });
  });
});
