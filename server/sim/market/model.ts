import { ASSETS, decimalsOf, volumeContractSize, type SimInstrument } from './catalogue';
import { centred, gaussian, hashIndex, hashString, subSalt, uniform } from './hash';
import { MINUTE_MS } from './intervals';

/** Octave k spans 2^k minutes: 1 min … 2^16 min ≈ 45 days. Beyond that the path is stationary. */
const OCTAVES = 17;
/** The basis (exchange/instrument vs the asset) only wanders on short scales (≤ ~4 h). */
const BASIS_OCTAVES = 9;
const BASIS_SIGMA = 0.00012;
const MINUTES_PER_YEAR = 525_600;
const MIN_TRADES = 60;
const MAX_TRADES = 400;

/** One minute of trading, prices in integer ticks, volumes in integer lot steps. */
export interface MinuteBar {
  minute: number;
  open: number;
  high: number;
  low: number;
  close: number;
  trades: number;
  steps: number;
  buySteps: number;
  /** Representative price of the minute (price units) used for quote/base volume conversions. */
  avgPrice: number;
}

/**
 * Trade ids leave room between consecutive tape trades: tape trade i of minute m has id
 * (m × 1000 + i) × TRADE_ID_STRIDE, and the paper fills printed after it (market/prints.ts) take
 * the ids just above it — so public trade ids increase in time order and never collide.
 */
export const TRADE_ID_STRIDE = 1000;

/** The id of the tape's trade `index` of minute `minute`. */
export const tapeTradeId = (minute: number, index: number): number => (minute * 1000 + index) * TRADE_ID_STRIDE;

export interface Trade {
  /** Globally ordered id: `tapeTradeId(minute, index)` for the tape (paper prints fill the gaps). */
  id: number;
  time: number;
  price: number;
  steps: number;
  /** Taker side. */
  buy: boolean;
}

/** One value-noise layer set: octave k has grid spacing 2^k minutes and amplitude amps[k]. */
interface Octaves {
  salts: number[];
  amps: number[];
}

/**
 * Adds Σ_k a_k · lerp(g_k(j), g_k(j+1), frac) for minutes m0 … m0+count−1 into `out`. Octave by
 * octave, cell by cell: one hash per grid cell, then a tight linear ramp — O(count × octaves).
 */
function addOctaves(o: Octaves, m0: number, count: number, out: Float64Array): void {
  for (let k = 0; k < o.salts.length; k++) {
    const span = 2 ** k;
    const inv = 1 / span;
    const amp = o.amps[k];
    const salt = o.salts[k];
    let i = 0;
    let j = Math.floor(m0 * inv);
    let g1 = centred(salt, j);
    while (i < count) {
      const cellStart = j * span;
      const g0 = g1;
      g1 = centred(salt, j + 1);
      const slope = (g1 - g0) * inv;
      const stop = Math.min(count, cellStart + span - m0);
      for (; i < stop; i++) out[i] += amp * (g0 + slope * (m0 + i - cellStart));
      j++;
    }
  }
}

/**
 * Everything about one instrument's market as pure functions of (seed, exchange, symbol, time).
 * Holds only caches; two models with the same seed give identical numbers.
 */
export class InstrumentModel {
  readonly tick: number;
  readonly tickDecimals: number;
  readonly step: number;
  readonly stepDecimals: number;
  /** First minute index with trading. */
  readonly firstMinute: number;
  /** Per-minute standard deviation of log returns. */
  readonly sigma: number;
  private readonly logBase: number;
  private readonly asset: Octaves;
  private readonly basis: Octaves;
  private readonly salt: number;
  private readonly salts: number[];
  private readonly usdPerMinute: number;
  /** Base coin (linear) or USD (inverse) per contract for the traded flow (quanto: via XBT's USD rate). */
  private readonly contract: number;
  private tickCache: { minute: number; trades: Trade[] } | null = null;

  constructor(
    readonly inst: SimInstrument,
    seed: string,
  ) {
    const a = ASSETS[inst.asset];
    this.tick = Number(inst.tickSize);
    this.tickDecimals = decimalsOf(inst.tickSize);
    this.step = Number(inst.qtyStep);
    this.stepDecimals = decimalsOf(inst.qtyStep);
    this.firstMinute = Math.ceil(inst.listedAt / MINUTE_MS);
    this.sigma = a.vol / Math.sqrt(MINUTES_PER_YEAR);
    this.logBase = Math.log(a.price * inst.priceMultiplier);
    this.contract = volumeContractSize(inst);
    this.usdPerMinute = a.usdPerMinute * inst.activity;
    // The asset path is shared by every instrument of the asset on every exchange (same seed), so
    // BTC on bybit tracks BTC on binance; the basis path is the exchange/instrument's own.
    const assetSalt = hashString(`${seed}|asset|${inst.asset}`);
    this.salt = hashString(`${seed}|${inst.exchange}|${inst.symbol}`);
    // a_k = σ·√(2^k)/2 gives one-minute increments of std ≈ σ and random-walk scaling above it.
    const amps = Array.from({ length: OCTAVES }, (_, k) => (this.sigma * Math.sqrt(2 ** k)) / 2);
    const basisAmps = Array.from({ length: BASIS_OCTAVES }, (_, k) => (BASIS_SIGMA * Math.sqrt(2 ** k)) / 8);
    this.asset = { salts: amps.map((_, k) => subSalt(assetSalt, k)), amps };
    this.basis = { salts: basisAmps.map((_, k) => subSalt(this.salt, 100 + k)), amps: basisAmps };
    this.salts = Array.from({ length: 12 }, (_, k) => subSalt(this.salt, k));
  }

  /** Prices (ticks) at the start of minutes m0 … m0+count−1. */
  private pricesTicks(m0: number, count: number): Float64Array {
    const out = new Float64Array(count);
    addOctaves(this.asset, m0, count, out);
    addOctaves(this.basis, m0, count, out);
    const inv = 1 / this.tick;
    for (let i = 0; i < count; i++) out[i] = Math.max(1, Math.round(Math.exp(this.logBase + out[i]) * inv));
    return out;
  }

  /** Price in ticks at the start of minute `m` (= the open of minute m, the close of minute m−1). */
  priceTicksAt(m: number): number {
    return this.pricesTicks(m, 1)[0];
  }

  toPrice(ticks: number): number {
    return Number((ticks * this.tick).toFixed(this.tickDecimals));
  }

  /** Minute bar `m` (no listing check: callers clip to `firstMinute`). */
  minute(m: number): MinuteBar {
    const p = this.pricesTicks(m, 2);
    return this.minuteFrom(m, p[0], p[1]);
  }

  /** Minute bars m0 … m0+count−1, computed together (one price pass). */
  minutes(m0: number, count: number): MinuteBar[] {
    const p = this.pricesTicks(m0, count + 1);
    const out = new Array<MinuteBar>(count);
    for (let i = 0; i < count; i++) out[i] = this.minuteFrom(m0 + i, p[i], p[i + 1]);
    return out;
  }

  private minuteFrom(m: number, open: number, close: number): MinuteBar {
    // Two hashes feed five per-minute draws (16+16 and 11+11+10 bits): history is computed a
    // minute at a time, so this is the hot loop of every long request.
    const h1 = hashIndex(this.salts[1], m);
    const h2 = hashIndex(this.salts[2], m);
    const uHigh = (h1 >>> 16) / 65536;
    const uLow = (h1 & 0xffff) / 65536;
    const uActivity = (h2 >>> 21) / 2048;
    const uTrades = ((h2 >>> 10) & 0x7ff) / 2048;
    const uBuy = (h2 & 0x3ff) / 1024;
    const sigmaTicks = this.sigma * open;
    const move = Math.min(4, Math.abs(close - open) / Math.max(sigmaTicks, 1e-9));
    // u² has a long-ish right tail: most wicks short, a few long ones.
    const high = Math.max(open, close) + Math.round(uHigh * uHigh * sigmaTicks * 0.9);
    const low = Math.max(1, Math.min(open, close) - Math.round(uLow * uLow * sigmaTicks * 0.9));
    const activity = (0.35 + 1.3 * uActivity * uActivity) * (1 + 0.6 * move);
    const trades = Math.min(MAX_TRADES, Math.max(MIN_TRADES, Math.round(90 * (0.7 + 0.6 * uTrades) * (1 + 0.4 * move))));
    const avgPrice = ((open + high + low + close) / 4) * this.tick;
    const usd = this.usdPerMinute * activity;
    const nativeQty = this.inst.category === 'inverse' ? usd / this.contract : usd / (avgPrice * this.contract);
    const steps = Math.max(2 * trades, Math.round(nativeQty / this.step));
    const direction = close === open ? 0 : close > open ? 1 : -1;
    const buyShare = Math.min(0.9, Math.max(0.1, 0.5 + 0.15 * direction + 0.3 * (uBuy - 0.5)));
    const buySteps = Math.min(steps - trades, Math.max(trades, Math.round(steps * buyShare)));
    return { minute: m, open, high, low, close, trades, steps, buySteps, avgPrice };
  }

  /**
   * The trades of minute `m`: first at the minute's start at the open, last at the close, touching
   * the high and the low; sizes and sides add up exactly to the minute bar's steps and buySteps.
   */
  ticks(m: number): Trade[] {
    if (this.tickCache?.minute === m) return this.tickCache.trades;
    const bar = this.minute(m);
    const n = bar.trades;
    const s = subSalt(this.salt, 10);
    const t0 = m * MINUTE_MS;
    const times = new Array<number>(n);
    times[0] = t0;
    for (let i = 1; i < n; i++) times[i] = t0 + Math.floor(((i + uniform(subSalt(s, 1), m * 1024 + i) * 0.9) * MINUTE_MS) / n);

    // Anchors: open at 0, high and low somewhere inside, close at the end; bridges between them.
    const prices = new Array<number>(n);
    const iHigh = 1 + Math.floor(uniform(subSalt(s, 2), m) * (n - 2));
    let iLow = 1 + Math.floor(uniform(subSalt(s, 3), m) * (n - 2));
    if (iLow === iHigh) iLow = iHigh === 1 ? 2 : iHigh - 1;
    const anchors = [[0, bar.open], [iHigh, bar.high], [iLow, bar.low], [n - 1, bar.close]].sort((a, b) => a[0] - b[0]);
    const stepScale = (this.sigma * bar.open) / Math.sqrt(n);
    for (let a = 0; a < anchors.length - 1; a++) {
      const [ia, va] = anchors[a];
      const [ib, vb] = anchors[a + 1];
      const len = ib - ia;
      prices[ia] = va;
      if (len <= 0) continue;
      const walk = new Array<number>(len + 1);
      walk[0] = 0;
      for (let i = 1; i <= len; i++) walk[i] = walk[i - 1] + gaussian(subSalt(s, 4), m * 1024 + ia + i) * stepScale;
      for (let i = 1; i < len; i++) {
        const bridge = va + walk[i] - (i / len) * walk[len] + (i / len) * (vb - va);
        prices[ia + i] = Math.min(bar.high, Math.max(bar.low, Math.round(bridge)));
      }
      prices[ib] = vb;
    }

    // Sides: the biggest up-moves are buys; the count follows the minute's buy share.
    const buyCount = Math.min(n - 1, Math.max(1, Math.round((n * bar.buySteps) / bar.steps)));
    const score = prices.map((p, i) => (i === 0 ? 0 : p - prices[i - 1]) + uniform(subSalt(s, 5), m * 1024 + i) * 0.5);
    const order = score.map((_, i) => i).sort((a, b) => score[b] - score[a]);
    const buy = new Array<boolean>(n).fill(false);
    for (let k = 0; k < buyCount; k++) buy[order[k]] = true;

    const sizes = new Array<number>(n).fill(0);
    this.split(bar.buySteps, buy, true, sizes, subSalt(s, 6), m);
    this.split(bar.steps - bar.buySteps, buy, false, sizes, subSalt(s, 7), m);
    const trades = prices.map((price, i) => ({ id: tapeTradeId(m, i), time: times[i], price, steps: sizes[i], buy: buy[i] }));
    this.tickCache = { minute: m, trades };
    return trades;
  }

  /** Splits `total` steps over the trades of one side, each ≥ 1, heavy-tailed like real trade sizes. */
  private split(total: number, buy: boolean[], side: boolean, out: number[], salt: number, m: number): void {
    const idx = buy.flatMap((b, i) => (b === side ? [i] : []));
    const weights = idx.map((i) => -Math.log(1 - uniform(salt, m * 1024 + i) * 0.999));
    const sum = weights.reduce((a, b) => a + b, 0);
    const spare = total - idx.length;
    let given = 0;
    idx.forEach((i, k) => {
      out[i] = 1 + Math.floor((spare * weights[k]) / sum);
      given += out[i];
    });
    for (let k = 0; given < total; k = (k + 1) % idx.length, given++) out[idx[k]] += 1;
  }
}
