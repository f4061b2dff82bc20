import type WebSocket from 'ws';
import type { ExchangeId } from '../../src/api/contracts/common';
import type { Balance, Fill, Order, Position } from '../../src/api/contracts/trading';
import type { ConnectorContext } from './trading';

/**
 * An exchange's private stream, reduced to what the account stream needs (DESIGN §3.3): order and
 * fill events in the one model, the positions and balance the stream pushes (issue 26 §2: applied to the
 * account state as they come), and "the account changed" signals for what a stream does not carry (the
 * account stream answers those with a REST read of the parts named). Each exchange's driver logs in its
 * own way (listenKey, auth, login, authKeyExpires), keeps its connection alive and reports when it is gone.
 */
export type AccountPart = 'positions' | 'balance';

export type PrivateEvent =
  | { kind: 'order'; order: Order }
  | { kind: 'fill'; fill: Fill }
  /**
   * A position as the stream pushed it (size "0": flat, the symbol's position is gone). `missing`: contract
   * fields the push does not carry — the account state takes them from its last read of the symbol, and
   * re-reads the positions over REST when it has none.
   */
  | { kind: 'position'; position: Position; missing?: readonly (keyof Position)[] }
  /** The balance as the stream pushed it (complete: a stream that cannot fill the contract signals instead). */
  | { kind: 'balance'; balance: Balance }
  /** Something changed that the stream does not carry: `parts` (default both) are read again over REST. */
  | { kind: 'account'; symbols: string[]; parts?: readonly AccountPart[] };

export interface PrivateStreamHandlers {
  event(e: PrivateEvent): void;
  /** The connection is gone (dropped, expired, refused): the account stream reconnects. */
  closed(reason: string): void;
}

export interface PrivateStream {
  close(): void;
}

/** Opens a WebSocket at an exchange-relative path (`/private/ws/<key>`, `/v5/private`, `/ws/v5/private`, `/realtime`). */
export type OpenSocket = (path: string) => Promise<WebSocket>;

export type PrivateStreamDriver = (ctx: ConnectorContext, open: OpenSocket, handlers: PrivateStreamHandlers) => Promise<PrivateStream>;

/**
 * Calls `closed` once when the socket closes, also when it closed before anyone listened (a socket the
 * exchange drops as it opens).
 */
export function onceClosed(socket: WebSocket, closed: () => void): void {
  let done = false;
  const fire = () => {
    if (done) return;
    done = true;
    closed();
  };
  socket.once('close', fire);
  if (socket.readyState === socket.CLOSED || socket.readyState === socket.CLOSING) queueMicrotask(fire);
}

/** Sockets ended because a message could not be read, and why (the reason the account stream is given). */
const unreadable = new WeakMap<WebSocket, string>();

/** Why the socket closed: a message it could not read, else `reason`. */
export const closeReason = (socket: WebSocket, reason: string): string => unreadable.get(socket) ?? reason;

/**
 * Calls `handle` with each JSON object the socket receives (the text `pong` and anything else that is not one are
 * skipped). A message `handle` cannot read (it throws) ends the socket, never the process: the account stream
 * reconnects and reads a snapshot, so what that message said is not lost.
 */
export function onJson(socket: WebSocket, handle: (msg: Record<string, unknown>) => void): void {
  socket.on('message', (data) => {
    const text = String(data);
    if (text === 'pong') return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object' || Array.isArray(msg)) return;
    try {
      handle(msg as Record<string, unknown>);
    } catch (err) {
      unreadable.set(socket, `a message of the private stream could not be read (${err instanceof Error ? err.message : String(err)})`);
      socket.terminate();
    }
  });
}

/**
 * The end of a one-socket private stream: when the socket closes, `stop` (its timers) and `handlers.closed`
 * (unless the stream was closed from here); socket errors end in the close. Returns the stream's `close`.
 */
export function endOf(socket: WebSocket, handlers: PrivateStreamHandlers, stop: () => void, reason = 'the exchange closed the private stream'): PrivateStream {
  let closed = false;
  onceClosed(socket, () => {
    stop();
    if (!closed) handlers.closed(closeReason(socket, reason));
  });
  socket.on('error', () => undefined);
  return {
    close() {
      closed = true;
      stop();
      socket.close();
    },
  };
}

/** Sends `payload` every `ms` while the socket is open (JSON pings, raw "ping"). */
export function keepAlive(socket: WebSocket, ms: number, payload: () => string): () => void {
  const timer = setInterval(() => {
    if (socket.readyState === socket.OPEN) socket.send(payload());
  }, ms);
  timer.unref?.();
  return () => clearInterval(timer);
}

/**
 * Sends a login `frame` and waits for the answer `match` accepts; a refusal, a close or no answer within
 * `ms` closes the socket and throws.
 */
export async function logIn(socket: WebSocket, frame: unknown, match: (msg: Record<string, unknown>) => 'ok' | string | null, exchange: ExchangeId, ms = 10_000): Promise<void> {
  const reply = awaitReply(socket, ms, (m) => (m && typeof m === 'object' ? match(m as Record<string, unknown>) : null), exchange);
  socket.send(JSON.stringify(frame));
  try {
    await reply;
  } catch (err) {
    socket.close();
    throw err;
  }
}

/** Resolves with the first message `match` accepts, rejects on another answer it refuses, a close or `ms`. */
export function awaitReply(socket: WebSocket, ms: number, match: (msg: unknown) => 'ok' | string | null, exchange: ExchangeId): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.readyState !== socket.OPEN) {
      reject(new Error(`${exchange}: the private stream closed during login`));
      return;
    }
    const timer = setTimeout(() => finish(new Error(`${exchange}: no answer to the login within ${ms / 1000} s`)), ms);
    const onMessage = (data: WebSocket.RawData) => {
      let msg: unknown;
      try {
        msg = JSON.parse(String(data));
      } catch {
        return;
      }
      const verdict = match(msg);
      if (verdict === 'ok') finish();
      else if (verdict !== null) finish(new Error(`${exchange}: ${verdict}`));
    };
    const onClose = () => finish(new Error(`${exchange}: the private stream closed during login`));
    const finish = (err?: Error) => {
      clearTimeout(timer);
      socket.off('message', onMessage);
      socket.off('close', onClose);
      if (err) reject(err);
      else resolve();
    };
    socket.on('message', onMessage);
    socket.on('close', onClose);
  });
}
