import { createCipheriv, createDecipheriv, randomBytes, scrypt, type ScryptOptions } from 'node:crypto';

/**
 * Encryption of exchange credentials at rest (DESIGN §3): AES-256-GCM under a 32-byte key derived
 * with scrypt from a password only the user knows, with a random salt per sealed value. GCM's tag
 * doubles as the password check: a wrong password derives another key and the tag does not verify,
 * so nothing else about the password (no hash, no verifier) is stored.
 *
 * `aad` binds a sealed value to where it is stored (row id, owner...): moving a ciphertext to
 * another row makes it undecryptable even with the right password.
 */

export interface KdfParams {
  N: number;
  r: number;
  p: number;
}

/** N = 2^15, r = 8, p = 1: ~32 MiB and ~0.1 s per derivation (OWASP's scrypt floor is N = 2^17 for login hashes; this key guards one secret and is derived on every trading call). */
export const DEFAULT_KDF: KdfParams = { N: 2 ** 15, r: 8, p: 1 };

export interface Sealed {
  ciphertext: string;
  iv: string;
  tag: string;
  salt: string;
  kdf: KdfParams;
}

export class WrongPasswordError extends Error {
  constructor() {
    super('The password does not open this sealed value');
    this.name = 'WrongPasswordError';
  }
}

function deriveKey(password: string, salt: Buffer, kdf: KdfParams): Promise<Buffer> {
  const opts: ScryptOptions = { N: kdf.N, r: kdf.r, p: kdf.p, maxmem: 256 * kdf.N * kdf.r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, 32, opts, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function seal(plaintext: string, password: string, aad: string, kdf: KdfParams = DEFAULT_KDF): Promise<Sealed> {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const key = await deriveKey(password, salt, kdf);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  key.fill(0);
  return {
    ciphertext: ciphertext.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    salt: salt.toString('base64'),
    kdf,
  };
}

/** The plaintext, or WrongPasswordError when the tag does not verify (wrong password, wrong aad, tampering). */
export async function open(sealed: Sealed, password: string, aad: string): Promise<string> {
  const key = await deriveKey(password, Buffer.from(sealed.salt, 'base64'), sealed.kdf);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new WrongPasswordError();
  } finally {
    key.fill(0);
  }
}

/** `dbef…cc83`: enough to tell keys apart, too little to use. Short keys show less. */
export function maskKey(key: string): string {
  const k = key.trim();
  if (k.length >= 16) return `${k.slice(0, 4)}…${k.slice(-4)}`;
  if (k.length >= 8) return `${k.slice(0, 2)}…${k.slice(-2)}`;
  return '…';
}
