import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Sealing under the server's own key (DESIGN §3.6): what a server-side job needs to act with no
 * user there — a key's exchange credentials while a managed bracket runs. AES-256-GCM under a key
 * derived with HKDF-SHA256 from SERVER_SECRET (already high-entropy: no slow KDF needed), a random
 * IV per value, `aad` binding the value to its row and owner. Every instance sharing the database
 * must share SERVER_SECRET; a value sealed under another secret does not open (`open` throws).
 */

export interface ServerSealed {
  ciphertext: string;
  iv: string;
  tag: string;
}

const INFO = 'crypto-terminal:server-seal:v1';

function keyOf(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), INFO, 32));
}

export function serverSeal(plaintext: string, secret: string, aad: string): ServerSealed {
  const key = keyOf(secret);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  key.fill(0);
  return { ciphertext: ciphertext.toString('base64'), iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64') };
}

export class ServerSealError extends Error {
  constructor() {
    super('The sealed value does not open with this server secret (another SERVER_SECRET, another row, or tampered)');
    this.name = 'ServerSealError';
  }
}

export function serverOpen(sealed: ServerSealed, secret: string, aad: string): string {
  const key = keyOf(secret);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64'));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
  try {
    return Buffer.concat([decipher.update(Buffer.from(sealed.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new ServerSealError();
  } finally {
    key.fill(0);
  }
}
