import { describe, expect, it } from 'vitest';
import { aggregateCandles } from './aggregate';
import { planInterval } from './intervals';
import { fetchHistory, type NativePageFetcher } from './pager';
import { fakeSource, syntheticBars } from './testing/synthetic';
import { pageEndBefore, type Candle, type Interval } from './types';
import type { ExchangeId } from '../contracts/common';

const utc = (iso: string) => Date.parse(iso) / 1000;

/** Pages backwards from the latest until the source runs dry; returns every page, newest page first. */
async function pageAll(fetchPage: NativePageFetcher, exchange: ExchangeId, interval: Interval, nowMs: number, maxPages = 100): Promise<Candle[][]> {
  const plan = planInterval(exchange, interval);
  const pages: Candle[][] = [];
  let endTime: number | undefined;
  for (let i = 0; i < maxPages; i += 1) {
    const page = await fetchHistory(fetchPage, plan, { symbol: 'BTCUSDT', interval, endTime, testnet: false, category: undefined, signal: undefined }, nowMs);
    if (page.length === 0) return pages;
    pages.push(page);
    endTime = pageEndBefore(page[0]!);
  }
  throw new Error('did not reach the start of history');
}

function expectContiguous(pages: Candle[][], expected: Candle[]) {
  const joined = [...pages].reverse().flat();
  const times = joined.map((c) => c.time);
  expect(new Set(times).size).toBe(times.length); // no duplicates
  expect(times).toEqual([...times].sort((a, b) => a - b)); // oldest first across pages
  expect(joined).toEqual(expected); // no gaps, and every bar exactly right
}

describe('fetchHistory: native intervals', () => {
  it('pages 1-minute bars backwards, 300 per request, without gaps or duplicates', async () => {
    const bars = syntheticBars(utc('2024-06-01T00:00:00Z'), 1000, 60);
    const src = fakeSource(bars, 'count');
    const pages = await pageAll(src.fetchPage, 'binance', '1m', Infinity);
    expect(pages.map((p) => p.length)).toEqual([300, 300, 300, 100]);
    expectContiguous(pages, bars);
    expect(src.requests[0]!.endTime).toBeUndefined();
    expect(src.requests[1]!.endTime).toBe(bars[700]!.time * 1000 - 1);
  });

  it('keeps only bars at or before endTime even if the exchange sends more', async () => {
    const bars = syntheticBars(0, 50, 60);
    const sloppy: NativePageFetcher = async () => ({ candles: bars, exhausted: true });
    const page = await fetchHistory(sloppy, planInterval('binance', '1m'), { symbol: 'BTCUSDT', interval: '1m', endTime: 600_000, testnet: false, category: undefined, signal: undefined }, Infinity);
    expect(page.map((c) => c.time)).toEqual(bars.slice(0, 11).map((c) => c.time));
  });
});

describe('fetchHistory: aggregated intervals', () => {
  it('8h from 1h on a count-based exchange (bybit): 3+ pages line up with the full aggregation', async () => {
    // Listing at 03:00, inside an 8h bucket: the oldest bar is a partial bucket, as on the exchange.
    const hours = syntheticBars(utc('2023-01-01T03:00:00Z'), 8 * 700 + 3, 3600);
    const now = (hours.at(-1)!.time + 1800) * 1000;
    const src = fakeSource(hours, 'count', now);
    const pages = await pageAll(src.fetchPage, 'bybit', '8h', now);
    expect(pages.length).toBe(3);
    expect(pages[0]).toHaveLength(300);
    expectContiguous(pages, aggregateCandles(hours, '8h'));
    // The newest 8h bar is the forming one: the last hourly bar opens 3 + 5,602 = 5,605 h after
    // midnight, ≡ 5 (mod 8), so the bucket holds only 6 hourly bars so far.
    const forming = pages[0]!.at(-1)!;
    const inForming = hours.filter((h) => h.time >= forming.time);
    expect(inForming).toHaveLength(6);
    expect(forming.volume).toBe(inForming.reduce((s, h) => s + h.volume, 0));
    expect(forming.close).toBe(hours.at(-1)!.close);
    // 300 eight-hour bars need 2,400 hourly bars: 8 or 9 requests of 300 for a full page.
    expect(src.requests.filter((r) => r.wire === '60').length).toBeGreaterThanOrEqual(8 * 2);
  });

  it('a page ending inside a bucket still returns that bucket complete', async () => {
    const hours = syntheticBars(utc('2024-01-01T00:00:00Z'), 24 * 40, 3600);
    const src = fakeSource(hours, 'count');
    const endTime = utc('2024-01-20T10:30:00Z') * 1000; // inside the 08:00–16:00 bucket
    const page = await fetchHistory(src.fetchPage, planInterval('okx', '8h'), { symbol: 'BTCUSDT', interval: '8h', endTime, testnet: false, category: undefined, signal: undefined }, Infinity);
    const last = page.at(-1)!;
    expect(last.time).toBe(utc('2024-01-20T08:00:00Z'));
    const inside = hours.filter((h) => h.time >= last.time && h.time < last.time + 8 * 3600);
    expect(inside).toHaveLength(8);
    expect(last.close).toBe(inside[7]!.close);
    expect(last.volume).toBe(inside.reduce((s, h) => s + h.volume, 0));
  });

  it('15m from 1m on a range-based exchange (bitmex UDF): one request per page, contiguous', async () => {
    const minutes = syntheticBars(utc('2024-05-01T00:07:00Z'), 15 * 650, 60, 'XBTUSD');
    const now = (minutes.at(-1)!.time + 30) * 1000;
    const src = fakeSource(minutes, 'range', now);
    const pages = await pageAll(src.fetchPage, 'bitmex', '15m', now);
    expect(pages.map((p) => p.length)).toEqual([300, 300, 51]);
    expectContiguous(pages, aggregateCandles(minutes, '15m'));
    // One UDF range per page, plus the probe that finds nothing older.
    expect(src.requests.length).toBe(4);
    expect(src.requests[1]!.startTime).toBe(pages[1]![0]!.time * 1000);
  });

  it('1M from daily bars (bitmex): months align on the 1st and page without gaps', async () => {
    const days = syntheticBars(utc('1996-03-17T00:00:00Z'), 11_000, 86400, 'XBTUSD');
    const now = (days.at(-1)!.time + 3600) * 1000;
    const pages = await pageAll(fakeSource(days, 'range', now).fetchPage, 'bitmex', '1M', now);
    expect(pages[0]).toHaveLength(300);
    for (const m of pages.flat()) expect(new Date(m.time * 1000).getUTCDate()).toBe(1);
    expectContiguous(pages, aggregateCandles(days, '1M'));
  });

  it('1w from daily (bitmex) pages line up across week boundaries', async () => {
    const days = syntheticBars(utc('2015-01-01T00:00:00Z'), 7 * 320, 86400, 'XBTUSD');
    const now = (days.at(-1)!.time + 60) * 1000;
    const pages = await pageAll(fakeSource(days, 'range', now).fetchPage, 'bitmex', '1w', now);
    expect(pages.length).toBe(2);
    for (const w of pages.flat()) expect(new Date(w.time * 1000).getUTCDay()).toBe(1);
    expectContiguous(pages, aggregateCandles(days, '1w'));
  });

  it('an empty range with a UDF nextTime jumps to the older data instead of ending history', async () => {
    const old = syntheticBars(utc('2020-01-01T00:00:00Z'), 100, 3600, 'XBTUSD');
    const requests: number[] = [];
    const gappy: NativePageFetcher = async (req) => {
      requests.push(req.endTime ?? -1);
      const inRange = old.filter((b) => b.time * 1000 >= req.startTime && b.time * 1000 <= (req.endTime ?? Infinity));
      if (inRange.length > 0) return { candles: inRange, exhausted: true };
      return { candles: [], exhausted: true, olderThan: (old.at(-1)!.time + 3599) * 1000 };
    };
    const page = await fetchHistory(gappy, planInterval('bitmex', '1h'), { symbol: 'XBTUSD', interval: '1h', endTime: utc('2024-01-01T00:00:00Z') * 1000, testnet: false, category: undefined, signal: undefined }, Infinity);
    expect(page).toEqual(old);
    expect(requests).toHaveLength(2);
  });
});
