/**
 * Binance USDⓈ-M (binance.md §2, "How to manage a local order book correctly"): open
 * `<ws>/public/ws/<sym>@depth@100ms` and buffer its events, GET `/fapi/v1/depth?limit=1000`, drop
 * buffered events with `u` < `lastUpdateId`, the first applied one must straddle it
 * (`U` ≤ lastUpdateId + 1 ≤ … `u` ≥ lastUpdateId), then each event's `pu` must equal the previous `u`;
 * anything else is a gap → buffer again and take a new snapshot. Trades: `<ws>/market/ws/<sym>@aggTrade`
 * (the routed `/market` path since 2026; depth lives on `/public`).
 */
import { buildUrl } from '../../http';
import { resolveWsBase } from '../../ws-connection';
import { applyRows, isObject, parseJson, type OrderFlowSocket, type ProtocolContext } from '../protocol';

interface DepthEvent {
  U: number;
  u: number;
  pu: number;
  b: unknown;
  a: unknown;
}

const HEARTBEAT = { mode: 'none', everyMs: 0, timeoutMs: 120_000 } as const;
/** A snapshot that could not be read is asked again after this long (the socket keeps buffering). */
const SNAPSHOT_RETRY_MS = 1_000;

function isDepth(v: unknown): v is DepthEvent {
  return isObject(v) && v.e === 'depthUpdate' && typeof v.U === 'number' && typeof v.u === 'number' && typeof v.pu === 'number';
}

/** The documented sync procedure over the depth stream and the REST snapshot. */
class DepthSync {
  /** Non-null while a snapshot is awaited: events wait here. */
  private buffer: DepthEvent[] | null = null;
  /** Set after a snapshot until the first event is applied: that event must straddle it. */
  private pendingFirst: number | null = null;
  private lastU = -1;
  /** Bumped by every resync, reconnection and close: a snapshot answer for an older one is dropped. */
  private generation = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly ctx: ProtocolContext) {}

  async resync(): Promise<void> {
    const { sink } = this.ctx;
    const gen = ++this.generation;
    clearTimeout(this.retry);
    this.buffer = [];
    this.pendingFirst = null;
    let snap: unknown;
    try {
      const res = await sink.fetch(buildUrl(this.ctx.restBase, '/fapi/v1/depth', { symbol: this.ctx.wireSymbol, limit: 1000 }), { credentials: 'omit' });
      snap = await res.json();
      // Busy or failing (429, 5xx): asked again, as a network error is; anything else (an unknown symbol) is final.
      if (!res.ok && (res.status === 429 || res.status >= 500)) throw new Error(`HTTP ${res.status}`);
      if (!res.ok) return sink.refused(isObject(snap) && typeof snap.msg === 'string' ? snap.msg : `binance answered HTTP ${res.status}`);
    } catch {
      if (gen === this.generation) this.retry = setTimeout(() => void this.resync(), SNAPSHOT_RETRY_MS);
      return;
    }
    if (gen !== this.generation || !isObject(snap) || typeof snap.lastUpdateId !== 'number') return;
    sink.book.clear();
    applyRows(sink.book, 0, snap.bids);
    applyRows(sink.book, 1, snap.asks);
    const buffered = this.buffer ?? [];
    this.buffer = null;
    this.lastU = snap.lastUpdateId;
    this.pendingFirst = snap.lastUpdateId;
    for (const e of buffered) {
      this.depth(e);
      if (this.buffer) return; // the buffered events had a gap: a new snapshot is under way
    }
    sink.synced();
  }

  depth(e: DepthEvent): void {
    if (this.buffer) {
      this.buffer.push(e);
      return;
    }
    if (this.pendingFirst !== null) {
      if (e.u < this.pendingFirst) return;
      const last = this.pendingFirst;
      this.pendingFirst = null;
      if (!(e.U <= last + 1 && e.u >= last)) return this.gap(`first event U=${e.U} u=${e.u} vs lastUpdateId=${last}`);
      return this.apply(e);
    }
    if (e.pu !== this.lastU) return this.gap(`pu=${e.pu} ≠ previous u=${this.lastU}`);
    this.apply(e);
  }

  close(): void {
    this.generation += 1;
    clearTimeout(this.retry);
  }

  private apply(e: DepthEvent): void {
    applyRows(this.ctx.sink.book, 0, e.b);
    applyRows(this.ctx.sink.book, 1, e.a);
    this.lastU = e.u;
    this.ctx.sink.changed();
  }

  private gap(note: string): void {
    this.ctx.sink.broken('gap', note);
    void this.resync();
  }
}

export function binanceSockets(ctx: ProtocolContext, location: { protocol: string; host: string } | undefined): OrderFlowSocket[] {
  const { sink } = ctx;
  const sym = ctx.wireSymbol.toLowerCase();
  const ws = resolveWsBase(ctx.wsBase, location);
  const sync = new DepthSync(ctx);
  const bookSocket: OrderFlowSocket = {
    url: `${ws}/public/ws/${sym}@depth@100ms`,
    heartbeat: HEARTBEAT,
    book: true,
    open: () => void sync.resync(),
    message(text) {
      const f = parseJson(text);
      if (isDepth(f)) sync.depth(f);
    },
    close: () => sync.close(),
  };
  const tradeSocket: OrderFlowSocket = {
    url: `${ws}/market/ws/${sym}@aggTrade`,
    heartbeat: HEARTBEAT,
    book: false,
    open: () => undefined,
    message(text) {
      const t = parseJson(text);
      if (!isObject(t) || t.e !== 'aggTrade' || typeof t.p !== 'string' || typeof t.q !== 'string' || typeof t.T !== 'number') return;
      // `m`: the buyer is the maker, so the taker sold.
      if (sink.trades.push(t.T, t.p, t.q, t.m === true ? 'sell' : 'buy', String(t.a))) sink.changed();
    },
  };
  return [bookSocket, tradeSocket];
}
