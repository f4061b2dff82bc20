import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimCredentials } from '../../../src/api/contracts/api-keys';
import { createTestApp, TEST_DRIVERS, uniqueEmail, type SignedIn, type TestApp } from '../../test/helper';

/**
 * Text PostgreSQL cannot store and JSON too deep to handle answer 400 naming the field, at every
 * entry point (body, query string, header), and store nothing (server/plugins/input-guard.ts).
 * Each of these answered 500 before (issue "Hardening").
 */

const KEY_PASSWORD = 'bad-input-key-password';
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const layoutWithModel = (modelJson: string) => `{"layout":{"version":1,"savedAt":1,"model":${modelJson}}}`;

describe.each(TEST_DRIVERS)('NUL, lone surrogates and deep JSON answer 400 on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  let keyId: string;

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
    await t.setFlag('FF_ENABLE_ALERTS', true);
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'bybit' }, { token: user.accessToken })).json<SimCredentials>();
    const key = await t.client.post('/v1/api-keys', { name: 'main', exchange: 'bybit', network: 'TESTNET', ...creds, keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    expect(key.statusCode).toBe(201);
    keyId = key.json<{ id: string }>().id;
  });
  afterAll(() => t?.close());

  const tokenOf = (who: 'admin' | 'user' | 'none') => (who === 'admin' ? admin.accessToken : who === 'user' ? user.accessToken : undefined);

  type Case = [label: string, who: 'admin' | 'user' | 'none', method: 'POST' | 'PATCH', url: () => string, body: (bad: string) => unknown, field: string];
  const cases: Case[] = [
    ['sign-up invite code (no login)', 'none', 'POST', () => '/v1/auth/signup', (bad) => ({ email: uniqueEmail('nul'), password: 'password123', inviteCode: `abc${bad}` }), 'inviteCode'],
    ['sign-up referral code (no login)', 'none', 'POST', () => '/v1/auth/signup', (bad) => ({ email: uniqueEmail('nul'), password: 'password123', referralCode: `abc${bad}` }), 'referralCode'],
    ['alert note', 'user', 'POST', () => '/v1/alerts', (bad) => ({ exchange: 'binance', symbol: 'BTCUSDT', initialPrice: 100, triggerPrice: 110, note: `x${bad}` }), 'note'],
    ['key name', 'user', 'PATCH', () => `/v1/api-keys/${keyId}`, (bad) => ({ name: `main${bad}` }), 'name'],
    [
      'transaction note',
      'user',
      'POST',
      () => '/v1/users/transactions',
      (bad) => ({ apiKeyId: keyId, type: 'deposit', amount: 10, currency: 'USDT', occurredAt: '2024-01-01T00:00:00Z', note: `x${bad}` }),
      'note',
    ],
    ['maintenance message', 'admin', 'POST', () => '/v1/maintenance', (bad) => ({ message: `Back soon${bad}` }), 'message'],
    [
      'fill symbol',
      'admin',
      'POST',
      () => '/v1/fills/import',
      (bad) => ({ fills: [{ externalId: 'e1', userId: user.id, exchange: 'binance', symbol: `BTC${bad}USDT`, side: 'BUY', qty: 1, price: 100, time: '2024-01-01T00:00:00Z' }] }),
      'fills.0.symbol',
    ],
    ['favourite pair in settings', 'user', 'PATCH', () => '/v1/users/settings', (bad) => ({ favoritePairs: [{ symbol: `BTC${bad}`, exchange: 'binance' }] }), 'favoritePairs.0.symbol'],
  ];

  describe.each([
    ['a NUL byte', '\u0000'],
    ['a lone surrogate', '\ud800'],
  ])('%s in any text', (_, bad) => {
    it.each(cases)('%s: 400 naming the field', async (_label, who, method, url, body, field) => {
      const res = await t.client.request(method, url(), body(bad), { token: tokenOf(who) });
      expect(res.statusCode).toBe(400);
      const answer = res.json<{ message: string; fields: Record<string, string> }>();
      expect(answer.message).toMatch(new RegExp(`^Invalid ${field.replace(/\./g, '\\.')}: `));
      expect(Object.keys(answer.fields)).toEqual([field]);
    });
  });

  it('stored none of it', async () => {
    const auth = { token: user.accessToken };
    expect((await t.client.get('/v1/alerts', auth)).json()).toEqual([]);
    expect((await t.client.get(`/v1/api-keys/${keyId}`, auth)).json()).toMatchObject({ name: 'main' });
    expect((await t.client.get(`/v1/api-keys/${keyId}/transactions`, auth)).json()).toMatchObject({ data: [] });
    expect((await t.client.get('/v1/users/settings', auth)).json()).toMatchObject({ favoritePairs: [] });
    expect((await t.client.get('/v1/maintenance')).json()).toEqual({ message: null });
    expect((await t.client.get('/v1/trading-volume', { token: admin.accessToken })).json()).toMatchObject({ totals: { fills: 0 } });
  });

  it('a lone surrogate in a settings object key (jsonb) answers 400 naming it', async () => {
    const res = await t.client.patch('/v1/users/settings', layoutWithModel('{"\\udc00":1}'), { token: user.accessToken, headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ fields: { 'layout.model.\\udc00': expect.stringContaining('surrogate') } });
  });

  it('a surrogate pair (an emoji) is text like any other', async () => {
    const res = await t.client.post('/v1/maintenance', { message: 'Back soon 🚀' }, { token: admin.accessToken });
    expect(res.statusCode).toBe(200);
    expect((await t.client.get('/v1/maintenance')).json()).toEqual({ message: 'Back soon 🚀' });
  });

  it('a NUL in ?query= answers 400 naming query', async () => {
    for (const url of ['/v1/users', '/v1/users/funded']) {
      const res = await t.client.get(url, { token: admin.accessToken, query: { query: 'a\u0000' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid query: Must not contain NUL (\\u0000) characters', fields: { query: 'Must not contain NUL (\\u0000) characters' } });
    }
  });

  it('a NUL or lone surrogate in the X-Key-Password header answers 400 naming the header', async () => {
    for (const password of [`${KEY_PASSWORD}\u0000`, `${KEY_PASSWORD}\ud800`]) {
      const res = await t.client.post(`/v1/api-keys/${keyId}/verify`, undefined, { token: user.accessToken, headers: { 'x-key-password': password } });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json<{ fields: object }>().fields)).toEqual(['x-key-password']);
    }
  });

  describe('depth', () => {
    it('a layout nested 5,000 levels deep answers 400 naming layout.model, and the stored settings stay readable', async () => {
      const res = await t.client.patch('/v1/users/settings', layoutWithModel(deepObject(5000)), { token: user.accessToken, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid layout.model: Nested too deeply: at most 64 levels', fields: { 'layout.model': 'Nested too deeply: at most 64 levels' } });
      const settings = await t.client.get('/v1/users/settings', { token: user.accessToken });
      expect(settings.statusCode).toBe(200);
      expect(settings.json<{ layout: unknown }>().layout).toBeNull();
    });

    it('a layout model deeper than the contract allows (48) answers 400; a 40-deep one is stored', async () => {
      const tooDeep = await t.client.patch('/v1/users/settings', layoutWithModel(deepObject(50)), { token: user.accessToken, headers: { 'content-type': 'application/json' } });
      expect(tooDeep.statusCode).toBe(400);
      expect(tooDeep.json()).toMatchObject({ fields: { 'layout.model': 'Layout is nested too deeply (at most 48 levels)' } });
      const fine = await t.client.patch('/v1/users/settings', layoutWithModel(deepObject(40)), { token: user.accessToken, headers: { 'content-type': 'application/json' } });
      expect(fine.statusCode).toBe(200);
    });

    it('any JSON body past 64 levels answers 400 before the route looks at it', async () => {
      const res = await t.client.post('/v1/maintenance', `{"message":${deepObject(100)}}`, { token: admin.accessToken, headers: { 'content-type': 'application/json' } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid message.a: Nested too deeply: at most 64 levels', fields: { 'message.a': 'Nested too deeply: at most 64 levels' } });
    });
  });

  it('authentication still comes first: no token is a 401 whatever the body holds', async () => {
    const res = await t.client.post('/v1/maintenance', { message: 'x\u0000' });
    expect(res.statusCode).toBe(401);
  });
});
