import { expect, test, type Locator, type Page, type Request } from '@playwright/test';
import { ApiClient, priceAtY, roomAround, signInThroughUi, signUpFreshUser, withFlags, yForPrice, type Credentials } from './helpers';

// The chart panel (issues 4 and 5) against the simulator: live candles, a second chart on another
// pair, the data source following exchange and interval, drawings kept on the server, alerts on the
// chart. Test hooks: `[data-testid=chart-body]` carries data-status, data-last-price, data-bars,
// data-drawings, data-alert-lines and data-crosshair-price (src/panels/chart/chart-panel.tsx).

let admin: ApiClient;
let registrationWas: boolean;

test.beforeAll(async () => {
  admin = await ApiClient.admin();
  registrationWas = await admin.setFlag('FF_ENABLE_REGISTRATION', true);
});

test.afterAll(async () => {
  await admin.setFlag('FF_ENABLE_REGISTRATION', registrationWas);
  await admin.dispose();
});

const chartBodies = (page: Page) => page.getByTestId('chart-body').filter({ visible: true });
const chartHeaders = (page: Page) => page.getByTestId('chart-header').filter({ visible: true });

async function openWorkstation(page: Page, creds: Credentials): Promise<Locator> {
  await signInThroughUi(page, creds);
  const body = chartBodies(page).first();
  await expect(body).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  return body;
}

const lastPrice = async (body: Locator) => Number(await body.getAttribute('data-last-price'));

/** A candle request of the simulator for `exchange` at `path`, with these query params. */
function candleRequest(exchange: string, path: string, params: Record<string, string>) {
  return (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname !== `/sim/${exchange}${path}`) return false;
    return Object.entries(params).every(([k, v]) => url.searchParams.get(k) === v);
  };
}

/** The point of the chart's pane (left of the price axis) at vertical position `fy` (0 = top, 1 = bottom). */
async function panePoint(body: Locator, fx: number, fy: number): Promise<{ x: number; y: number }> {
  const box = (await body.boundingBox())!;
  return { x: box.x + (box.width - 90) * fx, y: box.y + box.height * fy };
}

test('the default layout shows a live chart of BTCUSDT 5m from the simulator', async ({ page }) => {
  const creds = await signUpFreshUser('chart-live');
  const klines = page.waitForRequest(candleRequest('binance', '/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '5m', limit: '300' }));
  const socket = page.waitForEvent('websocket', (ws) => ws.url().includes('/sim/binance/market/ws/btcusdt@kline_5m'));
  const body = await openWorkstation(page, creds);
  await klines;
  await socket;
  expect(Number(await body.getAttribute('data-bars'))).toBeGreaterThanOrEqual(300);
  await expect(body.getByTestId('chart-canvas').locator('canvas')).toBeVisible();
  await expect(body).toContainText('BTCUSDT · 5m · binance');

  // The last price moves with the live stream.
  const first = await lastPrice(body);
  expect(first).toBeGreaterThan(0);
  await expect.poll(() => lastPrice(body), { timeout: 20_000 }).not.toBe(first);

  // Panning back to the oldest bar loads the page before it (the engine asks, the panel pages with endTime).
  const older = page.waitForRequest((r) => candleRequest('binance', '/fapi/v1/klines', { symbol: 'BTCUSDT', interval: '5m' })(r) && new URL(r.url()).searchParams.has('endTime'));
  const from = await panePoint(body, 0.1, 0.3);
  const to = await panePoint(body, 0.9, 0.3);
  for (let i = 0; i < 4; i++) {
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 8 });
    await page.mouse.up();
  }
  await older;
  await expect.poll(async () => Number(await body.getAttribute('data-bars')), { timeout: 15_000 }).toBeGreaterThan(300);
});

test('a second chart shows another pair, and exchange and interval switches change its data source', async ({ page }) => {
  await withFlags(admin, { FF_ENABLE_BYBIT: true, FF_ENABLE_OKX: true, FF_ENABLE_BITMEX: true }, async () => {
    const first = await openWorkstation(page, await signUpFreshUser('chart-second'));
    // A second chart beside the first, in the order-entry tabset.
    await page.getByRole('tab', { name: 'Order entry', exact: true }).click();
    await page.getByRole('button', { name: 'Add panel' }).click();
    await page.getByRole('menuitem', { name: /^Chart/ }).click();
    await expect(chartBodies(page)).toHaveCount(2);
    const second = chartBodies(page).nth(1);
    const header = chartHeaders(page).nth(1);
    await expect(second).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });

    const eth = page.waitForRequest(candleRequest('binance', '/fapi/v1/klines', { symbol: 'ETHUSDT', interval: '5m', limit: '300' }));
    await header.getByRole('combobox', { name: 'Pair' }).fill('ETHUSDT');
    await header.getByRole('combobox', { name: 'Pair' }).press('Enter');
    await eth;
    await expect(second).toContainText('ETHUSDT · 5m · binance');
    await expect.poll(() => lastPrice(second), { timeout: 15_000 }).toBeLessThan((await lastPrice(first)) / 5); // ETH trades far below BTC
    await expect(chartHeaders(page).nth(0).getByRole('combobox', { name: 'Pair' })).toHaveValue('BTCUSDT'); // unlinked: the first keeps its pair

    // Interval: the binance request carries it.
    const fifteen = page.waitForRequest(candleRequest('binance', '/fapi/v1/klines', { symbol: 'ETHUSDT', interval: '15m' }));
    await header.getByRole('button', { name: '15m', exact: true }).click();
    await fifteen;
    await expect(second).toHaveAttribute('data-status', 'ready');

    // Exchange: bybit at its own path and interval names, on the exchange's default pair (SPEC §4).
    const bybit = page.waitForRequest(candleRequest('bybit', '/v5/market/kline', { symbol: 'BTCUSDT', interval: '15', category: 'linear', limit: '300' }));
    const bybitSocket = page.waitForEvent('websocket', (ws) => ws.url().includes('/sim/bybit/v5/public/linear'));
    await header.getByLabel('Exchange', { exact: true }).click();
    await page.getByRole('option', { name: 'bybit' }).click();
    await bybit;
    await bybitSocket;
    await expect(second).toContainText('BTCUSDT · 15m · bybit');
    await expect(second).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });

    const hourly = page.waitForRequest(candleRequest('bybit', '/v5/market/kline', { symbol: 'BTCUSDT', interval: '60' }));
    await header.getByLabel('Interval', { exact: true }).click();
    await page.getByRole('option', { name: '1h', exact: true }).click();
    await hourly;

    const okx = page.waitForRequest(candleRequest('okx', '/api/v5/market/candles', { instId: 'BTC-USDT-SWAP', bar: '1H', limit: '300' }));
    await header.getByLabel('Exchange', { exact: true }).click();
    await page.getByRole('option', { name: 'okx' }).click();
    await okx;
    await expect(second).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });

    const bitmex = page.waitForRequest(candleRequest('bitmex', '/api/udf/history', { symbol: 'XBTUSD', resolution: '60' }));
    await header.getByLabel('Exchange', { exact: true }).click();
    await page.getByRole('option', { name: 'BitMEX' }).click();
    await bitmex;
    await expect(second).toContainText('XBTUSD · 1h · BitMEX');
    await expect(second).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    expect(await lastPrice(second)).toBeGreaterThan(0);
    // The first chart kept its market and stream throughout.
    await expect(first).toContainText('BTCUSDT · 5m · binance');
  });
});

test('drawings are kept on the server: after a reload and in another browser, on every chart of the pair', async ({ page, browser }) => {
  test.setTimeout(150_000); // two sign-ins, a reload and three charts on software WebGL
  await withFlags(admin, { FF_ENABLE_DRAWING_TOOL: true }, async () => {
    const creds = await signUpFreshUser('chart-draw');
    const body = await openWorkstation(page, creds);
    await expect(body).toHaveAttribute('data-drawings', '0');
    const toolbar = page.getByTestId('drawing-toolbar').filter({ visible: true });
    await expect(toolbar.getByRole('button', { name: 'Select' })).toHaveAttribute('aria-pressed', 'true');
    await expect(toolbar.getByRole('button', { name: 'Fib Retracement' })).toHaveCount(0); // FF_ENABLE_FIBONACCI_TOOL is off

    // A red horizontal line, one click.
    await toolbar.getByRole('button', { name: 'Drawing colour red' }).click();
    await toolbar.getByRole('button', { name: 'Horizontal Line' }).click();
    const saved = page.waitForResponse((r) => r.url().endsWith('/v1/users/settings') && r.request().method() === 'PATCH' && (r.request().postData() ?? '').includes('horizontalLines'));
    const at = await panePoint(body, 0.5, 0.4);
    await page.mouse.move(at.x, at.y);
    await expect(body).toHaveAttribute('data-crosshair-price', /\d/);
    let linePrice = Number(await body.getAttribute('data-crosshair-price'));
    await page.mouse.click(at.x, at.y);
    expect((await saved).ok()).toBe(true);
    await expect(body).toHaveAttribute('data-drawings', '1');
    await expect(toolbar.getByRole('button', { name: 'Select' })).toHaveAttribute('aria-pressed', 'true'); // back to Select

    // A rectangle, dragged.
    await toolbar.getByRole('button', { name: 'Rectangle' }).click();
    const rectSaved = page.waitForResponse((r) => r.request().method() === 'PATCH' && (r.request().postData() ?? '').includes('rectangles'));
    const a = await panePoint(body, 0.3, 0.3);
    const b = await panePoint(body, 0.45, 0.5);
    await page.mouse.move(a.x, a.y);
    await page.mouse.down();
    await page.mouse.move(b.x, b.y, { steps: 6 });
    await page.mouse.up();
    expect((await rectSaved).ok()).toBe(true);
    await expect(body).toHaveAttribute('data-drawings', '2');

    const api = await ApiClient.create();
    try {
      await api.signin(creds);
      const settings = await api.get<{ horizontalLines: Record<string, { symbol: string; price: number; color?: string }[]>; rectangles: Record<string, unknown[]> }>('/v1/users/settings');
      expect(settings.horizontalLines.binance).toHaveLength(1);
      expect(settings.horizontalLines.binance[0]).toMatchObject({ symbol: 'BTCUSDT', color: 'red' });
      // Placed where clicked, give or take the magnet's snap to a nearby open/high/low/close.
      expect(Math.abs(settings.horizontalLines.binance[0].price - linePrice)).toBeLessThan(linePrice * 0.001);
      linePrice = settings.horizontalLines.binance[0].price;
      expect(settings.rectangles.binance).toHaveLength(1);
    } finally {
      await api.dispose();
    }

    await page.reload();
    await expect(chartBodies(page).first()).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
    await expect(chartBodies(page).first()).toHaveAttribute('data-drawings', '2');

    // A second chart of the same pair shows the same drawings; another pair shows none.
    await page.getByRole('tab', { name: 'Order entry', exact: true }).click();
    await page.getByRole('button', { name: 'Add panel' }).click();
    await page.getByRole('menuitem', { name: /^Chart/ }).click();
    await expect(chartBodies(page)).toHaveCount(2);
    await expect(chartBodies(page).nth(1)).toHaveAttribute('data-drawings', '2');
    const pair = chartHeaders(page).nth(1).getByRole('combobox', { name: 'Pair' });
    await pair.fill('ETHUSDT');
    await pair.press('Enter');
    await expect(chartBodies(page).nth(1)).toHaveAttribute('data-drawings', '0');

    // The other device. This page leaves first: with software WebGL one GPU process serves every
    // context, and two pages of streaming charts would only measure how slow SwiftShader is.
    await page.goto('about:blank');
    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      const secondBody = await openWorkstation(second, creds);
      await expect(secondBody).toContainText('BTCUSDT');
      await expect(secondBody).toHaveAttribute('data-drawings', '2');

      // Deleted there (select it, Delete), gone from the server.
      const x = (await panePoint(secondBody, 0.7, 0.5)).x;
      const y = await yForPrice(second, secondBody, linePrice, x);
      await second.mouse.click(x, y);
      const removed = second.waitForResponse((r) => r.request().method() === 'PATCH' && (r.request().postData() ?? '').includes('horizontalLines'));
      await second.keyboard.press('Delete');
      expect((await removed).ok()).toBe(true);
      await expect(secondBody).toHaveAttribute('data-drawings', '1');
      const check = await ApiClient.create();
      try {
        await check.signin(creds);
        const after = await check.get<{ horizontalLines: Record<string, unknown[]>; rectangles: Record<string, unknown[]> }>('/v1/users/settings');
        expect(after.horizontalLines.binance).toEqual([]);
        expect(after.rectangles.binance).toHaveLength(1);
      } finally {
        await check.dispose();
      }
    } finally {
      await other.close();
    }
  });
});

test('alerts on the chart: set from the menu and with Alt+A, and a line dragged across the price fires', async ({ page }) => {
  await withFlags(admin, { FF_ENABLE_ALERTS: true }, async () => {
    const body = await openWorkstation(page, await signUpFreshUser('chart-alerts'));
    await page.getByRole('tab', { name: 'Alerts', exact: true }).click();
    const x = (await panePoint(body, 0.6, 0.5)).x;

    // Right-click above the market: "Add alert at …".
    // 0.2 % away, or half-way to the plot's edge when the market sits near it (autoscale keeps a margin, not a percent).
    const live = await lastPrice(body);
    const box = (await body.boundingBox())!;
    const top = await priceAtY(page, body, x, box.y + 24);
    const aboveY = await yForPrice(page, body, Math.min(live * 1.002, live + (top - live) / 2), x);
    const created = page.waitForResponse((r) => r.url().endsWith('/v1/alerts') && r.request().method() === 'POST');
    await page.mouse.click(x, aboveY, { button: 'right' });
    await page.getByRole('menuitem', { name: /^Add alert at / }).click();
    const alert = (await (await created).json()) as { id: string; triggerPrice: number; initialPrice: number };
    expect(alert.triggerPrice).toBeGreaterThan(alert.initialPrice);
    await expect(body).toHaveAttribute('data-alert-lines', '1');
    await expect(page.getByTestId('alerts-active').getByRole('listitem')).toHaveCount(1);

    // Alt+A at the crosshair, below the market.
    const bottom = await priceAtY(page, body, x, box.y + box.height - 34);
    const now = await lastPrice(body);
    const belowY = await yForPrice(page, body, Math.max(now * 0.997, now - (now - bottom) / 2), x);
    await page.mouse.move(x, belowY);
    const hotkey = page.waitForResponse((r) => r.url().endsWith('/v1/alerts') && r.request().method() === 'POST');
    await page.keyboard.press('Alt+KeyA');
    const second = (await (await hotkey).json()) as { triggerPrice: number; initialPrice: number };
    expect(second.triggerPrice).toBeLessThan(second.initialPrice);
    await expect(body).toHaveAttribute('data-alert-lines', '2');

    // Drag the first alert's line down across the market price: it fires.
    const lineY = await yForPrice(page, body, alert.triggerPrice, x);
    const dropY = await yForPrice(page, body, (await lastPrice(body)) * 0.999, x);
    const moved = page.waitForResponse((r) => r.url().endsWith(`/v1/alerts/${alert.id}`) && r.request().method() === 'PATCH');
    await page.mouse.move(x, lineY);
    await page.mouse.down();
    await page.mouse.move(x, dropY, { steps: 10 });
    await page.mouse.up();
    const patched = (await (await moved).json()) as { triggerPrice: number };
    expect(patched.triggerPrice).toBeLessThan(alert.triggerPrice);

    await expect(page.getByText('Alert triggered')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('alerts-triggered').getByRole('listitem')).toHaveCount(1);
    await expect(page.getByTestId('alerts-active').getByRole('listitem')).toHaveCount(1);
    await expect(body).toHaveAttribute('data-alert-lines', '1');
  });
});

test('an alert set on a horizontal line follows the line when the line is dragged', async ({ page }) => {
  await withFlags(admin, { FF_ENABLE_ALERTS: true, FF_ENABLE_DRAWING_TOOL: true }, async () => {
    const body = await openWorkstation(page, await signUpFreshUser('drawing-alerts'));
    const x = (await panePoint(body, 0.5, 0.5)).x;
    const live = await lastPrice(body);
    // Prices on the roomier side of the market, inside the visible range (it moves with the simulated market).
    const { edge } = await roomAround(page, body, x, live);
    const lineY = await yForPrice(page, body, live + (edge - live) * 0.7, x);
    await page.mouse.click(x, lineY, { button: 'right' });
    await page.getByRole('menuitem', { name: /^Draw horizontal line at / }).click();
    await expect(body).toHaveAttribute('data-drawings', '1');

    // Select the line, then right-click: the menu offers an alert tied to it.
    await page.mouse.click(x, lineY);
    const created = page.waitForResponse((r) => r.url().endsWith('/v1/alerts') && r.request().method() === 'POST');
    await page.mouse.click(x - 60, lineY + 80, { button: 'right' });
    await page.getByRole('menuitem', { name: 'Alert on this line' }).click();
    const alert = (await (await created).json()) as { id: string; triggerPrice: number; initialPrice: number; drawingId: string | null };
    expect(alert.drawingId).toBeTruthy();
    // It waits for the market to reach the line: a rise when the line is above, a fall when below.
    expect(Math.sign(alert.triggerPrice - alert.initialPrice)).toBe(Math.sign(edge - live));
    await expect(body).toHaveAttribute('data-alert-lines', '1');

    // Drag the line halfway back towards the market: the alert moves with it (and still follows it).
    const toY = await yForPrice(page, body, live + (edge - live) * 0.35, x);
    const moved = page.waitForResponse((r) => r.url().endsWith(`/v1/alerts/${alert.id}`) && r.request().method() === 'PATCH');
    const saved = page.waitForResponse((r) => r.url().endsWith('/v1/users/settings') && r.request().method() === 'PATCH');
    await page.mouse.move(x, lineY);
    await page.mouse.down();
    await page.mouse.move(x, toY, { steps: 10 });
    await page.mouse.up();
    const patched = (await (await moved).json()) as { triggerPrice: number; drawingId: string | null; status: string };
    // Nearer the market than before, still on the same side of it.
    expect(Math.abs(patched.triggerPrice - live)).toBeLessThan(Math.abs(alert.triggerPrice - live));
    expect(Math.sign(patched.triggerPrice - live)).toBe(Math.sign(edge - live));
    expect(patched).toMatchObject({ drawingId: alert.drawingId, status: 'active' });
    const stored = (await (await saved).json()) as { horizontalLines: Record<string, Array<{ id: string; price: number }>> };
    expect(stored.horizontalLines.binance?.find((l) => l.id === alert.drawingId)?.price).toBe(patched.triggerPrice);
  });
});

test('a chart popped out into its own window keeps streaming there', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('chart-popout'));
  const tabset = page.locator('.flexlayout__tabset_container, .flexlayout__tabset', { has: page.getByRole('tab', { name: 'Chart', exact: true }) }).last();
  const [popup] = await Promise.all([page.waitForEvent('popup'), tabset.getByRole('button', { name: 'Popout selected tab' }).click()]);
  const body = popup.getByTestId('chart-body');
  await expect(body).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  await expect(body.locator('canvas')).toBeVisible();
  const first = await lastPrice(body);
  await expect.poll(() => lastPrice(body), { timeout: 20_000 }).not.toBe(first);
  await expect(chartBodies(page)).toHaveCount(0);
});

test('an indicator added from the chart panel shows in the legend with its value, stays after a reload, and is removed', async ({ page }) => {
  const pixiWarnings: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'warning' && m.text().includes('PixiJS')) pixiWarnings.push(m.text());
  });
  const body = await openWorkstation(page, await signUpFreshUser('chart-indicators'));
  await chartHeaders(page).first().getByRole('button', { name: 'Indicators' }).click();
  await page.getByRole('menuitem', { name: 'Moving average (SMA)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Moving average (SMA)' });
  const period = dialog.getByRole('textbox', { name: /Period/ });
  await period.fill('0');
  await expect(dialog.getByText('Period must be a whole number of bars from 1 to 1000')).toBeVisible();
  await period.fill('10');
  const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && (r.request().postData() ?? '').includes('"indicators"'));
  await dialog.getByRole('button', { name: 'Add' }).click();
  await expect(dialog).toBeHidden();

  const rows = body.getByTestId('chart-indicator');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('SMA 10');
  // The last bar's 10-bar average: a price near the last one.
  const value = rows.first().getByTestId('chart-indicator-value');
  await expect(value).toHaveText(/^\d+\.\d+$/);
  const last = await lastPrice(body);
  expect(Math.abs(Number(await value.textContent()) - last)).toBeLessThan(last * 0.05);
  expect((await saved).ok()).toBe(true);

  await page.reload();
  const again = chartBodies(page).first();
  await expect(again).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  await expect(again.getByTestId('chart-indicator')).toHaveCount(1);
  await expect(again.getByTestId('chart-indicator')).toContainText('SMA 10');
  await expect(again.getByTestId('chart-indicator-value')).toHaveText(/^\d+\.\d+$/);

  const removed = page.waitForResponse((r) => r.request().method() === 'PATCH' && (r.request().postData() ?? '').includes('"layout"'));
  await again.getByRole('button', { name: 'Remove SMA 10' }).click();
  await expect(again.getByTestId('chart-indicator')).toHaveCount(0);
  expect((await removed).ok()).toBe(true);
  await page.reload();
  await expect(chartBodies(page).first()).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  await expect(chartBodies(page).first().getByTestId('chart-indicator')).toHaveCount(0);
  expect(pixiWarnings).toEqual([]);
});

test('with the exchange unreachable the chart shows one message with Retry, and Retry loads it', async ({ page }) => {
  const creds = await signUpFreshUser('chart-unreachable');
  const klines = '**/sim/binance/fapi/v1/klines**';
  await page.route(klines, (route) => route.abort('connectionrefused'));
  await signInThroughUi(page, creds);
  const body = chartBodies(page).first();
  await expect(body).toHaveAttribute('data-status', 'error', { timeout: 20_000 });
  const message = body.getByTestId('chart-message');
  await expect(message).toHaveCount(1);
  await expect(message).toHaveText(/Candles for BTCUSDT could not be loaded\.\s*Retry/);
  await expect(body.getByTestId('chart-loading')).toHaveCount(0);

  await page.unroute(klines);
  await message.getByRole('button', { name: 'Retry' }).click();
  await expect(body).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });
  await expect(body.getByTestId('chart-message')).toHaveCount(0);
  expect(Number(await body.getAttribute('data-bars'))).toBeGreaterThanOrEqual(300);
});
