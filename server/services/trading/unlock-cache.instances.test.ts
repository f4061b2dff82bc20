/**
 * Unlocks end on every instance (issue 25 §1): two app instances on one database, a key unlocked on
 * both; what is done through instance 1 — lock, sign-out, password change, key deletion, custody
 * withdrawn — drops the unlock on instance 2 too, by the event bus alone, and only the unlocks it concerns.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { buildApp } from '../../app';
import { createTestApp, RecordingMailer, TEST_DRIVERS, TestClient, type SignedIn, type TestApp } from '../../test/helper';
import { until } from '../../test/waiting';

const KEY_PASSWORD = 'key-password-1';

/** The sign-in an access token belongs to (its refresh-token family): what unlocks are kept under. */
const familyOf = (token: string): string => (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { fam: string }).fam;

describe.each(TEST_DRIVERS)('unlocks between two instances on %s', (driver) => {
  let one: TestApp;
  let two: FastifyInstance;
  let twoClient: TestClient;
  const channel = `ct_events_${Math.random().toString(36).slice(2, 10)}`;

  beforeAll(async () => {
    one = await createTestApp(driver, { MARKET_DATA: 'sim' }, { eventChannel: channel });
    two = await buildApp({ config: one.config, db: one.db, driver, mailer: new RecordingMailer(), logger: false, distDir: '/nonexistent', eventChannel: channel });
    await two.ready();
    twoClient = new TestClient(two, one.config.JWT_SECRET ?? '');
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  const addKey = async (who: SignedIn): Promise<ApiKey> => {
    const c = await one.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: who.accessToken });
    const res = await one.client.post('/v1/api-keys', { name: 'two instances', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  };
  const anotherSignIn = async (who: SignedIn): Promise<SignedIn> => {
    const res = await one.client.post('/v1/auth/signin', { email: who.email, password: who.password });
    return { ...who, ...res.json<{ accessToken: string; refreshToken: string }>() };
  };
  /** `who` unlocks `key` on both instances. */
  const unlockOnBoth = async (who: SignedIn, key: ApiKey) => {
    for (const client of [one.client, twoClient]) {
      const res = await client.post(`/v1/api-keys/${key.id}/unlock`, { remember: true }, { token: who.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
      expect(res.statusCode, res.body).toBe(204);
    }
    expect(held(one.app, who, key) && held(two, who, key)).toBe(true);
  };
  const held = (app: FastifyInstance, who: SignedIn, key: ApiKey) => app.unlockCache.get(familyOf(who.accessToken), key.id) !== null;
  /** Gone on instance 1 when the request answers, on instance 2 once its event arrives. */
  const goneOnBoth = async (who: SignedIn, key: ApiKey) => {
    expect(held(one.app, who, key)).toBe(false);
    await until('instance 2 drops the unlock', () => !held(two, who, key));
  };

  it('a lock through instance 1 ends that sign-in’s unlock on instance 2, not another sign-in’s', async () => {
    const user = await one.signInAs('user');
    const other = await anotherSignIn(user);
    const key = await addKey(user);
    await unlockOnBoth(user, key);
    await unlockOnBoth(other, key);
    expect((await one.client.delete(`/v1/api-keys/${key.id}/unlock`, { token: user.accessToken })).statusCode).toBe(204);
    await goneOnBoth(user, key);
    expect(held(one.app, other, key) && held(two, other, key)).toBe(true);
    // The trading call on instance 2 hears it too: no password, no unlock.
    expect((await twoClient.get(`/v1/trade/${key.id}/balance`, { token: user.accessToken })).statusCode).toBe(403);
  });

  it('a sign-out through instance 1 ends that sign-in’s unlocks on instance 2; the other sign-in keeps its own', async () => {
    const user = await one.signInAs('user');
    const other = await anotherSignIn(user);
    const key = await addKey(user);
    await unlockOnBoth(user, key);
    await unlockOnBoth(other, key);
    expect((await one.client.post('/v1/auth/signout', undefined, { token: user.accessToken })).statusCode).toBe(200);
    await goneOnBoth(user, key);
    expect(held(one.app, other, key) && held(two, other, key)).toBe(true);
  });

  it('a password change through instance 1 ends every unlock of the user on instance 2, not another user’s', async () => {
    const user = await one.signInAs('user');
    const other = await anotherSignIn(user);
    const stranger = await one.signInAs('user');
    const [key, strangersKey] = [await addKey(user), await addKey(stranger)];
    await unlockOnBoth(user, key);
    await unlockOnBoth(other, key);
    await unlockOnBoth(stranger, strangersKey);
    const res = await one.client.patch(`/v1/users/${user.id}`, { password: 'a-new-password-1' }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    await goneOnBoth(user, key);
    await goneOnBoth(other, key);
    expect(held(two, stranger, strangersKey)).toBe(true);
  });

  it('a key deleted through instance 1 ends its unlocks on instance 2; the user’s other key stays unlocked', async () => {
    const user = await one.signInAs('user');
    const [key, kept] = [await addKey(user), await addKey(user)];
    await unlockOnBoth(user, key);
    await unlockOnBoth(user, kept);
    expect((await one.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(204);
    await goneOnBoth(user, key);
    expect(held(two, user, kept)).toBe(true);
  });

  it('custody withdrawn through instance 1 ends the key’s unlocks on instance 2', async () => {
    const user = await one.signInAs('user');
    const key = await addKey(user);
    expect((await one.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    await unlockOnBoth(user, key);
    expect((await one.client.delete(`/v1/api-keys/${key.id}/server-custody`, { token: user.accessToken })).statusCode).toBe(200);
    await goneOnBoth(user, key);
  });
});
