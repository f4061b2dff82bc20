import { expect, test } from '@playwright/test';
import { openDemo } from './demo';

// Scene screenshots of the chart engine, compared with committed references. Every scene is
// deterministic: seeded data, a fixed clock for the countdown, fixed ids, no live ticks, no animation.
// SwiftShader renders the same pixels run to run on this machine kind; the tolerance absorbs a few
// anti-aliased edge pixels yet fails on a missing handle (~80 px) or a line one pixel thinner.
const SCREENSHOT = { maxDiffPixels: 40 } as const;
const BASE = 'bare=1&w=800&h=500&seed=1&bars=300';

const scenes: Array<[name: string, query: string]> = [
  ['candles-volume-axes', 'scene=candles'],
  ['crosshair', 'scene=candles&crosshair=430,170'],
  ['horizontal-line', 'scene=candles&draw=line'],
  ['horizontal-line-selected', 'scene=candles&draw=line&select=line'],
  ['rectangle', 'scene=candles&draw=rectangle'],
  ['rectangle-selected', 'scene=candles&draw=rectangle&select=rectangle'],
  ['fib-retracement', 'scene=candles&draw=fib'],
  ['fib-retracement-selected', 'scene=candles&draw=fib&select=fib'],
  ['price-lines', 'scene=lines'],
  // A take-profit above and a stop and a liquidation below the visible prices: markers pinned to the edges.
  ['price-lines-offscreen', 'scene=lines&lines=offscreen'],
  // A position's entry and break-even a tick apart, an order a tick under the last price: labels stacked, none overlapping.
  ['price-lines-stacked', 'scene=lines&lines=stacked'],
  ['no-data', 'scene=empty'],
  ['history-loading', 'scene=candles&range=0,100&history=hold'],
  ['level-of-detail-100k', 'scene=candles&bars=100000&range=0,100000&history=none'],
  // The crosshair's time label over a time line's label and tick labels: those are hidden, not overlapped.
  ['crosshair-hides-time-labels', 'scene=lines&crosshair=540,200'],
  // All 300 bars: the averages start once their windows fill, VWAP at the first bar of the UTC day.
  ['indicators', 'scene=candles&range=-3,303&history=none&indicators=sma,ema,vwap,bb'],
  ['indicators-level-of-detail-100k', 'scene=candles&bars=100000&range=0,100000&history=none&indicators=sma,ema,vwap,bb'],
];

test.describe('chart engine scenes', () => {
  for (const [name, query] of scenes) {
    test(name, async ({ page }) => {
      const chart = await openDemo(page, `${BASE}&${query}`);
      await expect(chart).toHaveScreenshot(`${name}.png`, SCREENSHOT);
    });
  }
});

test.describe('chart engine scenes at device pixel ratio 2', () => {
  test.use({ deviceScaleFactor: 2 });

  test('drawings and crosshair stay crisp', async ({ page }) => {
    const chart = await openDemo(page, `${BASE}&scene=candles&draw=line,rectangle,fib&select=fib&crosshair=300,200`);
    // Compared at device resolution (1600×1000): the point is the pixels of a 2× screen.
    await expect(chart).toHaveScreenshot('dpr2-drawings.png', { ...SCREENSHOT, scale: 'device' });
  });
});
