/** Test support for the BitMEX venue: a client over `app.inject` that signs exactly as BitMEX's docs say (bitmex.md §5). */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { simTestKey } from '../../testing';

export interface BitmexTestClient {
  apiKey: string;
  secret: string;
  /** `path` from /api/v1 with its query; `body` as JSON (a string is sent as is). */
  call<T = unknown>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, opts?: { expires?: number }): Promise<{ status: number; body: T }>;
}

export function bitmexClient(app: FastifyInstance, apiKey: string, opts: { /** Unused: secrets are minted, not derived. */ seed?: string; now: () => number; prefix?: string }): BitmexTestClient {
  // Minted by the simulator under test (random), the same for every client of this key there.
  const { secret } = simTestKey(app, apiKey, 'bitmex');
  const prefix = opts.prefix ?? '/sim/bitmex';
  return {
    apiKey,
    secret,
    async call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, o: { expires?: number } = {}) {
      const expires = String(o.expires ?? Math.floor(opts.now() / 1000) + 30);
      const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const full = `/api/v1${path}`;
      const signature = createHmac('sha256', secret).update(`${method}${full}${expires}${text}`).digest('hex');
      const res = await app.inject({
        method,
        url: `${prefix}${full}`,
        headers: { 'api-key': apiKey, 'api-expires': expires, 'api-signature': signature, 'content-type': 'application/json' },
        ...(text ? { payload: text } : {}),
      });
      return { status: res.statusCode, body: JSON.parse(res.body) as T };
    },
  };
}

/** The `authKeyExpires` frame as the docs build it. */
export function bitmexWsAuth(apiKey: string, secret: string, expiresS: number) {
  return { op: 'authKeyExpires', args: [apiKey, expiresS, createHmac('sha256', secret).update(`GET/realtime${expiresS}`).digest('hex')] };
}
