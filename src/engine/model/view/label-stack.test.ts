import { describe, expect, it } from 'vitest';
import { STACK_GAP, stackLabels } from './label-stack';

const H = 18;
const spans = (ys: number[]) => ys.map((y) => [y - H / 2, y + H / 2] as const);
/** No two labels closer than the gap. */
function apart(ys: number[]): boolean {
  const s = spans(ys).sort((a, b) => a[0] - b[0]);
  return s.every((x, i) => i === 0 || x[0] >= s[i - 1][1] + STACK_GAP - 1e-9);
}

describe('stackLabels', () => {
  it('leaves labels that collide with nothing exactly where they are', () => {
    const ys = [100, 40.25, 300.5];
    expect(stackLabels(ys.map((y) => ({ y, height: H })))).toEqual(ys);
  });

  it('stacks two labels of lines a tick apart one above the other, around where they were, in price order', () => {
    // y grows downwards: the line at 200 is the higher price, its label stays on top.
    const [a, b] = stackLabels([
      { y: 200.4, height: H },
      { y: 200, height: H },
    ]);
    expect(apart([a, b])).toBe(true);
    expect(b).toBeLessThan(a);
    expect((a + b) / 2).toBeCloseTo(200.2, 6);
  });

  it('keeps a fixed label (the last price) where it is and moves the others clear of it', () => {
    // The last price at y 238: its label (with the countdown under it) spans 229…261.
    const ys = stackLabels([
      { y: 237, height: H },
      { y: 245, height: 32, fixed: true, at: 238 },
      { y: 239, height: H },
    ]);
    expect(ys[1]).toBe(245);
    // A line a hair above the last price gets its label above, one a hair below, below.
    expect(ys[0] + H / 2).toBeLessThanOrEqual(229 - STACK_GAP + 1e-9);
    expect(ys[2] - H / 2).toBeGreaterThanOrEqual(261 + STACK_GAP - 1e-9);
  });

  it('merges a chain of collisions into one stack without reordering', () => {
    const input = [100, 104, 108, 112, 160].map((y) => ({ y, height: H }));
    const ys = stackLabels(input);
    expect(apart(ys)).toBe(true);
    expect([...ys].sort((a, b) => a - b)).toEqual(ys);
  });

  it('keeps stacks inside the bounds', () => {
    const ys = stackLabels(
      [
        { y: 2, height: H },
        { y: 3, height: H },
        { y: 497, height: H },
      ],
      { top: 0, bottom: 500 },
    );
    expect(ys[0] - H / 2).toBeGreaterThanOrEqual(0);
    expect(apart(ys)).toBe(true);
    expect(ys[2] + H / 2).toBeLessThanOrEqual(500);
  });
});
