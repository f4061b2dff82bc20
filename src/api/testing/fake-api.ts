import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse } from 'axios';
import { apiClient, http } from '../client';
import { FEATURE_FLAG_DEFAULTS } from '../contracts/feature-flags';
import { configureAppStream } from '../use-app-stream';
import type { User } from '../contracts/users';

/** What a fake route answers: a status and body, or a promise of one (never-settling = pending). */
export type FakeReply = { status: number; data?: unknown } | Promise<{ status: number; data?: unknown }>;
export type FakeRoute = (request: { body: unknown; headers: Record<string, string> }) => FakeReply;

export interface FakeCall {
  method: string;
  url: string;
  body: unknown;
  headers: Record<string, string>;
}

const simEndpoints = (id: string) => ({ rest: `/sim/${id}`, restTestnet: `/sim/${id}`, ws: `/sim/${id}`, wsTestnet: `/sim/${id}` });
const SIM_EXCHANGES = { binance: simEndpoints('binance'), bitmex: simEndpoints('bitmex'), bybit: simEndpoints('bybit'), okx: simEndpoints('okx') };

export const TEST_USER: User = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'trader@example.com',
  role: 'user',
  referralCode: 'TRADER1',
  referrerId: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};
export const TEST_ADMIN: User = { ...TEST_USER, id: '00000000-0000-4000-8000-000000000002', email: 'admin@example.com', role: 'admin' };

/**
 * Puts a fake transport under the app's real axios client (interceptors, token refresh and XSRF
 * all run), answering `METHOD /path` keys. Unknown routes answer 404 like the server does.
 */
export function installFakeApi(routes: Record<string, FakeRoute> = {}) {
  const calls: FakeCall[] = [];
  const table: Record<string, FakeRoute> = {
    'GET /v1/config': () => ({
      status: 200,
      data: { productName: 'Crypto Terminal', marketData: 'sim', version: 'test', sentryDsn: null, mail: false, custody: true, exchanges: SIM_EXCHANGES },
    }),
    'GET /v1/feature-flags/json': () => ({ status: 200, data: FEATURE_FLAG_DEFAULTS }),
    'GET /v1/maintenance': () => ({ status: 200, data: { message: null } }),
    'GET /v1/users/me': () => ({ status: 200, data: TEST_USER }),
    'GET /v1/notifications': () => ({ status: 200, data: { items: [], unread: 0, now: new Date().toISOString() } }),
    ...routes,
  };
  const adapter: AxiosAdapter = async (config) => {
    const method = (config.method ?? 'get').toUpperCase();
    const url = config.url ?? '';
    const headers = AxiosHeaders.from(config.headers).toJSON() as Record<string, string>;
    const body: unknown = typeof config.data === 'string' ? JSON.parse(config.data) : config.data;
    calls.push({ method, url, body, headers });
    const route = table[`${method} ${url}`];
    const reply = route ? await route({ body, headers }) : { status: 404, data: { message: `Not found: ${method} ${url}` } };
    const response: AxiosResponse = { data: reply.data, status: reply.status, statusText: '', headers: {}, config };
    if (reply.status >= 400) throw new AxiosError(`Request failed with status code ${reply.status}`, AxiosError.ERR_BAD_REQUEST, config, null, response);
    return response;
  };
  const previous = http.defaults.adapter;
  http.defaults.adapter = adapter;
  // No `/v1/stream` unless a test gives one (`configureAppStream({ WebSocket: FakeAppSocket })`): the app polls.
  configureAppStream(null);
  return {
    calls,
    /** Replaces or adds a route while the test runs. */
    route(key: string, handler: FakeRoute) {
      table[key] = handler;
    },
    restore() {
      http.defaults.adapter = previous;
      configureAppStream(null);
      apiClient.clearTokens('signout');
      globalThis.localStorage?.clear();
    },
  };
}

/** Signs the app's client in (as if a sign-in had just happened). */
export function signInForTest(): void {
  apiClient.setTokens({ accessToken: 'test-access', refreshToken: 'test-refresh' });
}
