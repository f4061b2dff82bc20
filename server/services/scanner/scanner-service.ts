import type { ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { ScannerExchangeSnapshot, ScannerExchangeStatus, ScannerRow, ScannerRowPatch } from '../../../src/api/contracts/scanner';
import type { FetchLike, RestBase } from '../exchange-info';
import { ExchangeSource, failure, type ScannerUnavailableError } from './exchange-source';
import { baseRow, byExchangeSymbol, HOUR_MS, TICKER_FIELDS, type TickerFields } from './parsers';
import { LiveFeed, STREAM_FIELDS, type OpenStreamSocket, type StreamPatch } from './streams';

/**
 * The scanner's data (issue 14): every perpetual's 24 h ticker, funding and open interest, and its
 * ATR % over 14 × 1 h candles — fetched once per exchange for every user, not per user.
 *
 * - **Tickers**: the exchange's all-symbol REST endpoints, fresh for `tickersTtlMs` (30 s), then
 *   refreshed in the background while someone uses the exchange's rows (stale-while-revalidate).
 * - **ATR**: one candle request per pair, paced to the exchange's rate limits, once per hour (the
 *   ATR changes only when an hour closes); rows show null until the first round is done.
 * - **Shared** (DESIGN §6): with a shared store (Redis) every instance reads the same ticker and
 *   ATR entries, and a lock lets one instance fetch while the others wait for its result — N
 *   instances cost an exchange what one does.
 * - **Live**: while anyone watches an exchange, its all-market ticker stream (`streams.ts`) moves
 *   the rows between refreshes, and watchers get the changed fields.
 * - **Failures**: a slow or unreachable exchange keeps its last rows (status `stale`, message naming
 *   it); with nothing to show the call fails with 502/504 naming it. Other exchanges are unaffected.
 *   There is no fallback to other data: live mode never shows simulated rows.
 */

export interface ScannerSharedStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  /** Takes `key` for `ttlMs` unless someone holds it; true when taken. */
  lock(key: string, ttlMs: number): Promise<boolean>;
  unlock(key: string): Promise<void>;
}

export interface ScannerLog {
  warn(obj: object, msg: string): void;
}

export interface ScannerOptions {
  /** How REST calls are made (global fetch live; the simulator in-process in sim mode). */
  fetch: FetchLike;
  /** Where each exchange's REST API lives (mainnet: the scanner shows the real markets). */
  base: RestBase;
  /** The exchange's perpetuals (exchange-info, itself cached and shared). */
  instruments: (exchange: ExchangeId) => Promise<Instrument[]>;
  /** Opens the ticker streams; null = rows move only with REST refreshes. */
  openSocket?: OpenStreamSocket | null;
  shared?: ScannerSharedStore;
  /** Prefix of the shared keys (tests isolate runs with it). */
  keyPrefix?: string;
  /** Tickers are fresh this long (default 30 s). */
  tickersTtlMs?: number;
  /** Per upstream request (default 10 s); past it the exchange "did not answer in time" (504). */
  timeoutMs?: number;
  /** Pause between two candle requests to one exchange (its rate limit), ms. */
  candleGapMs?: Partial<Record<ExchangeId, number>>;
  /** Candle requests in flight per exchange (default 4). */
  candleConcurrency?: number;
  /** How often the background refresh looks at the exchanges in use (default 5 s). */
  tickMs?: number;
  /** A stream nobody watches closes after this long (default 60 s). */
  idleStopMs?: number;
  now?: () => number;
  log?: ScannerLog;
}

/** What a watcher of an exchange hears. */
export type ScannerEvent =
  | { type: 'snapshot'; exchange: ExchangeId; rows: ScannerRow[]; status: ScannerExchangeStatus }
  | { type: 'update'; exchange: ExchangeId; rows: ScannerRowPatch[] }
  | { type: 'status'; status: ScannerExchangeStatus };
export type ScannerListener = (event: ScannerEvent) => void;

interface TickerEntry {
  fetchedAt: number;
  /** Ticker fields by the exchange's own symbol; a field left out was not published this time. */
  tickers: Record<string, Partial<TickerFields>>;
}

interface AtrEntry {
  fetchedAt: number;
  /** The hour (ms, UTC) whose close the values include: the next hour's close makes them stale. */
  hour: number;
  values: Record<string, number | null>;
}

interface Board {
  exchange: ExchangeId;
  rows: Map<string, ScannerRow>;
  instruments: Map<string, Instrument>;
  atr: Map<string, number | null>;
  /** When a row's stream fields last moved (a REST answer older than that does not overwrite them). */
  streamAt: Map<string, number>;
  tickersAt: number | null;
  atrAt: number | null;
  atrHour: number | null;
  atrRetryAt: number;
  error: ScannerUnavailableError | null;
  live: boolean;
  listeners: Set<ScannerListener>;
  lastUsedAt: number;
  idleSince: number | null;
  feed: LiveFeed | null;
  /** The instruments the running feed subscribed (per-symbol streams must follow a changed list). */
  feedKey: string;
  feedStarting: Promise<void> | null;
  refreshing: Promise<void> | null;
  atrJob: Promise<void> | null;
  lastStatus: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export { LIVE_CANDLE_GAP_MS, ScannerUnavailableError } from './exchange-source';

export class ScannerService {
  private readonly boards = new Map<ExchangeId, Board>();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly prefix: string;
  private readonly source: ExchangeSource;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly opts: ScannerOptions) {
    this.ttlMs = opts.tickersTtlMs ?? 30_000;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.now = opts.now ?? Date.now;
    this.prefix = opts.keyPrefix ?? 'ct:scanner:v1:';
    this.source = new ExchangeSource({ ...opts, timeoutMs: this.timeoutMs, now: this.now });
  }

  /**
   * The exchange's rows and status. Fresh or stale rows answer at once (a stale set triggers one
   * background refresh); with nothing loaded yet this waits for the exchange, and fails with
   * 502/504 naming it when it cannot answer.
   */
  async snapshot(exchange: ExchangeId): Promise<ScannerExchangeSnapshot> {
    const b = this.board(exchange);
    b.lastUsedAt = this.now();
    this.startTimer();
    if (b.tickersAt === null) {
      await this.refreshTickers(b);
      if (b.tickersAt === null) throw b.error ?? failure(exchange, new Error('no answer'), this.timeoutMs);
    } else if (this.now() - b.tickersAt >= this.ttlMs) {
      void this.refreshTickers(b);
    }
    this.ensureAtr(b);
    return { exchange, rows: [...b.rows.values()].map((r) => ({ ...r })), status: this.status(b) };
  }

  /**
   * Calls `listener` with the exchange's changes (live ticks, refreshes, ATR, status) until the
   * returned function is called. The exchange's stream opens with its first watcher and closes a
   * while after its last one left.
   */
  watch(exchange: ExchangeId, listener: ScannerListener): () => void {
    const b = this.board(exchange);
    b.listeners.add(listener);
    b.idleSince = null;
    b.lastUsedAt = this.now();
    this.startTimer();
    void this.startFeed(b);
    return () => {
      b.listeners.delete(listener);
      if (b.listeners.size === 0) b.idleSince = this.now();
    };
  }

  /** Stops every stream and timer (the app closes it on shutdown). */
  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const b of this.boards.values()) {
      b.feed?.stop();
      b.feed = null;
      b.listeners.clear();
    }
  }

  // ------------------------------------------------------------------------------------ state

  private board(exchange: ExchangeId): Board {
    let b = this.boards.get(exchange);
    if (!b) {
      b = {
        exchange,
        rows: new Map(),
        instruments: new Map(),
        atr: new Map(),
        streamAt: new Map(),
        tickersAt: null,
        atrAt: null,
        atrHour: null,
        atrRetryAt: 0,
        error: null,
        live: false,
        listeners: new Set(),
        lastUsedAt: this.now(),
        idleSince: null,
        feed: null,
        feedKey: '',
        feedStarting: null,
        refreshing: null,
        atrJob: null,
        lastStatus: '',
      };
      this.boards.set(exchange, b);
    }
    return b;
  }

  private status(b: Board): ScannerExchangeStatus {
    return {
      exchange: b.exchange,
      state: b.tickersAt === null ? 'error' : b.error ? 'stale' : 'ok',
      message: b.error?.message ?? null,
      tickersAt: b.tickersAt,
      atrAt: b.atrAt,
      live: b.live,
    };
  }

  private emit(b: Board, event: ScannerEvent): void {
    for (const l of [...b.listeners]) {
      try {
        l(event);
      } catch (err) {
        this.opts.log?.warn({ err, exchange: b.exchange }, 'scanner listener failed');
      }
    }
  }

  private emitStatus(b: Board): void {
    const status = this.status(b);
    const key = JSON.stringify(status);
    if (key === b.lastStatus) return;
    b.lastStatus = key;
    this.emit(b, { type: 'status', status });
  }

  /** Writes `fields` into `row`; returns the patch of what changed (null: nothing). */
  private applyFields(row: ScannerRow, fields: Partial<ScannerRow>, skip: readonly string[] = []): ScannerRowPatch | null {
    let patch: ScannerRowPatch | null = null;
    for (const key of TICKER_FIELDS) {
      const v = roundForDisplay(key, fields[key]);
      if (v === undefined || skip.includes(key) || row[key] === v) continue;
      row[key] = v;
      (patch ??= { symbol: row.symbol })[key] = v;
    }
    const atr = roundForDisplay('atrPercent', fields.atrPercent);
    if (atr !== undefined && atr !== row.atrPercent) {
      row.atrPercent = atr;
      (patch ??= { symbol: row.symbol }).atrPercent = atr;
    }
    return patch;
  }

  private applyTickers(b: Board, entry: TickerEntry, instruments: Instrument[]): void {
    b.instruments = byExchangeSymbol(instruments);
    const streamed = b.live ? STREAM_FIELDS[b.exchange] : [];
    const patches: ScannerRowPatch[] = [];
    let structural = false;
    const seen = new Set<string>();
    for (const [xs, fields] of Object.entries(entry.tickers)) {
      const inst = b.instruments.get(xs);
      if (!inst) continue;
      seen.add(xs);
      let row = b.rows.get(xs);
      if (!row) {
        row = { ...baseRow(b.exchange, inst), atrPercent: b.atr.get(xs) ?? null };
        b.rows.set(xs, row);
        structural = true;
      }
      // Ticks newer than this answer (a shared entry can be seconds old) keep their values.
      const skip = (b.streamAt.get(xs) ?? 0) > entry.fetchedAt ? streamed : [];
      const patch = this.applyFields(row, fields, skip);
      if (patch) patches.push(patch);
    }
    for (const xs of [...b.rows.keys()]) {
      if (seen.has(xs)) continue;
      b.rows.delete(xs);
      structural = true;
    }
    b.tickersAt = entry.fetchedAt;
    // Per-symbol subscriptions (bybit, okx) must follow a changed instrument list.
    if (b.feed && instrumentsKey(b.instruments) !== b.feedKey) this.restartFeed(b);
    if (structural) {
      this.emit(b, { type: 'snapshot', exchange: b.exchange, rows: [...b.rows.values()].map((r) => ({ ...r })), status: this.status(b) });
    } else if (patches.length) {
      this.emit(b, { type: 'update', exchange: b.exchange, rows: patches });
    }
  }

  private applyStream(b: Board, patch: StreamPatch): void {
    const at = this.now();
    const patches: ScannerRowPatch[] = [];
    for (const [xs, fields] of patch) {
      const row = b.rows.get(xs);
      if (!row) continue; // a new listing: it appears with the next refresh
      b.streamAt.set(xs, at);
      const p = this.applyFields(row, fields);
      if (p) patches.push(p);
    }
    if (patches.length) this.emit(b, { type: 'update', exchange: b.exchange, rows: patches });
  }

  // ----------------------------------------------------------------------------- shared store

  private key(name: string): string {
    return `${this.prefix}${name}`;
  }

  private async readShared<T>(name: string, parse: (raw: unknown) => T | null): Promise<T | null> {
    const shared = this.opts.shared;
    if (!shared) return null;
    try {
      const raw = await shared.get(this.key(name));
      return raw ? parse(JSON.parse(raw)) : null;
    } catch {
      return null; // a store that is down or holds garbage: ask the exchange
    }
  }

  private async writeShared(name: string, value: unknown, ttlSeconds: number): Promise<void> {
    await this.opts.shared?.set(this.key(name), JSON.stringify(value), ttlSeconds).catch(() => undefined);
  }

  /** True when this instance may fetch (it holds the lock, or there is no shared store / it is down). */
  private async takeLock(name: string, ttlMs: number): Promise<boolean> {
    const shared = this.opts.shared;
    if (!shared) return true;
    return shared.lock(this.key(`lock:${name}`), ttlMs).catch(() => true);
  }

  private async releaseLock(name: string): Promise<void> {
    await this.opts.shared?.unlock(this.key(`lock:${name}`)).catch(() => undefined);
  }

  // ---------------------------------------------------------------------------------- tickers

  /** One refresh at a time per exchange; concurrent callers share it. Never throws: failures land in `b.error`. */
  private refreshTickers(b: Board): Promise<void> {
    b.refreshing ??= this.loadTickers(b)
      .then(
        () => {
          b.error = null;
        },
        (err: unknown) => {
          b.error = failure(b.exchange, err, this.timeoutMs);
          this.opts.log?.warn({ exchange: b.exchange, err }, 'scanner: ticker refresh failed; keeping the last rows');
        },
      )
      .finally(() => {
        b.refreshing = null;
        this.emitStatus(b);
      });
    return b.refreshing;
  }

  private async loadTickers(b: Board): Promise<void> {
    const name = `tickers:${b.exchange}`;
    const fresh = (e: TickerEntry | null): e is TickerEntry => e !== null && this.now() - e.fetchedAt < this.ttlMs;
    const instruments = await this.opts.instruments(b.exchange);
    let entry = await this.readShared(name, parseTickerEntry);
    if (!fresh(entry)) {
      const stale = entry;
      const mine = await this.takeLock(name, this.timeoutMs * 3);
      entry = null;
      if (!mine) {
        // Another instance is asking the exchange right now: use its answer when it lands.
        for (const until = Date.now() + this.timeoutMs + 1000; !entry && Date.now() < until; ) {
          await sleep(200);
          const seen = await this.readShared(name, parseTickerEntry);
          if (fresh(seen)) entry = seen;
        }
      }
      if (!entry) {
        try {
          entry = { fetchedAt: this.now(), tickers: Object.fromEntries(await this.source.tickers(b.exchange, instruments)) };
          // Kept a day for stale use when the exchange is down (the same as exchange-info).
          await this.writeShared(name, entry, 24 * 3600);
        } catch (err) {
          // Another instance's older answer is still better than nothing.
          if (stale && b.tickersAt === null) this.applyTickers(b, stale, instruments);
          throw err;
        } finally {
          if (mine) await this.releaseLock(name);
        }
      }
    }
    if (b.tickersAt === null || entry.fetchedAt >= b.tickersAt) this.applyTickers(b, entry, instruments);
  }

  // -------------------------------------------------------------------------------------- ATR

  /** Starts an ATR round when the values are missing or an hour has closed since (background). */
  private ensureAtr(b: Board): void {
    const hour = Math.floor(this.now() / HOUR_MS) * HOUR_MS;
    if (b.atrJob || b.atrHour === hour || this.now() < b.atrRetryAt || b.tickersAt === null) return;
    b.atrJob = this.loadAtr(b, hour)
      .catch((err: unknown) => {
        this.opts.log?.warn({ exchange: b.exchange, err }, 'scanner: ATR round failed; retrying in a minute');
        b.atrRetryAt = this.now() + 60_000;
      })
      .finally(() => {
        b.atrJob = null;
      });
  }

  private applyAtr(b: Board, values: Record<string, number | null>, fetchedAt: number, hour: number): void {
    const patches: ScannerRowPatch[] = [];
    for (const [xs, v] of Object.entries(values)) {
      b.atr.set(xs, v);
      const row = b.rows.get(xs);
      const p = row && this.applyFields(row, { atrPercent: v });
      if (p) patches.push(p);
    }
    b.atrAt = fetchedAt;
    b.atrHour = hour;
    if (patches.length) this.emit(b, { type: 'update', exchange: b.exchange, rows: patches });
    this.emitStatus(b);
  }

  private async loadAtr(b: Board, hour: number): Promise<void> {
    const name = `atr:${b.exchange}`;
    const hit = await this.readShared(name, parseAtrEntry);
    if (hit && hit.hour === hour) return this.applyAtr(b, hit.values, hit.fetchedAt, hit.hour);
    if (hit && b.atrAt === null) this.applyAtr(b, hit.values, hit.fetchedAt, hit.hour); // last hour's, meanwhile
    // A round takes minutes on a rate-limited exchange: the lock outlives it, and another instance
    // holding it means the values arrive through the shared store (checked again next tick).
    if (!(await this.takeLock(name, 15 * 60_000))) {
      b.atrRetryAt = this.now() + 3000;
      return;
    }
    try {
      const instruments = await this.opts.instruments(b.exchange);
      const values = await this.source.atr(b.exchange, instruments, b.atr, () => this.closed);
      const entry: AtrEntry = { fetchedAt: this.now(), hour, values };
      await this.writeShared(name, entry, 2 * 3600);
      this.applyAtr(b, values, entry.fetchedAt, hour);
    } finally {
      await this.releaseLock(name);
    }
  }

  // ----------------------------------------------------------------------- streams and timer

  private async startFeed(b: Board): Promise<void> {
    const open = this.opts.openSocket;
    if (!open || b.feed || b.feedStarting || this.closed) return;
    b.feedStarting = (async () => {
      try {
        const instruments = await this.opts.instruments(b.exchange);
        if (this.closed || b.listeners.size === 0) return;
        if (b.instruments.size === 0) b.instruments = byExchangeSymbol(instruments);
        b.feedKey = instrumentsKey(b.instruments);
        b.feed = new LiveFeed({
          exchange: b.exchange,
          instruments: [...b.instruments.values()],
          open,
          onPatch: (patch) => this.applyStream(b, patch),
          onLive: (live) => {
            b.live = live;
            this.emitStatus(b);
          },
          onError: (err) => this.opts.log?.warn({ exchange: b.exchange, err }, 'scanner: ticker stream error'),
        });
        b.feed.start();
      } catch (err) {
        this.opts.log?.warn({ exchange: b.exchange, err }, 'scanner: could not start the ticker stream');
      } finally {
        b.feedStarting = null;
      }
    })();
    await b.feedStarting;
  }

  private stopFeed(b: Board): void {
    b.feed?.stop();
    b.feed = null;
    if (b.live) {
      b.live = false;
      this.emitStatus(b);
    }
  }

  private restartFeed(b: Board): void {
    this.stopFeed(b);
    void this.startFeed(b);
  }

  private startTimer(): void {
    if (this.timer || this.closed) return;
    this.timer = setInterval(() => this.tick(), this.opts.tickMs ?? 5000);
    this.timer.unref?.();
  }

  /** Keeps the exchanges in use fresh (tickers, ATR) and closes streams nobody watches. */
  private tick(): void {
    const now = this.now();
    for (const b of this.boards.values()) {
      const watched = b.listeners.size > 0;
      if (!watched && b.feed && b.idleSince !== null && now - b.idleSince >= (this.opts.idleStopMs ?? 60_000)) this.stopFeed(b);
      if (!watched && now - b.lastUsedAt > 2 * this.ttlMs) continue;
      if (b.tickersAt === null || now - b.tickersAt >= this.ttlMs) void this.refreshTickers(b);
      this.ensureAtr(b);
    }
  }
}

/**
 * Values we compute (percentages, notionals) are rounded before they are kept and sent: the table
 * shows two decimals, sorts on four, and float noise (-0.6063000000000001) would only make every
 * push longer — and a change below the rounding is not a change worth pushing to every client.
 * Prices and funding rates come as the exchange wrote them and are left alone.
 */
const ROUNDING: Partial<Record<keyof ScannerRow, number>> = { changePercent: 1e4, rangePercent: 1e4, atrPercent: 1e4, quoteVolume: 1, openInterest: 1 };

function roundForDisplay<T extends number | null | undefined>(field: keyof ScannerRow, v: T): T {
  const scale = ROUNDING[field];
  return (typeof v === 'number' && scale !== undefined ? Math.round(v * scale) / scale : v) as T;
}

const instrumentsKey = (instruments: ReadonlyMap<string, Instrument>): string => [...instruments.keys()].sort().join(',');

function parseTickerEntry(raw: unknown): TickerEntry | null {
  const v = raw as Partial<TickerEntry> | null;
  return v && typeof v.fetchedAt === 'number' && typeof v.tickers === 'object' && v.tickers !== null ? { fetchedAt: v.fetchedAt, tickers: v.tickers } : null;
}

function parseAtrEntry(raw: unknown): AtrEntry | null {
  const v = raw as Partial<AtrEntry> | null;
  return v && typeof v.fetchedAt === 'number' && typeof v.hour === 'number' && typeof v.values === 'object' && v.values !== null
    ? { fetchedAt: v.fetchedAt, hour: v.hour, values: v.values }
    : null;
}
