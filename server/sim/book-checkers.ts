/**
 * Client-style local order books, one per exchange, each kept in sync from the simulator the way the
 * exchange documents it (used by the book tests and `npm run soak:books`):
 * - binance: buffer `@depth@100ms`, GET /fapi/v1/depth, drop events with u < lastUpdateId, the first
 *   one must have U ≤ lastUpdateId + 1 and u ≥ lastUpdateId, then every pu == the previous u;
 * - bybit: `orderbook.N` snapshot (resets), then deltas with u = previous u + 1;
 * - okx: `books` snapshot, then updates with prevSeqId == the previous seqId, CRC32 checksum of each;
 * - bitmex: `orderBookL2_25` partial, then insert (new key) / update / delete (known key) by symbol,id,side.
 * Every applied message also checks the local book: bids descending, asks ascending, not crossed.
 * `verify()` compares the local book with a REST snapshot at the same version (call it with the clock still).
 */
import { crc32 } from 'node:zlib';
import WebSocket from 'ws';

export interface CheckerStats {
  exchange: string;
  symbol: string;
  /** Diff/delta messages applied after the snapshot. */
  updates: number;
  /** Sequence breaks (each one triggers a resync). */
  gaps: number;
  checksumFailures: number;
  /** Local book crossed or unsorted, or a BitMEX key inserted twice / changed before it existed. */
  bookErrors: number;
  /** Local top of book ≠ a REST snapshot of the same version (verify()). */
  mismatches: number;
  resyncs: number;
  notes: string[];
}

type Side = Map<string, string>;

interface LocalBook {
  bids: Side;
  asks: Side;
}

const sorted = (side: Side, desc: boolean): Array<[string, string]> => [...side].sort((a, b) => (desc ? Number(b[0]) - Number(a[0]) : Number(a[0]) - Number(b[0])));

function sane(b: LocalBook): boolean {
  const bid = Math.max(...[...b.bids.keys()].map(Number));
  const ask = Math.min(...[...b.asks.keys()].map(Number));
  return !(b.bids.size && b.asks.size) || bid < ask;
}

function apply(side: Side, levels: Array<[string, string, ...unknown[]]>): void {
  for (const [p, s] of levels) {
    if (Number(s) === 0) side.delete(p);
    else side.set(p, s);
  }
}

/** Compares the top `n` levels (by numeric price and size) of two books. */
function sameTop(a: LocalBook, bids: Array<[string, string, ...unknown[]]>, asks: Array<[string, string, ...unknown[]]>, n: number): boolean {
  const norm = (l: Array<[string, string, ...unknown[]]>) => l.slice(0, n).map(([p, s]) => `${Number(p)}:${Number(s)}`).join(',');
  return norm(sorted(a.bids, true)) === norm(bids) && norm(sorted(a.asks, false)) === norm(asks);
}

export interface BookChecker {
  stats: CheckerStats;
  /** Connects and subscribes; the book syncs as messages arrive. */
  start(): Promise<void>;
  /** Compares the local book with a REST snapshot (meaningful when the clock is not moving). */
  verify(): Promise<boolean>;
  close(): void;
}

abstract class Base implements BookChecker {
  readonly stats: CheckerStats;
  protected socket: WebSocket | null = null;
  protected book: LocalBook = { bids: new Map(), asks: new Map() };

  constructor(
    protected readonly http: string,
    protected readonly ws: string,
    exchange: string,
    symbol: string,
  ) {
    this.stats = { exchange, symbol, updates: 0, gaps: 0, checksumFailures: 0, bookErrors: 0, mismatches: 0, resyncs: 0, notes: [] };
  }

  protected note(msg: string): void {
    if (this.stats.notes.length < 20) this.stats.notes.push(msg);
  }

  protected check(): void {
    if (!sane(this.book)) {
      this.stats.bookErrors += 1;
      this.note('local book crossed');
    }
  }

  protected async getJson<T>(path: string): Promise<T> {
    const r = await fetch(this.http + path);
    return (await r.json()) as T;
  }

  protected connect(url: string, onOpen: (s: WebSocket) => void, onFrame: (f: unknown) => void): Promise<void> {
    return new Promise((resolve, reject) => {
      const s = new WebSocket(url);
      this.socket = s;
      s.on('message', (raw) => {
        let f: unknown;
        try {
          f = JSON.parse(raw.toString());
        } catch {
          return;
        }
        try {
          onFrame(f);
        } catch (err) {
          this.note(`handler: ${String(err)}`);
        }
      });
      s.once('open', () => {
        onOpen(s);
        resolve();
      });
      s.once('error', reject);
    });
  }

  abstract start(): Promise<void>;
  abstract verify(): Promise<boolean>;

  close(): void {
    this.socket?.terminate();
  }
}

interface BinanceDepthEvent {
  U: number;
  u: number;
  pu: number;
  b: Array<[string, string]>;
  a: Array<[string, string]>;
}

export class BinanceChecker extends Base {
  private buffer: BinanceDepthEvent[] | null = [];
  private lastU = -1;
  private syncing = false;

  constructor(http: string, ws: string, symbol = 'BTCUSDT') {
    super(http, ws, 'binance', symbol);
  }

  async start(): Promise<void> {
    await this.connect(`${this.ws}/sim/binance/market/ws/${this.stats.symbol.toLowerCase()}@depth@100ms`, () => undefined, (f) => this.onEvent(f as BinanceDepthEvent));
    await this.resync();
  }

  private async resync(): Promise<void> {
    if (this.syncing) return;
    this.syncing = true;
    this.stats.resyncs += 1;
    this.pendingFirst = null;
    this.buffer = [];
    const snap = await this.getJson<{ lastUpdateId: number; bids: Array<[string, string]>; asks: Array<[string, string]> }>(`/sim/binance/fapi/v1/depth?symbol=${this.stats.symbol}&limit=1000`);
    this.book = { bids: new Map(snap.bids), asks: new Map(snap.asks) };
    this.check();
    const buffered = this.buffer;
    this.buffer = null;
    this.lastU = -1;
    let first = true;
    for (const e of buffered) {
      if (e.u < snap.lastUpdateId) continue;
      if (first) {
        first = false;
        if (!(e.U <= snap.lastUpdateId + 1 && e.u >= snap.lastUpdateId)) {
          this.gap(`first event U=${e.U} u=${e.u} vs lastUpdateId=${snap.lastUpdateId}`);
          return;
        }
        this.applyEvent(e);
      } else this.onEvent(e);
    }
    this.lastU = this.lastU < 0 ? snap.lastUpdateId : this.lastU;
    this.pendingFirst = first ? snap.lastUpdateId : null;
    this.syncing = false;
  }

  /** Set while no event was applied since the snapshot: the next event must straddle lastUpdateId. */
  private pendingFirst: number | null = null;

  private gap(msg: string): void {
    this.stats.gaps += 1;
    this.note(msg);
    this.syncing = false;
    void this.resync().catch((err: unknown) => this.note(`resync: ${String(err)}`));
  }

  private applyEvent(e: BinanceDepthEvent): void {
    apply(this.book.bids, e.b);
    apply(this.book.asks, e.a);
    this.lastU = e.u;
    this.stats.updates += 1;
    this.check();
  }

  private onEvent(e: BinanceDepthEvent): void {
    if (this.buffer) {
      this.buffer.push(e);
      return;
    }
    if (this.pendingFirst !== null) {
      const last = this.pendingFirst;
      if (e.u < last) return;
      this.pendingFirst = null;
      if (!(e.U <= last + 1 && e.u >= last)) return this.gap(`first event U=${e.U} u=${e.u} vs lastUpdateId=${last}`);
      return this.applyEvent(e);
    }
    if (e.pu !== this.lastU) return this.gap(`pu=${e.pu} ≠ previous u=${this.lastU}`);
    this.applyEvent(e);
  }

  async verify(): Promise<boolean> {
    const snap = await this.getJson<{ lastUpdateId: number; bids: Array<[string, string]>; asks: Array<[string, string]> }>(`/sim/binance/fapi/v1/depth?symbol=${this.stats.symbol}&limit=1000`);
    if (snap.lastUpdateId !== this.lastU) {
      this.note(`verify: REST lastUpdateId ${snap.lastUpdateId} ≠ local u ${this.lastU}`);
      return false;
    }
    const ok = sameTop(this.book, snap.bids, snap.asks, 1000);
    if (!ok) this.stats.mismatches += 1;
    return ok;
  }
}

interface BybitFrame {
  topic?: string;
  type?: 'snapshot' | 'delta';
  data?: { b: Array<[string, string]>; a: Array<[string, string]>; u: number; seq: number };
}

export class BybitChecker extends Base {
  private u = -1;
  private seq = -1;

  constructor(
    http: string,
    ws: string,
    symbol = 'BTCUSDT',
    private readonly depth = 50,
  ) {
    super(http, ws, 'bybit', symbol);
  }

  async start(): Promise<void> {
    const topic = `orderbook.${this.depth}.${this.stats.symbol}`;
    await this.connect(`${this.ws}/sim/bybit/v5/public/linear`, (s) => s.send(JSON.stringify({ op: 'subscribe', args: [topic] })), (f) => this.onFrame(f as BybitFrame));
  }

  private onFrame(f: BybitFrame): void {
    if (!f.topic?.startsWith('orderbook.') || !f.data) return;
    const d = f.data;
    if (f.type === 'snapshot') {
      this.stats.resyncs += 1;
      this.book = { bids: new Map(d.b), asks: new Map(d.a) };
    } else {
      if (this.u < 0) return;
      if (d.u !== this.u + 1) {
        this.stats.gaps += 1;
        this.note(`u=${d.u} after ${this.u}`);
      }
      if (d.seq <= this.seq) this.note(`seq ${d.seq} not increasing after ${this.seq}`);
      apply(this.book.bids, d.b);
      apply(this.book.asks, d.a);
      this.stats.updates += 1;
    }
    this.u = d.u;
    this.seq = d.seq;
    this.check();
  }

  async verify(): Promise<boolean> {
    const r = await this.getJson<{ result: { b: Array<[string, string]>; a: Array<[string, string]>; u: number } }>(
      `/sim/bybit/v5/market/orderbook?category=linear&symbol=${this.stats.symbol}&limit=${Math.min(this.depth, 500)}`,
    );
    if (r.result.u !== this.u) {
      this.note(`verify: REST u ${r.result.u} ≠ local u ${this.u}`);
      return false;
    }
    const ok = sameTop(this.book, r.result.b, r.result.a, this.depth);
    if (!ok) this.stats.mismatches += 1;
    return ok;
  }
}

type OkxLevel = [string, string, string, string];
interface OkxFrame {
  arg?: { channel: string };
  action?: 'snapshot' | 'update';
  data?: Array<{ bids: OkxLevel[]; asks: OkxLevel[]; checksum: number; prevSeqId: number; seqId: number }>;
}

/** OKX's documented checksum over a local book (the strings as received). */
export function okxLocalChecksum(bids: Array<[string, string]>, asks: Array<[string, string]>): number {
  const parts: string[] = [];
  for (let i = 0; i < 25; i++) {
    if (i < bids.length) parts.push(`${bids[i][0]}:${bids[i][1]}`);
    if (i < asks.length) parts.push(`${asks[i][0]}:${asks[i][1]}`);
  }
  return crc32(Buffer.from(parts.join(':'))) | 0;
}

export class OkxChecker extends Base {
  private seqId = -1;

  constructor(http: string, ws: string, symbol = 'BTC-USDT-SWAP') {
    super(http, ws, 'okx', symbol);
  }

  async start(): Promise<void> {
    await this.connect(
      `${this.ws}/sim/okx/ws/v5/public`,
      (s) => s.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'books', instId: this.stats.symbol }] })),
      (f) => this.onFrame(f as OkxFrame),
    );
  }

  private onFrame(f: OkxFrame): void {
    if (f.arg?.channel !== 'books' || !f.data?.[0]) return;
    const d = f.data[0];
    if (f.action === 'snapshot') {
      this.stats.resyncs += 1;
      this.book = { bids: new Map(d.bids.map(([p, s]) => [p, s])), asks: new Map(d.asks.map(([p, s]) => [p, s])) };
    } else {
      if (this.seqId < 0) return;
      if (d.prevSeqId !== this.seqId) {
        this.stats.gaps += 1;
        this.note(`prevSeqId=${d.prevSeqId} ≠ ${this.seqId}`);
      }
      apply(this.book.bids, d.bids);
      apply(this.book.asks, d.asks);
      this.stats.updates += 1;
    }
    this.seqId = d.seqId;
    const sum = okxLocalChecksum(sorted(this.book.bids, true).slice(0, 25), sorted(this.book.asks, false).slice(0, 25));
    if (sum !== d.checksum) {
      this.stats.checksumFailures += 1;
      this.note(`checksum ${sum} ≠ ${d.checksum} at seqId ${d.seqId}`);
    }
    this.check();
  }

  async verify(): Promise<boolean> {
    const r = await this.getJson<{ data: Array<{ bids: OkxLevel[]; asks: OkxLevel[] }> }>(`/sim/okx/api/v5/market/books?instId=${this.stats.symbol}&sz=400`);
    const ok = sameTop(this.book, r.data[0].bids, r.data[0].asks, 400);
    if (!ok) this.stats.mismatches += 1;
    return ok;
  }
}

interface L2Row {
  symbol: string;
  id: number;
  side: 'Buy' | 'Sell';
  size?: number;
  price?: number;
}
interface BitmexFrame {
  table?: string;
  action?: 'partial' | 'insert' | 'update' | 'delete';
  data?: L2Row[];
}

export class BitmexChecker extends Base {
  private rows = new Map<string, L2Row>();
  private partial = false;

  constructor(
    http: string,
    ws: string,
    symbol = 'XBTUSD',
    private readonly table: 'orderBookL2_25' | 'orderBookL2' = 'orderBookL2_25',
  ) {
    super(http, ws, 'bitmex', symbol);
  }

  async start(): Promise<void> {
    await this.connect(`${this.ws}/sim/bitmex/realtime?subscribe=${this.table}:${this.stats.symbol}`, () => undefined, (f) => this.onFrame(f as BitmexFrame));
  }

  private key = (r: L2Row) => `${r.symbol}|${r.id}|${r.side}`;

  private onFrame(f: BitmexFrame): void {
    if (f.table !== this.table || !f.data) return;
    if (f.action === 'partial') {
      this.partial = true;
      this.stats.resyncs += 1;
      this.rows = new Map(f.data.map((r) => [this.key(r), r]));
    } else {
      if (!this.partial) return;
      for (const r of f.data) {
        const k = this.key(r);
        const had = this.rows.get(k);
        if (f.action === 'insert') {
          if (had) this.bad(`insert of an existing key ${k}`);
          this.rows.set(k, r);
        } else if (f.action === 'update') {
          if (!had) this.bad(`update of an unknown key ${k}`);
          else this.rows.set(k, { ...had, ...r });
        } else if (f.action === 'delete') {
          if (!had) this.bad(`delete of an unknown key ${k}`);
          this.rows.delete(k);
        }
      }
      this.stats.updates += 1;
    }
    this.book = { bids: new Map(), asks: new Map() };
    for (const r of this.rows.values()) {
      if (this.stats.symbol === 'XBTUSD' && r.price !== undefined && r.id !== 8_800_000_000 - Math.round(r.price * 100)) this.bad(`id ${r.id} does not match price ${r.price}`);
      (r.side === 'Buy' ? this.book.bids : this.book.asks).set(String(r.price), String(r.size));
    }
    this.check();
  }

  private bad(msg: string): void {
    this.stats.bookErrors += 1;
    this.note(msg);
  }

  async verify(): Promise<boolean> {
    const rows = await this.getJson<L2Row[]>(`/sim/bitmex/api/v1/orderBook/L2?symbol=${this.stats.symbol}&depth=25`);
    const side = (s: 'Buy' | 'Sell') => rows.filter((r) => r.side === s).map((r) => [String(r.price), String(r.size)] as [string, string]);
    const asks = side('Sell').reverse();
    const ok = sameTop(this.book, side('Buy'), asks, 25);
    if (!ok) this.stats.mismatches += 1;
    return ok;
  }
}

export function allCheckers(http: string, ws: string): BookChecker[] {
  return [new BinanceChecker(http, ws), new BybitChecker(http, ws), new OkxChecker(http, ws), new BitmexChecker(http, ws)];
}
