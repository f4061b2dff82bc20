import { decimalsOf, type SimInstrument } from '../market/catalogue';
import { fundingRate, nextFundingTime, openInterest, type Book } from '../market/derivs';
import { days, hours, minutes, months, weeks, type BucketSpec } from '../market/intervals';
import type { Bar, Stats24h } from '../market/market';
import type { InstrumentModel, Trade } from '../market/model';
import { baseVolume, fmtAmount, fmtPrice, fmtQty, quoteVolume, trimZeros } from '../market/units';

/** Bybit v5 interval names; there is no 8h and no 3d (bybit.md §1). */
export const BYBIT_INTERVALS: Record<string, BucketSpec> = {
  '1': minutes(1),
  '3': minutes(3),
  '5': minutes(5),
  '15': minutes(15),
  '30': minutes(30),
  '60': hours(1),
  '120': hours(2),
  '240': hours(4),
  '360': hours(6),
  '720': hours(12),
  D: days(1),
  W: weeks(),
  M: months(1),
};

export const BYBIT_CATEGORIES = ['spot', 'linear', 'inverse', 'option'] as const;

/** The v5 envelope; errors use it too, with HTTP 200 (trap 9). */
export const envelope = (result: unknown, now: number, retCode = 0, retMsg = 'OK') => ({ retCode, retMsg, result, retExtInfo: {}, time: now });

const price = (m: InstrumentModel, ticks: number) => trimZeros(fmtPrice(m, ticks));

/**
 * Linear: volume = base coin, turnover = quote. Inverse: volume = USD contracts, turnover = base
 * coin (trap 5).
 */
function volumes(m: InstrumentModel, b: Bar | Stats24h['agg']): { volume: string; turnover: string } {
  if (m.inst.category === 'inverse') {
    return { volume: fmtQty(m, b.steps), turnover: fmtAmount(baseVolume(m, b), 8) };
  }
  return { volume: fmtAmount(baseVolume(m, b), m.stepDecimals), turnover: fmtAmount(quoteVolume(m, b), 4) };
}

/** One `result.list` row of `/v5/market/kline`: seven strings (fixture `kline-linear.json`). */
export function klineRow(m: InstrumentModel, b: Bar): string[] {
  const v = volumes(m, b);
  return [String(b.openTime), price(m, b.open), price(m, b.high), price(m, b.low), price(m, b.close), v.volume, v.turnover];
}

/** `kline.{interval}.{symbol}` data item (fixture `ws-kline.doc.json`): times are numbers here. */
export function wsKline(m: InstrumentModel, b: Bar, interval: string, now: number) {
  const v = volumes(m, b);
  return {
    start: b.openTime,
    end: b.endTime - 1,
    interval,
    open: price(m, b.open),
    close: price(m, b.close),
    high: price(m, b.high),
    low: price(m, b.low),
    volume: v.volume,
    turnover: v.turnover,
    confirm: b.closed,
    timestamp: now,
  };
}

const tickDirection = (prev: number | undefined, p: number, lastDir: string): string =>
  prev === undefined || p === prev ? (lastDir.startsWith('Plus') ? 'ZeroPlusTick' : 'ZeroMinusTick') : p > prev ? 'PlusTick' : 'MinusTick';

/** A stable uuid-shaped trade id from the numeric one. */
export function tradeUuid(inst: SimInstrument, id: number): string {
  const hex = (id.toString(16) + inst.symbol.split('').map((c) => c.charCodeAt(0).toString(16)).join('')).padEnd(32, '0').slice(0, 32);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-9${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** `publicTrade.{symbol}` data items (fixture `ws-public-trade.doc.json`): S = taker side. */
export function wsTrades(m: InstrumentModel, trades: Trade[], prevPrice: number | undefined, seq0: number) {
  let prev = prevPrice;
  let dir = 'ZeroPlusTick';
  return trades.map((t, k) => {
    dir = tickDirection(prev, t.price, dir);
    prev = t.price;
    return { T: t.time, s: m.inst.symbol, S: t.buy ? 'Buy' : 'Sell', v: fmtQty(m, t.steps), p: fmtPrice(m, t.price), L: dir, i: tradeUuid(m.inst, t.id), BT: false, seq: seq0 + k };
  });
}

/** The ticker fields shared by REST `/v5/market/tickers` and the WS `tickers` snapshot. */
export function tickerFields(m: InstrumentModel, st: Stats24h, book: Book, now: number) {
  const v = volumes(m, st.agg);
  const oi = openInterest(m, now);
  const lastPx = book.last * m.tick;
  const oiValue = m.inst.category === 'inverse' ? (oi * m.inst.contractSize) / lastPx : oi * m.inst.contractSize * lastPx;
  return {
    symbol: m.inst.symbol,
    lastPrice: fmtPrice(m, book.last),
    indexPrice: fmtPrice(m, book.index),
    markPrice: fmtPrice(m, book.mark),
    prevPrice24h: fmtPrice(m, st.open),
    price24hPcnt: ((st.agg.close - st.open) / st.open).toFixed(6),
    highPrice24h: fmtPrice(m, st.agg.high),
    lowPrice24h: fmtPrice(m, st.agg.low),
    prevPrice1h: fmtPrice(m, st.open1h),
    openInterest: fmtAmount(oi, m.stepDecimals),
    openInterestValue: fmtAmount(oiValue, 2),
    turnover24h: v.turnover,
    volume24h: v.volume,
    fundingRate: String(fundingRate(m.inst, now)),
    nextFundingTime: String(nextFundingTime(now)),
    predictedDeliveryPrice: '',
    basisRate: '',
    deliveryFeeRate: '',
    deliveryTime: '0',
    ask1Size: fmtQty(m, book.askSteps),
    bid1Price: fmtPrice(m, book.bid),
    ask1Price: fmtPrice(m, book.ask),
    bid1Size: fmtQty(m, book.bidSteps),
    basis: '',
    preOpenPrice: '',
    preQty: '',
    curPreListingPhase: '',
    fundingIntervalHour: '8',
    basisRateYear: '',
    fundingCap: '0.005',
  };
}

/** WS `tickers` snapshot `data` (fixture `ws-ticker-linear.snapshot.doc.json` key set). */
export function wsTickerSnapshot(f: ReturnType<typeof tickerFields>, tickDir: string) {
  return {
    symbol: f.symbol,
    tickDirection: tickDir,
    price24hPcnt: f.price24hPcnt,
    lastPrice: f.lastPrice,
    prevPrice24h: f.prevPrice24h,
    highPrice24h: f.highPrice24h,
    lowPrice24h: f.lowPrice24h,
    prevPrice1h: f.prevPrice1h,
    markPrice: f.markPrice,
    indexPrice: f.indexPrice,
    openInterest: f.openInterest,
    openInterestValue: f.openInterestValue,
    turnover24h: f.turnover24h,
    volume24h: f.volume24h,
    fundingIntervalHour: f.fundingIntervalHour,
    fundingCap: f.fundingCap,
    nextFundingTime: f.nextFundingTime,
    fundingRate: f.fundingRate,
    bid1Price: f.bid1Price,
    bid1Size: f.bid1Size,
    ask1Price: f.ask1Price,
    ask1Size: f.ask1Size,
    preOpenPrice: f.preOpenPrice,
    preQty: f.preQty,
    curPreListingPhase: f.curPreListingPhase,
  };
}

/** `/v5/market/instruments-info` item (fixture `instruments-linear.doc.json`, same keys). */
export function instrumentInfo(i: SimInstrument) {
  const priceScale = decimalsOf(i.tickSize);
  return {
    symbol: i.symbol,
    symbolId: symbolIdOf(i),
    contractType: i.category === 'inverse' ? 'InversePerpetual' : 'LinearPerpetual',
    status: 'Trading',
    baseCoin: i.base,
    quoteCoin: i.quote,
    launchTime: String(i.listedAt),
    deliveryTime: '0',
    deliveryFeeRate: '',
    priceScale: String(priceScale),
    leverageFilter: { minLeverage: '1', maxLeverage: `${i.maxLeverage}.00`, leverageStep: '0.01' },
    priceFilter: { minPrice: i.tickSize, maxPrice: maxPriceOf(i), tickSize: i.tickSize },
    lotSizeFilter: {
      maxOrderQty: i.maxQty,
      minOrderQty: i.minQty,
      qtyStep: i.qtyStep,
      postOnlyMaxOrderQty: i.maxQty,
      maxMktOrderQty: i.maxMarketQty,
      minNotionalValue: i.category === 'inverse' ? '0' : '5',
    },
    unifiedMarginTrade: true,
    fundingInterval: 480,
    settleCoin: i.settle,
    copyTrading: i.category === 'inverse' ? 'none' : 'both',
    upperFundingRate: '0.00375',
    lowerFundingRate: '-0.00375',
    isPreListing: false,
    preListingInfo: null,
    riskParameters: { priceLimitRatioX: '0.01', priceLimitRatioY: '0.02' },
    symbolType: '',
  };
}

const symbolIdOf = (i: SimInstrument) => [...i.symbol].reduce((a, c) => (a * 31 + c.charCodeAt(0)) % 100_000, 7);
/** Bybit's max price is 19,999,998 ticks (BTCUSDT: 1999999.80 in the fixture). */
const maxPriceOf = (i: SimInstrument) => (19_999_998 * Number(i.tickSize)).toFixed(decimalsOf(i.tickSize));
