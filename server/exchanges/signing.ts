import { createHmac } from 'node:crypto';

/**
 * What every exchange's signature is made of (DESIGN §3): HMAC-SHA256 with the key's secret over a
 * plaintext each exchange composes its own way, printed as hex or Base64. `<exchange>/account.ts` holds
 * the composition (`Signing`); the REST `sign` hooks and the private-stream logins use it, and
 * registry.test.ts reproduces every signing vector of `tests/fixtures/exchanges/<exchange>/signing-vectors.json`
 * through it.
 */
export type SignatureEncoding = 'hex' | 'base64';

export const hmacSha256 = (secret: string, plaintext: string, encoding: SignatureEncoding): string => createHmac('sha256', secret).update(plaintext).digest(encoding);

/** The parts of a signed REST call as sent, as text (the names of the exchanges' documentation vary). */
export interface SigningParts {
  method: string;
  /** The path with `?query` exactly as sent. */
  path: string;
  query: string;
  body: string;
  /** The time the signature carries, as sent: ms (Binance, Bybit), ISO-8601 (OKX), expiry in seconds (BitMEX). */
  timestamp: string;
  apiKey: string;
  recvWindow: string;
}

export interface Signing {
  /** The text a REST call's signature covers. */
  plaintext(parts: SigningParts): string;
  encoding: SignatureEncoding;
  /** The private stream's login signature: the path it signs and its plaintext for a time as sent; null without one (Binance's listenKey). */
  stream: { path: string; plaintext(timestamp: string): string } | null;
}

/** A signature of `signing` for `plaintext` with `secret`. */
export const signWith = (signing: Pick<Signing, 'encoding'>, secret: string, plaintext: string): string => hmacSha256(secret, plaintext, signing.encoding);

/** The private stream's login signature of `signing` for a time as sent (expires, seconds). */
export function streamSignature(signing: Signing, secret: string, timestamp: string): string {
  if (!signing.stream) throw new Error('this exchange signs no stream login');
  return signWith(signing, secret, signing.stream.plaintext(timestamp));
}

/**
 * One entry of `tests/fixtures/exchanges/<exchange>/signing-vectors.json` (official documentation examples
 * and derived ones): the call's parts as the file names them, the secret when it is known, the plaintext
 * and the signature expected.
 */
export interface SigningVector {
  id: string;
  secret: string | null;
  apiKey?: string;
  method: string | null;
  path: string | null;
  pathWithQuery?: string;
  requestPath?: string;
  query: string | null;
  body: string | null;
  timestamp?: string | number;
  expires?: number;
  recvWindow?: string | number | null;
  signedPayload?: string;
  expectedSignature: string;
  encoding: SignatureEncoding;
}

/** A vector anyone can reproduce: its secret and plaintext are published (or derived). */
export const reproducible = (v: SigningVector): v is SigningVector & { secret: string; signedPayload: string } => !!v.secret && !!v.signedPayload;
