import type { ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { ScannerRow } from '../../../src/api/contracts/scanner';
import { EXCHANGES } from '../../exchanges/registry';
import type { TickerFields } from '../../exchanges/tickers';

/**
 * The scanner's row values. Each exchange's 24 h tickers, funding and open interest (REST requests, one
 * parser, and the stream frames through the same field mappers) live in its folder
 * (`server/exchanges/<exchange>/tickers.ts`, `EXCHANGES[id].market.tickers` / `.tickerStream`), its 1 h
 * candles likewise (`candles.ts`, `.market.candles`); here: the rows they fill, closed bars and ATR.
 * Only the instruments of the exchange-info list (live perpetuals) become rows.
 */

/** The values of a row the tickers provide (ATR comes from the candles). */
export type { TickerFields };
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

/** Instruments by the exchange's own symbol (what tickers and streams carry). */
export const byExchangeSymbol = (list: readonly Instrument[]): Map<string, Instrument> => new Map(list.map((i) => [i.exchangeSymbol, i]));

/** A row's identity and empty values, for an instrument. */
export function baseRow(exchange: ExchangeId, inst: Instrument): ScannerRow {
  return { exchange, symbol: inst.symbol, base: inst.base, quote: inst.quote, category: inst.category, ...EMPTY_TICKER, atrPercent: null };
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
