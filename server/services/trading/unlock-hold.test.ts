/**
 * Issue 26 §2: unlocking a key opens its account state, so the first order's pre-send checks read it warm;
 * the state is released when the unlock ends (lock, idle expiry, sign-out) and closed at once when the key is
 * deleted or its custody withdrawn (no guard and no unlock left: the private stream closes). On the paper
 * exchange (binance), one driver: what is observed is the instance's memory.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
const IDLE_MS = 2000;

describe('the account state of an unlocked key (simulator, binance)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(TEST_DRIVERS[0]!, { MARKET_DATA: 'sim', KEY_UNLOCK_IDLE_MS: IDLE_MS });
  }, 180_000);
  afterAll(() => t?.close());

  const addKey = async (who: SignedIn): Promise<ApiKey> => {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: who.accessToken });
    const res = await t.client.post('/v1/api-keys', { name: 'warm', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  };
  const unlock = async (who: SignedIn, key: ApiKey) => {
    const res = await t.client.post(`/v1/api-keys/${key.id}/unlock`, { remember: true }, { token: who.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
    expect(res.statusCode, res.body).toBe(204);
  };
  const state = (key: ApiKey) => t.app.trading.accounts.get(key.id);
  const warm = (key: ApiKey) => vi.waitFor(() => expect(state(key)?.fresh).toBe(true), { timeout: 20_000, interval: 50 });
  const closed = (key: ApiKey, timeout = 5000) => vi.waitFor(() => expect(state(key)).toBeUndefined(), { timeout, interval: 50 });
  const signIn = async (who: SignedIn): Promise<SignedIn> => {
    const res = await t.client.post('/v1/auth/signin', { email: who.email, password: who.password });
    return { ...who, ...res.json<{ accessToken: string; refreshToken: string }>() };
  };

  it('an unlock opens the state before any trading call; locking (the last unlock) releases it', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect(state(key)).toBeUndefined();
    await unlock(user, key);
    await warm(key);
    // A second sign-in's unlock of the same key: one state, still open when the first locks.
    const other = await signIn(user);
    await unlock(other, key);
    expect((await t.client.delete(`/v1/api-keys/${key.id}/unlock`, { token: user.accessToken })).statusCode).toBe(204);
    await new Promise((r) => setTimeout(r, 300));
    expect(state(key)?.fresh).toBe(true);
    // The second one signs out: no unlock left, the state closes.
    expect((await t.client.post('/v1/auth/signout', undefined, { token: other.accessToken })).statusCode).toBeLessThan(300);
    await closed(key);
  }, 60_000);

  it('an unlock left unused past its idle time releases the state', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    await unlock(user, key);
    await warm(key);
    await closed(key, IDLE_MS * 4);
  }, 60_000);

  it('custody withdrawn or the key deleted: the state closes at once, a trading call’s idle hold included', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect((await t.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    await unlock(user, key);
    await warm(key);
    // A trading call holds the state for its own idle time (10 min) too.
    expect((await t.client.get(`/v1/trade/${key.id}/balance`, { token: user.accessToken })).statusCode).toBe(200);
    expect((await t.client.delete(`/v1/api-keys/${key.id}/server-custody`, { token: user.accessToken })).statusCode).toBeLessThan(300);
    await closed(key);

    const again = await addKey(user);
    await unlock(user, again);
    await warm(again);
    expect((await t.client.delete(`/v1/api-keys/${again.id}`, { token: user.accessToken })).statusCode).toBeLessThan(300);
    await closed(again);
  }, 60_000);
});
