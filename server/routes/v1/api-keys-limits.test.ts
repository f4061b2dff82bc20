import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { SERVER_BUSY, scryptSlots } from '../../lib/semaphore';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

/**
 * Key-password guessing (issue "Hardening": 94 wrong passwords, 94 × 403; 64 at once slowed unrelated
 * requests from 2 ms to 70 ms). Wrong key passwords are limited per key and per user (429 with
 * Retry-After), and scrypt work is bounded process-wide (lib/semaphore.ts).
 */

const KEY_PASSWORD = 'key-password-1';

async function addKey(t: TestApp, who: SignedIn, name = 'limited key'): Promise<ApiKey> {
  const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: who.accessToken })).json<SimCredentials>();
  const res = await t.client.post('/v1/api-keys', { name, exchange: 'binance', network: 'TESTNET', ...creds, keyPassword: KEY_PASSWORD }, { token: who.accessToken });
  if (res.statusCode !== 201) throw new Error(`add key: ${res.statusCode} ${res.body}`);
  return res.json<ApiKey>();
}

const verify = (t: TestApp, who: SignedIn, keyId: string, password: string) =>
  t.client.post(`/v1/api-keys/${keyId}/verify`, {}, { token: who.accessToken, headers: { 'X-Key-Password': password } });

const count = (responses: LightMyRequestResponse[], status: number) => responses.filter((r) => r.statusCode === status).length;

describe.each(TEST_DRIVERS)('key-password limits on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
  });
  afterAll(() => t?.close());

  it('64 wrong passwords at once: 5 are tried (403), 59 answer 429 with Retry-After; at most 2 scrypts run at once', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(t, user);
    scryptSlots.resetStats();
    const burst = await Promise.all(Array.from({ length: 64 }, (_, i) => verify(t, user, key.id, `guess-${i}`)));
    expect(count(burst, 403)).toBe(5);
    expect(count(burst, 429)).toBe(59);
    for (const res of burst.filter((r) => r.statusCode === 403)) expect(res.json()).toEqual({ message: 'Wrong key password', fields: { keyPassword: 'Wrong key password' } });
    const limited = burst.find((r) => r.statusCode === 429) as LightMyRequestResponse;
    expect(limited.json()).toEqual({ message: 'Too many wrong key passwords for this key: try again in 15 minutes' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(14 * 60);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(scryptSlots.stats().maxActive).toBeLessThanOrEqual(2);

    // Locked for this key, even with the right password, until the window ends; other keys are not.
    expect((await verify(t, user, key.id, KEY_PASSWORD)).statusCode).toBe(429);
    const other = await addKey(t, user, 'other key');
    expect((await verify(t, user, other.id, KEY_PASSWORD)).statusCode).toBe(200);
  });

  it('a right password clears the key count: typos spread over time never lock the owner out', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(t, user);
    for (let i = 0; i < 4; i++) expect((await verify(t, user, key.id, `typo-${i}`)).statusCode).toBe(403);
    expect((await verify(t, user, key.id, KEY_PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await verify(t, user, key.id, `typo-again-${i}`)).statusCode).toBe(403);
    expect((await verify(t, user, key.id, 'one-too-many')).statusCode).toBe(429);
  });

  it('caps wrong passwords per user over all keys (20), with its own message; other users are not affected', async () => {
    const user = await t.signInAs('user');
    const keys = await Promise.all([1, 2, 3, 4, 5].map((n) => addKey(t, user, `key ${n}`)));
    for (const key of keys.slice(0, 4)) {
      const tries = await Promise.all(Array.from({ length: 5 }, (_, i) => verify(t, user, key.id, `wrong-${i}`)));
      expect(tries.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
    }
    const res = await verify(t, user, keys[4].id, 'wrong');
    expect(res.statusCode).toBe(429);
    expect(res.json().message).toMatch(/^Too many wrong key passwords on your account: try again in 1[45] minutes$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);

    const someoneElse = await t.signInAs('user');
    const theirs = await addKey(t, someoneElse);
    expect((await verify(t, someoneElse, theirs.id, 'wrong')).statusCode).toBe(403);
  });

  it('does not count what is not a guess: an unknown or foreign key is a 404', async () => {
    const user = await t.signInAs('user');
    const owner = await t.signInAs('user');
    const key = await addKey(t, owner);
    for (let i = 0; i < 8; i++) expect((await verify(t, user, key.id, `x-${i}`)).statusCode).toBe(404);
    expect((await verify(t, owner, key.id, KEY_PASSWORD)).statusCode).toBe(200);
  });

  it('an oversized X-Key-Password (10 kB) is a 400 naming the header, before any scrypt work, and not a guess', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(t, user);
    const huge = 'x'.repeat(10_000);
    scryptSlots.resetStats();
    for (let i = 0; i < 10; i++) {
      const res = i % 2 ? await verify(t, user, key.id, huge) : await t.client.get(`/v1/trade/${key.id}/balance`, { token: user.accessToken, headers: { 'X-Key-Password': huge } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Invalid x-key-password: A key password is at most 128 characters', fields: { 'x-key-password': 'A key password is at most 128 characters' } });
    }
    expect(scryptSlots.stats().maxActive).toBe(0);
    // Not counted: the right password still opens the key (5 wrong ones would have locked it for 15 minutes).
    expect((await verify(t, user, key.id, KEY_PASSWORD)).statusCode).toBe(200);
  });
});

// CPU-bound (scrypt), not database-bound: one driver is enough, and half the cost.
describe('bounded scrypt work (pglite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Limits out of the way, so every request reaches the scrypt slots.
    t = await createTestApp('pglite', { MARKET_DATA: 'sim', KEY_PASSWORD_MAX_PER_KEY: 10_000, KEY_PASSWORD_MAX_PER_USER: 10_000 });
  });
  afterAll(() => t?.close());

  it('64 guesses at once: at most 2 derivations run, the overflow answers 503 Server busy, an unrelated request stays fast', async () => {
    const user = await t.signInAs('user');
    const key = await addKey(t, user);
    const bystander = await t.signInAs('user');
    scryptSlots.resetStats();

    let burstDone = false;
    const burst = Promise.all(Array.from({ length: 64 }, (_, i) => verify(t, user, key.id, `guess-${i}`))).finally(() => (burstDone = true));
    // The burst is under way: both slots busy, derivations queued behind them.
    const end = Date.now() + 15_000; // only turns a hang into a clear failure
    while (!(scryptSlots.stats().active === 2 && scryptSlots.stats().queued > 0)) {
      if (burstDone || Date.now() > end) throw new Error(`the burst never filled the scrypt slots: ${JSON.stringify(scryptSlots.stats())}`);
      await new Promise((r) => setTimeout(r, 5));
    }
    // An unrelated request does not queue behind the derivations: answered while they still run.
    const list = await t.client.get('/v1/api-keys', { token: bystander.accessToken });
    const stillBusy = scryptSlots.stats();
    const responses = await burst;

    expect(list.statusCode).toBe(200);
    expect(stillBusy.active + stillBusy.queued, 'derivations still running when the list answered').toBeGreaterThan(0);

    expect(scryptSlots.stats().maxActive).toBe(2);
    const busy = responses.filter((r) => r.statusCode === 503);
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0].json()).toEqual({ message: SERVER_BUSY });
    expect(busy[0].headers['retry-after']).toBe('1');
    expect(count(responses, 403) + busy.length).toBe(64);
    expect(count(responses, 403)).toBeGreaterThanOrEqual(34); // 2 running + 32 waiting
  });
});
