import { describe, expect, it } from 'vitest';
import { RetryLaterError } from '../lib/retry-later';
import { WrongPasswordError } from '../lib/secret-box';
import { KeyPasswordLimiter } from './key-password-limit';
import { MemoryCounter } from './rate-limit-store';

const LIMITS = { perKey: 5, perUser: 20, windowMs: 15 * 60_000 };
const RIGHT = 'right-password';

/** A stand-in for `open`: resolves for RIGHT, throws WrongPasswordError otherwise, after `ms`; counts its runs. */
function fakeKey(ms = 5) {
  const calls = { count: 0 };
  const open = (password: string) => async () => {
    calls.count++;
    await new Promise((r) => setTimeout(r, ms));
    if (password !== RIGHT) throw new WrongPasswordError();
    return 'plaintext';
  };
  return { calls, open };
}

const statusOf = (p: Promise<unknown>) =>
  p.then(
    () => 200,
    (e: unknown) => (e instanceof WrongPasswordError ? 403 : e instanceof RetryLaterError ? e.status : 500),
  );

describe('KeyPasswordLimiter', () => {
  it('lets 5 of 64 simultaneous wrong passwords for one key be tried, refusing the rest before any work with 429', async () => {
    const limiter = new KeyPasswordLimiter(new MemoryCounter(), LIMITS);
    const key = fakeKey(20);
    const who = { userId: 'u1', keyId: 'k1' };
    const results = await Promise.all(Array.from({ length: 64 }, (_, i) => statusOf(limiter.attempt(who, `guess-${i}`, key.open(`guess-${i}`)))));
    expect(results.filter((s) => s === 403)).toHaveLength(5);
    expect(results.filter((s) => s === 429)).toHaveLength(59);
    expect(key.calls.count).toBe(5);

    const refused = await limiter.attempt(who, RIGHT, key.open(RIGHT)).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, message: 'Too many wrong key passwords for this key: try again in 15 minutes' });
    expect((refused as RetryLaterError).retryAfterSeconds).toBeGreaterThan(14 * 60);
  });

  it('clears the key count on a right password, so typos spread over time never lock the owner out', async () => {
    const limiter = new KeyPasswordLimiter(new MemoryCounter(), LIMITS);
    const key = fakeKey();
    const who = { userId: 'u1', keyId: 'k1' };
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 4; i++) expect(await statusOf(limiter.attempt(who, `typo-${i}`, key.open(`typo-${i}`)))).toBe(403);
      expect(await statusOf(limiter.attempt(who, RIGHT, key.open(RIGHT)))).toBe(200);
    }
  });

  it('caps wrong passwords per user over all keys, and right passwords do not count towards it', async () => {
    const limiter = new KeyPasswordLimiter(new MemoryCounter(), LIMITS);
    const key = fakeKey(1);
    for (let i = 0; i < 30; i++) expect(await statusOf(limiter.attempt({ userId: 'u1', keyId: 'k0' }, RIGHT, key.open(RIGHT)))).toBe(200);
    for (let k = 0; k < 5; k++) {
      for (let i = 0; i < 4; i++) expect(await statusOf(limiter.attempt({ userId: 'u1', keyId: `k${k + 1}` }, `g${i}`, key.open(`g${i}`)))).toBe(403);
    }
    const refused = await limiter.attempt({ userId: 'u1', keyId: 'k9' }, 'g', key.open('g')).catch((e: unknown) => e);
    expect(refused).toMatchObject({ status: 429, message: expect.stringMatching(/^Too many wrong key passwords on your account: try again in 1[45] minutes$/) });
    // Another user is not affected.
    expect(await statusOf(limiter.attempt({ userId: 'u2', keyId: 'k9' }, 'g', key.open('g')))).toBe(403);
  });

  it('counts simultaneous attempts with the same password as one guess and derives once', async () => {
    const limiter = new KeyPasswordLimiter(new MemoryCounter(), LIMITS);
    const key = fakeKey(20);
    const who = { userId: 'u1', keyId: 'k1' };
    // A page loading balance, positions and orders at once with the right password.
    const right = await Promise.all(Array.from({ length: 8 }, () => statusOf(limiter.attempt(who, RIGHT, key.open(RIGHT)))));
    expect(right).toEqual(Array(8).fill(200));
    expect(key.calls.count).toBe(1);
    const wrong = await Promise.all(Array.from({ length: 8 }, () => statusOf(limiter.attempt(who, 'same-typo', key.open('same-typo')))));
    expect(wrong).toEqual(Array(8).fill(403));
    for (let i = 0; i < 4; i++) expect(await statusOf(limiter.attempt(who, `g${i}`, key.open(`g${i}`)))).toBe(403);
    expect(await statusOf(limiter.attempt(who, 'g5', key.open('g5')))).toBe(429);
  });

  it('gives the hit back when the attempt did not test the password (busy, broken key)', async () => {
    const limiter = new KeyPasswordLimiter(new MemoryCounter(), { ...LIMITS, perKey: 1 });
    const who = { userId: 'u1', keyId: 'k1' };
    for (let i = 0; i < 3; i++) {
      await expect(limiter.attempt(who, `p${i}`, () => Promise.reject(new RetryLaterError(503, 'Server busy', 1)))).rejects.toMatchObject({ status: 503 });
    }
    const key = fakeKey(1);
    expect(await statusOf(limiter.attempt(who, 'wrong', key.open('wrong')))).toBe(403);
    expect(await statusOf(limiter.attempt(who, 'wrong-2', key.open('wrong-2')))).toBe(429);
  });
});
