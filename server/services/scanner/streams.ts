import type WebSocket from 'ws';
import type { ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { binanceTicker, bitmexTicker, bybitTicker, okxTicker, type TickerFields } from './parsers';

/**
 * The exchanges' all-market ticker streams, consumed once per exchange by the server (never by each
 * browser), so 100 scanners cost an exchange one connection:
 * - binance `!ticker@arr` (every symbol that changed, each second) on `/market/stream`;
 * - bybit `tickers.<symbol>` for every perpetual on `/v5/public/linear` and `/inverse` (snapshot,
 *   then deltas of the changed fields only: merged here, trap 16);
 * - okx `tickers` per instId on `/ws/v5/public` (no all-market channel exists);
 * - bitmex the `instrument` table (every instrument: partial, then updates to merge).
 * Each frame becomes the changed rows' ticker fields through the same mappers as the REST answers.
 */

/** Opens a socket to `path` below the exchange's WebSocket root (live host, or the simulator in-process). */
export type OpenStreamSocket = (exchange: ExchangeId, path: string) => Promise<WebSocket>;

/** Ticker fields of the rows a frame changed, by the exchange's own symbol. */
export type StreamPatch = Array<[exchangeSymbol: string, fields: Partial<TickerFields>]>;

interface Connection {
  path: string;
  /** Sent on every (re)connect. */
  subscribe: string[];
}

export interface StreamPlan {
  connections: Connection[];
  /** Client heartbeat: text to send when the stream has been quiet for `afterMs` (binance: none, the server pings). */
  heartbeat: { afterMs: number; text: string } | null;
  onFrame(text: string): StreamPatch;
  /** Forget merged state (a reconnect starts from a new snapshot). */
  reset(): void;
}

/** Which ticker fields an exchange's stream keeps current (the others only move with REST refreshes). */
export const STREAM_FIELDS: Record<ExchangeId, readonly (keyof TickerFields)[]> = {
  binance: ['last', 'changePercent', 'quoteVolume', 'rangePercent'],
  okx: ['last', 'changePercent', 'quoteVolume', 'rangePercent'],
  bybit: ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime', 'openInterest'],
  bitmex: ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime', 'openInterest'],
};

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null; // heartbeats (`pong`) and anything else that is not JSON
  }
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function chunks<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let k = 0; k < list.length; k += size) out.push(list.slice(k, k + size));
  return out;
}

/** Subscriptions per message: bybit and okx cap args per request and per connection (bybit.md §2, okx.md §2). */
const ARGS_PER_MESSAGE = 100;

export function streamPlan(exchange: ExchangeId, instruments: readonly Instrument[]): StreamPlan {
  const bySymbol = new Map(instruments.map((i) => [i.exchangeSymbol, i]));
  switch (exchange) {
    case 'binance':
      return {
        connections: [{ path: '/market/stream?streams=!ticker@arr', subscribe: [] }],
        heartbeat: null,
        reset: () => undefined,
        onFrame(text) {
          const frame = parseJson(text);
          const data = isObject(frame) ? frame.data : frame;
          if (!Array.isArray(data)) return [];
          const out: StreamPatch = [];
          for (const e of data) if (isObject(e) && typeof e.s === 'string' && bySymbol.has(e.s)) out.push([e.s, binanceTicker(e)]);
          return out;
        },
      };
    case 'bybit': {
      const merged = new Map<string, Record<string, unknown>>();
      const topics = (category: 'linear' | 'inverse') => instruments.filter((i) => i.category === category).map((i) => `tickers.${i.exchangeSymbol}`);
      return {
        connections: (['linear', 'inverse'] as const)
          .map((category) => ({ path: `/v5/public/${category}`, subscribe: chunks(topics(category), ARGS_PER_MESSAGE).map((args) => JSON.stringify({ op: 'subscribe', args })) }))
          .filter((c) => c.subscribe.length > 0),
        heartbeat: { afterMs: 20_000, text: JSON.stringify({ op: 'ping' }) },
        // Not cleared: the two categories have their own connections, and every resubscription
        // starts with a snapshot that replaces its symbol's merged state anyway.
        reset: () => undefined,
        onFrame(text) {
          const frame = parseJson(text);
          if (!isObject(frame) || typeof frame.topic !== 'string' || !frame.topic.startsWith('tickers.') || !isObject(frame.data)) return [];
          const symbol = frame.topic.slice('tickers.'.length);
          const inst = bySymbol.get(symbol);
          if (!inst) return [];
          // A delta before its snapshot cannot be merged into anything: wait for the snapshot.
          const base = frame.type === 'snapshot' ? {} : merged.get(symbol);
          if (!base) return [];
          const next = { ...base, ...frame.data };
          merged.set(symbol, next);
          return [[symbol, bybitTicker(next, inst)]];
        },
      };
    }
    case 'okx': {
      const args = instruments.map((i) => ({ channel: 'tickers', instId: i.exchangeSymbol }));
      return {
        connections: [{ path: '/ws/v5/public', subscribe: chunks(args, ARGS_PER_MESSAGE).map((a) => JSON.stringify({ op: 'subscribe', args: a })) }],
        heartbeat: { afterMs: 20_000, text: 'ping' },
        reset: () => undefined,
        onFrame(text) {
          const frame = parseJson(text);
          if (!isObject(frame) || !isObject(frame.arg) || frame.arg.channel !== 'tickers' || !Array.isArray(frame.data)) return [];
          const out: StreamPatch = [];
          for (const t of frame.data) {
            const inst = isObject(t) && typeof t.instId === 'string' ? bySymbol.get(t.instId) : undefined;
            if (inst && isObject(t)) out.push([inst.exchangeSymbol, okxTicker(t, inst)]);
          }
          return out;
        },
      };
    }
    case 'bitmex': {
      const merged = new Map<string, Record<string, unknown>>();
      let partial = false;
      return {
        connections: [{ path: '/realtime', subscribe: [JSON.stringify({ op: 'subscribe', args: ['instrument'] })] }],
        heartbeat: { afterMs: 5_000, text: 'ping' },
        reset: () => {
          merged.clear();
          partial = false;
        },
        onFrame(text) {
          const frame = parseJson(text);
          if (!isObject(frame) || frame.table !== 'instrument' || !Array.isArray(frame.data)) return [];
          // Table diffs mean nothing before the partial that they apply to (trap 16).
          if (frame.action === 'partial') partial = true;
          else if (!partial) return [];
          const out: StreamPatch = [];
          for (const r of frame.data) {
            if (!isObject(r) || typeof r.symbol !== 'string') continue;
            const inst = bySymbol.get(r.symbol);
            if (!inst) continue;
            if (frame.action === 'delete') {
              merged.delete(r.symbol);
              continue;
            }
            const next = { ...(frame.action === 'update' ? merged.get(r.symbol) : undefined), ...r };
            merged.set(r.symbol, next);
            out.push([r.symbol, bitmexTicker(next, inst)]);
          }
          return out;
        },
      };
    }
  }
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

  private connect(conn: Connection, backoffMs: number): void {
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
