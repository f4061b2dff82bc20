import { expect, type Locator, type Page } from '@playwright/test';

/** What the demo page exposes for tests (see src/app/engine-demo/main.ts). */
export interface DemoWindow {
  __demo: {
    ready: boolean;
    drawings: Array<Record<string, unknown> & { id: string; kind: string }>;
    lines: Array<{ id: string; kind: string; price?: number; time?: number }>;
    events: Array<{ type: string; payload: unknown }>;
    historyRequests: number[];
    historyPending: boolean;
  };
  __engine: {
    renderNow(): void;
    getInteractionState(): string;
    getVisibleRange(): { from: number; to: number };
    getSelectedDrawingId(): string | null;
    getTool(): string;
    getOffscreenLines(): Array<{ id: string; edge: 'above' | 'below'; box: { left: number; top: number; width: number; height: number } }>;
  };
}

/** Opens the engine demo (served by the app server at /engine-demo) and waits for the first paint. */
export async function openDemo(page: Page, query: string): Promise<Locator> {
  await page.goto(`/engine-demo?${query}`);
  await page.waitForFunction(() => (window as unknown as DemoWindow).__demo?.ready === true);
  await settle(page);
  return page.getByTestId('chart');
}

/** Paints now and lets two frames pass, so the canvas on screen is the latest frame. */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        (window as unknown as DemoWindow).__engine.renderNow();
        requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
      }),
  );
}

export async function state(page: Page): Promise<string> {
  return page.evaluate(() => (window as unknown as DemoWindow).__engine.getInteractionState());
}

export async function drawings(page: Page): Promise<DemoWindow['__demo']['drawings']> {
  return page.evaluate(() => (window as unknown as DemoWindow).__demo.drawings);
}

export async function events(page: Page, type: string): Promise<unknown[]> {
  return page.evaluate((t) => (window as unknown as DemoWindow).__demo.events.filter((e) => e.type === t).map((e) => e.payload), type);
}

/** Page coordinates of a point given relative to the chart's top-left corner. */
export async function chartPoint(chart: Locator, x: number, y: number): Promise<{ x: number; y: number }> {
  const box = await chart.boundingBox();
  expect(box).not.toBeNull();
  return { x: box!.x + x, y: box!.y + y };
}

export async function dragOnChart(page: Page, chart: Locator, from: [number, number], to: [number, number], steps = 8): Promise<void> {
  const a = await chartPoint(chart, ...from);
  const b = await chartPoint(chart, ...to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y, { steps });
  await page.mouse.up();
}

export async function clickOnChart(page: Page, chart: Locator, x: number, y: number): Promise<void> {
  const p = await chartPoint(chart, x, y);
  await page.mouse.move(p.x, p.y);
  await page.mouse.down();
  await page.mouse.up();
}
