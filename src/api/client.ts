import axios, { AxiosError, AxiosHeaders, type AxiosAdapter, type AxiosInstance, type InternalAxiosRequestConfig } from 'axios';
import { tokensSchema, type Tokens } from './contracts/auth';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** Send this request without the access token and never refresh on its 401 (auth calls). */
    skipAuth?: boolean;
    /** Set on the one retry after a token refresh, so a second 401 passes through. */
    authRetried?: boolean;
  }
}

/** localStorage key of the refresh token (SPEC §4 "stored locally under a crypto_terminal key"). */
export const REFRESH_TOKEN_KEY = 'crypto_terminal';
/** The only 401 answer that triggers refresh-and-retry (SPEC §8); other 401s pass through. */
export const INVALID_ACCESS_TOKEN = 'Invalid access token';
/** Refresh calls made within this window share one server call (SPEC §9). */
export const REFRESH_DEDUP_MS = 200;
export const AUTH_CHANNEL_NAME = 'crypto_terminal_auth';
const REFRESH_LOCK_NAME = 'crypto_terminal_refresh';
const MUTATING = new Set(['post', 'put', 'patch', 'delete']);

/** Why the token state changed; `remote` changes came from another tab. */
export type AuthChangeReason = 'signin' | 'refresh' | 'signout' | 'expired' | 'startup-failed';
export interface AuthChange {
  signedIn: boolean;
  reason: AuthChangeReason;
  /** True when another tab made the change and this tab adopted it. */
  remote: boolean;
}

export type TokenStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
/** The part of BroadcastChannel the client uses (a fake in tests). */
export interface AuthChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}
/** The part of the Web Locks API the client uses: serialises refreshes across tabs. */
export interface RefreshLocks {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

export interface ApiClientOptions {
  baseURL?: string;
  /** Replaces axios' transport (tests). */
  adapter?: AxiosAdapter;
  /** Default: `localStorage`; `null` keeps the refresh token in memory only. */
  storage?: TokenStorage | null;
  /** Default: a BroadcastChannel named `crypto_terminal_auth`; `null` disables cross-tab sync. */
  channel?: AuthChannel | null;
  /** Default: `navigator.locks` when the browser has it. */
  locks?: RefreshLocks | null;
  /** Default: reads the `XSRF-TOKEN` cookie. */
  readXsrfToken?: () => string | null;
  now?: () => number;
}

export interface ApiClient {
  /** The one axios instance every endpoint file uses. No timeout (SPEC §9). */
  http: AxiosInstance;
  getAccessToken(): string | null;
  getRefreshToken(): string | null;
  /** Stores both tokens after sign-in or sign-up and tells other tabs. */
  setTokens(tokens: Tokens): void;
  /** Forgets both tokens (sign-out) and tells other tabs. */
  clearTokens(reason?: Extract<AuthChangeReason, 'signout' | 'expired' | 'startup-failed'>): void;
  /** Exchanges the refresh token for new tokens; calls within 200 ms (or while one is running) share one call. */
  refreshTokens(): Promise<Tokens>;
  /** App start (SPEC §4): refresh if a refresh token is stored; on failure clear both tokens. Never throws. */
  initialize(): Promise<void>;
  subscribe(listener: (change: AuthChange) => void): () => void;
}

type ChannelMessage = { type: 'signin' | 'refresh'; tokens: Tokens } | { type: 'signout' };

function defaultStorage(): TokenStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // site data blocked: keep the refresh token for this page only
  }
}

function defaultChannel(): AuthChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(AUTH_CHANNEL_NAME);
}

function defaultLocks(): RefreshLocks | null {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return null;
  return { request: async (name, callback) => await locks.request(name, callback) };
}

export function readCookie(name: string): string | null {
  if (typeof document === 'undefined') return null;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

function isInvalidAccessToken(error: unknown): error is AxiosError {
  if (!axios.isAxiosError(error) || error.response?.status !== 401) return false;
  const data: unknown = error.response.data;
  return typeof data === 'object' && data !== null && (data as { message?: unknown }).message === INVALID_ACCESS_TOKEN;
}

function bearerOf(config: InternalAxiosRequestConfig): string | null {
  const value = config.headers.get('Authorization');
  return typeof value === 'string' && value.startsWith('Bearer ') ? value.slice(7) : null;
}

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const storage = options.storage === undefined ? defaultStorage() : options.storage;
  const channel = options.channel === undefined ? defaultChannel() : options.channel;
  const locks = options.locks === undefined ? defaultLocks() : options.locks;
  const readXsrf = options.readXsrfToken ?? (() => readCookie('XSRF-TOKEN'));
  const now = options.now ?? (() => Date.now());

  let accessToken: string | null = null;
  let memoryRefreshToken: string | null = null;
  const listeners = new Set<(change: AuthChange) => void>();
  let shared: { promise: Promise<Tokens>; startedAt: number; settled: boolean } | null = null;

  // `withXSRFToken: false`: the interceptor below sets the XSRF header itself (mutating requests, from the cookie,
  // synchronously). Axios's own would read the cookie through the async Cookie Store before every same-origin send —
  // an IPC round trip to the browser that held each order 15–80 ms before it left (issue 25: click → row).
  const http = axios.create({ baseURL: options.baseURL ?? '', timeout: 0, adapter: options.adapter, withXSRFToken: false });

  const emit = (change: AuthChange) => {
    for (const listener of [...listeners]) listener(change);
  };

  const getRefreshToken = (): string | null => {
    if (storage) {
      try {
        return storage.getItem(REFRESH_TOKEN_KEY);
      } catch {
        return memoryRefreshToken;
      }
    }
    return memoryRefreshToken;
  };

  const writeRefreshToken = (token: string | null) => {
    memoryRefreshToken = token;
    if (!storage) return;
    try {
      if (token === null) storage.removeItem(REFRESH_TOKEN_KEY);
      else storage.setItem(REFRESH_TOKEN_KEY, token);
    } catch (error) {
      console.warn('Could not store the refresh token; the session ends with this page', error);
    }
  };

  const adopt = (tokens: Tokens) => {
    accessToken = tokens.accessToken;
    writeRefreshToken(tokens.refreshToken);
  };

  const broadcast = (message: ChannelMessage) => {
    try {
      channel?.postMessage(message);
    } catch (error) {
      console.warn('Could not tell other tabs about the session change', error);
    }
  };

  const clearLocal = () => {
    accessToken = null;
    writeRefreshToken(null);
  };

  channel?.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as Partial<ChannelMessage> | null;
    if (!message || typeof message !== 'object') return;
    if ((message.type === 'signin' || message.type === 'refresh') && 'tokens' in message) {
      const parsed = tokensSchema.safeParse(message.tokens);
      if (!parsed.success) return;
      const wasSignedIn = accessToken !== null;
      adopt(parsed.data);
      // Another tab's refresh only replaces tokens of the same session; a sign-in there may be a new user.
      emit({ signedIn: true, reason: message.type === 'refresh' && wasSignedIn ? 'refresh' : 'signin', remote: true });
    } else if (message.type === 'signout') {
      if (accessToken === null) return;
      accessToken = null; // storage was already cleared by the tab that signed out
      memoryRefreshToken = null;
      emit({ signedIn: false, reason: 'signout', remote: true });
    }
  });

  const callRefresh = async (refreshToken: string): Promise<Tokens> => {
    const response = await http.post<unknown>('/v1/auth/refresh', undefined, {
      skipAuth: true,
      headers: { Authorization: `Bearer ${refreshToken}` },
    });
    return tokensSchema.parse(response.data);
  };

  const runRefresh = async (): Promise<Tokens> => {
    const accessAtStart = accessToken;
    const tokenAtStart = getRefreshToken();
    const exchange = async (): Promise<Tokens> => {
      const current = getRefreshToken();
      if (current === null) throw new Error('Not signed in');
      // Another tab rotated the token while this one waited for the lock and already sent us the
      // result: using the rotated-away token again would revoke the whole session family (DESIGN §5).
      if (current !== tokenAtStart && accessToken !== null && accessToken !== accessAtStart) {
        return { accessToken, refreshToken: current };
      }
      const tokens = await callRefresh(current);
      adopt(tokens);
      broadcast({ type: 'refresh', tokens });
      emit({ signedIn: true, reason: 'refresh', remote: false });
      return tokens;
    };
    return locks ? locks.request(REFRESH_LOCK_NAME, exchange) : exchange();
  };

  const refreshTokens = (): Promise<Tokens> => {
    if (shared && (!shared.settled || now() - shared.startedAt < REFRESH_DEDUP_MS)) return shared.promise;
    const entry = { promise: runRefresh(), startedAt: now(), settled: false };
    shared = entry;
    entry.promise.then(
      () => (entry.settled = true),
      () => (entry.settled = true),
    );
    return entry.promise;
  };

  const clearTokens: ApiClient['clearTokens'] = (reason = 'signout') => {
    const wasSignedIn = accessToken !== null || getRefreshToken() !== null;
    clearLocal();
    if (!wasSignedIn) return;
    broadcast({ type: 'signout' });
    emit({ signedIn: false, reason, remote: false });
  };

  http.interceptors.request.use((config) => {
    if (!config.skipAuth && accessToken && !config.headers.has('Authorization')) {
      config.headers.set('Authorization', `Bearer ${accessToken}`);
    }
    if (MUTATING.has((config.method ?? 'get').toLowerCase())) {
      const xsrf = readXsrf();
      if (xsrf) config.headers.set('X-XSRF-TOKEN', xsrf);
    }
    return config;
  });

  http.interceptors.response.use(undefined, async (error: unknown) => {
    if (!isInvalidAccessToken(error) || !error.config || error.config.skipAuth || error.config.authRetried) throw error;
    const config = error.config;
    const sentWith = bearerOf(config);
    let token: string;
    if (accessToken !== null && sentWith !== accessToken) {
      token = accessToken; // refreshed meanwhile (here or in another tab): just retry with the new token
    } else {
      try {
        token = (await refreshTokens()).accessToken;
      } catch (refreshError) {
        // A sign-in that happened while the refresh ran must not be undone: retry with its token.
        if (accessToken !== null && accessToken !== sentWith) {
          token = accessToken;
        } else {
          console.warn('Token refresh failed; signing out', refreshError);
          clearTokens('expired');
          throw error;
        }
      }
    }
    const headers = AxiosHeaders.from(config.headers);
    headers.set('Authorization', `Bearer ${token}`);
    return http.request({ ...config, headers, authRetried: true });
  });

  return {
    http,
    getAccessToken: () => accessToken,
    getRefreshToken,
    setTokens(tokens) {
      adopt(tokens);
      broadcast({ type: 'signin', tokens });
      emit({ signedIn: true, reason: 'signin', remote: false });
    },
    clearTokens,
    refreshTokens,
    async initialize() {
      if (getRefreshToken() === null) return;
      try {
        await refreshTokens();
      } catch (error) {
        console.warn('Stored session could not be refreshed', error);
        clearTokens('startup-failed');
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's client. Endpoint files use `apiClient.http`. */
export const apiClient = createApiClient();
export const http = apiClient.http;
