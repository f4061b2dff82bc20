import type { ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { FetchLike, RestBase } from '../exchange-info';

/** A bar's range: enough to tell whether a price was reached during it. */
export interface RangeBar {
  /** Open time, ms. */
  time: number;
  high: number;
  low: number;
  close: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Bars one request returns at most, per exchange (okx `candles`: 300; the others 1,000 here). */
const MAX_BARS: Record<ExchangeId, number> = { binance: 1000, bybit: 1000, okx: 300, bitmex: 1000 };

const num = (v: unknown): number => (typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : NaN);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function rowsOf(exchange: ExchangeId, body: unknown, barMs: number): RangeBar[] {
  const out: RangeBar[] = [];
  const push = (t: number, h: unknown, l: unknown, c: unknown) => {
    const bar = { time: t, high: num(h), low: num(l), close: num(c) };
    if (Number.isFinite(bar.time) && Number.isFinite(bar.high) && Number.isFinite(bar.low) && Number.isFinite(bar.close)) out.push(bar);
  };
  switch (exchange) {
    case 'binance':
      if (Array.isArray(body)) for (const r of body) if (Array.isArray(r)) push(num(r[0]), r[2], r[3], r[4]);
      break;
    case 'bybit': {
      const list = isObject(body) && isObject(body.result) ? body.result.list : null;
      if (isObject(body) && body.retCode !== 0) throw new Error(`bybit kline: ${String(body.retMsg)} (retCode ${String(body.retCode)})`);
      if (Array.isArray(list)) for (const r of list) if (Array.isArray(r)) push(num(r[0]), r[2], r[3], r[4]);
      break;
    }
    case 'okx': {
      if (isObject(body) && body.code !== '0') throw new Error(`okx candles: ${String(body.msg)} (code ${String(body.code)})`);
      const data = isObject(body) ? body.data : null;
      if (Array.isArray(data)) for (const r of data) if (Array.isArray(r)) push(num(r[0]), r[2], r[3], r[4]);
      break;
    }
    case 'bitmex':
      // `timestamp` is the bin's END (trap 2).
      if (Array.isArray(body)) for (const r of body) if (isObject(r) && typeof r.timestamp === 'string') push(Date.parse(r.timestamp) - barMs, r.high, r.low, r.close);
      break;
  }
  return out.sort((a, b) => a.time - b.time);
}

function path(exchange: ExchangeId, inst: Instrument, minute: boolean, n: number): string {
  const sym = encodeURIComponent(inst.exchangeSymbol);
  switch (exchange) {
    case 'binance':
      return `/fapi/v1/klines?symbol=${sym}&interval=${minute ? '1m' : '1h'}&limit=${n}`;
    case 'bybit':
      return `/v5/market/kline?category=${inst.category}&symbol=${sym}&interval=${minute ? '1' : '60'}&limit=${n}`;
    case 'okx':
      return `/api/v5/market/candles?instId=${sym}&bar=${minute ? '1m' : '1H'}&limit=${n}`;
    case 'bitmex':
      return `/api/v1/trade/bucketed?binSize=${minute ? '1m' : '1h'}&symbol=${sym}&count=${n}&reverse=true&partial=true`;
  }
}

/**
 * The pair's bars covering `[from, now]`, forming bar included (its high and low have happened):
 * 1-minute bars when the gap fits one request, else 1-hour bars (a server down for days is checked
 * over the last `MAX_BARS` hours). What the alert evaluator reads after a restart or a dropped
 * stream, to fire alerts whose price was reached while nobody was listening.
 */
export async function barsSince(
  opts: { fetch: FetchLike; base: RestBase; timeoutMs?: number },
  exchange: ExchangeId,
  inst: Instrument,
  from: number,
  now: number,
): Promise<{ bars: RangeBar[]; barMs: number }> {
  const max = MAX_BARS[exchange];
  const minute = (now - from) / MINUTE + 2 <= max;
  const barMs = minute ? MINUTE : HOUR;
  const n = Math.min(max, Math.ceil((now - from) / barMs) + 2);
  const { base, headers } = opts.base(exchange, false);
  const res = await opts.fetch(`${base}${path(exchange, inst, minute, n)}`, {
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  if (res.status >= 400) throw new Error(`${exchange} candles: HTTP ${res.status}`);
  const bars = rowsOf(exchange, await res.json(), barMs).filter((b) => b.time + barMs > from);
  return { bars, barMs };
}
