import { expect, test } from '@playwright/test';
import { chartPoint, clickOnChart, dragOnChart, drawings, events, openDemo, settle, state, type DemoWindow } from './demo';

// A user draws each drawing kind with the mouse on the demo page (which plays the app: it stores
// what the engine commits and pushes it back), moves it, and deletes it with the keyboard.
const QUERY = 'scene=interaction&w=800&h=500&seed=1&bars=300&magnet=0';

test.describe('chart engine interaction', () => {
  test('horizontal line: place, move, delete', async ({ page }) => {
    const chart = await openDemo(page, QUERY);
    await page.getByRole('button', { name: 'Horizontal Line' }).click();
    expect(await state(page)).toBe('line.idle');
    await clickOnChart(page, chart, 300, 150);
    await expect.poll(() => drawings(page)).toHaveLength(1);
    const [placed] = await drawings(page);
    expect(placed).toMatchObject({ kind: 'line', color: 'blue' });
    expect(await state(page)).toBe('select.idle');
    await expect(page.getByRole('button', { name: 'Select' })).toHaveAttribute('aria-pressed', 'true');

    await dragOnChart(page, chart, [420, 150], [420, 230]);
    await expect.poll(async () => (await drawings(page))[0].price).toBeLessThan(placed.price as number);
    const moved = (await drawings(page))[0];
    expect(moved.id).toBe(placed.id);

    await page.keyboard.press('Delete');
    await expect.poll(() => drawings(page)).toHaveLength(0);
    expect(await events(page, 'drawingDeleted')).toEqual([{ id: placed.id }]);
  });

  test('rectangle: drag out, move by its body, resize by a handle, delete', async ({ page }) => {
    const chart = await openDemo(page, QUERY);
    await page.getByRole('button', { name: 'Rectangle' }).click();
    await dragOnChart(page, chart, [200, 120], [360, 260]);
    await expect.poll(() => drawings(page)).toHaveLength(1);
    const [r] = await drawings(page);
    expect(r.kind).toBe('rectangle');
    const p1 = r.p1 as { time: number; price: number };
    const p2 = r.p2 as { time: number; price: number };

    // Move from inside: both corners shift by the same bars and prices.
    await dragOnChart(page, chart, [280, 190], [320, 170]);
    await expect.poll(async () => ((await drawings(page))[0].p1 as { time: number }).time).toBeGreaterThan(p1.time);
    const moved = (await drawings(page))[0];
    const mp1 = moved.p1 as { time: number; price: number };
    const mp2 = moved.p2 as { time: number; price: number };
    expect(mp2.time - mp1.time).toBe(p2.time - p1.time);
    expect(mp1.price).toBeGreaterThan(p1.price);

    // Resize by the bottom-right corner (p2), now at (400, 240).
    await dragOnChart(page, chart, [400, 240], [460, 300]);
    await expect.poll(async () => ((await drawings(page))[0].p2 as { time: number }).time).toBeGreaterThan(mp2.time);
    expect((await drawings(page))[0].p1).toEqual(mp1);

    await page.keyboard.press('Delete');
    await expect.poll(() => drawings(page)).toHaveLength(0);
  });

  test('fib retracement: two clicks, drag a handle, delete', async ({ page }) => {
    const chart = await openDemo(page, QUERY);
    await page.getByRole('button', { name: 'Fib Retracement' }).click();
    await clickOnChart(page, chart, 250, 300);
    expect(await state(page)).toBe('fib-retracement.awaiting_second');
    await clickOnChart(page, chart, 450, 150);
    await expect.poll(() => drawings(page)).toHaveLength(1);
    const [f] = await drawings(page);
    expect(f).toMatchObject({ kind: 'fib-retracement', fibColor: 'blue', fibAmountOfPositiveLines: '2', fibIncrement: '1', fibMainValue: '0.618' });
    const rect = f.rect as { p1: { time: number; price: number }; p2: { time: number; price: number } };

    await dragOnChart(page, chart, [450, 150], [500, 110]);
    await expect.poll(async () => ((await drawings(page))[0].rect as typeof rect).p2.time).toBeGreaterThan(rect.p2.time);
    expect(((await drawings(page))[0].rect as typeof rect).p1).toEqual(rect.p1);

    await page.keyboard.press('Delete');
    await expect.poll(() => drawings(page)).toHaveLength(0);
  });

  test('Escape cancels a drawing in progress; colour buttons colour new drawings', async ({ page }) => {
    const chart = await openDemo(page, QUERY);
    await page.getByRole('button', { name: 'red' }).click();
    await page.getByRole('button', { name: 'Rectangle' }).click();
    await clickOnChart(page, chart, 200, 120);
    expect(await state(page)).toBe('rectangle.awaiting_second');
    await page.keyboard.press('Escape');
    expect(await state(page)).toBe('select.idle');
    expect(await drawings(page)).toHaveLength(0);
    await page.getByRole('button', { name: 'Horizontal Line' }).click();
    await clickOnChart(page, chart, 300, 200);
    await expect.poll(async () => (await drawings(page))[0]?.color).toBe('red');
  });

  test('pan, zoom, axis gestures and keys move the view', async ({ page }) => {
    const chart = await openDemo(page, QUERY);
    const range = () => page.evaluate(() => (window as unknown as DemoWindow).__engine.getVisibleRange());
    const start = await range();

    await dragOnChart(page, chart, [400, 250], [560, 250]);
    const panned = await range();
    expect(panned.from).toBeLessThan(start.from - 15);

    const p = await chart.boundingBox();
    await page.mouse.move(p!.x + 300, p!.y + 250);
    await page.mouse.wheel(0, -300);
    await settle(page);
    const zoomed = await range();
    expect(zoomed.to - zoomed.from).toBeLessThan(panned.to - panned.from);

    // Double-click on the time axis resets the view.
    await page.mouse.dblclick(p!.x + 300, p!.y + 490);
    await settle(page);
    const reset = await range();
    expect(reset.to - reset.from).toBeCloseTo(start.to - start.from, 3);

    await page.keyboard.press('ArrowLeft');
    expect((await range()).from).toBeLessThan(reset.from);
    await page.keyboard.press('-');
    const out = await range();
    expect(out.to - out.from).toBeGreaterThan(reset.to - reset.from);
  });

  test('a draggable order line follows the mouse and reports its new price', async ({ page }) => {
    const chart = await openDemo(page, `${QUERY}&lines=1`);
    const linesNow = () => page.evaluate(() => (window as unknown as DemoWindow).__demo.lines.map((l) => ({ ...l })));
    const initial = await linesNow();
    const box = (await chart.boundingBox())!;
    const cursor = () => page.evaluate(() => (document.querySelector('[data-testid=chart] canvas') as HTMLCanvasElement).style.cursor);
    // Find a line by hovering down a column until the cursor offers a vertical drag.
    let lineY = -1;
    for (let y = 30; y < 460 && lineY < 0; y += 3) {
      await page.mouse.move(box.x + 200, box.y + y);
      if ((await cursor()) === 'ns-resize') lineY = y;
    }
    expect(lineY).toBeGreaterThan(0);
    await dragOnChart(page, chart, [200, lineY], [200, lineY - 40]);
    const dragged = (await events(page, 'lineDragged')) as Array<{ id: string; price: number }>;
    expect(dragged).toHaveLength(1);
    const { id, price } = dragged[0];
    // Dragged up: a higher price, on the 0.1 tick grid, stored by the app and shown by the engine.
    expect(price).toBeGreaterThan(initial.find((l) => l.id === id)!.price!);
    expect(Math.abs(price * 10 - Math.round(price * 10))).toBeLessThan(1e-6);
    expect((await linesNow()).find((l) => l.id === id)!.price).toBe(price);
  });

  test("a click on an off-screen stop's marker brings the stop into view", async ({ page }) => {
    const chart = await openDemo(page, `${QUERY}&lines=offscreen`);
    const pinned = () => page.evaluate(() => (window as unknown as DemoWindow).__engine.getOffscreenLines().map((o) => ({ id: o.id, edge: o.edge, box: o.box })));
    const before = await pinned();
    expect(before.map((o) => `${o.id}:${o.edge}`).sort()).toEqual(['order-stop:below', 'order-tp:above', 'pos-liq:below']);
    const stop = before.find((o) => o.id === 'order-stop')!;
    const [x, y] = [stop.box.left + stop.box.width / 2, stop.box.top + stop.box.height / 2];
    const at = await chartPoint(chart, x, y);
    await page.mouse.move(at.x, at.y);
    await expect.poll(() => page.evaluate(() => (document.querySelector('[data-testid=chart] canvas') as HTMLCanvasElement).style.cursor)).toBe('pointer');
    await clickOnChart(page, chart, x, y);
    await settle(page);
    // The stop is a line in the plot now; the take-profit (above) and the liquidation (far below) stay pinned.
    await expect.poll(async () => (await pinned()).map((o) => o.id)).not.toContain('order-stop');
    expect((await pinned()).map((o) => o.id).sort()).toEqual(['order-tp', 'pos-liq']);
    expect(await state(page)).toBe('select.idle');
  });
});
