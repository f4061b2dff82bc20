import { createHmac, randomBytes } from 'node:crypto';
import { humanDuration, RetryLaterError } from '../lib/retry-later';
import { WrongPasswordError } from '../lib/secret-box';
import type { WindowCounter } from './rate-limit-store';

export interface KeyPasswordLimits {
  /** Wrong key passwords per key per window (a right one clears the key's count). */
  perKey: number;
  /** Wrong key passwords per user per window, over all of the user's keys. */
  perUser: number;
  windowMs: number;
}

/** Names in-flight attempts without keeping a password-derived value past this process. */
const FINGERPRINT_KEY = randomBytes(32);

/**
 * How many key passwords may be tried, and how they are counted (DESIGN §5). Every call that opens
 * a stored key with a key password goes through `attempt` (services/api-keys.ts `openApiKey` takes
 * the limiter, so no caller can skip it): the verify route today, the trading routes and the account
 * stream later.
 *
 * A key password guards one exchange key (scrypt, ~80 ms a guess): per key, a few wrong passwords
 * are typing mistakes, more are guessing; per user, the cap stops a stolen session from spreading
 * its guesses over many keys.
 *
 * - An attempt is counted *before* the scrypt work, so 64 guesses sent at once cannot all slip in
 *   before the first one fails; one that does not test the password (refused, server busy, key
 *   unreadable) is given back.
 * - A right password clears the key's count and gives back its user hit, so a busy trader's right
 *   passwords never add up to a lockout.
 * - Attempts on one key with the same password at the same moment (a page loading balance,
 *   positions and orders together) share one count and one derivation: they are one guess.
 */
export class KeyPasswordLimiter {
  private readonly inFlight = new Map<string, Promise<unknown>>();

  constructor(
    private readonly counter: WindowCounter,
    readonly limits: KeyPasswordLimits,
  ) {}

  /**
   * Runs `open` (which throws WrongPasswordError for a wrong password) under the limits: 429 with
   * Retry-After when over them. Concurrent callers with the same key and password get the same
   * result, so `open` should resolve to something nobody mutates (the plaintext string).
   */
  attempt<T>(who: { userId: string; keyId: string }, password: string, open: () => Promise<T>): Promise<T> {
    const id = createHmac('sha256', FINGERPRINT_KEY).update(`${who.keyId}\0${password}`).digest('base64');
    const running = this.inFlight.get(id) as Promise<T> | undefined;
    if (running) return running;
    const p = this.counted(who, open).finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, p);
    return p;
  }

  private async counted<T>(who: { userId: string; keyId: string }, open: () => Promise<T>): Promise<T> {
    const keyKey = `key-password:key:${who.keyId}`;
    const userKey = `key-password:user:${who.userId}`;
    const { windowMs, perKey, perUser } = this.limits;

    const forKey = await this.counter.incr(keyKey, windowMs);
    if (forKey.count > perKey) {
      await this.counter.decr(keyKey);
      throw tooMany('for this key', forKey.ttlMs);
    }
    const forUser = await this.counter.incr(userKey, windowMs);
    if (forUser.count > perUser) {
      await Promise.all([this.counter.decr(userKey), this.counter.decr(keyKey)]);
      throw tooMany('on your account', forUser.ttlMs);
    }

    let result: T;
    try {
      result = await open();
    } catch (err) {
      // A wrong password keeps both hits; anything else did not test the password.
      if (!(err instanceof WrongPasswordError)) await Promise.all([this.counter.decr(userKey), this.counter.decr(keyKey)]);
      throw err;
    }
    await Promise.all([this.counter.reset(keyKey), this.counter.decr(userKey)]);
    return result;
  }
}

function tooMany(where: string, ttlMs: number): RetryLaterError {
  return new RetryLaterError(429, `Too many wrong key passwords ${where}: try again in ${humanDuration(ttlMs)}`, Math.max(1, Math.ceil(ttlMs / 1000)));
}
