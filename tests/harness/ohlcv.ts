/**
 * Seeded OHLCV generator shared by the engine demo page, the benchmark (identical data for the engine
 * and for lightweight-charts) and tests. Deterministic for a given seed: a geometric random walk with
 * volatility clustering, prices rounded to the tick, volume log-normal and larger on big moves.
 */
export interface GeneratedCandle {
  time: number;
  open: number;
  high: number;
  low: number;
  close: number;
  volume: number;
}

export interface GenerateOptions {
  count: number;
  seed?: number;
  /** Seconds between bars (default 60). */
  interval?: number;
  /** Open time of the last bar, unix s (default 2024-06-03T12:00:00Z). */
  endTime?: number;
  startPrice?: number;
  tickSize?: number;
}

export const DEFAULT_END_TIME = 1_717_416_000;

/** mulberry32: tiny, fast, good enough for charts. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function generateCandles(opts: GenerateOptions): GeneratedCandle[] {
  const { count, seed = 1, interval = 60, endTime = DEFAULT_END_TIME, startPrice = 30_000, tickSize = 0.1 } = opts;
  const rand = rng(seed);
  const gauss = () => {
    const u = 1 - rand();
    const v = rand();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  };
  const round = (p: number) => Math.round(p / tickSize) * tickSize;
  const decimals = Math.max(0, Math.round(-Math.log10(tickSize)));
  const fix = (p: number) => Number(round(p).toFixed(decimals));
  const out: GeneratedCandle[] = new Array(count);
  let price = startPrice;
  let vol = 0.0015;
  const t0 = endTime - (count - 1) * interval;
  for (let i = 0; i < count; i++) {
    vol = Math.min(0.01, Math.max(0.0004, vol * (1 + 0.08 * gauss())));
    const open = fix(price);
    // Mean reversion keeps a million bars in a plausible range.
    const drift = 0.00002 * Math.log(startPrice / price);
    const close = fix(open * Math.exp(drift + vol * gauss()));
    const high = fix(Math.max(open, close) * (1 + Math.abs(gauss()) * vol * 0.6));
    const low = fix(Math.min(open, close) * (1 - Math.abs(gauss()) * vol * 0.6));
    const volume = Number((Math.exp(gauss() * 0.6) * (5 + Math.abs(close - open) / (open * vol)) * 10).toFixed(3));
    out[i] = { time: t0 + i * interval, open, high, low, close, volume };
    price = close;
  }
  return out;
}

/** The next live tick for the last bar: moves the close, widens high/low, adds volume. */
export function nextTick(last: GeneratedCandle, rand: () => number, tickSize = 0.1): GeneratedCandle {
  const decimals = Math.max(0, Math.round(-Math.log10(tickSize)));
  const step = (rand() - 0.5) * last.close * 0.0008;
  const close = Number((Math.round((last.close + step) / tickSize) * tickSize).toFixed(decimals));
  return {
    ...last,
    close,
    high: Math.max(last.high, close),
    low: Math.min(last.low, close),
    volume: Number((last.volume + rand() * 2).toFixed(3)),
  };
}
