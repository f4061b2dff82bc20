import { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { REFRESH_TOKEN_KEY, createApiClient, type AuthChange, type AuthChannel, type TokenStorage } from './client';

type Reply = { status: number; data?: unknown };
type Handler = (config: InternalAxiosRequestConfig) => Reply | Promise<Reply>;

/** A transport that records every request and answers through `handler`, like axios' own adapters do. */
function fakeAdapter(handler: Handler) {
  const calls: { method: string; url: string; headers: Record<string, string>; data: unknown }[] = [];
  const adapter: AxiosAdapter = async (config) => {
    const headers = AxiosHeaders.from(config.headers).toJSON() as Record<string, string>;
    calls.push({ method: (config.method ?? 'get').toUpperCase(), url: config.url ?? '', headers, data: config.data });
    const reply = await handler(config);
    const response: AxiosResponse = { data: reply.data, status: reply.status, statusText: String(reply.status), headers: {}, config };
    if (reply.status >= 400) {
      throw new AxiosError(`Request failed with status code ${reply.status}`, AxiosError.ERR_BAD_REQUEST, config, null, response);
    }
    return response;
  };
  return { adapter, calls };
}

function memoryStorage(initial: Record<string, string> = {}): TokenStorage & { map: Map<string, string> } {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, v),
    removeItem: (k) => void map.delete(k),
  };
}

/** BroadcastChannel stand-in: every channel on one bus receives what the others post. */
function channelBus() {
  const members: { listeners: ((e: MessageEvent) => void)[] }[] = [];
  const posted: unknown[] = [];
  const create = (): AuthChannel => {
    const me = { listeners: [] as ((e: MessageEvent) => void)[] };
    members.push(me);
    return {
      postMessage(message) {
        posted.push(message);
        for (const other of members) if (other !== me) for (const l of other.listeners) l({ data: structuredClone(message) } as MessageEvent);
      },
      addEventListener: (_type, listener) => void me.listeners.push(listener),
      close() {},
    };
  };
  return { create, posted };
}

const bearer = (call: { headers: Record<string, string> }) => call.headers.Authorization;
const invalidToken: Reply = { status: 401, data: { message: 'Invalid access token' } };

/** A server whose valid access token is `access-N` after N refreshes; refresh rotates `refresh-N`. */
function tokenServer(opts: { refreshFails?: boolean; refreshDelayMs?: number } = {}) {
  let generation = 0;
  const handler: Handler = async (config) => {
    const auth = AxiosHeaders.from(config.headers).get('Authorization');
    if (config.url === '/v1/auth/refresh') {
      if (opts.refreshDelayMs) await new Promise((r) => setTimeout(r, opts.refreshDelayMs));
      if (opts.refreshFails || auth !== `Bearer refresh-${generation}`) return { status: 401, data: { message: 'Invalid refresh token' } };
      generation += 1;
      return { status: 200, data: { accessToken: `access-${generation}`, refreshToken: `refresh-${generation}` } };
    }
    if (auth !== `Bearer access-${generation}`) return invalidToken;
    return { status: 200, data: { ok: true, url: config.url } };
  };
  return handler;
}

function setup(handler: Handler, opts: { now?: () => number; storage?: ReturnType<typeof memoryStorage>; channel?: AuthChannel | null } = {}) {
  const { adapter, calls } = fakeAdapter(handler);
  const storage = opts.storage ?? memoryStorage();
  const client = createApiClient({
    adapter,
    storage,
    channel: opts.channel ?? null,
    locks: null,
    readXsrfToken: () => 'xsrf-value',
    now: opts.now,
  });
  const changes: AuthChange[] = [];
  client.subscribe((c) => changes.push(c));
  return { client, calls, storage, changes };
}

describe('api client: headers', () => {
  it('sends the Bearer access token, and the XSRF cookie value only on mutating requests', async () => {
    const { client, calls } = setup(tokenServer());
    client.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    await client.http.get('/v1/users/me');
    await client.http.post('/v1/maintenance', { message: 'x' });
    expect(bearer(calls[0])).toBe('Bearer access-0');
    expect(calls[0].headers['X-XSRF-TOKEN']).toBeUndefined();
    expect(calls[1].headers['X-XSRF-TOKEN']).toBe('xsrf-value');
  });

  it('keeps the refresh token under the crypto_terminal key and never sets a timeout', () => {
    const { client, storage } = setup(tokenServer());
    client.setTokens({ accessToken: 'a', refreshToken: 'r' });
    expect(storage.map.get(REFRESH_TOKEN_KEY)).toBe('r');
    expect(client.http.defaults.timeout).toBe(0);
  });
});

describe('api client: refresh on 401 Invalid access token', () => {
  it('refreshes with the refresh token as Bearer, then retries the request once with the new access token', async () => {
    const { client, calls, storage } = setup(tokenServer());
    client.setTokens({ accessToken: 'expired', refreshToken: 'refresh-0' });
    const res = await client.http.get('/v1/users/me');
    expect(res.data).toEqual({ ok: true, url: '/v1/users/me' });
    expect(calls.map((c) => `${c.method} ${c.url} ${bearer(c)}`)).toEqual([
      'GET /v1/users/me Bearer expired',
      'POST /v1/auth/refresh Bearer refresh-0',
      'GET /v1/users/me Bearer access-1',
    ]);
    expect(calls[1].headers['X-XSRF-TOKEN']).toBe('xsrf-value');
    expect(client.getAccessToken()).toBe('access-1');
    expect(storage.map.get(REFRESH_TOKEN_KEY)).toBe('refresh-1');
  });

  it('retries only once: a second 401 passes through without another refresh', async () => {
    let refreshes = 0;
    const { client, calls } = setup((config) => {
      if (config.url === '/v1/auth/refresh') {
        refreshes += 1;
        return { status: 200, data: { accessToken: 'still-bad', refreshToken: 'r2' } };
      }
      return invalidToken;
    });
    client.setTokens({ accessToken: 'bad', refreshToken: 'r1' });
    await expect(client.http.get('/v1/users/me')).rejects.toMatchObject({ response: { status: 401 } });
    expect(refreshes).toBe(1);
    expect(calls.filter((c) => c.url === '/v1/users/me')).toHaveLength(2);
  });

  it('lets other 401 answers through untouched', async () => {
    const { client, calls } = setup(() => ({ status: 401, data: { message: 'Invalid email or password' } }));
    client.setTokens({ accessToken: 'a', refreshToken: 'r' });
    await expect(client.http.post('/v1/auth/signin', {})).rejects.toMatchObject({ response: { data: { message: 'Invalid email or password' } } });
    expect(calls).toHaveLength(1);
    expect(client.getAccessToken()).toBe('a');
  });

  it('shares one refresh between requests that fail together', async () => {
    const { client, calls } = setup(tokenServer({ refreshDelayMs: 20 }));
    client.setTokens({ accessToken: 'expired', refreshToken: 'refresh-0' });
    const results = await Promise.all(['/a', '/b', '/c'].map((url) => client.http.get(url)));
    expect(results.map((r) => (r.data as { url: string }).url)).toEqual(['/a', '/b', '/c']);
    expect(calls.filter((c) => c.url === '/v1/auth/refresh')).toHaveLength(1);
  });

  it('de-duplicates refresh calls within 200 ms, and refreshes again after that', async () => {
    let clock = 1_000;
    const { client, calls } = setup(tokenServer(), { now: () => clock });
    client.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const first = await client.refreshTokens();
    clock += 150;
    const second = await client.refreshTokens();
    expect(second).toBe(first);
    expect(calls.filter((c) => c.url === '/v1/auth/refresh')).toHaveLength(1);
    clock += 100; // 250 ms after the first call
    const third = await client.refreshTokens();
    expect(third.accessToken).toBe('access-2');
    expect(calls.filter((c) => c.url === '/v1/auth/refresh')).toHaveLength(2);
  });

  it('retries with a token refreshed meanwhile instead of refreshing again', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const server = tokenServer();
    let slowCalls = 0;
    // A slow request sent with access-0 comes back 401 after another call refreshed to access-1.
    const { client, calls } = setup(async (config) => {
      if (config.url === '/slow' && slowCalls++ === 0) {
        await gate;
        return invalidToken;
      }
      return server(config);
    });
    client.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    const slow = client.http.get('/slow');
    await client.refreshTokens();
    release();
    await expect(slow).resolves.toMatchObject({ data: { url: '/slow' } });
    expect(calls.filter((c) => c.url === '/v1/auth/refresh')).toHaveLength(1);
    expect(bearer(calls[calls.length - 1])).toBe('Bearer access-1');
  });

  it('signs out when the refresh fails: tokens cleared, listeners told, the original error thrown', async () => {
    const bus = channelBus();
    const { client, storage, changes } = setup(tokenServer({ refreshFails: true }), { channel: bus.create() });
    client.setTokens({ accessToken: 'expired', refreshToken: 'refresh-0' });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(client.http.get('/v1/users/me')).rejects.toMatchObject({ response: { data: { message: 'Invalid access token' } } });
    warn.mockRestore();
    expect(client.getAccessToken()).toBeNull();
    expect(storage.map.has(REFRESH_TOKEN_KEY)).toBe(false);
    expect(changes.at(-1)).toEqual({ signedIn: false, reason: 'expired', remote: false });
    expect(bus.posted.at(-1)).toEqual({ type: 'signout' });
  });
});

describe('api client: startup and other tabs', () => {
  it('restores the session from a stored refresh token at startup', async () => {
    const { client, changes } = setup(tokenServer(), { storage: memoryStorage({ [REFRESH_TOKEN_KEY]: 'refresh-0' }) });
    await client.initialize();
    expect(client.getAccessToken()).toBe('access-1');
    expect(changes).toEqual([{ signedIn: true, reason: 'refresh', remote: false }]);
  });

  it('clears both tokens when the startup refresh fails', async () => {
    const storage = memoryStorage({ [REFRESH_TOKEN_KEY]: 'revoked' });
    const { client } = setup(tokenServer(), { storage });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await client.initialize();
    warn.mockRestore();
    expect(client.getAccessToken()).toBeNull();
    expect(client.getRefreshToken()).toBeNull();
    expect(storage.map.size).toBe(0);
  });

  it('does nothing at startup without a stored refresh token', async () => {
    const { client, calls } = setup(tokenServer());
    await client.initialize();
    expect(calls).toHaveLength(0);
  });

  it('broadcasts refresh results, sign-in and sign-out to other tabs', async () => {
    const bus = channelBus();
    const storage = memoryStorage();
    const handler = tokenServer();
    const tabA = setup(handler, { storage, channel: bus.create() });
    const tabB = setup(handler, { storage, channel: bus.create() });

    tabA.client.setTokens({ accessToken: 'access-0', refreshToken: 'refresh-0' });
    expect(tabB.client.getAccessToken()).toBe('access-0');
    expect(tabB.changes.at(-1)).toEqual({ signedIn: true, reason: 'signin', remote: true });

    await tabA.client.refreshTokens();
    expect(tabB.client.getAccessToken()).toBe('access-1');
    expect(tabB.changes.at(-1)).toEqual({ signedIn: true, reason: 'refresh', remote: true });
    // Tab B uses the token tab A obtained, without a refresh of its own (which would reuse a rotated token).
    await tabB.client.http.get('/v1/users/me');
    expect(tabB.calls.map((c) => c.url)).toEqual(['/v1/users/me']);

    tabA.client.clearTokens('signout');
    expect(tabB.client.getAccessToken()).toBeNull();
    expect(tabB.changes.at(-1)).toEqual({ signedIn: false, reason: 'signout', remote: true });
  });
});
