import type { Agg } from '../market/aggregate';
import { decimalsOf, type SimInstrument } from '../market/catalogue';
import { fundingRate, nextFundingTime, type Book } from '../market/derivs';
import { days, hours, minutes, months, weeks, type BucketSpec } from '../market/intervals';
import type { Bar, Stats24h } from '../market/market';
import type { InstrumentModel, Trade } from '../market/model';
import { baseVolume, fmtAmount, fmtPrice, fmtQty, quoteVolume, takerBuyBase, takerBuyQuote } from '../market/units';

/** Binance USDⓈ-M interval names (REST and WS identical; `1m` ≠ `1M`). All 15 exist. */
export const BINANCE_INTERVALS: Record<string, BucketSpec> = {
  '1m': minutes(1),
  '3m': minutes(3),
  '5m': minutes(5),
  '15m': minutes(15),
  '30m': minutes(30),
  '1h': hours(1),
  '2h': hours(2),
  '4h': hours(4),
  '6h': hours(6),
  '8h': hours(8),
  '12h': hours(12),
  '1d': days(1),
  '3d': days(3),
  '1w': weeks(),
  '1M': months(1),
};

const quoteDecimals = (m: InstrumentModel) => Math.min(8, m.tickDecimals + m.stepDecimals);
const baseDecimals = (m: InstrumentModel) => m.stepDecimals;

/**
 * One `/fapi/v1/klines` row: 12 elements mixing integers (times, trade count) and decimal strings,
 * close time = next open − 1 (fixture `klines.json`).
 */
export function klineRow(m: InstrumentModel, b: Bar): [number, string, string, string, string, string, number, string, number, string, string, string] {
  return [
    b.openTime,
    fmtPrice(m, b.open),
    fmtPrice(m, b.high),
    fmtPrice(m, b.low),
    fmtPrice(m, b.close),
    fmtAmount(baseVolume(m, b), baseDecimals(m)),
    b.endTime - 1,
    fmtAmount(quoteVolume(m, b), quoteDecimals(m)),
    b.trades,
    fmtAmount(takerBuyBase(m, b), baseDecimals(m)),
    fmtAmount(takerBuyQuote(m, b), quoteDecimals(m)),
    '0',
  ];
}

/** The `k` object of a kline stream event (fixture `ws-kline.json`, same key order). */
export function klineEvent(m: InstrumentModel, b: Bar, interval: string, eventTime: number) {
  const s = m.inst.symbol;
  return {
    e: 'kline',
    E: eventTime,
    s,
    k: {
      t: b.openTime,
      T: b.endTime - 1,
      s,
      i: interval,
      f: b.firstTradeId,
      L: b.lastTradeId,
      o: fmtPrice(m, b.open),
      c: fmtPrice(m, b.close),
      h: fmtPrice(m, b.high),
      l: fmtPrice(m, b.low),
      v: fmtAmount(baseVolume(m, b), baseDecimals(m)),
      n: b.trades,
      x: b.closed,
      q: fmtAmount(quoteVolume(m, b), quoteDecimals(m)),
      V: fmtAmount(takerBuyBase(m, b), baseDecimals(m)),
      Q: fmtAmount(takerBuyQuote(m, b), quoteDecimals(m)),
      B: '0',
    },
  };
}

/** `@aggTrade` (fixture `ws-aggtrade.json`); `m` = buyer is the maker, i.e. the taker sold. */
export function aggTradeEvent(m: InstrumentModel, t: Trade, eventTime: number) {
  return {
    e: 'aggTrade',
    E: eventTime,
    s: m.inst.symbol,
    a: t.id,
    p: fmtPrice(m, t.price),
    q: fmtQty(m, t.steps),
    nq: fmtQty(m, t.steps),
    f: t.id,
    l: t.id,
    T: t.time,
    m: !t.buy,
  };
}

interface TickerFields {
  change: string;
  percent: string;
  weighted: string;
  last: string;
  open: string;
  high: string;
  low: string;
  volume: string;
  quote: string;
}

function tickerFields(m: InstrumentModel, st: Stats24h): TickerFields {
  const a: Agg = st.agg;
  const vol = baseVolume(m, a);
  const quote = quoteVolume(m, a);
  const change = (a.close - st.open) * m.tick;
  return {
    change: change.toFixed(m.tickDecimals),
    percent: ((change / (st.open * m.tick)) * 100).toFixed(3),
    weighted: (vol > 0 ? quote / vol : a.close * m.tick).toFixed(m.tickDecimals),
    last: fmtPrice(m, a.close),
    open: fmtPrice(m, st.open),
    high: fmtPrice(m, a.high),
    low: fmtPrice(m, a.low),
    volume: fmtAmount(vol, baseDecimals(m)),
    quote: fmtAmount(quote, Math.min(2, quoteDecimals(m))),
  };
}

/** `GET /fapi/v1/ticker/24hr` element (fixture `ticker-24hr-all.json`, same keys and order). */
export function ticker24hr(m: InstrumentModel, st: Stats24h, last: Trade | null) {
  const f = tickerFields(m, st);
  return {
    symbol: m.inst.symbol,
    priceChange: f.change,
    priceChangePercent: f.percent,
    weightedAvgPrice: f.weighted,
    lastPrice: f.last,
    lastQty: last ? fmtQty(m, last.steps) : '0',
    openPrice: f.open,
    highPrice: f.high,
    lowPrice: f.low,
    volume: f.volume,
    quoteVolume: f.quote,
    openTime: st.openTime,
    closeTime: st.closeTime,
    firstId: st.agg.firstTradeId,
    lastId: st.agg.lastTradeId,
    count: st.agg.trades,
  };
}

/** `@ticker` stream event (fixture `ws-ticker.doc.json`). */
export function tickerEvent(m: InstrumentModel, st: Stats24h, last: Trade | null, eventTime: number) {
  const f = tickerFields(m, st);
  return {
    e: '24hrTicker',
    E: eventTime,
    s: m.inst.symbol,
    p: f.change,
    P: f.percent,
    w: f.weighted,
    c: f.last,
    Q: last ? fmtQty(m, last.steps) : '0',
    o: f.open,
    h: f.high,
    l: f.low,
    v: f.volume,
    q: f.quote,
    O: st.openTime,
    C: st.closeTime,
    F: st.agg.firstTradeId,
    L: st.agg.lastTradeId,
    n: st.agg.trades,
  };
}

/** `@miniTicker` stream event (fixture `ws-miniticker.doc.json`). */
export function miniTickerEvent(m: InstrumentModel, st: Stats24h, eventTime: number) {
  const f = tickerFields(m, st);
  return { e: '24hrMiniTicker', E: eventTime, s: m.inst.symbol, c: f.last, o: f.open, h: f.high, l: f.low, v: f.volume, q: f.quote };
}

/** MIN_NOTIONAL (USDT): 100 for BTC, 5 elsewhere — also what the paper exchange enforces (-4164). */
export const binanceMinNotional = (i: SimInstrument): string => (i.asset === 'BTC' ? '100' : '5');

/** One `exchangeInfo.symbols[]` entry (fixture `exchange-info.json`, same keys and filter set). */
export function exchangeInfoSymbol(i: SimInstrument) {
  return {
    symbol: i.symbol,
    pair: i.symbol,
    contractType: 'PERPETUAL',
    deliveryDate: 4133404800000,
    onboardDate: i.listedAt,
    status: 'TRADING',
    maintMarginPercent: '2.5000',
    requiredMarginPercent: '5.0000',
    baseAsset: i.base,
    quoteAsset: i.quote,
    marginAsset: i.settle,
    pricePrecision: decimalsOf(i.tickSize),
    quantityPrecision: decimalsOf(i.qtyStep),
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    underlyingSubType: i.asset === 'PEPE' || i.asset === 'DOGE' ? ['Meme'] : ['Layer-1'],
    settlePlan: 0,
    triggerProtect: '0.0500',
    filters: [
      { filterType: 'PRICE_FILTER', maxPrice: '4529764', minPrice: i.tickSize, tickSize: i.tickSize },
      { filterType: 'LOT_SIZE', maxQty: i.maxQty, minQty: i.minQty, stepSize: i.qtyStep },
      { filterType: 'MARKET_LOT_SIZE', maxQty: i.maxMarketQty, minQty: i.minQty, stepSize: i.qtyStep },
      { filterType: 'MAX_NUM_ORDERS', limit: 200 },
      { filterType: 'MIN_NOTIONAL', notional: binanceMinNotional(i) },
      { filterType: 'PERCENT_PRICE', multiplierUp: '1.0500', multiplierDown: '0.9500', multiplierDecimal: '4' },
    ],
    orderTypes: ['LIMIT', 'MARKET', 'STOP', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET', 'TRAILING_STOP_MARKET'],
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
    liquidationFee: '0.012500',
    marketTakeBound: '0.05',
  };
}


/**
 * A `GET /fapi/v1/premiumIndex` item (fixture `premium-index-all.json`): mark/index price and the
 * current funding rate with its next settlement. Numbers as strings, times as ms numbers.
 */
export function premiumIndex(m: InstrumentModel, book: Book, now: number) {
  return {
    symbol: m.inst.symbol,
    markPrice: fmtAmount(book.mark * m.tick, m.tickDecimals + 2),
    indexPrice: fmtAmount(book.index * m.tick, m.tickDecimals + 2),
    estimatedSettlePrice: fmtAmount(book.index * m.tick, m.tickDecimals + 2),
    lastFundingRate: fundingRate(m.inst, now).toFixed(8),
    interestRate: '0.00010000',
    nextFundingTime: nextFundingTime(now),
    time: now,
  };
}

export const binanceError = (code: number, msg: string) => ({ code, msg });
