import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS, type ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { HttpError } from '../../lib/http-error';
import { UpstreamFormatError } from '../exchange-info-parsers';
import type { FetchLike, RestBase } from '../exchange-info';
import { EXCHANGES } from '../../exchanges/registry';
import { atrPercent, byExchangeSymbol, candlePath, parseCandles, type TickerFields } from './parsers';

/**
 * What the scanner asks each exchange over REST (paths and pacing: `README.md`), and the errors that
 * name it. No caching here: `ScannerService` decides when to call, and shares the answers.
 */

/** Candle pacing of a live scan: each exchange's `market.candles.liveGapMs` (its public rate limit). */
export const LIVE_CANDLE_GAP_MS = Object.fromEntries(EXCHANGE_IDS.map((id) => [id, EXCHANGES[id].market.candles.liveGapMs])) as Record<ExchangeId, number>;

/** 502/504 `{ message }` naming the exchange (DESIGN §3.2 / §5 error shapes). */
export class ScannerUnavailableError extends HttpError {
  constructor(
    readonly exchange: ExchangeId,
    status: 502 | 504,
    message: string,
  ) {
    super(status, message);
  }
}

const nameOf = (exchange: ExchangeId) => EXCHANGE_DISPLAY_NAMES[exchange];

/** Any failure of a load as the 502/504 the routes answer. */
export function failure(exchange: ExchangeId, err: unknown, timeoutMs: number): ScannerUnavailableError {
  if (err instanceof ScannerUnavailableError) return err;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) {
    return new ScannerUnavailableError(exchange, 504, `${nameOf(exchange)} did not answer in time (${Math.round(timeoutMs / 1000)} s): its tickers could not be loaded`);
  }
  // The instrument list failed first (exchange-info's own 502 already names the exchange).
  if (err instanceof HttpError && (err.status === 502 || err.status === 504)) return new ScannerUnavailableError(exchange, err.status, err.message);
  let reason: string;
  if (err instanceof UpstreamFormatError) reason = err.message;
  else if (err instanceof Error) reason = (err.cause instanceof Error ? err.cause.message : '') || err.message;
  else reason = String(err);
  return new ScannerUnavailableError(exchange, 502, `Could not load the tickers of ${nameOf(exchange)}: ${reason}`);
}

export interface ExchangeSourceOptions {
  fetch: FetchLike;
  base: RestBase;
  timeoutMs: number;
  now: () => number;
  candleGapMs?: Partial<Record<ExchangeId, number>>;
  candleConcurrency?: number;
  log?: { warn(obj: object, msg: string): void };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export class ExchangeSource {
  constructor(private readonly opts: ExchangeSourceOptions) {}

  private async get(exchange: ExchangeId, path: string): Promise<unknown> {
    const { base, headers } = this.opts.base(exchange, false);
    const res = await this.opts.fetch(`${base}${path}`, {
      headers: { accept: 'application/json', ...headers },
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    if (res.status >= 400) throw new Error(`HTTP ${res.status}`);
    return res.json();
  }

  /** Funding and open interest come from their own endpoints: without them the tickers still show. */
  private optional(exchange: ExchangeId, path: string): Promise<unknown> {
    return this.get(exchange, path).catch((err: unknown) => {
      this.opts.log?.warn({ exchange, path, err }, 'scanner: optional endpoint failed');
      return null;
    });
  }

  /**
   * Every listed perpetual's ticker fields, by the exchange's own symbol (mainnet): the exchange's ticker
   * requests sent together (its `market.tickers`), the optional ones answering null when they fail.
   */
  async tickers(exchange: ExchangeId, instruments: Instrument[]): Promise<Map<string, Partial<TickerFields>>> {
    const { tickers } = EXCHANGES[exchange].market;
    const bodies = await Promise.all(tickers.requests.map((r) => (r.optional ? this.optional(exchange, r.path) : this.get(exchange, r.path))));
    return tickers.parse(bodies, byExchangeSymbol(instruments));
  }

  /**
   * ATR % of every instrument: one candle request per pair, `candleConcurrency` (4) at a time,
   * starts spaced by the exchange's gap. A pair that fails keeps its `previous` value; more failures
   * than answers (after five) means the exchange is down and fails the round.
   */
  async atr(exchange: ExchangeId, instruments: Instrument[], previous: ReadonlyMap<string, number | null>, stopped: () => boolean): Promise<Record<string, number | null>> {
    const gap = this.opts.candleGapMs?.[exchange] ?? 0;
    const queue = [...instruments];
    const values: Record<string, number | null> = {};
    let nextStart = Date.now();
    let failures = 0;
    let abort: unknown = null;
    const worker = async () => {
      for (let inst = queue.shift(); inst && !stopped() && abort === null; inst = queue.shift()) {
        const wait = nextStart - Date.now();
        nextStart = Math.max(nextStart, Date.now()) + gap;
        if (wait > 0) await sleep(wait);
        try {
          const body = await this.get(exchange, candlePath(exchange, inst));
          values[inst.exchangeSymbol] = atrPercent(parseCandles(exchange, body, this.opts.now()));
        } catch (err) {
          failures += 1;
          if (previous.has(inst.exchangeSymbol)) values[inst.exchangeSymbol] = previous.get(inst.exchangeSymbol) ?? null;
          if (failures >= 5 && failures > Object.keys(values).length) abort = err;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.opts.candleConcurrency ?? 4) }, worker));
    if (abort !== null) throw abort;
    return values;
  }
}
