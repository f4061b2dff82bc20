import { ASSETS, volumeContractSize, type SimExchange, type SimInstrument } from './catalogue';
import { hashIndex, hashString, subSalt, uniform } from './hash';
import type { SimMarket } from './market';

/**
 * The synthetic order book: one exchange-neutral model, four wire formats (`<exchange>/book.ts`).
 *
 * The book changes in discrete VERSIONS of `BOOK_VERSION_MS` (version v = the book as of time
 * v × 100 ms), so every reader — a REST snapshot, any socket, any connection — sees the same book at
 * the same version, and sequence numbers can be pure functions of the version (`updateId`).
 *
 * Book at version v (prices in ticks, sizes in lot steps, like the rest of the market):
 * - the touch comes from the tape: the last trade at or before v's time printed AT the touch — at
 *   the ask when its taker bought, at the bid when it sold — and the spread (≥ 1 tick, wider on thin
 *   instruments, now and then wider still) opens on the other side. So best bid < last ≤ … and the
 *   mid is within half a spread of the last price, and the book follows the price path.
 * - levels live at absolute prices: whether price p holds a level is a hash of p, with a density that
 *   falls from 1 at the touch to ¼ a few basis points away; its size is a per-price heavy-tailed base
 *   (a few "walls") × a depth profile × a factor that is redrawn every 200 ms at the touch, every few
 *   seconds deeper (each price on its own phase). When the price moves, the levels it crosses are
 *   consumed and new ones appear behind it, as in a real book.
 * - `BOOK_LEVELS` levels per side; the paper accounts' resting limit orders are added on top
 *   (`setRestingOrderSource`), at their prices, within the synthetic range and never crossing it.
 */

export const BOOK_VERSION_MS = 100;
/** Levels per side of the synthetic book (Binance's deepest snapshot). */
export const BOOK_LEVELS = 1000;
/** How many versions a stream replays one by one after a pause; beyond, it starts over (a new snapshot). */
export const MAX_REPLAY_VERSIONS = 600;

/** [price in ticks, size in lot steps]; a size of 0 in a change = the level is gone. */
export type Level = [price: number, steps: number];

export interface BookSides {
  /** Best (highest) first. */
  bids: Level[];
  /** Best (lowest) first. */
  asks: Level[];
}

export interface BookView extends BookSides {
  version: number;
  /** The version's time (ms): the book as of this instant. */
  time: number;
}

export const bookVersion = (t: number): number => Math.floor(t / BOOK_VERSION_MS);

/**
 * A monotonic update id for version v (Binance `u`/`lastUpdateId`, Bybit `seq`, OKX `seqId`): 8 per
 * version plus a hashed 0–7, so ids look like real ones (not every integer) and stay strictly increasing.
 */
export function updateId(v: number): number {
  return v * 8 + (hashIndex(0x0b00c, v) & 7);
}

/** A resting paper order as the book sees it. */
export interface RestingOrder {
  buy: boolean;
  /** Ticks. */
  price: number;
  /** Remaining size in lot steps. */
  steps: number;
}

type Source = (symbol: string) => RestingOrder[];

interface PaperState {
  /** Observed levels: `b:<price>` / `a:<price>` → steps. */
  current: Map<string, number>;
  seq: number;
  /** Which keys changed at each observation (seq), oldest first. */
  log: Array<{ seq: number; keys: string[] }>;
}

const LOG_KEEP = 2000;

/** One instrument's book model: synthetic versions (cached) plus the paper overlay. */
export class BookModel {
  private readonly cache = new Map<number, BookSides | null>();
  private readonly sExist: number;
  private readonly sSize: number;
  private readonly sWall: number;
  private readonly sPhase: number;
  private readonly sDyn: number;
  private readonly sSpread: number;
  /** Typical spread in ticks (≥ 1). */
  readonly spreadBase: number;
  /** Distance (ticks) over which the level density falls from 1 to ¼. */
  readonly densityScale: number;
  /** Typical size of a level near the touch, in lot steps. */
  readonly levelSteps: number;
  private readonly paper: PaperState = { current: new Map(), seq: 0, log: [] };

  constructor(
    private readonly market: SimMarket,
    readonly inst: SimInstrument,
    private readonly source: () => Source | undefined,
  ) {
    const salt = hashString(`${market.seed}|book|${inst.exchange}|${inst.symbol}`);
    [this.sExist, this.sSize, this.sWall, this.sPhase, this.sDyn, this.sSpread] = [1, 2, 3, 4, 5, 6].map((k) => subSalt(salt, k));
    const model = market.model(inst);
    const asset = ASSETS[inst.asset];
    const price = asset.price * inst.priceMultiplier;
    const priceTicks = price / model.tick;
    // Liquid instruments trade one tick wide; thin ones wider (relative spread ∝ 1/√activity).
    this.spreadBase = Math.max(1, (1.5e-6 / Math.sqrt(inst.activity)) * priceTicks);
    this.densityScale = Math.max(5, 2e-4 * priceTicks);
    const usd = (asset.usdPerMinute * inst.activity) / 40;
    const contract = volumeContractSize(inst);
    const qty = inst.category === 'inverse' ? usd / contract : usd / (price * contract);
    this.levelSteps = Math.max(1, qty / model.step);
  }

  /** The synthetic book at version v (null before the instrument's first trade). Cached. */
  synthetic(v: number): BookSides | null {
    const hit = this.cache.get(v);
    if (hit !== undefined) return hit;
    const book = this.compute(v);
    this.cache.set(v, book);
    if (this.cache.size > 64) this.cache.delete(this.cache.keys().next().value as number);
    return book;
  }

  private compute(v: number): BookSides | null {
    const t = v * BOOK_VERSION_MS;
    const last = this.market.lastTrade(this.inst, t);
    if (!last) return null;
    const u = uniform(this.sSpread, Math.floor(v / 5));
    const spread = Math.max(1, Math.round(this.spreadBase * (0.7 + 1.6 * u * u * u)));
    let bid = last.buy ? last.price - spread : last.price;
    if (bid < 1) bid = 1;
    const ask = bid + spread;
    const bids: Level[] = [];
    for (let p = bid; p >= 1 && bids.length < BOOK_LEVELS; p--) {
      const d = bid - p;
      if (d === 0 || this.exists(p, d)) bids.push([p, this.size(p, d, t)]);
    }
    const asks: Level[] = [];
    for (let p = ask; asks.length < BOOK_LEVELS; p++) {
      const d = p - ask;
      if (d === 0 || this.exists(p, d)) asks.push([p, this.size(p, d, t)]);
    }
    return { bids, asks };
  }

  private exists(p: number, d: number): boolean {
    return uniform(this.sExist, p) < 0.25 + 0.75 * Math.exp(-d / this.densityScale);
  }

  private size(p: number, d: number, t: number): number {
    const profile = 0.35 + 1.4 * (1 - Math.exp(-d / (2 * this.densityScale)));
    const base = 0.1 - Math.log(1 - uniform(this.sSize, p) * 0.995);
    const wall = uniform(this.sWall, p) < 0.015 ? 6 : 1;
    // Redrawn every 200 ms at the touch, every ~3 s from 60 levels deep; each price on its own phase.
    const period = 200 * (1 + Math.min(d, 60) / 4);
    const epoch = Math.floor((t + uniform(this.sPhase, p) * period) / period);
    const dyn = 0.4 + 1.2 * uniform(hashIndex(this.sDyn, p), epoch);
    return Math.max(1, Math.round(this.levelSteps * profile * base * wall * dyn));
  }

  /**
   * Reads the paper accounts' resting orders now and logs what changed since the previous read (by
   * anyone): a stream includes every level logged since its own previous read, so a client whose
   * REST snapshot saw an order that has gone since still gets the level corrected.
   */
  observePaper(): { levels: Map<string, number>; seq: number } {
    const src = this.source();
    const now = new Map<string, number>();
    if (src) {
      for (const o of src(this.inst.symbol)) {
        if (o.steps <= 0 || o.price < 1) continue;
        const key = `${o.buy ? 'b' : 'a'}:${o.price}`;
        now.set(key, (now.get(key) ?? 0) + o.steps);
      }
    }
    const st = this.paper;
    const changed: string[] = [];
    for (const [k, s] of now) if (st.current.get(k) !== s) changed.push(k);
    for (const k of st.current.keys()) if (!now.has(k)) changed.push(k);
    if (changed.length) {
      st.seq += 1;
      st.log.push({ seq: st.seq, keys: changed });
      if (st.log.length > LOG_KEEP) st.log.splice(0, st.log.length - LOG_KEEP);
      st.current = now;
    }
    return { levels: st.current, seq: st.seq };
  }

  /** Paper levels changed after observation `seq` (null: the log no longer reaches back that far). */
  paperChangedSince(seq: number): { bids: Set<number>; asks: Set<number> } | null {
    const log = this.paper.log;
    if (log.length && log[0].seq > seq + 1) return null;
    const bids = new Set<number>();
    const asks = new Set<number>();
    for (const e of log) {
      if (e.seq <= seq) continue;
      for (const k of e.keys) (k[0] === 'b' ? bids : asks).add(Number(k.slice(2)));
    }
    return { bids, asks };
  }

  /** The book at version v with the given paper levels added (within the synthetic range, never crossing). */
  merged(v: number, paper: Map<string, number>): BookSides | null {
    const syn = this.synthetic(v);
    if (!syn || paper.size === 0) return syn;
    const bestBid = syn.bids[0][0];
    const bestAsk = syn.asks[0][0];
    const lowBid = syn.bids[syn.bids.length - 1][0];
    const highAsk = syn.asks[syn.asks.length - 1][0];
    const addB = new Map<number, number>();
    const addA = new Map<number, number>();
    for (const [k, s] of paper) {
      const p = Number(k.slice(2));
      if (k[0] === 'b' && p < bestAsk && p >= lowBid) addB.set(p, s);
      if (k[0] === 'a' && p > bestBid && p <= highAsk) addA.set(p, s);
    }
    return { bids: addTo(syn.bids, addB, true), asks: addTo(syn.asks, addA, false) };
  }

  /** What a reader sees now: the current version with the paper orders as they are now. */
  view(now: number): BookView | null {
    const v = bookVersion(now);
    const book = this.merged(v, this.observePaper().levels);
    return book && { ...book, version: v, time: v * BOOK_VERSION_MS };
  }
}

function addTo(side: Level[], add: Map<number, number>, desc: boolean): Level[] {
  if (add.size === 0) return side;
  const out: Level[] = side.map(([p, s]) => {
    const extra = add.get(p);
    if (extra === undefined) return [p, s];
    add.delete(p);
    return [p, s + extra];
  });
  for (const [p, s] of add) out.push([p, s]);
  return out.sort((a, b) => (desc ? b[0] - a[0] : a[0] - b[0]));
}

const MODELS = new WeakMap<SimMarket, Map<string, BookModel>>();
const SOURCES = new WeakMap<SimMarket, Map<SimExchange, Source>>();

/** The book model of one instrument of this market (one per market and instrument, shared by all readers). */
export function bookOf(market: SimMarket, inst: SimInstrument): BookModel {
  let models = MODELS.get(market);
  if (!models) MODELS.set(market, (models = new Map()));
  const key = `${inst.exchange}:${inst.symbol}`;
  let m = models.get(key);
  if (!m) {
    m = new BookModel(market, inst, () => SOURCES.get(market)?.get(inst.exchange));
    models.set(key, m);
  }
  return m;
}

/** Plugs in where one exchange's resting paper orders come from (index.ts: the paper runtime). */
export function setRestingOrderSource(market: SimMarket, exchange: SimExchange, source: Source): void {
  let m = SOURCES.get(market);
  if (!m) SOURCES.set(market, (m = new Map()));
  m.set(exchange, source);
}

/** Open orders as the paper engine records them (decimal strings) → resting levels in ticks and lot steps. */
export function restingFromOrders(
  market: SimMarket,
  exchange: SimExchange,
  symbol: string,
  orders: ReadonlyArray<{ side: 'BUY' | 'SELL'; price: string | null; qty: string; filledQty: string; status: string }>,
): RestingOrder[] {
  const inst = market.instrument(exchange, symbol);
  if (!inst) return [];
  const m = market.model(inst);
  return orders.flatMap((o) => {
    // Only live limit orders rest in the book (not market orders, nor conditionals waiting for their trigger).
    if (o.price === null || (o.status !== 'NEW' && o.status !== 'PARTIALLY_FILLED')) return [];
    const steps = Math.round((Number(o.qty) - Number(o.filledQty)) / m.step);
    return steps > 0 ? [{ buy: o.side === 'BUY', price: Math.round(Number(o.price) / m.tick), steps }] : [];
  });
}

/** The top `depth` levels per side. */
export const topOf = (b: BookSides, depth: number): BookSides =>
  b.bids.length <= depth && b.asks.length <= depth ? b : { bids: b.bids.slice(0, depth), asks: b.asks.slice(0, depth) };

/** Levels of `next` that differ from `prev` (new or resized), and those of `prev` gone from `next` (size 0). */
export function diffSide(prev: Level[], next: Level[]): Level[] {
  const before = new Map(prev);
  const out: Level[] = [];
  for (const [p, s] of next) {
    if (before.get(p) !== s) out.push([p, s]);
    before.delete(p);
  }
  for (const p of before.keys()) out.push([p, 0]);
  return out;
}

export interface BookDelta extends BookSides {
  /** The version this delta brings the book to; the previous message's version is `prevVersion`. */
  version: number;
  prevVersion: number;
  /** The full (depth-limited) book after this delta. */
  book: BookSides;
}

/**
 * Snapshot-then-delta for one socket subscription (Bybit, OKX, BitMEX, Binance partial depth):
 * `poll` returns the snapshot first, then one delta PER VERSION since the previous poll, each the
 * exact difference from what was sent before (levels entering or leaving the top `depth` included).
 * After a pause longer than `MAX_REPLAY_VERSIONS` it returns a new snapshot.
 */
export class BookDeltaStream {
  private sent: BookSides | null = null;
  private lastVersion = -1;

  constructor(
    readonly book: BookModel,
    readonly depth: number,
    /** Send a paper order's change at once, under the same version (BitMEX: no sequence numbers); else with the next version. */
    private readonly sameVersionUpdates = false,
  ) {}

  poll(now: number): { snapshot: BookView | null; deltas: BookDelta[] } {
    const v = bookVersion(now);
    const paper = this.book.observePaper().levels;
    if (!this.sent || v - this.lastVersion > MAX_REPLAY_VERSIONS) {
      const b = this.book.merged(v, paper);
      if (!b) return { snapshot: null, deltas: [] };
      this.sent = topOf(b, this.depth);
      this.lastVersion = v;
      return { snapshot: { ...this.sent, version: v, time: v * BOOK_VERSION_MS }, deltas: [] };
    }
    const deltas: BookDelta[] = [];
    const from = this.lastVersion;
    // The paper overlay is read once per poll: a change to it shows in the first version emitted.
    for (let w = from + 1; w <= v; w++) {
      const b = this.book.merged(w, paper);
      if (!b) continue;
      const next = topOf(b, this.depth);
      deltas.push({ version: w, prevVersion: this.lastVersion, bids: diffSide(this.sent.bids, next.bids), asks: diffSide(this.sent.asks, next.asks), book: next });
      this.sent = next;
      this.lastVersion = w;
    }
    if (this.sameVersionUpdates && v === from) {
      // Same version, but a paper order may have moved: send it under the same version.
      const b = this.book.merged(v, paper);
      if (b) {
        const next = topOf(b, this.depth);
        const bids = diffSide(this.sent.bids, next.bids);
        const asks = diffSide(this.sent.asks, next.asks);
        if (bids.length || asks.length) {
          deltas.push({ version: v, prevVersion: v, bids, asks, book: next });
          this.sent = next;
        }
      }
    }
    return { snapshot: null, deltas };
  }
}

/**
 * Binance's diff-depth stream: one event per cadence covering versions (prevVersion, version], with
 * every level that changed in ANY of those versions (or whose paper orders changed) at its final
 * size. Whatever version a client's REST snapshot is at inside that range, applying the event gives
 * the exact book — which is what the documented "buffer, snapshot, drop u < lastUpdateId" procedure needs.
 * The first poll only starts the stream (nothing to send: the client's book comes from REST).
 */
export class BookDiffStream {
  private sent: BookSides | null = null;
  private lastVersion = -1;
  private paperSeq = 0;

  constructor(readonly book: BookModel) {}

  poll(now: number): BookDelta | null {
    const v = bookVersion(now);
    const obs = this.book.observePaper();
    if (!this.sent) {
      const b = this.book.merged(v, obs.levels);
      if (!b) return null;
      this.sent = b;
      this.lastVersion = v;
      this.paperSeq = obs.seq;
      return null;
    }
    if (v <= this.lastVersion) return null;
    const final = this.book.merged(v, obs.levels);
    if (!final) return null;
    const bidSet = new Set<number>();
    const askSet = new Set<number>();
    const add = (bids: Level[], asks: Level[]) => {
      for (const [p] of bids) bidSet.add(p);
      for (const [p] of asks) askSet.add(p);
    };
    if (v - this.lastVersion <= MAX_REPLAY_VERSIONS) {
      let prev = this.book.synthetic(this.lastVersion);
      for (let w = this.lastVersion + 1; w <= v; w++) {
        const cur = this.book.synthetic(w);
        if (prev && cur) add(diffSide(prev.bids, cur.bids), diffSide(prev.asks, cur.asks));
        prev = cur;
      }
    }
    const paper = this.book.paperChangedSince(this.paperSeq);
    if (paper) {
      for (const p of paper.bids) bidSet.add(p);
      for (const p of paper.asks) askSet.add(p);
    }
    add(diffSide(this.sent.bids, final.bids), diffSide(this.sent.asks, final.asks));
    const finalB = new Map(final.bids);
    const finalA = new Map(final.asks);
    const bids: Level[] = [...bidSet].sort((a, b) => b - a).map((p) => [p, finalB.get(p) ?? 0]);
    const asks: Level[] = [...askSet].sort((a, b) => a - b).map((p) => [p, finalA.get(p) ?? 0]);
    const delta: BookDelta = { version: v, prevVersion: this.lastVersion, bids, asks, book: final };
    this.sent = final;
    this.lastVersion = v;
    this.paperSeq = obs.seq;
    return delta;
  }
}

/** Best bid/ask per version since the previous poll, only when they changed (bookTicker, bbo-tbt). */
export class TopOfBookStream {
  private last = '';
  private lastVersion = -1;

  constructor(readonly book: BookModel) {}

  poll(now: number): Array<{ version: number; bid: Level; ask: Level }> {
    const v = bookVersion(now);
    const paper = this.book.observePaper().levels;
    const from = this.lastVersion < 0 || v - this.lastVersion > MAX_REPLAY_VERSIONS ? v - 1 : this.lastVersion;
    const out: Array<{ version: number; bid: Level; ask: Level }> = [];
    for (let w = from + 1; w <= v; w++) {
      const b = this.book.merged(w, paper);
      if (!b) continue;
      const key = `${b.bids[0].join()}|${b.asks[0].join()}`;
      if (key !== this.last) out.push({ version: w, bid: b.bids[0], ask: b.asks[0] });
      this.last = key;
    }
    if (v > this.lastVersion) this.lastVersion = v;
    return out;
  }
}
