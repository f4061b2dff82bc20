import type { NativePage, NativePageFetcher, NativePageRequest } from '../pager';
import type { Candle } from '../types';

/** Deterministic bars of `stepSec` from `startSec`: a small random walk (mulberry32), volumes 1..100. */
export function syntheticBars(startSec: number, count: number, stepSec: number, symbol = 'BTCUSDT', seed = 7): Candle[] {
  let s = seed >>> 0;
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out: Candle[] = [];
  let price = 60_000;
  for (let i = 0; i < count; i += 1) {
    const open = price;
    const close = Math.round((open + (rand() - 0.5) * 100) * 10) / 10;
    const high = Math.max(open, close) + Math.round(rand() * 200) / 10;
    const low = Math.min(open, close) - Math.round(rand() * 200) / 10;
    out.push({ time: startSec + i * stepSec, open, high, low, close, volume: 1 + Math.floor(rand() * 100), symbol });
    price = close;
  }
  return out;
}

export interface FakeSource {
  fetchPage: NativePageFetcher;
  requests: NativePageRequest[];
}

/**
 * An exchange endpoint over a fixed series: count-based (Binance/Bybit/OKX: the 300 newest bars ≤
 * endTime) or range-based (BitMEX UDF: everything in [startTime, endTime]).
 */
export function fakeSource(bars: Candle[], mode: 'count' | 'range', nowMs = Infinity): FakeSource {
  const requests: NativePageRequest[] = [];
  const fetchPage: NativePageFetcher = async (req) => {
    requests.push(req);
    const end = req.endTime ?? nowMs;
    const upTo = bars.filter((b) => b.time * 1000 <= end);
    const page: NativePage = mode === 'count'
      ? { candles: upTo.slice(-300), exhausted: upTo.length <= 300 }
      : { candles: upTo.filter((b) => b.time * 1000 >= req.startTime), exhausted: true };
    return page;
  };
  return { fetchPage, requests };
}
