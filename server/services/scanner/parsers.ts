import { z } from 'zod';
import type { ExchangeId } from '../../../src/api/contracts/common';
import { dec, toNumber } from '../../../src/api/contracts/decimal';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { ScannerRow } from '../../../src/api/contracts/scanner';
import { UpstreamFormatError } from '../../exchanges/market';
import { EXCHANGES } from '../../exchanges/registry';

/**
 * The four exchanges' 24 h tickers, funding, open interest and 1 h candles (their own wire formats,
 * exchanges/*.md §4) → the scanner's row values. The same field mappers read the REST answers and
 * the stream frames (`streams.ts`), so a row never changes meaning between a refresh and a tick.
 * Only the instruments of the exchange-info list (live perpetuals) become rows.
 */

/** The values of a row the tickers provide (ATR comes from the candles). */
export type TickerFields = Pick<ScannerRow, 'last' | 'changePercent' | 'quoteVolume' | 'rangePercent' | 'fundingRate' | 'nextFundingTime' | 'openInterest'>;
export const TICKER_FIELDS = ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime', 'openInterest'] as const satisfies readonly (keyof TickerFields)[];

export const EMPTY_TICKER: TickerFields = {
  last: null,
  changePercent: null,
  quoteVolume: null,
  rangePercent: null,
  fundingRate: null,
  nextFundingTime: null,
  openInterest: null,
};

type Raw = Record<string, unknown>;

/** A wire number (JSON number or decimal string); '' and garbage are "not published". */
export function num(v: unknown): number | null {
  if (v === null || v === undefined || v === '') return null;
  const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** A contract's value for the scanner's statistics (volumes, open interest: floats for ranking, not money sent anywhere). */
const contractOf = (inst: Pick<Instrument, 'contractValue'>): number => toNumber(dec(inst.contractValue));
const times = (a: number | null, b: number | null): number | null => (a === null || b === null ? null : a * b);
const rangePercent = (high: number | null, low: number | null): number | null => (high !== null && low !== null && low > 0 ? ((high - low) / low) * 100 : null);

function parse<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) throw new UpstreamFormatError(`${what}: unexpected response (${r.error.issues[0]?.path.join('.')}: ${r.error.issues[0]?.message})`);
  return r.data;
}

/** Instruments by the exchange's own symbol (what tickers and streams carry). */
export const byExchangeSymbol = (list: readonly Instrument[]): Map<string, Instrument> => new Map(list.map((i) => [i.exchangeSymbol, i]));

/** A row's identity and empty values, for an instrument. */
export function baseRow(exchange: ExchangeId, inst: Instrument): ScannerRow {
  return { exchange, symbol: inst.symbol, base: inst.base, quote: inst.quote, category: inst.category, ...EMPTY_TICKER, atrPercent: null };
}

const rawList = z.array(z.looseObject({}));

// ------------------------------------------------------------------------------------------ binance

/**
 * `GET /fapi/v1/ticker/24hr` item or a `24hrTicker` stream event (its one-letter keys mapped):
 * `priceChangePercent` is already a percent (trap 15), `quoteVolume` is in the quote asset.
 */
export function binanceTicker(t: Raw): Partial<TickerFields> {
  const high = num(t.highPrice ?? t.h);
  const low = num(t.lowPrice ?? t.l);
  return {
    last: num(t.lastPrice ?? t.c),
    changePercent: num(t.priceChangePercent ?? t.P),
    quoteVolume: num(t.quoteVolume ?? t.q),
    rangePercent: rangePercent(high, low),
  };
}

/** `GET /fapi/v1/premiumIndex` item: funding only (binance publishes open interest per symbol only). */
export function binanceFunding(p: Raw): Partial<TickerFields> {
  return { fundingRate: num(p.lastFundingRate), nextFundingTime: num(p.nextFundingTime) };
}

export function parseBinanceTickers(tickers: unknown, premium: unknown): Map<string, Partial<TickerFields>> {
  const out = new Map<string, Partial<TickerFields>>();
  for (const t of parse(rawList, tickers, 'binance ticker/24hr')) if (typeof t.symbol === 'string') out.set(t.symbol, binanceTicker(t));
  for (const p of parse(rawList, premium, 'binance premiumIndex')) {
    if (typeof p.symbol === 'string' && out.has(p.symbol)) out.set(p.symbol, { ...out.get(p.symbol), ...binanceFunding(p) });
  }
  return out;
}

// -------------------------------------------------------------------------------------------- bybit

/**
 * A `GET /v5/market/tickers` item, or a `tickers.*` stream snapshot with its deltas merged in (the
 * same keys). `price24hPcnt` is a fraction (trap 15). Volume and open interest in quote terms:
 * linear `turnover24h` / `openInterestValue` (USDT); inverse `volume24h` / `openInterest` are USD
 * contracts (its `turnover24h` and `openInterestValue` are in BTC).
 */
export function bybitTicker(t: Raw, inst: Instrument): Partial<TickerFields> {
  const inverse = inst.category === 'inverse';
  const pct = num(t.price24hPcnt);
  return {
    last: num(t.lastPrice),
    changePercent: pct === null ? null : pct * 100,
    quoteVolume: num(inverse ? t.volume24h : t.turnover24h),
    rangePercent: rangePercent(num(t.highPrice24h), num(t.lowPrice24h)),
    fundingRate: num(t.fundingRate),
    nextFundingTime: num(t.nextFundingTime),
    openInterest: num(inverse ? t.openInterest : t.openInterestValue),
  };
}

const bybitEnvelope = z.object({ retCode: z.number(), retMsg: z.string(), result: z.looseObject({ list: rawList.optional() }) });

/** One category's `GET /v5/market/tickers?category=…` (errors come with HTTP 200, trap 9). */
export function parseBybitTickers(body: unknown, instruments: ReadonlyMap<string, Instrument>): Map<string, Partial<TickerFields>> {
  const page = parse(bybitEnvelope, body, 'bybit tickers');
  if (page.retCode !== 0) throw new UpstreamFormatError(`bybit tickers: ${page.retMsg} (retCode ${page.retCode})`);
  const out = new Map<string, Partial<TickerFields>>();
  for (const t of page.result.list ?? []) {
    const inst = typeof t.symbol === 'string' ? instruments.get(t.symbol) : undefined;
    if (inst) out.set(inst.exchangeSymbol, bybitTicker(t, inst));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- okx

/**
 * A `GET /api/v5/market/tickers?instType=SWAP` item or a `tickers` channel item. OKX has no change
 * field: (last − open24h) ÷ open24h (trap 15). Quote volume: linear `volCcy24h` (base coin) × last;
 * inverse `vol24h` contracts × ctVal USD.
 */
export function okxTicker(t: Raw, inst: Instrument): Partial<TickerFields> {
  const last = num(t.last);
  const open = num(t.open24h);
  return {
    last,
    changePercent: last !== null && open !== null && open > 0 ? ((last - open) / open) * 100 : null,
    quoteVolume: inst.category === 'inverse' ? times(num(t.vol24h), contractOf(inst)) : times(num(t.volCcy24h), last),
    rangePercent: rangePercent(num(t.high24h), num(t.low24h)),
  };
}

/** `GET /api/v5/public/funding-rate?instId=ANY` item: `fundingTime` is the coming settlement. */
export const okxFunding = (f: Raw): Partial<TickerFields> => ({ fundingRate: num(f.fundingRate), nextFundingTime: num(f.fundingTime) });

/** `GET /api/v5/public/open-interest?instType=SWAP` item: linear `oiCcy` (base) × last; inverse `oi` × ctVal USD. */
export function okxOpenInterest(o: Raw, inst: Instrument, last: number | null): number | null {
  return inst.category === 'inverse' ? times(num(o.oi), contractOf(inst)) : times(num(o.oiCcy), last);
}

const okxEnvelope = z.object({ code: z.string(), msg: z.string(), data: rawList });

function okxData(body: unknown, what: string): Raw[] {
  const r = parse(okxEnvelope, body, what);
  if (r.code !== '0') throw new UpstreamFormatError(`${what}: ${r.msg} (code ${r.code})`);
  return r.data;
}

export function parseOkxTickers(
  tickers: unknown,
  funding: unknown,
  openInterest: unknown,
  instruments: ReadonlyMap<string, Instrument>,
): Map<string, Partial<TickerFields>> {
  const out = new Map<string, Partial<TickerFields>>();
  for (const t of okxData(tickers, 'okx tickers')) {
    const inst = typeof t.instId === 'string' ? instruments.get(t.instId) : undefined;
    if (inst) out.set(inst.exchangeSymbol, okxTicker(t, inst));
  }
  for (const f of okxData(funding, 'okx funding-rate')) {
    const row = typeof f.instId === 'string' ? out.get(f.instId) : undefined;
    if (row) Object.assign(row, okxFunding(f));
  }
  for (const o of okxData(openInterest, 'okx open-interest')) {
    const inst = typeof o.instId === 'string' ? instruments.get(o.instId) : undefined;
    const row = inst && out.get(inst.exchangeSymbol);
    if (inst && row) row.openInterest = okxOpenInterest(o, inst, row.last ?? null);
  }
  return out;
}

// ------------------------------------------------------------------------------------------- bitmex

/**
 * A `GET /api/v1/instrument/active` record or an `instrument` table row with its updates merged in
 * (BitMEX has no ticker endpoint, bitmex.md §4). `lastChangePcnt` is a fraction; `foreignNotional24h`
 * is the 24 h volume in the quote currency (USD for XBTUSD, USDT for XBTUSDT). Open interest is in
 * contracts: × USD per contract on inverse, × base per contract × last on linear.
 */
export function bitmexTicker(r: Raw, inst: Instrument): Partial<TickerFields> {
  const last = num(r.lastPrice);
  const pct = num(r.lastChangePcnt);
  const funding = typeof r.fundingTimestamp === 'string' ? Date.parse(r.fundingTimestamp) : Number.NaN;
  const oi = num(r.openInterest);
  return {
    last,
    changePercent: pct === null ? null : pct * 100,
    quoteVolume: num(r.foreignNotional24h),
    rangePercent: rangePercent(num(r.highPrice), num(r.lowPrice)),
    fundingRate: num(r.fundingRate),
    nextFundingTime: Number.isFinite(funding) ? funding : null,
    openInterest: inst.category === 'inverse' ? times(oi, contractOf(inst)) : times(times(oi, contractOf(inst)), last),
  };
}

export function parseBitmexTickers(body: unknown, instruments: ReadonlyMap<string, Instrument>): Map<string, Partial<TickerFields>> {
  const out = new Map<string, Partial<TickerFields>>();
  for (const r of parse(rawList, body, 'bitmex instrument/active')) {
    const inst = typeof r.symbol === 'string' ? instruments.get(r.symbol) : undefined;
    if (inst) out.set(inst.exchangeSymbol, bitmexTicker(r, inst));
  }
  return out;
}

// ---------------------------------------------------------------------------------- 1 h candles (ATR)

/** A closed 1 h bar: open time (ms), high, low, close. */
export interface HourBar {
  time: number;
  high: number;
  low: number;
  close: number;
}

export const HOUR_MS = 3_600_000;

/**
 * One exchange's 1 h candle answer (its request and parser: `server/exchanges/<exchange>/candles.ts`) → closed
 * bars only, oldest first, unique times: every exchange mixes in the forming one (trap 3); OKX marks it (`confirm` "0").
 */
export function parseCandles(exchange: ExchangeId, body: unknown, now: number): HourBar[] {
  const seen = new Set<number>();
  return EXCHANGES[exchange].market.candles
    .parse(body, '1h')
    .filter((b) => b.closed !== false && b.time + HOUR_MS <= now && !seen.has(b.time) && seen.add(b.time))
    .map(({ time, high, low, close }) => ({ time, high, low, close }));
}

/** `GET /fapi/v1/klines` rows `[openTime, o, h, l, c, …]`, oldest first; the last one is forming. */
export const parseBinanceKlines = (body: unknown, now: number): HourBar[] => parseCandles('binance', body, now);
/** `GET /v5/market/kline` `result.list` rows `[start, o, h, l, c, volume, turnover]`, newest first. */
export const parseBybitKlines = (body: unknown, now: number): HourBar[] => parseCandles('bybit', body, now);
/** `GET /api/v5/market/candles` rows `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]`, newest first; unconfirmed rows dropped. */
export const parseOkxCandles = (body: unknown, now: number): HourBar[] => parseCandles('okx', body, now);
/** `GET /api/v1/trade/bucketed?binSize=1h` records; `timestamp` is the bucket END (trap 2). */
export const parseBitmexBuckets = (body: unknown, now: number): HourBar[] => parseCandles('bitmex', body, now);

export const ATR_PERIOD = 14;

/**
 * The candle request for one instrument: the last `ATR_PERIOD + 1` closed hours (14 true ranges need a
 * previous close), the forming bar included where it cannot be left out (BitMEX leaves it out).
 */
export function candlePath(exchange: ExchangeId, inst: Instrument): string {
  return EXCHANGES[exchange].market.candles.path(inst, { interval: '1h', closed: ATR_PERIOD + 1, forming: false });
}

/**
 * ATR % (volatility): the mean true range of the last `period` closed bars (Wilder's first ATR
 * value; true range = max(high, previous close) − min(low, previous close)) ÷ the last close × 100.
 * Null with fewer than `period + 1` bars (a pair listed less than 15 hours ago): a shorter window
 * would not be the same measure as its neighbours'.
 */
export function atrPercent(bars: readonly HourBar[], period = ATR_PERIOD): number | null {
  if (bars.length < period + 1) return null;
  const recent = bars.slice(-(period + 1));
  let sum = 0;
  for (let k = 1; k < recent.length; k++) {
    const prev = recent[k - 1].close;
    sum += Math.max(recent[k].high, prev) - Math.min(recent[k].low, prev);
  }
  const close = recent[recent.length - 1].close;
  return close > 0 ? (sum / period / close) * 100 : null;
}
