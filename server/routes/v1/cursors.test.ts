import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimCredentials } from '../../../src/api/contracts/api-keys';
import type { PageMeta } from '../../../src/api/contracts/common';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

/**
 * Every keyset-paged list answers a cursor holding a date no timestamptz holds with 400 "Invalid
 * cursor", like any other bad cursor (services/keyset-page.ts). The six lists answered 500 before.
 */

const ID = '00000000-0000-4000-8000-000000000000';
const cursorAt = (t: string, d: 'next' | 'prev' = 'next') => Buffer.from(JSON.stringify({ t, i: ID, d })).toString('base64url');
/** JS Dates all, each outside PostgreSQL's range or its ISO input: year 0, BC, five and six digits. */
const OUT_OF_RANGE = ['0000-01-01T00:00:00.000Z', '-001000-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z', '+200000-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z'];

describe.each(TEST_DRIVERS)('keyset cursors out of the database range on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  let keyId: string;
  const lists: { name: string; url: () => string; who: () => SignedIn }[] = [
    { name: 'users', url: () => '/v1/users', who: () => admin },
    { name: 'funded users', url: () => '/v1/users/funded', who: () => admin },
    { name: 'invitations', url: () => '/v1/invitations', who: () => admin },
    { name: 'referrers', url: () => '/v1/referrals', who: () => admin },
    { name: 'own key transactions', url: () => `/v1/api-keys/${keyId}/transactions`, who: () => user },
    { name: "a user's key transactions", url: () => `/v1/users/${user.id}/api-keys/${keyId}/transactions`, who: () => admin },
  ];

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'bybit' }, { token: user.accessToken })).json<SimCredentials>();
    const key = await t.client.post('/v1/api-keys', { name: 'k', exchange: 'bybit', network: 'TESTNET', ...creds, keyPassword: 'cursor-key-password' }, { token: user.accessToken });
    keyId = key.json<{ id: string }>().id;
    // Two of everything, so each list has a second page to reach with a real cursor.
    for (let i = 0; i < 2; i++) {
      await t.signInAs('referrer');
      await t.client.post('/v1/users/funded', { userId: (await t.signInAs('user')).id }, { token: admin.accessToken });
      await t.client.post('/v1/invitations', { count: 1 }, { token: admin.accessToken });
      await t.client.post('/v1/users/transactions', { apiKeyId: keyId, type: 'deposit', amount: 1, currency: 'USDT', occurredAt: `2024-01-0${i + 1}T00:00:00Z` }, { token: user.accessToken });
    }
  });
  afterAll(() => t?.close());

  describe.each(lists)('$name', ({ url, who }) => {
    it.each(OUT_OF_RANGE)('cursor at %s: 400 Invalid cursor', async (time) => {
      for (const dir of ['next', 'prev'] as const) {
        const res = await t.client.get(url(), { token: who().accessToken, query: { cursor: cursorAt(time, dir) } });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: 'Invalid cursor: use a nextCursor or previousCursor from a previous page', fields: { cursor: 'Invalid cursor' } });
      }
    });

    it('a cursor from a previous page still works', async () => {
      const first = await t.client.get(url(), { token: who().accessToken, query: { limit: '1' } });
      const { nextCursor } = first.json<{ meta: PageMeta }>().meta;
      expect(nextCursor).not.toBeNull();
      const next = await t.client.get(url(), { token: who().accessToken, query: { limit: '1', cursor: nextCursor ?? '' } });
      expect(next.statusCode).toBe(200);
    });
  });

  it('the earliest and latest storable instants are fine cursors', async () => {
    for (const time of ['0001-01-01T00:00:00.000Z', '9999-12-31T23:59:59.999Z']) {
      const res = await t.client.get('/v1/users', { token: admin.accessToken, query: { cursor: cursorAt(time) } });
      expect(res.statusCode).toBe(200);
    }
  });
});
