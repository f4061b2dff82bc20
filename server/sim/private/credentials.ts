import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The simulator's API keys are named `sim-<name>`; their secrets are random, minted and stored sealed
 * by the key ring (keyring.ts) — nothing about a secret follows from the key's name.
 * What a key may do is read from its name: `withdraw` in it → the withdrawal permission (so the UI's
 * warning can be seen), `readonly` → no trading.
 */
export const SIM_KEY_PATTERN = /^sim-[A-Za-z0-9_-]{1,60}$/;

export function isSimKey(apiKey: string): boolean {
  return SIM_KEY_PATTERN.test(apiKey);
}

export interface SimKeyGrants {
  trade: boolean;
  withdraw: boolean;
}

export function simKeyGrants(apiKey: string): SimKeyGrants {
  const k = apiKey.toLowerCase();
  return { trade: !k.includes('readonly'), withdraw: k.includes('withdraw') };
}

/** A stable positive account number for a key (exchanges answer with a user / account id). */
export function simAccountId(seed: string, apiKey: string): number {
  return 100_000 + (createHmac('sha256', seed).update(`uid:${apiKey}`).digest().readUInt32BE(0) % 900_000);
}

/** Constant-time comparison of an expected and a presented signature (same encoding). */
export function sameSignature(expected: string, presented: string | undefined, caseInsensitive = false): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(caseInsensitive ? expected.toLowerCase() : expected);
  const b = Buffer.from(caseInsensitive ? presented.toLowerCase() : presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function hmacHex(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('hex');
}

export function hmacBase64(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64');
}

/** Path and raw query string of a request exactly as sent (the signature covers those bytes). */
export function rawTarget(url: string): { path: string; query: string } {
  const i = url.indexOf('?');
  return i < 0 ? { path: url, query: '' } : { path: url.slice(0, i), query: url.slice(i + 1) };
}

/** A header's single value. */
export function header(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}
