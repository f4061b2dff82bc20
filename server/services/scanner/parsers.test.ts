import { describe, expect, it } from 'vitest';
import { fixture } from '../../sim/testing';
import { atrPercent, HOUR_MS, parseBinanceKlines, parseBitmexBuckets, parseBybitKlines, parseOkxCandles } from './parsers';

// Each exchange's 1 h candles (the fixtures) → closed bars and ATR %. The tickers' parsers and stream
// frames are tested with their exchange folders (server/exchanges/tickers.test.ts).

/** ATR by the textbook, written out separately: mean of the last `n` true ranges ÷ last close. */
function referenceAtr(bars: Array<{ h: number; l: number; c: number }>, n: number): number {
  const last = bars.slice(-(n + 1));
  let sum = 0;
  for (let k = 1; k < last.length; k++) sum += Math.max(last[k].h - last[k].l, Math.abs(last[k].h - last[k - 1].c), Math.abs(last[k].l - last[k - 1].c));
  return (sum / n / last[last.length - 1].c) * 100;
}

describe('candles → ATR %', () => {
  const later = Date.parse('2030-01-01T00:00:00Z');

  it('binance klines: oldest first, forming bar left out', () => {
    const raw = fixture<string[][]>('binance', 'klines.json');
    const bars = parseBinanceKlines(raw, Number(raw[raw.length - 1][0]) + HOUR_MS - 1);
    expect(bars).toHaveLength(raw.length - 1); // the newest bar is still forming at that time
    const all = parseBinanceKlines(raw, later);
    expect(all.map((b) => b.time)).toEqual(raw.map((r) => Number(r[0])));
    expect(atrPercent(all, 3)).toBeCloseTo(referenceAtr(raw.map((r) => ({ h: Number(r[2]), l: Number(r[3]), c: Number(r[4]) })), 3), 12);
  });

  it('bybit kline: newest first sorted, forming bar left out by time', () => {
    const body = fixture<{ result: { list: string[][] } }>('bybit', 'kline-linear.json');
    const newest = Number(body.result.list[0][0]);
    const bars = parseBybitKlines(body, newest + HOUR_MS - 1);
    expect(bars.map((b) => b.time)).toEqual(body.result.list.slice(1).map((r) => Number(r[0])).reverse());
    const rows = [...body.result.list].reverse().slice(0, -1);
    expect(atrPercent(bars, 3)).toBeCloseTo(referenceAtr(rows.map((r) => ({ h: Number(r[2]), l: Number(r[3]), c: Number(r[4]) })), 3), 12);
  });

  it('okx candles: confirm "0" (forming) left out', () => {
    const body = fixture<{ data: string[][] }>('okx', 'candles-swap-1H.json');
    const bars = parseOkxCandles(body, later);
    expect(bars).toHaveLength(body.data.filter((r) => r[8] === '1').length);
    expect(bars[0].time).toBeLessThan(bars[bars.length - 1].time);
  });

  it('bitmex trade/bucketed: timestamp is the bucket END (trap 2)', () => {
    const raw = fixture<Array<{ timestamp: string; high: number; low: number; close: number }>>('bitmex', 'trade-bucketed-1h.json');
    const bars = parseBitmexBuckets(raw, later);
    expect(bars[0]).toEqual({ time: Date.parse(raw[0].timestamp) - HOUR_MS, high: raw[0].high, low: raw[0].low, close: raw[0].close });
    expect(atrPercent(bars, 4)).toBeCloseTo(referenceAtr(raw.map((r) => ({ h: r.high, l: r.low, c: r.close })), 4), 12);
  });

  it('fewer than period + 1 bars: no ATR (a new listing is not compared on a shorter window)', () => {
    const bars = Array.from({ length: 14 }, (_, k) => ({ time: k * HOUR_MS, high: 11, low: 9, close: 10 }));
    expect(atrPercent(bars)).toBeNull();
    expect(atrPercent([...bars, { time: 14 * HOUR_MS, high: 11, low: 9, close: 10 }])).toBeCloseTo(20, 12);
  });
});
