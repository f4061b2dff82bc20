import type { ExchangeEndpoints } from '../../contracts/config';
import type { ExchangeId } from '../../contracts/common';
import { openReconnectingSocket, type ReconnectingSocket, type WebSocketCtor } from '../ws-connection';
import { LocalBook } from './local-book';
import type { FeedSink, OrderFlowSocket, ProtocolContext } from './protocol';
import { binanceSockets } from './protocols/binance';
import { bitmexSockets } from './protocols/bitmex';
import { bybitSockets } from './protocols/bybit';
import { okxSockets, okxWireSymbol } from './protocols/okx';
import { TradeRing } from './trade-ring';
import type { BookView, OrderFlowFeed, OrderFlowKey, OrderFlowOptions, OrderFlowStatus, TradePrint } from './types';

type Location = { protocol: string; host: string } | undefined;
const PROTOCOLS: Record<ExchangeId, (ctx: ProtocolContext, location: Location) => OrderFlowSocket[]> = {
  binance: binanceSockets,
  bybit: bybitSockets,
  okx: okxSockets,
  bitmex: bitmexSockets,
};

/** One repaint per animation frame: `requestAnimationFrame` in a browser, a 16 ms timer elsewhere. */
function scheduleFrame(run: () => void): () => void {
  const raf = (globalThis as { requestAnimationFrame?: (cb: () => void) => number }).requestAnimationFrame;
  const caf = (globalThis as { cancelAnimationFrame?: (id: number) => void }).cancelAnimationFrame;
  if (raf && caf) {
    const id = raf(run);
    return () => caf(id);
  }
  const t = setTimeout(run, 16);
  return () => clearTimeout(t);
}

/**
 * The feed of one exchange + pair + network: the exchange's protocol (`protocols/*.ts`) writes into a
 * local book and a trades ring; panels read them at most once a frame. Created and shared by
 * `acquireOrderFlow` (registry.ts); `close()` when the last panel lets go.
 */
export class OrderFlowFeedImpl implements OrderFlowFeed {
  readonly stats = { gaps: 0, checksumFailures: 0, resyncs: 0, reconnects: 0 };
  private readonly local = new LocalBook();
  private readonly ring: TradeRing;
  private readonly view: BookView & { bids: BookView['bids'][number][]; asks: BookView['asks'][number][] };
  private readonly listeners = new Set<() => void>();
  private readonly sockets: ReconnectingSocket[] = [];
  private readonly specs: OrderFlowSocket[];
  private status: OrderFlowStatus = 'connecting';
  private error: string | undefined;
  private version = 0;
  private everSynced = false;
  private cancelFrame: (() => void) | null = null;
  private closed = false;

  constructor(
    readonly key: OrderFlowKey,
    endpoints: ExchangeEndpoints,
    options: OrderFlowOptions = {},
  ) {
    this.ring = new TradeRing(options.tradeCapacity ?? 500, options.aggregateMs ?? 5);
    this.view = { bids: [], asks: [], version: 0, status: 'connecting', tickSize: options.tickSize ?? '' };
    const WebSocketImpl = options.WebSocket ?? (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
    if (!WebSocketImpl) throw new Error('No WebSocket implementation: pass options.WebSocket');
    const browser = (globalThis as { location?: { protocol: string; host: string } }).location;
    const location = options.location ?? (browser?.host ? browser : undefined);
    const ctx: ProtocolContext = {
      key,
      wireSymbol: key.exchange === 'okx' ? okxWireSymbol(key.symbol) : key.symbol,
      restBase: key.testnet ? endpoints.restTestnet : endpoints.rest,
      wsBase: key.testnet ? endpoints.wsTestnet : endpoints.ws,
      sink: this.sinkFor(options),
    };
    this.specs = PROTOCOLS[key.exchange](ctx, location);
    for (const spec of this.specs) {
      this.sockets.push(openReconnectingSocket({
        url: spec.url,
        WebSocket: WebSocketImpl,
        heartbeat: spec.heartbeat,
        isPong: spec.isPong,
        backoff: options.backoff,
        onOpen: (send) => spec.open(send),
        onMessage: (text) => spec.message(text),
        onStatus: (s) => {
          if (!spec.book) return;
          if (s === 'reconnecting' && this.status !== 'reconnecting' && this.status !== 'error') {
            if (this.everSynced) this.stats.reconnects += 1;
            this.setStatus('reconnecting');
          } else if (s === 'open' && this.status === 'reconnecting') this.setStatus(this.everSynced ? 'resyncing' : 'connecting');
        },
      }));
    }
  }

  /** What the protocols call: the book, the ring and the status changes. */
  private sinkFor(options: OrderFlowOptions): FeedSink {
    return {
      book: this.local,
      trades: this.ring,
      fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
      synced: () => this.synced(),
      changed: () => this.changed(),
      broken: (kind) => {
        if (kind === 'gap') this.stats.gaps += 1;
        else this.stats.checksumFailures += 1;
        this.setStatus('resyncing');
      },
      refused: (message) => {
        this.error = message;
        this.setStatus('error');
      },
    };
  }

  private synced(): void {
    if (this.everSynced && this.status !== 'live') this.stats.resyncs += 1;
    this.everSynced = true;
    this.error = undefined;
    this.setStatus('live');
    this.changed();
  }

  private changed(): void {
    this.version += 1;
    if (this.closed || this.cancelFrame) return;
    this.cancelFrame = scheduleFrame(() => {
      this.cancelFrame = null;
      for (const l of this.listeners) l();
    });
  }

  private setStatus(s: OrderFlowStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.changed();
  }

  setTickSize(tickSize: string): void {
    if (this.view.tickSize === tickSize) return;
    this.view.tickSize = tickSize;
    this.changed();
  }

  /** Drops the book's socket as a network failure would (tests; the panels never need it). */
  dropSocket(): void {
    this.sockets[0]?.drop();
  }

  close(): void {
    this.closed = true;
    this.cancelFrame?.();
    this.cancelFrame = null;
    for (const s of this.sockets) s.close();
    for (const spec of this.specs) spec.close?.();
    this.listeners.clear();
  }

  // OrderFlowFeed: what the panels call.
  book(depth = Infinity): BookView {
    const v = this.view;
    const [bids, asks] = this.local.sides;
    const nb = Math.min(depth, bids.length);
    const na = Math.min(depth, asks.length);
    v.bids.length = nb;
    v.asks.length = na;
    for (let i = 0; i < nb; i++) v.bids[i] = bids[i]!;
    for (let i = 0; i < na; i++) v.asks[i] = asks[i]!;
    v.version = this.version;
    v.status = this.status;
    v.error = this.error;
    return v;
  }

  trades(limit?: number): readonly TradePrint[] {
    return this.ring.newestFirst(limit);
  }

  onChange(listener: () => void): () => void {
    const l = () => listener();
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
}
