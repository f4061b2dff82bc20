import { INVALID_ACCESS_TOKEN, apiClient } from '../client';
import { EXCHANGE_IDS, type ExchangeId } from '../contracts/common';
import { SCANNER_VALUE_FIELDS, scannerServerMessageSchema, type ScannerServerMessage, type ScannerUpdateBlock } from '../contracts/scanner';

/**
 * `/v1/scanner/stream` (WebSocket, same origin): the scanner's rows, pushed by the server, which
 * reads each exchange once for every user (`server/services/scanner/README.md`). Plain TypeScript:
 * the panel feeds what arrives into its own model; tests inject the socket and the token source.
 *
 * - On open: `auth` with the current access token, then `subscribe` with the exchanges.
 * - 401 'Invalid access token' (expired): refresh the tokens once, reconnect. Refresh failing signs
 *   the user out (the client does that), so the stream stops.
 * - 403 (FF_ENABLE_SCANNER off) and 401 without a token are final: `onRefused`, no reconnect.
 * - Any other close: reconnect with backoff (500 ms doubling to 30 s, jitter ×[½, 1], reset once the
 *   server says `ready`). The server sends a full snapshot on every subscribe, so nothing is missed.
 */

export type ScannerStreamState = 'connecting' | 'open' | 'closed';

export interface ScannerStreamHandlers {
  /** `snapshot`, `update`, `status` (and `ready`) as the server sends them. */
  onMessage: (message: ScannerServerMessage) => void;
  onState?: (state: ScannerStreamState) => void;
  /** The server refused the stream for good (403 turned off, 401 signed out): no reconnect follows. */
  onRefused?: (status: number, message: string) => void;
}

type SocketLike = Pick<WebSocket, 'send' | 'close' | 'readyState'> & {
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
};

export interface ScannerStreamOptions {
  url?: string;
  WebSocket?: new (url: string) => SocketLike;
  getAccessToken?: () => string | null;
  refreshTokens?: () => Promise<unknown>;
}

export interface ScannerStream {
  /** Replaces the watched exchanges (empty = every enabled exchange). */
  setExchanges(exchanges: readonly ExchangeId[]): void;
  close(): void;
}

/** `ws(s)://<this host>/v1/scanner/stream`. */
export function scannerStreamUrl(location: Pick<Location, 'protocol' | 'host'> = window.location): string {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/v1/scanner/stream`;
}

const OPEN = 1;

type UpdateMessage = Extract<ScannerServerMessage, { type: 'update' }>;

const FIELDS: ReadonlySet<unknown> = new Set(SCANNER_VALUE_FIELDS);

function isBlock(b: unknown): b is ScannerUpdateBlock {
  const block = b as Partial<ScannerUpdateBlock> | null;
  if (!block || !Array.isArray(block.fields) || !Array.isArray(block.rows) || block.fields.length === 0 || !block.fields.every((f) => FIELDS.has(f))) return false;
  const width = block.fields.length + 1;
  for (const row of block.rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== width || typeof row[0] !== 'string') return false;
    for (let k = 1; k < width; k++) {
      const v: unknown = row[k];
      if (v !== null && (typeof v !== 'number' || !Number.isFinite(v))) return false;
    }
  }
  return true;
}

/**
 * A server message, checked. `update` — the message that comes several times a second with up to
 * thousands of rows — is checked by hand (the same rules as its schema, a few times faster than
 * zod on 2,000 rows); everything else by the contract's schema. Null: not a message we know.
 */
export function readScannerMessage(data: string): ScannerServerMessage | null {
  let raw: unknown;
  try {
    raw = JSON.parse(data);
  } catch {
    return null;
  }
  const m = raw as Partial<UpdateMessage> | null;
  if (m?.type === 'update') {
    return EXCHANGE_IDS.includes(m.exchange as ExchangeId) && Array.isArray(m.blocks) && m.blocks.every(isBlock) ? (m as UpdateMessage) : null;
  }
  const parsed = scannerServerMessageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function openScannerStream(initial: readonly ExchangeId[], handlers: ScannerStreamHandlers, options: ScannerStreamOptions = {}): ScannerStream {
  const Socket = options.WebSocket ?? (globalThis.WebSocket as unknown as new (url: string) => SocketLike);
  const url = options.url ?? scannerStreamUrl();
  const getToken = options.getAccessToken ?? apiClient.getAccessToken;
  const refresh = options.refreshTokens ?? apiClient.refreshTokens;
  let exchanges = [...initial];
  let socket: SocketLike | null = null;
  let ready = false;
  let stopped = false;
  let backoff = 500;
  let retry: ReturnType<typeof setTimeout> | null = null;
  let refreshedOnce = false;

  const subscribe = () => {
    if (socket && ready && socket.readyState === OPEN) socket.send(JSON.stringify({ op: 'subscribe', exchanges }));
  };

  const stop = () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    retry = null;
    const s = socket;
    socket = null;
    if (s) {
      s.onopen = s.onmessage = s.onclose = s.onerror = null;
      s.close();
    }
    handlers.onState?.('closed');
  };

  const scheduleReconnect = (delay: number) => {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, delay);
  };

  const connect = () => {
    if (stopped) return;
    const token = getToken();
    if (!token) {
      handlers.onRefused?.(401, 'Sign in to see the scanner');
      stop();
      return;
    }
    ready = false;
    handlers.onState?.('connecting');
    const s = new Socket(url);
    socket = s;
    s.onopen = () => s.send(JSON.stringify({ op: 'auth', accessToken: token }));
    s.onmessage = (event: MessageEvent) => {
      const message = readScannerMessage(String(event.data));
      if (!message) return;
      if (message.type === 'ready') {
        ready = true;
        backoff = 500;
        refreshedOnce = false;
        handlers.onState?.('open');
        subscribe();
      } else if (message.type === 'error') {
        s.onclose = null;
        socket = null;
        if (message.status === 401 && message.message === INVALID_ACCESS_TOKEN && !refreshedOnce) {
          refreshedOnce = true;
          refresh().then(
            () => scheduleReconnect(0),
            () => stop(),
          );
        } else if (message.status === 401 || message.status === 403) {
          handlers.onRefused?.(message.status, message.message);
          stop();
        } else {
          scheduleReconnect(backoff);
          backoff = Math.min(backoff * 2, 30_000);
        }
        return;
      }
      handlers.onMessage(message);
    };
    s.onclose = () => {
      if (socket !== s) return;
      socket = null;
      handlers.onState?.('connecting');
      const delay = backoff * (0.5 + Math.random() / 2);
      backoff = Math.min(backoff * 2, 30_000);
      scheduleReconnect(delay);
    };
    s.onerror = () => undefined; // a close event follows
  };

  connect();
  return {
    setExchanges(next) {
      exchanges = [...next];
      subscribe();
    },
    close: stop,
  };
}
