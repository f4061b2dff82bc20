import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { scryptSlots } from './semaphore';

// scrypt parameters (DESIGN §5); stored with every hash so they can be raised later without a migration.
const N = 16384;
const R = 8;
const P = 1;
const KEY_LEN = 64;

/** Through the process-wide scrypt slots (lib/semaphore.ts): a sign-in flood waits or gets 503, the rest of the API stays fast. */
function scryptAsync(password: string, salt: Buffer, keyLen: number, opts: ScryptOptions): Promise<Buffer> {
  return scryptSlots.run(
    () =>
      new Promise((resolve, reject) => {
        scrypt(password.normalize('NFKC'), salt, keyLen, opts, (err, key) => (err ? reject(err) : resolve(key)));
      }),
  );
}

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LEN, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [n, r, p] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  const key = await scryptAsync(password, salt, expected.length, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
  return timingSafeEqual(key, expected);
}

/**
 * A hash of a random password: verifying against it when an email is unknown makes a failed
 * sign-in take as long as a wrong password, so timing does not tell which emails exist.
 */
let dummy: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  // A refused first try (503 while the scrypt slots are full) must not stay cached for good.
  dummy ??= hashPassword(randomBytes(16).toString('hex')).catch((err: unknown) => {
    dummy = undefined;
    throw err;
  });
  return dummy;
}
