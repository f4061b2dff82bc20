import { expect, test } from '@playwright/test';
import { openDemo, type DemoWindow } from './demo';

// Pixi used to print "Provided WebGL context does not have a stencil buffer, masks may not render
// correctly" once per chart (the engine's own context has no stencil buffer, on purpose). A chart —
// candles, indicators, drawings, lines, crosshair — and a second chart made on the same page must
// leave the console quiet.
test('charts log no warnings or errors to the console', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') messages.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => messages.push(`pageerror: ${e.message}`));
  await openDemo(page, 'bare=1&w=800&h=500&scene=lines&draw=line,rectangle,fib&indicators=sma,ema,vwap,bb&crosshair=300,200');
  await page.evaluate(async () => {
    const w = window as unknown as DemoWindow & {
      __demo: { createChart: (el: HTMLElement) => Promise<{ setCandles(c: unknown[]): void; renderNow(): void; destroy(): void }>; generateCandles: (o: { count: number; seed: number }) => unknown[] };
    };
    const host = document.createElement('div');
    host.style.cssText = 'width:400px;height:300px;position:absolute;left:0;top:0';
    document.body.appendChild(host);
    const chart = await w.__demo.createChart(host);
    chart.setCandles(w.__demo.generateCandles({ count: 500, seed: 2 }));
    chart.renderNow();
    chart.destroy();
  });
  expect(messages).toEqual([]);
});
