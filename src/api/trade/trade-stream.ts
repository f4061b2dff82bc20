import { apiClient } from '../client';
import { streamServerMessageSchema, type StreamServerMessage, type StreamState } from '../contracts/trading';

/**
 * `/v1/trade/stream` (DESIGN §3.3) for one key: `auth` with the access token, `subscribe` with the key
 * and its password; the server pushes `status`, a `snapshot` after every (re)connect and account
 * change, and `order` / `fill` events. Plain TypeScript (the panels feed what arrives into react-query):
 * - a closed socket reconnects with back-off (500 ms doubling to 30 s); the server snapshots again, so
 *   nothing is missed;
 * - 4401 (token expired or signed out): refresh the tokens once and reconnect; refresh failing signs
 *   the user out (the API client does that), so the stream stops;
 * - the access token is sent again before it expires (every 10 min).
 */
export interface TradeStreamHandlers {
  onMessage: (message: StreamServerMessage) => void;
  /** The connection to this server (the exchange's state arrives as `status` messages). */
  onSocket?: (state: StreamState, reason?: string) => void;
}

type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
};

export interface TradeStreamOptions {
  url?: string;
  WebSocket?: new (url: string) => SocketLike;
  getAccessToken?: () => string | null;
  refreshTokens?: () => Promise<unknown>;
}

export function tradeStreamUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1/trade/stream`;
}

const OPEN = 1;
const REAUTH_MS = 10 * 60_000;

/** A frame from the server as the contract reads it; anything else (not JSON, unknown shape) is dropped. */
function readFrame(data: unknown): StreamServerMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(String(data));
  } catch {
    return null;
  }
  const parsed = streamServerMessageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function openTradeStream(key: { apiKeyId: string; keyPassword: string }, handlers: TradeStreamHandlers, options: TradeStreamOptions = {}): { close(): void } {
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as new (url: string) => SocketLike);
  const url = options.url ?? tradeStreamUrl();
  const getToken = options.getAccessToken ?? apiClient.getAccessToken;
  const refresh = options.refreshTokens ?? apiClient.refreshTokens;
  let socket: SocketLike | null = null;
  let stopped = false;
  let backoff = 500;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let reauth: ReturnType<typeof setInterval> | null = null;
  let refreshed = false;

  const schedule = (delay: number) => {
    if (stopped || retry) return;
    handlers.onSocket?.('reconnecting', `retrying in ${Math.ceil(delay / 1000)} s`);
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, delay);
  };

  const connect = () => {
    if (stopped) return;
    const token = getToken();
    if (!token) {
      handlers.onSocket?.('error', 'Signed out');
      return;
    }
    handlers.onSocket?.('connecting');
    let subscribed = false;
    const s = new Socket(url);
    socket = s;
    s.onopen = () => {
      s.send(JSON.stringify({ op: 'auth', accessToken: token }));
      reauth = setInterval(() => {
        const t = getToken();
        if (t && s.readyState === OPEN) s.send(JSON.stringify({ op: 'auth', accessToken: t }));
      }, REAUTH_MS);
    };
    s.onmessage = (ev) => {
      const m = readFrame(ev.data);
      if (!m) return;
      if (m.type === 'authenticated' && !subscribed) {
        // Subscribe once the server knows who we are (a re-auth later answers `authenticated` again).
        subscribed = true;
        backoff = 500;
        refreshed = false;
        s.send(JSON.stringify({ op: 'subscribe', apiKeyId: key.apiKeyId, keyPassword: key.keyPassword }));
        handlers.onSocket?.('connected');
      }
      handlers.onMessage(m);
    };
    s.onclose = (ev) => {
      if (reauth) clearInterval(reauth);
      reauth = null;
      socket = null;
      if (stopped) return;
      if (ev.code === 4401 && !refreshed) {
        refreshed = true;
        refresh().then(
          () => schedule(0),
          () => handlers.onSocket?.('error', 'Signed out'),
        );
        return;
      }
      schedule(backoff);
      backoff = Math.min(30_000, backoff * 2);
    };
  };

  connect();
  return {
    close() {
      stopped = true;
      if (retry) clearTimeout(retry);
      if (reauth) clearInterval(reauth);
      const s = socket;
      socket = null;
      if (s) {
        s.onopen = s.onmessage = s.onclose = null;
        s.close();
      }
    },
  };
}
