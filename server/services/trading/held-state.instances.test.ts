/**
 * What a trading call holds in memory ends on every instance (issue 25 §1): two app instances on one
 * database. Instance 2 has served the user — their sign-in check, their key's row, their funded status
 * are held there —; what is done through instance 1 (a funded limit changed, the user added to or removed
 * from the funded users, a role taken away, a sign-out, a password change, a key deleted, custody given)
 * is acted on by instance 2 as soon as its event arrives, by the event bus alone.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { buildApp } from '../../app';
import { createTestApp, RecordingMailer, TEST_DRIVERS, TestClient, type SignedIn, type TestApp } from '../../test/helper';
import { until } from '../../test/waiting';

const KEY_PASSWORD = 'key-password-1';

/** The access token's claims: whose sign-in, which one, which session version. */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sub: string; fam: string; sv: number };

describe.each(TEST_DRIVERS)('state held for trading calls, between two instances on %s', (driver) => {
  let one: TestApp;
  let two: FastifyInstance;
  let twoClient: TestClient;
  let admin: SignedIn;
  const channel = `ct_events_${Math.random().toString(36).slice(2, 10)}`;

  beforeAll(async () => {
    // Sign-in checks held longer than any wait here: only the events can end them in time.
    one = await createTestApp(driver, { MARKET_DATA: 'sim', AUTH_CHECK_HOLD_MS: 60_000 }, { eventChannel: channel });
    two = await buildApp({ config: one.config, db: one.db, driver, mailer: new RecordingMailer(), logger: false, distDir: '/nonexistent', eventChannel: channel });
    await two.ready();
    twoClient = new TestClient(two, one.config.JWT_SECRET ?? '');
    admin = await one.signInAs('admin');
  }, 180_000);
  afterAll(async () => {
    await two?.close();
    await one?.close();
  });

  const addKey = async (who: SignedIn): Promise<ApiKey> => {
    const c = await one.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: who.accessToken });
    const res = await one.client.post('/v1/api-keys', { name: 'held', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  };
  /** `who` unlocked `key` on instance 2 and made a trading call there (sign-in, row and funded status held). */
  const servedOnTwo = async (who: SignedIn, key: ApiKey) => {
    const unlock = await twoClient.post(`/v1/api-keys/${key.id}/unlock`, { remember: true }, { token: who.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
    expect(unlock.statusCode, unlock.body).toBe(204);
    const limits = await twoClient.get(`/v1/trade/${key.id}/limits`, { token: who.accessToken });
    expect(limits.statusCode, limits.body).toBe(200);
    expect(two.unlockCache.row(key.id)?.id).toBe(key.id);
  };
  const sessionHeld = (app: FastifyInstance, who: SignedIn) => {
    const c = claimsOf(who.accessToken);
    return app.sessionCache.get(c.sub, c.fam, c.sv) !== null;
  };
  const fundedOnTwo = async (who: SignedIn, key: ApiKey) => (await twoClient.get(`/v1/trade/${key.id}/limits`, { token: who.accessToken })).json<{ funded: boolean }>().funded;
  /** A resting limit order far below the market on instance 2. */
  const orderOnTwo = (who: SignedIn, key: ApiKey, symbol = 'BTCUSDT', price = '10000') =>
    twoClient.post(`/v1/trade/${key.id}/orders`, { symbol, side: 'BUY', type: 'LIMIT', price, qty: '0.010' }, { token: who.accessToken });

  it('a funded user added and a limit changed through instance 1 hold on instance 2’s next order; removed, they no longer do', async () => {
    const user = await one.signInAs('user');
    const key = await addKey(user);
    await servedOnTwo(user, key);
    expect(await fundedOnTwo(user, key)).toBe(false);
    expect((await orderOnTwo(user, key)).statusCode).toBe(201);

    expect((await one.client.post('/v1/users/funded', { userId: user.id }, { token: admin.accessToken })).statusCode).toBe(201);
    await until('instance 2 hears the user is funded', () => fundedOnTwo(user, key));
    const patched = await one.client.patch('/v1/users/settings/trade', { userId: user.id, allowedSymbols: ['ETHUSDT'] }, { token: admin.accessToken });
    expect(patched.statusCode, patched.body).toBe(200);
    const refused = await until('instance 2 refuses BTCUSDT', async () => {
      const res = await orderOnTwo(user, key);
      expect([201, 422]).toContain(res.statusCode);
      return res.statusCode === 422 ? res : null;
    });
    expect(Object.keys(refused.json<{ fields: Record<string, string> }>().fields)).toEqual(['allowedSymbols']);
    // Instance 1 itself holds nothing stale: the change is in force there as the admin's answer arrives.
    expect((await one.client.post(`/v1/trade/${key.id}/orders`, { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '10000', qty: '0.010' }, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } })).statusCode).toBe(422);

    expect((await one.client.delete(`/v1/users/funded/${user.id}`, { token: admin.accessToken })).statusCode).toBe(204);
    await until('instance 2 hears the user is no longer funded', async () => !(await fundedOnTwo(user, key)));
    expect((await orderOnTwo(user, key)).statusCode).toBe(201);
  });

  it('an admin demoted through instance 1 loses the admin routes on instance 2; another sign-in’s check stays held', async () => {
    const demoted = await one.signInAs('admin');
    const bystander = await one.signInAs('user');
    expect((await twoClient.get('/v1/users', { token: demoted.accessToken })).statusCode).toBe(200);
    expect((await twoClient.get('/v1/users/me', { token: bystander.accessToken })).statusCode).toBe(200);
    expect(sessionHeld(two, demoted) && sessionHeld(two, bystander)).toBe(true);
    const res = await one.client.patch(`/v1/users/${demoted.id}`, { role: 'user' }, { token: admin.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    await until('instance 2 drops the demoted admin’s sign-in', () => !sessionHeld(two, demoted));
    expect((await twoClient.get('/v1/users', { token: demoted.accessToken })).statusCode).toBe(403);
    expect((await twoClient.get('/v1/users/me', { token: demoted.accessToken })).json<{ role: string }>().role).toBe('user');
    expect(sessionHeld(two, bystander)).toBe(true);
  });

  it('a sign-out or a password change through instance 1: instance 2 answers 401 to the ended sign-ins', async () => {
    const user = await one.signInAs('user');
    const key = await addKey(user);
    await servedOnTwo(user, key);
    expect((await one.client.post('/v1/auth/signout', undefined, { token: user.accessToken })).statusCode).toBe(200);
    await until('instance 2 drops the sign-in', () => !sessionHeld(two, user));
    expect((await twoClient.get(`/v1/trade/${key.id}/limits`, { token: user.accessToken })).statusCode).toBe(401);

    const other = await one.signInAs('user');
    const again = { ...other, ...(await one.client.post('/v1/auth/signin', { email: other.email, password: other.password })).json<{ accessToken: string }>() };
    expect((await twoClient.get('/v1/users/me', { token: again.accessToken })).statusCode).toBe(200);
    expect((await one.client.patch(`/v1/users/${other.id}`, { password: 'a-new-password-1' }, { token: other.accessToken })).statusCode).toBe(200);
    await until('instance 2 drops the other sign-in', () => !sessionHeld(two, again));
    expect((await twoClient.get('/v1/users/me', { token: again.accessToken })).statusCode).toBe(401);
  });

  it('a key deleted through instance 1: instance 2 answers 404 even with the password; custody given is seen by its next call', async () => {
    const user = await one.signInAs('user');
    const [key, kept] = [await addKey(user), await addKey(user)];
    await servedOnTwo(user, key);
    await servedOnTwo(user, kept);
    expect(two.unlockCache.row(kept.id)?.serverCustodyAt).toBeNull();
    expect((await one.client.put(`/v1/api-keys/${kept.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    await until('instance 2 forgets the kept key’s row', () => two.unlockCache.row(kept.id) === null);
    expect((await twoClient.get(`/v1/trade/${kept.id}/limits`, { token: user.accessToken })).statusCode).toBe(200);
    expect(two.unlockCache.row(kept.id)?.serverCustodyAt).toBeInstanceOf(Date);

    expect((await one.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(204);
    await until('instance 2 forgets the deleted key', () => two.unlockCache.row(key.id) === null);
    const res = await twoClient.get(`/v1/trade/${key.id}/limits`, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
    expect(res.statusCode).toBe(404);
    expect(two.unlockCache.row(kept.id)?.id).toBe(kept.id);
  });
});
