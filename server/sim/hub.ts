import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { SimExchange } from './market/catalogue';

const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/** Something a connection is subscribed to; `poll` returns the frames to send now (objects are JSON-encoded). */
export interface StreamSub {
  poll(now: number): Array<unknown>;
}

/** One client socket of one exchange's sim, with its subscriptions keyed by the exchange's topic name. */
export class SimConnection {
  readonly id = randomUUID();
  readonly subs = new Map<string, StreamSub>();
  lastPingAt: number;

  constructor(
    readonly exchange: SimExchange,
    readonly socket: WebSocket,
    /** Wraps each outgoing frame (binance combined streams add `{stream, data}`). */
    readonly wrap: (topic: string, frame: unknown) => unknown = (_t, f) => f,
    /** Private (account) streams can be dropped on their own (the paper exchange's fault hook). */
    readonly scope: 'public' | 'private' = 'public',
  ) {
    // Heartbeats run on the wall clock, not the market clock (a test may freeze the market).
    this.lastPingAt = Date.now();
  }

  send(frame: unknown): void {
    if (this.socket.readyState !== this.socket.OPEN) return;
    // A client that stops reading would make us buffer without end; exchanges drop such consumers.
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
}

export interface HubOptions {
  now: () => number;
  pushIntervalMs: number;
  /** Server → client ping frames (binance only); 0 = never. */
  pingFrameIntervalMs: (exchange: SimExchange) => number;
}

/**
 * All sim sockets and the one timer that feeds them: every `pushIntervalMs` each subscription is
 * polled against the (injectable) clock. Also the drop-sockets test hook.
 */
export class SimHub {
  private readonly conns = new Set<SimConnection>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: HubOptions) {}

  get size(): number {
    return this.conns.size;
  }

  add(conn: SimConnection): void {
    this.conns.add(conn);
    conn.socket.on('close', () => this.conns.delete(conn));
    conn.socket.on('error', () => this.conns.delete(conn));
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), this.opts.pushIntervalMs);
      this.timer.unref();
    }
  }

  /** Polls one connection right away (after a subscribe, so the first data does not wait a tick). */
  pollNow(conn: SimConnection, topics?: string[]): void {
    const now = this.opts.now();
    for (const [topic, sub] of conn.subs) {
      if (topics && !topics.includes(topic)) continue;
      for (const frame of sub.poll(now)) conn.send(conn.wrap(topic, frame));
    }
  }

  private tick(): void {
    if (this.conns.size === 0) {
      if (this.timer) clearInterval(this.timer);
      this.timer = null;
      return;
    }
    const now = this.opts.now();
    for (const conn of this.conns) {
      try {
        for (const [topic, sub] of conn.subs) {
          for (const frame of sub.poll(now)) conn.send(conn.wrap(topic, frame));
        }
        const every = this.opts.pingFrameIntervalMs(conn.exchange);
        if (every > 0 && Date.now() - conn.lastPingAt >= every) {
          conn.lastPingAt = Date.now();
          conn.socket.ping();
        }
      } catch {
        // A socket that fails mid-send is gone; its close handler removes it.
      }
    }
  }

  /** Terminates sockets abruptly (no close frame), like a network drop. Returns how many. */
  drop(exchange?: SimExchange, scope?: 'public' | 'private'): number {
    let n = 0;
    for (const conn of [...this.conns]) {
      if (exchange && conn.exchange !== exchange) continue;
      if (scope && conn.scope !== scope) continue;
      conn.socket.terminate();
      this.conns.delete(conn);
      n++;
    }
    return n;
  }

  close(): void {
    this.drop();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
