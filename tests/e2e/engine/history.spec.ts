import { expect, test } from '@playwright/test';
import { chartPoint, openDemo, type DemoWindow } from './demo';

interface Sample {
  from: number;
  to: number;
  pending: boolean;
}

// Panning back through history at a normal speed: the engine asks for the next page while two
// screens of bars are still to the left, so a page that takes as long as the simulator's (~100 ms)
// is in before the user gets near the oldest bar, and "Loading history…" never shows. The demo
// answers needHistory after `latency` ms and says when a page is pending; every animation frame is
// sampled while the mouse drags the chart right at about two screens a second.
test('panning back at a normal speed never reaches the oldest bar while a page is loading', async ({ page }) => {
  const chart = await openDemo(page, 'scene=history&bare=1&w=800&h=500&bars=300&latency=120&live=0');
  await page.evaluate(() => {
    const w = window as unknown as DemoWindow & { __samples: Sample[] };
    w.__samples = [];
    const tick = () => {
      const r = w.__engine.getVisibleRange();
      w.__samples.push({ from: r.from, to: r.to, pending: w.__demo.historyPending });
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const start = await chartPoint(chart, 100, 250);
  for (let drag = 0; drag < 8; drag++) {
    await page.mouse.move(start.x, start.y);
    await page.mouse.down();
    // 600 px in ~0.4 s: about 1.5 screens a second on this 736 px pane, a brisk scroll back.
    for (let step = 1; step <= 24; step++) {
      await page.mouse.move(start.x + step * 25, start.y);
      await page.waitForTimeout(16);
    }
    await page.mouse.up();
  }
  const { samples, requests } = await page.evaluate(() => {
    const w = window as unknown as DemoWindow & { __samples: Sample[] };
    return { samples: w.__samples, requests: w.__demo.historyRequests.length };
  });
  // ~8 × 600 px at 8 px per bar: 600 bars back, two pages at least.
  expect(requests).toBeGreaterThanOrEqual(2);
  expect(samples.length).toBeGreaterThan(60);
  // The indicator's condition: a page pending while the oldest bar is within half a screen.
  const waiting = samples.filter((s) => s.pending && s.from < (s.to - s.from) / 2);
  expect(waiting).toEqual([]);
  // The oldest bar was never even on screen: the user kept scrolling through loaded history.
  expect(Math.min(...samples.map((s) => s.from))).toBeGreaterThan(0);
});
