import { apiClient } from '../client';
import { appStreamServerMessageSchema, type AppStreamServerMessage } from '../contracts/notifications';

/**
 * `/v1/stream` (WebSocket, same origin, issue 26): the app's push channel, one per tab. Plain
 * TypeScript; `use-app-stream.ts` writes what arrives into react-query. Tests inject the socket,
 * the token source, the clock's randomness.
 *
 * - On open: `auth` with the access token and what the tab last saw (`resumeFrom()`: the newest
 *   notification id and the server's time of the list); the server answers with what was written
 *   since (`notifications`, `resume: true`) — only then is the stream `open` (the app stops polling).
 * - The token is sent again every 10 min (before it expires).
 * - Closed with 4401 (token expired, signed out): refresh the tokens once and reconnect at once;
 *   refresh failing signs the user out (the API client does that) and the stream stays down.
 * - Any other close, or 60 s without a word from the server (it says `keepalive` every 25 s): reconnect
 *   with back-off — 500 ms doubling to 30 s, each wait jittered to ×[½, 1] so tabs do not come back
 *   in step after a restart — reset once a resume arrives.
 */

export type AppStreamState = 'connecting' | 'open' | 'down';

export interface AppStreamHandlers {
  /** Every message but `keepalive`, `pong` and `error` (the close that follows an error is handled here). */
  onMessage: (message: AppStreamServerMessage) => void;
  onState?: (state: AppStreamState) => void;
}

type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
};
export type AppStreamSocket = new (url: string) => SocketLike;

export interface AppStreamOptions {
  url?: string;
  WebSocket?: AppStreamSocket;
  getAccessToken?: () => string | null;
  refreshTokens?: () => Promise<unknown>;
  /** What the tab last saw (sent with the first `auth` of every connection). */
  resumeFrom?: () => { since: string | null; sinceTime: string | null };
  /** [0, 1): the jitter (tests pin it). */
  random?: () => number;
  /** Silence after which the socket is taken for dead (default 60 s). */
  idleMs?: number;
}

export const APP_STREAM_BACKOFF = { firstMs: 500, maxMs: 30_000 } as const;
const REAUTH_MS = 10 * 60_000;
const IDLE_MS = 60_000;
const OPEN = 1;

/** `ws(s)://<this host>/v1/stream`. */
export function appStreamUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1/stream`;
}

function readFrame(data: unknown): AppStreamServerMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(String(data));
  } catch {
    return null;
  }
  const parsed = appStreamServerMessageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function openAppStream(handlers: AppStreamHandlers, options: AppStreamOptions = {}): { close(): void } {
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as AppStreamSocket);
  const url = options.url ?? appStreamUrl();
  const getToken = options.getAccessToken ?? apiClient.getAccessToken;
  const refresh = options.refreshTokens ?? apiClient.refreshTokens;
  const resumeFrom = options.resumeFrom ?? (() => ({ since: null, sinceTime: null }));
  const random = options.random ?? Math.random;
  const idleMs = options.idleMs ?? IDLE_MS;
  let socket: SocketLike | null = null;
  let stopped = false;
  let backoff: number = APP_STREAM_BACKOFF.firstMs;
  let refreshed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let reauth: ReturnType<typeof setInterval> | null = null;
  let idle: ReturnType<typeof setTimeout> | null = null;

  const clearTimers = () => {
    if (reauth) clearInterval(reauth);
    if (idle) clearTimeout(idle);
    reauth = idle = null;
  };

  const schedule = (delay: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, delay);
  };

  /** The socket is gone (closed by either side, or silent): reconnect as the close code says. */
  const lost = (s: SocketLike, code: number) => {
    if (socket !== s) return;
    socket = null;
    clearTimers();
    s.onopen = s.onmessage = s.onclose = s.onerror = null;
    if (s.readyState <= OPEN) s.close(); // connecting or open: ended here
    if (stopped) return;
    handlers.onState?.('down');
    if (code === 4401 && !refreshed) {
      refreshed = true;
      refresh().then(
        () => schedule(0),
        () => undefined, // signed out: the app's token subscription ends this stream
      );
      return;
    }
    const delay = backoff * (0.5 + random() / 2);
    backoff = Math.min(backoff * 2, APP_STREAM_BACKOFF.maxMs);
    schedule(delay);
  };

  const heard = (s: SocketLike) => {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => lost(s, 4000), idleMs);
  };

  const connect = () => {
    if (stopped) return;
    const token = getToken();
    if (!token) {
      handlers.onState?.('down');
      return;
    }
    handlers.onState?.('connecting');
    const s = new Socket(url);
    socket = s;
    s.onopen = () => {
      s.send(JSON.stringify({ op: 'auth', accessToken: token, ...resumeFrom() }));
      heard(s);
      reauth = setInterval(() => {
        const t = getToken();
        if (t && s.readyState === OPEN) s.send(JSON.stringify({ op: 'auth', accessToken: t }));
      }, REAUTH_MS);
    };
    s.onmessage = (ev: MessageEvent) => {
      heard(s);
      const m = readFrame(ev.data);
      if (!m || m.type === 'keepalive' || m.type === 'pong' || m.type === 'error' || m.type === 'authenticated') return;
      handlers.onMessage(m);
      if (m.type === 'notifications' && m.resume) {
        backoff = APP_STREAM_BACKOFF.firstMs;
        refreshed = false;
        handlers.onState?.('open');
      }
    };
    s.onclose = (ev: CloseEvent) => lost(s, ev.code);
    s.onerror = () => undefined; // a close event follows
  };

  connect();
  return {
    close() {
      stopped = true;
      if (retry) clearTimeout(retry);
      retry = null;
      const s = socket;
      if (s) lost(s, 1000);
    },
  };
}
