/** Test support for the Bybit venue: a client over `app.inject` that signs exactly as Bybit's docs say (bybit.md §5). */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { simTestKey } from '../../testing';

export interface BybitEnvelope<T = Record<string, unknown>> {
  retCode: number;
  retMsg: string;
  result: T;
  retExtInfo: Record<string, unknown>;
  time: number;
}

export interface BybitCall {
  status: number;
  body: BybitEnvelope<unknown>;
  json<T = Record<string, unknown>>(): BybitEnvelope<T>;
}

export interface BybitTestClient {
  apiKey: string;
  secret: string;
  /**
   * GET: `params` as the query string in the given order; POST: `body` as JSON (a string is sent as is).
   * Signed with X-BAPI-* headers over timestamp + key + recvWindow + (query | body).
   */
  call(method: 'GET' | 'POST', path: string, params?: Record<string, unknown> | string, opts?: { timestamp?: number; recvWindow?: string; sign?: (payload: string) => string }): Promise<BybitCall>;
}

export function bybitClient(app: FastifyInstance, apiKey: string, opts: { /** Unused: secrets are minted, not derived. */ seed?: string; now: () => number; prefix?: string }): BybitTestClient {
  // Minted by the simulator under test (random), the same for every client of this key there.
  const { secret } = simTestKey(app, apiKey, 'bybit');
  const prefix = opts.prefix ?? '/sim/bybit';
  return {
    apiKey,
    secret,
    async call(method, path, params = {}, o = {}) {
      const timestamp = String(o.timestamp ?? opts.now());
      const recvWindow = o.recvWindow ?? '5000';
      const payload =
        typeof params === 'string'
          ? params
          : method === 'GET'
            ? Object.entries(params)
                .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
                .join('&')
            : JSON.stringify(params);
      const sign = o.sign ? o.sign(payload) : createHmac('sha256', secret).update(`${timestamp}${apiKey}${recvWindow}${payload}`).digest('hex');
      const headers = { 'x-bapi-api-key': apiKey, 'x-bapi-timestamp': timestamp, 'x-bapi-recv-window': recvWindow, 'x-bapi-sign': sign, 'content-type': 'application/json' };
      const res =
        method === 'GET'
          ? await app.inject({ method, url: `${prefix}${path}${payload ? `?${payload}` : ''}`, headers })
          : await app.inject({ method, url: `${prefix}${path}`, payload, headers });
      const body = JSON.parse(res.body) as BybitEnvelope<unknown>;
      return { status: res.statusCode, body, json: <T>() => body as BybitEnvelope<T> };
    },
  };
}

/** The private WebSocket auth frame exactly as the docs build it: HMAC of "GET/realtime" + expires (ms). */
export function bybitWsAuth(apiKey: string, secret: string, expires: number): { op: 'auth'; args: [string, number, string] } {
  return { op: 'auth', args: [apiKey, expires, createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex')] };
}
