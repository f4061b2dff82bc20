import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { refValues, refVwap } from '../../../tests/harness/indicator-reference';
import { generateCandles, nextTick, rng } from '../../../tests/harness/ohlcv';
import { createTestChart } from '../../../tests/harness/test-chart';
import { SeriesStore } from '../core/series-store';
import type { Candle, Indicator } from '../types';
import { IndicatorSet, MAX_INDICATOR_PERIOD, normalizeIndicator } from './indicator-set';

const SPECS: Indicator[] = [
  { id: 'sma1', kind: 'sma', period: 1, source: 'close', color: '#fff' },
  { id: 'sma20', kind: 'sma', period: 20, source: 'hl2', color: '#fff' },
  { id: 'ema9', kind: 'ema', period: 9, source: 'close', color: '#fff' },
  { id: 'ema50', kind: 'ema', period: 50, source: 'ohlc4', color: '#fff' },
  { id: 'bb20', kind: 'bollinger', period: 20, stdDev: 2, source: 'close', color: '#fff' },
  { id: 'bb5', kind: 'bollinger', period: 5, stdDev: 1.5, source: 'low', color: '#fff' },
  { id: 'vwap', kind: 'vwap', source: 'hlc3', color: '#fff' },
  { id: 'vwapO', kind: 'vwap', source: 'open', color: '#fff' },
];

/** Equal, or both NaN, within `rel` of the price (the values are prices around 30,000). */
function close(actual: number, expected: number, rel = 1e-9): boolean {
  if (Number.isNaN(expected)) return Number.isNaN(actual);
  return Math.abs(actual - expected) <= rel * Math.max(1, Math.abs(expected));
}

function loaded(store: SeriesStore): Candle[] {
  return Array.from({ length: store.length }, (_, i) => store.candleAt(i)!);
}

/** The first bar and line where `set` disagrees with `expected` (per spec: lines × bars), or null. */
function firstMismatch(set: IndicatorSet, expected: Map<string, number[][]>, n: number, rel = 1e-9): string | null {
  for (let i = 0; i < n; i++) {
    for (const { id, values } of set.valuesAt(i)) {
      const lines = expected.get(id)!;
      for (let l = 0; l < values.length; l++) {
        if (!close(values[l], lines[l][i], rel)) return `${id} line ${l} bar ${i}: ${values[l]} ≠ ${lines[l][i]}`;
      }
    }
  }
  return null;
}

function setup(candles: Candle[], specs: Indicator[] = SPECS) {
  const store = new SeriesStore();
  store.set(candles);
  const set = new IndicatorSet(store);
  set.setSpecs(specs);
  return { store, set };
}

describe('indicators on fixture data', () => {
  it('match the textbook formulas for every kind and source', () => {
    const candles = generateCandles({ count: 3000, seed: 11, interval: 900 });
    const { set } = setup(candles);
    const expected = new Map(SPECS.map((s) => [s.id, refValues(candles, s)]));
    expect(firstMismatch(set, expected, candles.length)).toBeNull();
  });

  it('report NaN until a window is full, and the last bar without an index', () => {
    const candles = generateCandles({ count: 30, seed: 2 });
    const { set } = setup(candles);
    const at = (i?: number) => Object.fromEntries(set.valuesAt(i).map((v) => [v.id, v.values]));
    expect(at(18).sma20[0]).toBeNaN();
    expect(at(19).sma20[0]).not.toBeNaN();
    expect(at(3).bb5).toEqual([NaN, NaN, NaN]);
    expect(at()).toEqual(at(29));
    expect(at(-4)).toEqual(at(29));
  });

  it('VWAP restarts at UTC midnight (and a session without volume yet shows the bar price)', () => {
    const midnight = Date.UTC(2024, 5, 3) / 1000;
    const candles = generateCandles({ count: 9, seed: 4, interval: 3600, endTime: midnight + 4 * 3600 });
    candles[4] = { ...candles[4], volume: 0 }; // 00:00, no trades yet
    const { store, set } = setup(candles, [SPECS[6]]);
    const vwap = (i: number) => set.valuesAt(i)[0].values[0];
    const typical = (c: Candle) => (c.high + c.low + c.close) / 3;
    expect(candles[4].time).toBe(midnight);
    expect(vwap(4)).toBeCloseTo(typical(candles[4]), 9);
    // 01:00 averages only the new day's bars: bar 4 has no volume, so it is bar 5's own price.
    expect(vwap(5)).toBeCloseTo(typical(candles[5]), 9);
    const day2 = candles.slice(4, 7);
    const vw = day2.reduce((a, c) => a + typical(c) * c.volume, 0) / day2.reduce((a, c) => a + c.volume, 0);
    expect(vwap(6)).toBeCloseTo(vw, 9);
    // Live: the next day's first bar resets the incremental sums too.
    const nextDay = { ...candles[8], time: midnight + 86_400, volume: 3 };
    store.updateLast(nextDay);
    set.lastChanged(true);
    expect(vwap(9)).toBeCloseTo(typical(nextDay), 9);
    expect(refVwap(loaded(store), 'hlc3')[9]).toBeCloseTo(vwap(9), 9);
  });

  it('clamps periods and band widths, and keeps values when only the colour changes', () => {
    expect(normalizeIndicator({ id: 'a', kind: 'sma', period: 0, source: 'close', color: '#fff' })).toMatchObject({ period: 1 });
    expect(normalizeIndicator({ id: 'a', kind: 'ema', period: 1e9, source: 'close', color: '#fff' })).toMatchObject({ period: MAX_INDICATOR_PERIOD });
    expect(normalizeIndicator({ id: 'a', kind: 'bollinger', period: 20.4, stdDev: -1, source: 'close', color: '#fff' })).toMatchObject({ period: 20, stdDev: 2 });
    const { set } = setup(generateCandles({ count: 100, seed: 3 }), [SPECS[1]]);
    const cols = set.entries[0].cols;
    set.setSpecs([{ ...SPECS[1], color: '#f00' }]);
    expect(set.entries[0].cols).toBe(cols);
    set.setSpecs([{ ...SPECS[1], period: 21 } as Indicator]);
    expect(set.entries[0].cols).not.toBe(cols);
  });
});

type Op = { op: 'replace' } | { op: 'append'; n: number; quiet: boolean } | { op: 'prepend'; n: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.constant({ op: 'replace' as const }),
  fc.record({ op: fc.constant('append' as const), n: fc.integer({ min: 1, max: 120 }), quiet: fc.boolean() }),
  fc.record({ op: fc.constant('prepend' as const), n: fc.integer({ min: 0, max: 700 }) }),
);

describe('incremental updates', () => {
  it('equal a full recompute (and the reference) after any sequence of live ticks, new bars and history pages', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.array(opArb, { maxLength: 20 }), (seed, ops) => {
        // 15-minute bars: 96 per UTC day, so pages and appends cross sessions.
        const all = generateCandles({ count: 7000, seed, interval: 900 });
        const past = all.slice(0, 3000);
        const future = all.slice(3200);
        const { store, set } = setup(all.slice(3000, 3200));
        const rand = rng(seed);
        for (const o of ops) {
          if (o.op === 'replace') {
            store.updateLast(nextTick(store.candleAt(store.length - 1)!, rand));
            set.lastChanged(false);
          } else if (o.op === 'append') {
            for (let j = 0; j < o.n && future.length; j++) {
              const bar = future.shift()!;
              // A bar that just opened has no volume yet.
              store.updateLast(o.quiet ? { ...bar, volume: 0, high: bar.open, low: bar.open, close: bar.open } : bar);
              set.lastChanged(true);
            }
          } else {
            const added = store.prepend(past.splice(Math.max(0, past.length - o.n)));
            if (added > 0) set.prepended(added);
          }
        }
        const candles = loaded(store);
        const fresh = setup(candles).set;
        const n = candles.length;
        const full = new Map(fresh.valuesAt(0).map((v) => [v.id, [] as number[][]]));
        for (let i = 0; i < n; i++) {
          for (const { id, values } of fresh.valuesAt(i)) {
            const lines = full.get(id)!;
            values.forEach((v, l) => (lines[l] ??= []).push(v));
          }
        }
        expect(firstMismatch(set, full, n)).toBeNull();
        expect(firstMismatch(set, new Map(SPECS.map((s) => [s.id, refValues(candles, s)])), n)).toBeNull();
      }),
      { numRuns: 40 },
    );
  });

  it('a history page recomputes only the head: SMA past its window, EMA past convergence, VWAP past the session', () => {
    const all = generateCandles({ count: 4000, seed: 9, interval: 900 });
    const specs = [SPECS[1], SPECS[2], SPECS[6]];
    const { store, set } = setup(all.slice(300), specs);
    const before = set.entries.map((e) => Float64Array.from(e.cols[0].subarray(store.base, store.base + store.length)));
    store.prepend(all.slice(0, 300));
    set.prepended(300);
    const after = (e: number, i: number) => set.entries[e].cols[0][store.base + 300 + i];
    // SMA 20: old bars from index 19 on are untouched (bit for bit).
    expect(after(0, 19)).toBe(before[0][19]);
    expect(after(0, 3000)).toBe(before[0][3000]);
    // EMA 9: the old tail is kept as stored once the new chain agrees with it.
    expect(after(1, 3000)).toBe(before[1][3000]);
    // VWAP: the second old session on is untouched.
    expect(after(2, 200)).toBe(before[2][200]);
  });

  it('the controller keeps indicators in step with setCandles, updateLastCandle and prependCandles', () => {
    const t = createTestChart({ bars: 300 });
    t.controller.setIndicators([SPECS[2], SPECS[4]]);
    const last = t.candles[t.candles.length - 1];
    t.controller.updateLastCandle({ ...last, close: last.close + 25, high: last.high + 25 });
    t.controller.updateLastCandle({ ...last, time: last.time + 60, volume: 1 });
    t.controller.prependCandles(generateCandles({ count: 200, seed: 8, endTime: t.candles[0].time - 60 }));
    const candles = loaded(t.controller.model.store);
    const expected = [refValues(candles, SPECS[2]), refValues(candles, SPECS[4])];
    const got = t.controller.getIndicatorValues(candles.length - 1);
    expect(got.map((v) => v.id)).toEqual(['ema9', 'bb20']);
    got.forEach((v, e) => v.values.forEach((x, l) => expect(close(x, expected[e][l][candles.length - 1])).toBe(true)));
    const mid = t.controller.getIndicatorValues(100);
    mid.forEach((v, e) => v.values.forEach((x, l) => expect(close(x, expected[e][l][100])).toBe(true)));
  });
});
