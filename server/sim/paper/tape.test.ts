/** The SimMarket tape adapter: every print of a gap (no 5-minute cap), and a `span` that agrees with the prints. */
import { describe, expect, it } from 'vitest';
import { SimMarket } from '../market/market';
import { simTape } from './tape';

const T = Date.parse('2026-03-01T12:00:00Z');
const tape = simTape(new SimMarket({ now: () => T }), 'binance');

describe('sim tape', () => {
  it('returns every print of a long gap in time order, in integer ticks and steps', () => {
    const prints = tape.trades('BTCUSDT', T - 30 * 60_000, T);
    expect(prints.length).toBeGreaterThan(30 * 60);
    expect(prints.every((p, i) => i === 0 || p.time > prints[i - 1].time || (p.time === prints[i - 1].time && p.id > prints[i - 1].id))).toBe(true);
    expect(prints[0].time).toBeGreaterThan(T - 30 * 60_000);
    expect(prints[prints.length - 1].time).toBeLessThanOrEqual(T);
    expect(typeof prints[0].price).toBe('bigint');
    expect(tape.last('BTCUSDT', T)).toEqual(prints[prints.length - 1]);
    expect(tape.trades('NOPE', 0, T)).toEqual([]);
  });

  it('span agrees with the prints, for whole minutes (from the bar) and partial ones', () => {
    for (const [after, until] of [
      [T - 60_001, T - 1],
      [T - 60_000 + 1234, T - 20_000],
      [T - 5 * 60_001, T - 4 * 60_000 - 1],
    ]) {
      const prints = tape.trades('BTCUSDT', after, until);
      const prices = prints.map((p) => p.price);
      const span = tape.span!('BTCUSDT', after, until)!;
      expect(span.low).toBe(prices.reduce((a, b) => (b < a ? b : a)));
      expect(span.high).toBe(prices.reduce((a, b) => (b > a ? b : a)));
      expect(span.close).toBe(prices[prices.length - 1]);
    }
  });
});
