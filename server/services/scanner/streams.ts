import type WebSocket from 'ws';
import type { ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { EXCHANGES, perExchange } from '../../exchanges/registry';
import type { StreamConnection, StreamPatch, StreamPlan, TickerFields } from '../../exchanges/tickers';

/**
 * The exchanges' all-market ticker streams, consumed once per exchange by the server (never by each
 * browser), so 100 scanners cost an exchange one connection. What each exchange's stream is (paths,
 * subscriptions, heartbeat, the frame parser and its merged state) is its folder's
 * (`server/exchanges/<exchange>/tickers.ts`, `EXCHANGES[id].market.tickerStream`); each frame becomes the
 * changed rows' ticker fields through the same mappers as the REST answers. Here: keeping them open.
 */

export type { StreamPatch, StreamPlan };

/** Opens a socket to `path` below the exchange's WebSocket root (live host, or the simulator in-process). */
export type OpenStreamSocket = (exchange: ExchangeId, path: string) => Promise<WebSocket>;

/** Which ticker fields an exchange's stream keeps current (the others only move with REST refreshes). */
export const STREAM_FIELDS: Record<ExchangeId, readonly (keyof TickerFields)[]> = perExchange((d) => d.market.tickerStream.fields);

/** The exchange's ticker stream for these instruments. */
export function streamPlan(exchange: ExchangeId, instruments: readonly Instrument[]): StreamPlan {
  return EXCHANGES[exchange].market.tickerStream.plan(instruments);
}

export interface LiveFeedOptions {
  exchange: ExchangeId;
  instruments: readonly Instrument[];
  open: OpenStreamSocket;
  onPatch: (patch: StreamPatch) => void;
  /** Connected (true) or not (false): the status line says whether rows are live. */
  onLive?: (live: boolean) => void;
  onError?: (err: unknown) => void;
  /** Reconnect after this long without a frame (default 60 s). */
  silenceMs?: number;
}

/**
 * Keeps one exchange's ticker stream connections open: subscribes on every (re)connect,
 * heartbeats, reconnects with backoff (1 s doubling to 30 s, reset by a frame), and reconnects a
 * connection that has gone silent.
 */
export class LiveFeed {
  private readonly plan: StreamPlan;
  private readonly sockets = new Set<WebSocket>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private connected = 0;

  constructor(private readonly opts: LiveFeedOptions) {
    this.plan = streamPlan(opts.exchange, opts.instruments);
  }

  start(): void {
    this.plan.connections.forEach((c) => this.connect(c, 1000));
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const s of this.sockets) s.terminate();
    this.sockets.clear();
  }

  private later(fn: () => void, ms: number): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    t.unref?.();
    this.timers.add(t);
    return t;
  }

  private setConnected(delta: number): void {
    const was = this.connected === this.plan.connections.length;
    this.connected += delta;
    const now = this.connected === this.plan.connections.length;
    if (was !== now) this.opts.onLive?.(now);
  }

  private connect(conn: StreamConnection, backoffMs: number): void {
    if (this.stopped) return;
    const retry = () => this.later(() => this.connect(conn, Math.min(backoffMs * 2, 30_000)), backoffMs * (0.5 + Math.random() / 2));
    this.opts.open(this.opts.exchange, conn.path).then(
      (socket) => {
        if (this.stopped) {
          socket.terminate();
          return;
        }
        this.sockets.add(socket);
        this.setConnected(1);
        let lastFrameAt = Date.now();
        let nextBackoff = backoffMs;
        for (const message of conn.subscribe) socket.send(message);
        const { heartbeat } = this.plan;
        const silenceMs = this.opts.silenceMs ?? 60_000;
        const watch = setInterval(
          () => {
            const quiet = Date.now() - lastFrameAt;
            if (quiet > silenceMs) socket.terminate();
            else if (heartbeat && quiet >= heartbeat.afterMs) socket.send(heartbeat.text);
          },
          Math.min(heartbeat?.afterMs ?? 10_000, 10_000),
        );
        watch.unref?.();
        socket.on('message', (data, isBinary) => {
          lastFrameAt = Date.now();
          nextBackoff = 1000;
          if (isBinary) return;
          try {
            const patch = this.plan.onFrame(data.toString());
            if (patch.length) this.opts.onPatch(patch);
          } catch (err) {
            this.opts.onError?.(err);
          }
        });
        socket.on('error', (err) => this.opts.onError?.(err));
        socket.on('close', () => {
          clearInterval(watch);
          this.sockets.delete(socket);
          this.setConnected(-1);
          this.plan.reset();
          if (!this.stopped) this.later(() => this.connect(conn, Math.min(nextBackoff * 2, 30_000)), nextBackoff * (0.5 + Math.random() / 2));
        });
      },
      (err: unknown) => {
        this.opts.onError?.(err);
        retry();
      },
    );
  }
}
