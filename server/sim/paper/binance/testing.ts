/** Test support for the Binance venue: a signing client over `app.inject`, exactly as Binance's docs sign. */
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { simTestKey } from '../../testing';

export interface BinanceCall {
  status: number;
  body: unknown;
  headers: Record<string, string | string[] | number | undefined>;
  json<T = Record<string, unknown>>(): T;
}

export interface BinanceTestClient {
  apiKey: string;
  /** Signs `params` in the given order (+ timestamp unless given), query for GET/DELETE, form body otherwise. */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, params?: Record<string, string>, opts?: { sign?: (payload: string) => string }): Promise<BinanceCall>;
  /** API-key-only endpoints (listenKey). */
  keyOnly(method: 'POST' | 'PUT' | 'DELETE', path: string): Promise<BinanceCall>;
}

export function binanceClient(app: FastifyInstance, apiKey: string, opts: { /** Unused: secrets are minted, not derived. */ seed?: string; now: () => number; prefix?: string }): BinanceTestClient {
  // Minted by the simulator under test (random), the same for every client of this key there.
  const { secret } = simTestKey(app, apiKey, 'binance');
  const prefix = opts.prefix ?? '/sim/binance';
  const wrap = (res: { statusCode: number; body: string; headers: BinanceCall['headers'] }): BinanceCall => {
    const body = res.body ? (JSON.parse(res.body) as unknown) : null;
    return { status: res.statusCode, body, headers: res.headers, json: <T>() => body as T };
  };
  return {
    apiKey,
    async call(method, path, params = {}, o = {}) {
      const all = 'timestamp' in params ? params : { ...params, timestamp: String(opts.now()) };
      const payload = Object.entries(all)
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('&');
      const signature = o.sign ? o.sign(payload) : createHmac('sha256', secret).update(payload).digest('hex');
      const signedText = `${payload}&signature=${signature}`;
      const headers = { 'x-mbx-apikey': apiKey };
      const res =
        method === 'GET' || method === 'DELETE'
          ? await app.inject({ method, url: `${prefix}${path}?${signedText}`, headers })
          : await app.inject({ method, url: `${prefix}${path}`, payload: signedText, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
      return wrap(res);
    },
    async keyOnly(method, path) {
      return wrap(await app.inject({ method, url: `${prefix}${path}`, headers: { 'x-mbx-apikey': apiKey } }));
    },
  };
}
