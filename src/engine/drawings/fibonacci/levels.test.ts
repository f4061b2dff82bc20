import { describe, expect, it } from 'vitest';
import { FIB_DEFAULTS, type FibRetracementDrawing } from '../records';
import { fibLevels, fibParams, formatRatio, MAX_POSITIVE_LINES } from './levels';

const fib = (fields: Partial<FibRetracementDrawing> = {}): FibRetracementDrawing => ({
  id: 'f',
  kind: 'fib-retracement',
  rect: { p1: { time: 0, price: 100 }, p2: { time: 60, price: 200 } },
  fibColor: 'blue',
  ...FIB_DEFAULTS,
  ...fields,
});

describe('fibonacci levels', () => {
  it('draws 0, the main value, 1 and two extensions with the SPEC defaults', () => {
    const levels = fibLevels(fib());
    expect(levels.map((l) => l.ratio)).toEqual([0, 0.618, 1, 2, 3]);
    // Ratio 0 at p2 (end of the move), 1 at p1 (its start): a 100 → 200 move retraces downwards.
    expect(levels.map((l) => l.price)).toEqual([200, 200 - 61.8, 100, 0, -100]);
    expect(levels.filter((l) => l.main).map((l) => l.ratio)).toEqual([0.618]);
  });

  it('spaces the positive lines by fibIncrement and counts them with fibAmountOfPositiveLines', () => {
    const levels = fibLevels(fib({ fibAmountOfPositiveLines: '3', fibIncrement: '0.5' }));
    expect(levels.map((l) => l.ratio)).toEqual([0, 0.618, 1, 1.5, 2, 2.5]);
    expect(fibLevels(fib({ fibAmountOfPositiveLines: '0' })).map((l) => l.ratio)).toEqual([0, 0.618, 1]);
  });

  it('adds fibCustomValue as its own level and merges duplicates', () => {
    const levels = fibLevels(fib({ fibCustomValue: '0.5' }));
    expect(levels.map((l) => l.ratio)).toEqual([0, 0.5, 0.618, 1, 2, 3]);
    expect(levels.find((l) => l.ratio === 0.5)?.custom).toBe(true);
    const dup = fibLevels(fib({ fibCustomValue: '2' }));
    expect(dup.map((l) => l.ratio)).toEqual([0, 0.618, 1, 2, 3]);
    expect(dup.find((l) => l.ratio === 2)?.custom).toBe(true);
    expect(fibLevels(fib({ fibMainValue: '1' })).find((l) => l.ratio === 1)?.main).toBe(true);
  });

  it('falls back to the defaults for blank or invalid fields and bounds the line count', () => {
    expect(fibParams(fib({ fibAmountOfPositiveLines: 'x', fibIncrement: '-1', fibMainValue: '', fibCustomValue: 'abc' }))).toEqual({
      amount: 2,
      increment: 1,
      main: 0.618,
      custom: null,
    });
    expect(fibParams(fib({ fibAmountOfPositiveLines: '100000' })).amount).toBe(MAX_POSITIVE_LINES);
    expect(fibParams(fib({ fibCustomValue: '0,786' })).custom).toBe(0.786);
  });

  it('formats ratios without trailing zeros', () => {
    expect(formatRatio(0.618)).toBe('0.618');
    expect(formatRatio(2)).toBe('2');
    expect(formatRatio(1 + 2 * 0.1)).toBe('1.2');
  });
});
