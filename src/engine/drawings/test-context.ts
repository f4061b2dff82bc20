import type { DrawingContext } from './types';

/**
 * A plain linear chart for drawing-util tests: bars every 60 s are 10 px apart starting at
 * T0 (x = 0), and 1 price unit is 2 px with price 100 at y = 400. Tick size 0.5.
 */
export const T0 = 1_700_000_000;

export function linearContext(): DrawingContext {
  const timeToX = (t: number) => ((t - T0) / 60) * 10;
  const priceToY = (p: number) => 400 - (p - 100) * 2;
  const roundPrice = (p: number) => Math.round(p / 0.5) * 0.5;
  return {
    pane: { left: 0, top: 0, width: 800, height: 500 },
    timeToX,
    xToTime: (x) => T0 + Math.round(x / 10) * 60,
    priceToY,
    yToPrice: (y) => 100 + (400 - y) / 2,
    roundPrice,
    shiftTime: (t, dx) => t + Math.round(dx / 10) * 60,
    formatPrice: (p) => p.toFixed(1),
  };
}

export const at = (bar: number) => T0 + bar * 60;
