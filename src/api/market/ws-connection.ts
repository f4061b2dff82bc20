import type { ConnectionStatus } from './types';

/** The part of the WHATWG WebSocket both the browser's and the `ws` package's sockets provide. */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: never) => void) | null;
  onmessage: ((ev: never) => void) | null;
  onclose: ((ev: never) => void) | null;
  onerror: ((ev: never) => void) | null;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

const OPEN = 1;
const CONNECTING = 0;

/**
 * How a connection proves it is alive (exchanges differ, trap 17):
 * - `interval`: send `message()` every `everyMs` (Bybit's JSON ping every 20 s);
 * - `idle`: send `message()` after `everyMs` without any message (BitMEX 5 s, OKX < 30 s, raw text `ping`);
 * - `none`: the server pings with control frames the socket answers itself (Binance).
 * In every mode a connection that stays silent for `timeoutMs` after a ping (or, with `none`, at all)
 * is treated as dead and replaced: a half-open TCP connection never reports `close` by itself.
 */
export interface HeartbeatStrategy {
  mode: 'interval' | 'idle' | 'none';
  everyMs: number;
  timeoutMs: number;
  message?: () => string;
}

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  /** Injected for deterministic tests; defaults to Math.random. */
  random?: () => number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000 };

export interface ReconnectingSocketOptions {
  url: string;
  WebSocket: WebSocketCtor;
  heartbeat: HeartbeatStrategy;
  /** Called on every (re)connection: send the subscriptions, start a back-fill. */
  onOpen: (send: (data: string) => void) => void;
  /** Text of every frame except heartbeat replies. */
  onMessage: (text: string) => void;
  /** Heartbeat replies are swallowed here (OKX/BitMEX `pong` is not JSON, Bybit's pong is). */
  isPong?: (text: string) => boolean;
  onStatus?: (status: ConnectionStatus) => void;
  backoff?: BackoffOptions;
}

export interface ReconnectingSocket {
  /** Stops for good: closes the socket, clears every timer, detaches every handler. */
  close(): void;
  /** Drops the current connection as if the network failed (reconnects with backoff). */
  drop(): void;
}

/** Delay before reconnect attempt `attempt` (0-based): exponential, capped, with jitter in [½, 1]. */
export function backoffDelay(attempt: number, b: BackoffOptions): number {
  const cap = Math.min(b.maxMs, b.baseMs * 2 ** attempt);
  return Math.round(cap * (0.5 + 0.5 * (b.random ?? Math.random)()));
}

export function openReconnectingSocket(opts: ReconnectingSocketOptions): ReconnectingSocket {
  const backoff = opts.backoff ?? DEFAULT_BACKOFF;
  const hb = opts.heartbeat;
  let socket: WebSocketLike | undefined;
  let disposed = false;
  let attempt = 0;
  let connectedBefore = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let silenceTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setTimeout> | undefined;
  let deadlineTimer: ReturnType<typeof setTimeout> | undefined;
  /** When the last frame arrived: the silence timer is not moved per frame (a busy stream's hundreds a second). */
  let lastFrameAt = 0;

  const status = (s: ConnectionStatus) => opts.onStatus?.(s);
  const send = (data: string) => {
    if (socket?.readyState === OPEN) socket.send(data);
  };

  function clearHeartbeat() {
    clearTimeout(silenceTimer);
    clearTimeout(pingTimer);
    clearTimeout(deadlineTimer);
    silenceTimer = pingTimer = deadlineTimer = undefined;
  }

  function ping() {
    if (hb.message) send(hb.message());
    deadlineTimer ??= setTimeout(() => drop(), hb.timeoutMs);
  }

  /** Any frame proves the connection alive: cancel the pong deadline and restart the silence clock. */
  function alive() {
    lastFrameAt = Date.now();
    if (deadlineTimer !== undefined) {
      clearTimeout(deadlineTimer);
      deadlineTimer = undefined;
    }
    if (silenceTimer === undefined) watchSilence(silenceMs());
  }

  const silenceMs = () => (hb.mode === 'idle' ? hb.everyMs : hb.timeoutMs);

  /**
   * `idle`: a ping after `everyMs` without a frame; `none`: a drop after `timeoutMs` without one. The timer, set
   * once, looks at when the last frame came when it fires and waits out the rest of the silence if one came since.
   */
  function watchSilence(ms: number) {
    if (hb.mode !== 'idle' && hb.mode !== 'none') return;
    silenceTimer = setTimeout(() => {
      silenceTimer = undefined;
      const quiet = Date.now() - lastFrameAt;
      if (quiet < silenceMs()) watchSilence(silenceMs() - quiet);
      else if (hb.mode === 'idle') ping();
      else drop();
    }, ms);
  }

  function schedulePing() {
    pingTimer = setTimeout(() => {
      ping();
      schedulePing();
    }, hb.everyMs);
  }

  function detach(ws: WebSocketLike) {
    ws.onopen = null;
    ws.onmessage = null;
    ws.onclose = null;
    // Kept as a no-op: the `ws` package emits 'error' when a CONNECTING socket is closed, and an
    // EventEmitter 'error' without a listener throws.
    ws.onerror = () => undefined;
    if (ws.readyState === OPEN || ws.readyState === CONNECTING) {
      try {
        ws.close(1000);
      } catch {
        // already closing
      }
    }
  }

  function connect() {
    reconnectTimer = undefined;
    status(connectedBefore ? 'reconnecting' : 'connecting');
    let ws: WebSocketLike;
    try {
      ws = new opts.WebSocket(opts.url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      connectedBefore = true;
      status('open');
      alive();
      if (hb.mode === 'interval') schedulePing();
      opts.onOpen(send);
    };
    ws.onmessage = (ev: { data: unknown }) => {
      // A frame arrived: the connection works, so the next failure starts the backoff afresh.
      attempt = 0;
      alive();
      const text = decode(ev.data);
      if (text === undefined || opts.isPong?.(text)) return;
      opts.onMessage(text);
    };
    ws.onclose = () => drop();
    ws.onerror = () => drop();
  }

  function scheduleReconnect() {
    if (disposed || reconnectTimer !== undefined) return;
    status('reconnecting');
    reconnectTimer = setTimeout(connect, backoffDelay(attempt, backoff));
    attempt += 1;
  }

  function drop() {
    clearHeartbeat();
    if (socket) detach(socket);
    socket = undefined;
    scheduleReconnect();
  }

  connect();

  return {
    close() {
      if (disposed) return;
      disposed = true;
      clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      clearHeartbeat();
      if (socket) detach(socket);
      socket = undefined;
      status('closed');
    },
    drop() {
      if (!disposed) drop();
    },
  };
}

const decoder = new TextDecoder();

function decode(data: unknown): string | undefined {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return decoder.decode(data);
  if (ArrayBuffer.isView(data)) return decoder.decode(data);
  return undefined;
}

/**
 * Turns a configured WebSocket base into an absolute `ws:`/`wss:` URL. In sim mode `/v1/config` gives
 * same-origin paths (`/sim/bybit`), resolved against the page's location; outside a browser (tests) the
 * base must already be absolute.
 */
export function resolveWsBase(base: string, location?: { protocol: string; host: string }): string {
  const trimmed = base.replace(/\/+$/, '');
  if (/^wss?:\/\//i.test(trimmed)) return trimmed;
  if (/^https?:\/\//i.test(trimmed)) return trimmed.replace(/^http/i, 'ws');
  if (!location) throw new Error(`Cannot resolve the relative WebSocket base "${base}" outside a browser`);
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}${trimmed.startsWith('/') ? '' : '/'}${trimmed}`;
}
