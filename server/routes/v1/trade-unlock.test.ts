/**
 * The unlock cache on the trading path (issue 25 §1, DESIGN §3.2 "Unlocking"), against the paper
 * exchange in-process: a key unlocked once trades without deriving its password again, for that
 * sign-in only, until it is locked or left idle; a wrong password is still a counted guess.
 * CPU-bound (scrypt) rather than database-bound: PGlite is enough (the events between instances,
 * on both drivers, are in services/trading/unlock-cache.instances.test.ts).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { BracketResult } from '../../../src/api/contracts/trading';
import { scryptSlots } from '../../lib/semaphore';
import { NOT_UNLOCKED } from '../../services/trading/unlock-cache';
import { manualClock } from '../../sim/testing';
import { createTestApp, type SignedIn, type TestApp } from '../../test/helper';
import { is, StreamClient } from '../../test/stream-client';

const KEY_PASSWORD = 'key-password-1';
const MIN = 60_000;
const NOT_OPEN = { message: 'Wrong key password', fields: { keyPassword: NOT_UNLOCKED } };

describe('unlocked keys on /v1/trade (pglite, simulator)', () => {
  let t: TestApp;
  const market = manualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
  let now = Date.UTC(2026, 5, 1, 12, 0, 0);
  const scrypt = vi.spyOn(scryptSlots, 'run');

  beforeAll(async () => {
    t = await createTestApp('pglite', { MARKET_DATA: 'sim' }, { market: { sim: { now: market.now, seed: 'trade-unlock' } }, apiKeys: { now: () => now } });
  });
  afterAll(() => t?.close());
  afterEach(() => scrypt.mockClear());

  const addKey = async (who: SignedIn): Promise<ApiKey> => {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: who.accessToken });
    const res = await t.client.post('/v1/api-keys', { name: 'unlock', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    scrypt.mockClear();
    return res.json<ApiKey>();
  };
  const unlock = (who: SignedIn, key: ApiKey, body?: object, password = KEY_PASSWORD) =>
    t.client.post(`/v1/api-keys/${key.id}/unlock`, body, { token: who.accessToken, headers: { 'x-key-password': password } });
  /** A trading call, with `X-Key-Password` only when `password` is given. */
  const balance = (who: SignedIn, key: ApiKey, password?: string) =>
    t.client.get(`/v1/trade/${key.id}/balance`, { token: who.accessToken, ...(password === undefined ? {} : { headers: { 'x-key-password': password } }) });
  const anotherSignIn = async (who: SignedIn): Promise<SignedIn> => {
    const res = await t.client.post('/v1/auth/signin', { email: who.email, password: who.password });
    return { ...who, ...res.json<{ accessToken: string; refreshToken: string }>() };
  };

  it('after an unlock, trading calls with or without the password do not derive it again', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect((await unlock(user, key, { remember: true })).statusCode).toBe(204);
    expect(scrypt).toHaveBeenCalledTimes(1);
    for (const password of [undefined, KEY_PASSWORD, undefined]) {
      const res = await balance(user, key, password);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(scrypt).toHaveBeenCalledTimes(1);
  });

  it('a trading call with the right password unlocks the key for the calls after it; without either, 403 naming keyPassword', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    const locked = await balance(user, key);
    expect(locked.statusCode).toBe(403);
    expect(locked.json()).toEqual(NOT_OPEN);
    expect(scrypt).not.toHaveBeenCalled();
    expect((await balance(user, key, KEY_PASSWORD)).statusCode).toBe(200);
    expect((await balance(user, key)).statusCode).toBe(200);
    expect(scrypt).toHaveBeenCalledTimes(1);
  });

  it('a missing password is not a guess: many calls without one leave the right password working', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    for (let i = 0; i < 8; i++) expect((await balance(user, key)).statusCode).toBe(403);
    expect((await unlock(user, key)).statusCode).toBe(204);
  });

  it('a wrong password with a live unlock is still 403 and counted: the sixth is 429, the unlock itself still trades', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect((await unlock(user, key)).statusCode).toBe(204);
    for (let i = 0; i < 5; i++) {
      const res = await balance(user, key, `wrong-password-${i}`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: 'Wrong key password' });
    }
    expect(scrypt).toHaveBeenCalledTimes(6);
    expect((await balance(user, key, 'wrong-password-x')).statusCode).toBe(429);
    expect((await balance(user, key)).statusCode).toBe(200);
  });

  it('another sign-in of the same user does not get the unlock', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect((await unlock(user, key)).statusCode).toBe(204);
    const elsewhere = await anotherSignIn(user);
    expect((await balance(elsewhere, key)).statusCode).toBe(403);
    expect((await balance(user, key)).statusCode).toBe(200);
  });

  it('ends after 30 minutes unused; each call restarts that clock; its password unlocks it again', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect((await unlock(user, key)).statusCode).toBe(204);
    now += 25 * MIN;
    expect((await balance(user, key)).statusCode).toBe(200);
    now += 25 * MIN;
    expect((await balance(user, key)).statusCode).toBe(200);
    now += 31 * MIN;
    expect((await balance(user, key)).statusCode).toBe(403);
    expect((await balance(user, key, KEY_PASSWORD)).statusCode).toBe(200);
    expect(scrypt).toHaveBeenCalledTimes(2);
  });

  it('lock (DELETE …/unlock) ends it for this sign-in; another user’s key is a 404', async () => {
    const [user, other] = [await t.signInAs('user'), await t.signInAs('user')];
    const key = await addKey(user);
    const u = await unlock(user, key);
    expect(u.statusCode, u.body).toBe(204);
    expect((await t.client.delete(`/v1/api-keys/${key.id}/unlock`, { token: other.accessToken })).statusCode).toBe(404);
    expect((await balance(user, key)).statusCode).toBe(200);
    expect((await t.client.delete(`/v1/api-keys/${key.id}/unlock`, { token: user.accessToken })).statusCode).toBe(204);
    expect((await balance(user, key)).statusCode).toBe(403);
  });

  it('an unlocked key places a bracket (its credentials sealed for the guard) and opens its account stream without deriving', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(user);
    expect((await t.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    expect((await unlock(user, key)).statusCode).toBe(204);
    const ticker = await t.client.get('/sim/binance/fapi/v1/ticker/24hr', { query: { symbol: 'BTCUSDT' } });
    const last = Number(ticker.json<{ lastPrice: string }>().lastPrice);
    const res = await t.client.post(
      `/v1/trade/${key.id}/brackets`,
      { symbol: 'BTCUSDT', side: 'BUY', qty: '0.010', entry: { type: 'MARKET' }, stopLoss: { triggerPrice: (Math.floor(last * 8) / 10).toFixed(1) }, takeProfits: [{ price: (Math.ceil(last * 12) / 10).toFixed(1), qtyPercent: 100 }] },
      { token: user.accessToken },
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<BracketResult>().orders.map((o) => o.role)).toEqual(['entry', 'stop-loss', 'take-profit']);

    const s = new StreamClient(await t.app.injectWS('/v1/trade/stream'));
    s.send({ op: 'auth', accessToken: user.accessToken });
    await s.next(is('authenticated'));
    s.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
    await s.next(is('snapshot'));
    s.socket.close();
    expect(scrypt).toHaveBeenCalledTimes(1);
  });
});
