import type { SimInstrument } from '../market/catalogue';
import { fundingRate, nextFundingTime, openInterest, type Book } from '../market/derivs';
import { days, hours, minutes, months, weeks, type BucketSpec } from '../market/intervals';
import type { Bar, Stats24h } from '../market/market';
import type { InstrumentModel, Trade } from '../market/model';
import { baseVolume, fmtAmount, fmtPrice, fmtQty, quoteVolume, trimZeros } from '../market/units';

const UTC8 = 8 * 3_600_000;

/**
 * OKX `bar` values. `6H`, `12H`, `1D`, `2D`, `3D`, `1W`, `1M`, `3M` are aligned to UTC+8 (the daily
 * bar opens 16:00 UTC); the `utc` suffix aligns to UTC. Hours upper-case; no 8h (trap 7).
 */
export const OKX_BARS: Record<string, BucketSpec> = {
  '1m': minutes(1),
  '3m': minutes(3),
  '5m': minutes(5),
  '15m': minutes(15),
  '30m': minutes(30),
  '1H': hours(1),
  '2H': hours(2),
  '4H': hours(4),
  '6H': hours(6, UTC8),
  '12H': hours(12, UTC8),
  '1D': days(1, UTC8),
  '2D': days(2, UTC8),
  '3D': days(3, UTC8),
  '1W': weeks(UTC8),
  '1M': months(1, UTC8),
  '3M': months(3, UTC8),
  '6Hutc': hours(6),
  '12Hutc': hours(12),
  '1Dutc': days(1),
  '2Dutc': days(2),
  '3Dutc': days(3),
  '1Wutc': weeks(),
  '1Mutc': months(1),
  '3Mutc': months(3),
};

/** `{"code","msg","data"}` — code is a string; most errors still come with HTTP 200 (trap 9). */
export const okxBody = (data: unknown[], code = '0', msg = '') => ({ code, msg, data });

const px = (m: InstrumentModel, ticks: number) => trimZeros(fmtPrice(m, ticks));

/**
 * `[ts, o, h, l, c, vol, volCcy, volCcyQuote, confirm]`, all strings (fixture `candles-swap-1H.json`).
 * SWAP: vol = contracts, volCcy = base coin, volCcyQuote = quote (USD for inverse).
 */
export function candleRow(m: InstrumentModel, b: Bar): string[] {
  return [
    String(b.openTime),
    px(m, b.open),
    px(m, b.high),
    px(m, b.low),
    px(m, b.close),
    fmtQty(m, b.steps),
    fmtAmount(baseVolume(m, b), m.inst.category === 'inverse' ? 8 : 4),
    fmtAmount(quoteVolume(m, b), 4),
    b.closed ? '1' : '0',
  ];
}

/** A ticker object (REST `/market/tickers` and the WS `tickers` channel; fixture `tickers-swap.json`). */
export function ticker(m: InstrumentModel, st: Stats24h, book: Book, lastTrade: Trade | null, sod0: number, sod8: number, now: number) {
  return {
    instType: 'SWAP',
    instId: m.inst.symbol,
    last: px(m, book.last),
    lastSz: lastTrade ? trimZeros(fmtQty(m, lastTrade.steps)) : '0',
    askPx: px(m, book.ask),
    askSz: trimZeros(fmtQty(m, book.askSteps)),
    bidPx: px(m, book.bid),
    bidSz: trimZeros(fmtQty(m, book.bidSteps)),
    open24h: px(m, st.open),
    high24h: px(m, st.agg.high),
    low24h: px(m, st.agg.low),
    volCcy24h: trimZeros(fmtAmount(baseVolume(m, st.agg), 8)),
    vol24h: trimZeros(fmtQty(m, st.agg.steps)),
    sodUtc0: px(m, sod0),
    sodUtc8: px(m, sod8),
    ts: String(now),
  };
}

/**
 * A `GET /api/v5/public/funding-rate` item (fixture `funding-rate-any.json`): `fundingTime` is the
 * coming settlement, `nextFundingTime` the one after it (8 h periods).
 */
export function fundingRateItem(m: InstrumentModel, now: number) {
  const next = nextFundingTime(now);
  return {
    instType: 'SWAP',
    instId: m.inst.symbol,
    fundingRate: String(fundingRate(m.inst, now)),
    nextFundingRate: '',
    fundingTime: String(next),
    nextFundingTime: String(next + 8 * 3_600_000),
    method: 'current_period',
    formulaType: 'withRate',
    maxFundingRate: '0.0075',
    minFundingRate: '-0.0075',
    premium: '0.0001',
    interestRate: '0.0001',
    settFundingRate: String(fundingRate(m.inst, now - 8 * 3_600_000)),
    settState: 'settled',
    impactValue: '',
    ts: String(now),
  };
}

/**
 * A `GET /api/v5/public/open-interest` item (fixture `open-interest-swap.json`): `oi` in contracts,
 * `oiCcy` in the base coin (contracts × ctVal on linear, ÷ price on inverse), `oiUsd` its value.
 */
export function openInterestItem(m: InstrumentModel, lastTicks: number, now: number) {
  const contracts = openInterest(m, now);
  const price = lastTicks * m.tick;
  const inverse = m.inst.category === 'inverse';
  const baseAmount = inverse ? (contracts * m.inst.contractSize) / price : contracts * m.inst.contractSize;
  const usd = inverse ? contracts * m.inst.contractSize : baseAmount * price;
  return {
    instType: 'SWAP',
    instId: m.inst.symbol,
    oi: trimZeros(fmtAmount(contracts, m.stepDecimals)),
    oiCcy: trimZeros(fmtAmount(baseAmount, 8)),
    oiUsd: trimZeros(fmtAmount(usd, 4)),
    ts: String(now),
  };
}

/** A `trades` channel item (fixture `ws-trades.doc.json`): side = taker side, sz in contracts. */
export function tradeItem(m: InstrumentModel, t: Trade) {
  return { instId: m.inst.symbol, tradeId: String(t.id), px: px(m, t.price), sz: trimZeros(fmtQty(m, t.steps)), side: t.buy ? 'buy' : 'sell', ts: String(t.time), count: '1', source: '0', seqId: t.id % 1e9 };
}

/** A `/public/instruments?instType=SWAP` item (fixture `instruments-swap.json`, same keys). */
export function instrument(i: SimInstrument) {
  const family = `${i.base}-${i.quote}`;
  return {
    alias: '',
    auctionEndTime: '',
    baseCcy: '',
    category: '1',
    ctMult: '1',
    ctType: i.category,
    ctVal: String(i.contractSize),
    ctValCcy: i.category === 'inverse' ? 'USD' : i.base,
    contTdSwTime: '',
    expTime: '',
    futureSettlement: false,
    groupId: i.category === 'inverse' ? '1' : '2',
    instFamily: family,
    instId: i.symbol,
    instType: 'SWAP',
    lever: String(i.maxLeverage),
    listTime: String(i.listedAt),
    lotSz: i.qtyStep,
    maxIcebergSz: '100000000.0000000000000000',
    maxLmtAmt: '20000000',
    maxLmtSz: i.maxQty,
    maxMktAmt: '',
    maxMktSz: i.maxMarketQty,
    maxStopSz: i.maxMarketQty,
    maxTriggerSz: '100000000.0000000000000000',
    maxTwapSz: '100000000.0000000000000000',
    minSz: i.minQty,
    optType: '',
    openType: '',
    preMktSwTime: '',
    quoteCcy: '',
    tradeQuoteCcyList: [],
    settleCcy: i.settle,
    state: 'live',
    ruleType: 'normal',
    stk: '',
    tickSz: i.tickSize,
    uly: family,
    instIdCode: [...i.symbol].reduce((a, c) => (a * 33 + c.charCodeAt(0)) % 100_000, 11),
    instCategory: '1',
    upcChg: [],
  };
}
