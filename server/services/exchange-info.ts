import type { ExchangeId } from '../../src/api/contracts/common';
import { EXCHANGE_DISPLAY_NAMES } from '../../src/api/contracts/common';
import { instrumentListSchema, type Instrument } from '../../src/api/contracts/exchanges';
import { HttpError } from '../lib/http-error';
import { EXCHANGES } from '../exchanges/registry';
import { UpstreamFormatError } from './exchange-info-parsers';

/** The slice of `fetch` the service needs; tests and the simulator pass their own. */
export type FetchLike = (url: string, init: { headers: Record<string, string>; signal: AbortSignal }) => Promise<{ status: number; json(): Promise<unknown> }>;

/** Where one exchange's REST API lives for a network, and headers every call needs (OKX demo). */
export type RestBase = (exchange: ExchangeId, testnet: boolean) => { base: string; headers?: Record<string, string> };

export interface ExchangeInfoOptions {
  fetch: FetchLike;
  base: RestBase;
  /** Fresh for this long (default 5 min); after it the cached list is served while a refresh runs. */
  ttlMs?: number;
  /** Per upstream request (default 10 s). */
  timeoutMs?: number;
  now?: () => number;
  onRefreshError?: (exchange: ExchangeId, testnet: boolean, err: unknown) => void;
  /**
   * A cache shared by every instance (Redis when REDIS_URL is set, DESIGN §6): a fresh list another
   * instance fetched is used instead of asking the exchange again, and a stale one is served if the
   * exchange is down. Failures of the shared store itself are ignored (the exchange is asked).
   */
  shared?: SharedCache;
}

export interface SharedCache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
}

/** How long the shared store keeps a list for stale use. */
const SHARED_KEEP_SECONDS = 24 * 3600;

interface Entry {
  instruments: Instrument[];
  fetchedAt: number;
}

/** 502 `{ message }` naming the exchange, for routes (DESIGN §5 error shape). */
export class ExchangeUnavailableError extends HttpError {
  constructor(
    readonly exchange: ExchangeId,
    reason: string,
  ) {
    super(502, `Could not load the instruments of ${EXCHANGE_DISPLAY_NAMES[exchange]}: ${reason}`);
  }
}

const reasonOf = (err: unknown): string => {
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return 'no answer in time';
  if (err instanceof UpstreamFormatError) return err.message;
  if (err instanceof Error) return (err.cause instanceof Error ? err.cause.message : '') || err.message;
  return String(err);
};

/**
 * Instrument lists of the four exchanges, fetched from the exchanges (or the simulator) and cached:
 * fresh for `ttlMs`, then stale-while-revalidate — the cached list is answered at once and one
 * background refresh runs — so a slow exchange never blocks a request once anything is cached. A
 * failed refresh keeps the old list; with nothing cached, a failure is a 502 naming the exchange.
 */
export class ExchangeInfoService {
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Instrument[]>>();
  private readonly ttlMs: number;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly opts: ExchangeInfoOptions) {
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  async instruments(exchange: ExchangeId, testnet = false): Promise<Instrument[]> {
    const key = `${exchange}:${testnet ? 'testnet' : 'mainnet'}`;
    const entry = this.cache.get(key);
    if (entry) {
      if (this.now() - entry.fetchedAt >= this.ttlMs) {
        this.refresh(key, exchange, testnet).catch((err: unknown) => this.opts.onRefreshError?.(exchange, testnet, err));
      }
      return entry.instruments;
    }
    try {
      return await this.refresh(key, exchange, testnet);
    } catch (err) {
      throw new ExchangeUnavailableError(exchange, reasonOf(err));
    }
  }

  /** Loads `exchange` unless a load is already running (concurrent callers share it). */
  private refresh(key: string, exchange: ExchangeId, testnet: boolean): Promise<Instrument[]> {
    let p = this.inflight.get(key);
    if (!p) {
      p = this.loadEntry(key, exchange, testnet)
        .then((entry) => {
          this.cache.set(key, entry);
          return entry.instruments;
        })
        .finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  /** Shared store first (fresh → use it), then the exchange; a stale shared list covers an exchange outage. */
  private async loadEntry(key: string, exchange: ExchangeId, testnet: boolean): Promise<Entry> {
    const shared = this.opts.shared;
    const sharedKey = `ct:exchange-info:${key}`;
    let fallback: Entry | null = null;
    if (shared) {
      const hit = await shared.get(sharedKey).then(parseShared, () => null);
      if (hit && this.now() - hit.fetchedAt < this.ttlMs) return hit;
      fallback = hit;
    }
    try {
      const entry = { instruments: await this.load(exchange, testnet), fetchedAt: this.now() };
      await shared?.set(sharedKey, JSON.stringify(entry), SHARED_KEEP_SECONDS).catch(() => undefined);
      return entry;
    } catch (err) {
      if (fallback) {
        this.opts.onRefreshError?.(exchange, testnet, err);
        return fallback;
      }
      throw err;
    }
  }

  private async get(exchange: ExchangeId, testnet: boolean, path: string): Promise<unknown> {
    const { base, headers } = this.opts.base(exchange, testnet);
    const res = await this.opts.fetch(`${base}${path}`, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (res.status >= 400) throw new Error(`HTTP ${res.status}`);
    return res.json();
  }

  /** The exchange's own requests (paths, paging) and parser, from its folder (`EXCHANGES[id].market.instruments`). */
  private load(exchange: ExchangeId, testnet: boolean): Promise<Instrument[]> {
    return EXCHANGES[exchange].market.instruments.load((path) => this.get(exchange, testnet, path));
  }
}

function parseShared(raw: string | null): Entry | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as { fetchedAt?: unknown; instruments?: unknown };
    const instruments = instrumentListSchema.safeParse(v.instruments);
    return typeof v.fetchedAt === 'number' && instruments.success ? { fetchedAt: v.fetchedAt, instruments: instruments.data } : null;
  } catch {
    return null;
  }
}

/** Case-insensitive match of `filter` on symbol, exchange symbol or base. */
export function filterInstruments(list: Instrument[], filter: string | undefined): Instrument[] {
  const f = filter?.trim().toUpperCase();
  if (!f) return list;
  return list.filter((i) => i.symbol.toUpperCase().includes(f) || i.exchangeSymbol.toUpperCase().includes(f) || i.base.toUpperCase().includes(f));
}
