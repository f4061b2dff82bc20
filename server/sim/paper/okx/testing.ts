/** Test support for the OKX venue: a client over `app.inject` that signs exactly as OKX's docs say (okx.md §5). */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { simTestKey } from '../../testing';

export interface OkxBody<T = Record<string, unknown>> {
  code: string;
  msg: string;
  data: T[];
}

export interface OkxTestClient {
  apiKey: string;
  secret: string;
  passphrase: string;
  /** GET: `query` as given; POST: the JSON body (a string is sent as is). `demo` adds x-simulated-trading: 1. */
  call<T = Record<string, unknown>>(method: 'GET' | 'POST', path: string, body?: unknown, opts?: { demo?: boolean; timestamp?: string }): Promise<{ status: number; body: OkxBody<T> }>;
}

export function okxClient(app: FastifyInstance, apiKey: string, opts: { /** Unused: secrets are minted, not derived. */ seed?: string; now: () => number; prefix?: string }): OkxTestClient {
  // Minted by the simulator under test (random), the same for every client of this key there.
  const { secret, passphrase } = simTestKey(app, apiKey, 'okx');
  const prefix = opts.prefix ?? '/sim/okx';
  return {
    apiKey,
    secret,
    passphrase,
    async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, o: { demo?: boolean; timestamp?: string } = {}) {
      const timestamp = o.timestamp ?? new Date(opts.now()).toISOString();
      const text = method === 'GET' || body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
      const sign = createHmac('sha256', secret).update(`${timestamp}${method}${path}${text}`).digest('base64');
      const headers: Record<string, string> = {
        'OK-ACCESS-KEY': apiKey,
        'OK-ACCESS-SIGN': sign,
        'OK-ACCESS-TIMESTAMP': timestamp,
        'OK-ACCESS-PASSPHRASE': passphrase,
        'content-type': 'application/json',
        ...(o.demo ? { 'x-simulated-trading': '1' } : {}),
      };
      const res = await app.inject({ method, url: `${prefix}${path}`, headers, ...(text ? { payload: text } : {}) });
      return { status: res.statusCode, body: JSON.parse(res.body) as OkxBody<T> };
    },
  };
}

/** The private WebSocket login frame as the docs build it: Base64 HMAC of timestamp (s) + "GET/users/self/verify". */
export function okxWsLogin(c: Pick<OkxTestClient, 'apiKey' | 'secret' | 'passphrase'>, nowMs: number) {
  const timestamp = String(Math.floor(nowMs / 1000));
  const sign = createHmac('sha256', c.secret).update(`${timestamp}GET/users/self/verify`).digest('base64');
  return { op: 'login', args: [{ apiKey: c.apiKey, passphrase: c.passphrase, timestamp, sign }] };
}
