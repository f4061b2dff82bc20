import type { Candle, Indicator, PriceSource } from '../../src/engine/types';

/**
 * Straightforward reference implementations of the engine's indicators, for its unit tests: every
 * value from its own window or session — no running sums, no incremental state, the textbook formula.
 */

export function sourceOf(c: Candle, s: PriceSource): number {
  switch (s) {
    case 'open':
      return c.open;
    case 'high':
      return c.high;
    case 'low':
      return c.low;
    case 'hl2':
      return (c.high + c.low) / 2;
    case 'hlc3':
      return (c.high + c.low + c.close) / 3;
    case 'ohlc4':
      return (c.open + c.high + c.low + c.close) / 4;
    default:
      return c.close;
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

export function refSma(candles: Candle[], period: number, s: PriceSource): number[] {
  return candles.map((_, i) => (i < period - 1 ? NaN : mean(candles.slice(i - period + 1, i + 1).map((c) => sourceOf(c, s)))));
}

export function refEma(candles: Candle[], period: number, s: PriceSource): number[] {
  const a = 2 / (period + 1);
  const out: number[] = [];
  for (let i = 0; i < candles.length; i++) {
    if (i < period - 1) out.push(NaN);
    else if (i === period - 1) out.push(mean(candles.slice(0, period).map((c) => sourceOf(c, s))));
    else out.push(a * sourceOf(candles[i], s) + (1 - a) * out[i - 1]);
  }
  return out;
}

/** [basis, upper, lower] per bar; σ is the population standard deviation. */
export function refBollinger(candles: Candle[], period: number, k: number, s: PriceSource): number[][] {
  return candles.map((_, i) => {
    if (i < period - 1) return [NaN, NaN, NaN];
    const xs = candles.slice(i - period + 1, i + 1).map((c) => sourceOf(c, s));
    const m = mean(xs);
    const sd = Math.sqrt(mean(xs.map((x) => (x - m) ** 2)));
    return [m, m + k * sd, m - k * sd];
  });
}

/** Σ(price·volume)/Σvolume since the bar's UTC day began; a session without volume yet: the bar's price. */
export function refVwap(candles: Candle[], s: PriceSource): number[] {
  return candles.map((c, i) => {
    const day = Math.floor(c.time / 86_400);
    let j = i;
    while (j > 0 && Math.floor(candles[j - 1].time / 86_400) === day) j--;
    const session = candles.slice(j, i + 1);
    const v = session.reduce((a, b) => a + b.volume, 0);
    return v > 0 ? session.reduce((a, b) => a + sourceOf(b, s) * b.volume, 0) / v : sourceOf(c, s);
  });
}

/** Values of `spec` per bar: one array per line (Bollinger: basis, upper, lower). */
export function refValues(candles: Candle[], spec: Indicator): number[][] {
  switch (spec.kind) {
    case 'sma':
      return [refSma(candles, spec.period, spec.source)];
    case 'ema':
      return [refEma(candles, spec.period, spec.source)];
    case 'vwap':
      return [refVwap(candles, spec.source)];
    case 'bollinger': {
      const rows = refBollinger(candles, spec.period, spec.stdDev, spec.source);
      return [0, 1, 2].map((l) => rows.map((r) => r[l]));
    }
  }
}
