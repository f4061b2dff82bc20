import type { Agg } from '../market/aggregate';
import { QUANTO_XBT_USD, volumeContractSize, type SimInstrument } from '../market/catalogue';
import { fundingRate, openInterest, type Book } from '../market/derivs';
import { hashIndex } from '../market/hash';
import { days, hours, minutes, months, weeks, HOUR_MS, type BucketSpec } from '../market/intervals';
import type { Bar, Stats24h } from '../market/market';
import type { InstrumentModel, Trade } from '../market/model';
import { baseVolume, nativeQty, numPrice, quoteVolume } from '../market/units';

/** `/trade/bucketed` `binSize` and WS `tradeBin*`: only 1m, 5m, 1h, 1d exist (trap 8). */
export const BITMEX_BINS: Record<string, BucketSpec> = { '1m': minutes(1), '5m': minutes(5), '1h': hours(1), '1d': days(1) };

/**
 * UDF `resolution`s. BitMEX documents none (bitmex.md §1b); the sim serves the TradingView set the
 * SPA's chart resolutions use (SPEC §9), in their common spellings.
 */
export const UDF_RESOLUTIONS: Record<string, BucketSpec> = {
  '1': minutes(1),
  '3': minutes(3),
  '5': minutes(5),
  '15': minutes(15),
  '30': minutes(30),
  '60': hours(1),
  '120': hours(2),
  '240': hours(4),
  '360': hours(6),
  '480': hours(8),
  '720': hours(12),
  D: days(1),
  '1D': days(1),
  '3D': days(3),
  W: weeks(),
  '1W': weeks(),
  M: months(1),
  '1M': months(1),
};

export const iso = (ms: number) => new Date(ms).toISOString();

/** A round number for JSON: BitMEX sends floats, never float noise. */
const num = (v: number, decimals = 8) => Number(v.toFixed(decimals));

/**
 * Settlement minor units per unit of foreign/home notional: XBt (1e8 per XBT) or USDt (1e6 per USDT).
 * Quanto (XBt-settled, USD-priced): contracts × multiplier × price satoshi = the USD notional ÷ the
 * XBT rate the model drew it with (`volumeContractSize`), so exactly Σ size × 100 × price.
 */
const turnoverOf = (i: SimInstrument, home: number, foreign: number) =>
  Math.round(i.category === 'inverse' ? home * 1e8 : i.quanto ? (foreign / QUANTO_XBT_USD) * 1e8 : foreign * 1e6);

interface Notional {
  volume: number;
  home: number;
  foreign: number;
}

/** volume = contracts; homeNotional = base (XBT); foreignNotional = quote (USD/USDT) (trap 5). */
function notional(m: InstrumentModel, a: Pick<Agg, 'steps' | 'stepsPx' | 'stepsInvPx'>): Notional {
  return { volume: nativeQty(m, a.steps), home: baseVolume(m, a), foreign: quoteVolume(m, a) };
}

/** Cosmetic: the size of the bin's last trade would need its ticks; a stable lot multiple stands in. */
const lastSizeOf = (m: InstrumentModel, b: Bar) => nativeQty(m, 1 + (hashIndex(b.lastTradeId >>> 0, b.openTime / 60_000) % 25));

/** A `TradeBin` row (fixture `trade-bucketed-1h.json`): `timestamp` is the bin END (trap 2). */
export function tradeBin(m: InstrumentModel, b: Bar) {
  const n = notional(m, b);
  return {
    timestamp: iso(b.endTime),
    symbol: m.inst.symbol,
    open: numPrice(m, b.open),
    high: numPrice(m, b.high),
    low: numPrice(m, b.low),
    close: numPrice(m, b.close),
    trades: b.trades,
    volume: n.volume,
    vwap: num(n.home > 0 ? n.foreign / n.home : b.close * m.tick, m.tickDecimals + 4),
    lastSize: lastSizeOf(m, b),
    turnover: turnoverOf(m.inst, n.home, n.foreign),
    homeNotional: num(n.home),
    foreignNotional: num(n.foreign, 6),
  };
}

/** A `trade` table row (fixture `ws-trade-partial.json`): side = taker side, size = contracts. */
export function tradeRow(m: InstrumentModel, t: Trade, prevPrice: number | undefined) {
  const size = nativeQty(m, t.steps);
  const price = numPrice(m, t.price);
  const contract = volumeContractSize(m.inst);
  const home = m.inst.category === 'inverse' ? (size * contract) / price : size * contract;
  const foreign = m.inst.category === 'inverse' ? size * contract : home * price;
  return {
    timestamp: iso(t.time),
    symbol: m.inst.symbol,
    side: t.buy ? 'Buy' : 'Sell',
    size,
    price,
    tickDirection: prevPrice === undefined || prevPrice === t.price ? (t.buy ? 'ZeroPlusTick' : 'ZeroMinusTick') : t.price > prevPrice ? 'PlusTick' : 'MinusTick',
    trdMatchID: matchId(t.id, m.inst.symbol),
    grossValue: m.inst.quanto ? Math.round(size * price * m.inst.contractSize * 1e8) : turnoverOf(m.inst, home, foreign),
    homeNotional: num(home),
    foreignNotional: num(foreign, 6),
  };
}

function matchId(id: number, symbol: string): string {
  const a = hashIndex(0x5eed, id).toString(16).padStart(8, '0');
  const b = hashIndex(symbol.length * 7919, id).toString(16).padStart(8, '0');
  const c = hashIndex(0xbeef, id).toString(16).padStart(8, '0');
  const d = hashIndex(0xf00d, id).toString(16).padStart(8, '0');
  return `${a}-${b.slice(0, 4)}-${b.slice(4)}-${c.slice(0, 4)}-${c.slice(4)}${d}`;
}

/** BitMEX funds at 04:00, 12:00 and 20:00 UTC. */
const nextFunding = (t: number) => Math.floor((t - 4 * HOUR_MS) / (8 * HOUR_MS)) * 8 * HOUR_MS + 12 * HOUR_MS;

/** An `Instrument` record with the fixture's full key set (`instrument-active.json`). */
export function instrumentRecord(m: InstrumentModel, st: Stats24h | null, book: Book | null, now: number) {
  const i = m.inst;
  const inverse = i.category === 'inverse';
  const quanto = i.quanto === true;
  const n = st ? notional(m, st.agg) : { volume: 0, home: 0, foreign: 0 };
  const last = book ? numPrice(m, book.last) : null;
  const prev24 = st ? numPrice(m, st.open) : null;
  const oi = openInterest(m, now);
  const hourStart = Math.floor(now / HOUR_MS) * HOUR_MS;
  // Inverse: -1e8 (XBt per 1/price); quanto: satoshi per contract per 1 USD (ETHUSD 100); linear: USDt per base × base per contract.
  const multiplier = inverse ? -100_000_000 : quanto ? Math.round(i.contractSize * 1e8) : Math.round(i.contractSize * 1e6);
  return {
    symbol: i.symbol,
    rootSymbol: i.base,
    state: 'Open',
    typ: 'FFWCSX',
    listing: iso(i.listedAt),
    front: iso(i.listedAt),
    expiry: null,
    settle: null,
    listedSettle: null,
    relistInterval: null,
    inverseLeg: '',
    sellLeg: '',
    buyLeg: '',
    optionStrikePcnt: null,
    optionStrikeRound: null,
    optionStrikePrice: null,
    optionMultiplier: null,
    // A quanto position is counted in contracts: no position currency (derived; bitmex.md lists none).
    positionCurrency: inverse ? 'USD' : quanto ? '' : i.base,
    underlying: i.base,
    quoteCurrency: i.quote,
    underlyingSymbol: `${i.base}=`,
    reference: 'BMEX',
    referenceSymbol: inverse ? '.BXBT' : quanto ? `.B${i.base}` : `.B${i.base}T`,
    calcInterval: null,
    publishInterval: null,
    publishTime: null,
    maxOrderQty: Number(i.maxQty),
    maxPrice: 1000000,
    lotSize: Number(i.qtyStep),
    tickSize: Number(i.tickSize),
    multiplier,
    settlCurrency: i.settle,
    underlyingToPositionMultiplier: inverse || quanto ? null : Math.round(1 / i.contractSize),
    underlyingToSettleMultiplier: inverse ? -100_000_000 : null,
    quoteToSettleMultiplier: inverse || quanto ? null : 1_000_000,
    isQuanto: quanto,
    isInverse: inverse,
    initMargin: num(1 / i.maxLeverage, 4),
    maintMargin: 0.0035,
    riskLimit: 20000000000,
    riskStep: 15000000000,
    limit: null,
    capped: false,
    taxed: true,
    deleverage: true,
    makerFee: -0.0001,
    takerFee: 0.00075,
    settlementFee: 0,
    insuranceFee: 0,
    fundingBaseSymbol: `.${i.base}BON8H`,
    fundingQuoteSymbol: `.${inverse || quanto ? 'USD' : 'USDT'}BON8H`,
    fundingPremiumSymbol: `.${i.symbol}PI8H`,
    fundingTimestamp: iso(nextFunding(now)),
    fundingInterval: '2000-01-01T08:00:00.000Z',
    fundingRate: fundingRate(i, now),
    indicativeFundingRate: fundingRate(i, now + 8 * HOUR_MS),
    rebalanceTimestamp: null,
    rebalanceInterval: null,
    openingTimestamp: iso(hourStart),
    closingTimestamp: iso(hourStart + HOUR_MS),
    sessionInterval: '2000-01-01T01:00:00.000Z',
    prevClosePrice: prev24,
    limitDownPrice: null,
    limitUpPrice: null,
    bankruptLimitDownPrice: null,
    bankruptLimitUpPrice: null,
    prevTotalVolume: 0,
    totalVolume: n.volume,
    volume: n.volume,
    volume24h: n.volume,
    prevTotalTurnover: 0,
    totalTurnover: turnoverOf(i, n.home, n.foreign),
    turnover: turnoverOf(i, n.home, n.foreign),
    turnover24h: turnoverOf(i, n.home, n.foreign),
    homeNotional24h: num(n.home),
    foreignNotional24h: num(n.foreign, 6),
    prevPrice24h: prev24,
    vwap: n.home > 0 ? num(n.foreign / n.home, m.tickDecimals + 3) : last,
    highPrice: st ? numPrice(m, st.agg.high) : null,
    lowPrice: st ? numPrice(m, st.agg.low) : null,
    lastPrice: last,
    lastPriceProtected: last,
    lastTickDirection: 'ZeroPlusTick',
    lastChangePcnt: st ? num((st.agg.close - st.open) / st.open, 4) : 0,
    bidPrice: book ? numPrice(m, book.bid) : null,
    midPrice: book ? num(((book.bid + book.ask) / 2) * m.tick, m.tickDecimals + 1) : null,
    askPrice: book ? numPrice(m, book.ask) : null,
    impactBidPrice: book ? numPrice(m, book.bid - 2) : null,
    impactMidPrice: book ? numPrice(m, book.bid) : null,
    impactAskPrice: book ? numPrice(m, book.ask + 2) : null,
    hasLiquidity: true,
    openInterest: oi,
    openValue: quanto
      ? Math.round(last ? oi * i.contractSize * last * 1e8 : 0)
      : turnoverOf(i, last ? (oi * i.contractSize) / (inverse ? last : 1) : 0, last && !inverse ? oi * i.contractSize * last : 0),
    fairMethod: 'FundingRate',
    fairBasisRate: 0.1095,
    fairBasis: 0.01,
    fairPrice: book ? numPrice(m, book.mark) : null,
    markMethod: 'FairPrice',
    markPrice: book ? numPrice(m, book.mark) : null,
    indicativeTaxRate: 0,
    indicativeSettlePrice: book ? numPrice(m, book.index) : null,
    optionUnderlyingPrice: null,
    settledPriceAdjustmentRate: null,
    settledPrice: null,
    timestamp: iso(now),
  };
}

/** `{"error":{"message","name"}}` with a 4xx status (bitmex.md §0). */
export const bitmexError = (message: string, name = 'HTTPError') => ({ error: { message, name } });

export const TRADE_TYPES = {
  timestamp: 'timestamp',
  symbol: 'symbol',
  side: 'symbol',
  size: 'long',
  price: 'float',
  tickDirection: 'symbol',
  trdMatchID: 'guid',
  grossValue: 'long',
  homeNotional: 'float',
  foreignNotional: 'float',
};

export const TRADEBIN_TYPES = {
  timestamp: 'timestamp',
  symbol: 'symbol',
  open: 'float',
  high: 'float',
  low: 'float',
  close: 'float',
  trades: 'long',
  volume: 'long',
  vwap: 'float',
  lastSize: 'long',
  turnover: 'long',
  homeNotional: 'float',
  foreignNotional: 'float',
};
