import { describe, expect, it } from 'vitest';
import { MARGIN_BOTTOM, MARGIN_TOP, PriceScale } from './price-scale';

function scale(): PriceScale {
  const s = new PriceScale();
  s.setPane(0, 400);
  return s;
}

describe('PriceScale', () => {
  it('fits the visible range between the margins', () => {
    const s = scale();
    s.fit(100, 200);
    expect(s.priceToY(200)).toBeCloseTo(400 * MARGIN_TOP, 6);
    expect(s.priceToY(100)).toBeCloseTo(400 * (1 - MARGIN_BOTTOM), 6);
  });

  it('maps price to y and back', () => {
    const s = scale();
    s.fit(27000, 28000);
    for (const p of [26950, 27000, 27333.3, 28000]) expect(s.yToPrice(s.priceToY(p))).toBeCloseTo(p, 6);
    expect(s.priceToY(28000)).toBeLessThan(s.priceToY(27000));
  });

  it('gives a flat range some height', () => {
    const s = scale();
    s.fit(100, 100);
    expect(s.max).toBeGreaterThan(s.min);
    expect(s.priceToY(100)).toBeGreaterThan(0);
    expect(s.priceToY(100)).toBeLessThan(400);
  });

  it('labels only multiples of the tick size, never finer than it', () => {
    const s = scale();
    s.fit(100.01, 100.05);
    const ticks = s.ticks(0.5);
    expect(ticks.length).toBeGreaterThan(0);
    for (const t of ticks) expect(Math.abs(t / 0.5 - Math.round(t / 0.5))).toBeLessThan(1e-6);

    s.fit(27000, 28000);
    const coarse = s.ticks(0.1);
    expect(coarse.length).toBeGreaterThanOrEqual(4);
    expect(coarse.length).toBeLessThanOrEqual(12);
    expect(coarse[1] - coarse[0]).toBeGreaterThanOrEqual(50);
  });

  it('switches to manual scale on an axis drag and ignores auto-fit until reset', () => {
    const s = scale();
    s.fit(100, 200);
    const span = s.max - s.min;
    s.scaleBy(2);
    expect(s.autoScale).toBe(false);
    expect(s.max - s.min).toBeCloseTo(span / 2, 6);
    s.fit(0, 1000);
    expect(s.max - s.min).toBeCloseTo(span / 2, 6);
    s.autoScale = true;
    s.fit(0, 1000);
    expect(s.max).toBeGreaterThan(1000);
  });
});
