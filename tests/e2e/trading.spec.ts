import { expect, test, type Locator, type Page } from '@playwright/test';
import { ApiClient, createAccount, priceAtY, roomAround, signInThroughUi, signUpFreshUser, simApiCredentials, withFlags, yForPrice, type Credentials } from './helpers';

// Trading in the workstation (issue 12) on the simulator: a new trader creates a simulator key from
// the panel, unlocks it, buys at market, sees the position and balance, places a bracket sized from
// risk, sees its stop and take-profit among the orders, cancels them and closes the position.

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

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
/** A test id inside one workstation panel (several panels show the same key bar). */
const inPanel = (page: Page, panel: string, testId: string) => page.getByTestId(`panel-${panel}`).getByTestId(testId);

/** A fresh trader's first steps: sign in, create a simulator key from Order entry, unlock it (stream connected). */
async function newTraderWithSimKey(page: Page, label: string): Promise<Credentials> {
  const creds = await signUpFreshUser(label);
  await signInThroughUi(page, creds);
  await createSimKey(page);
  return creds;
}

/** Creates a simulator key for the exchange the workstation shows, from Order entry, and unlocks it (stream connected). */
async function createSimKey(page: Page): Promise<void> {
  await tab(page, 'Order entry').click();
  const orderEntry = page.getByTestId('panel-order-entry');
  await orderEntry.getByLabel('Key password for a new simulator key').fill('trade-pass-1');
  await orderEntry.getByRole('button', { name: 'Create a simulator key' }).click();
  const unlock = inPanel(page, 'order-entry', 'unlock-key');
  await expect(unlock).toBeVisible({ timeout: 15_000 });
  await unlock.getByLabel('Key password').fill('trade-pass-1');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(inPanel(page, 'order-entry', 'account-stream-status')).toHaveText('connected', { timeout: 15_000 });
}

test('a trader creates a simulator key, buys, places a bracket from risk, cancels its orders and closes the position', async ({ page }) => {
  test.setTimeout(90_000);
  await signInThroughUi(page, await signUpFreshUser('trader'));
  await expect(page.getByTestId('workstation')).toBeVisible();

  // No key yet: the panel says so and offers a simulator key.
  await tab(page, 'Order entry').click();
  const orderEntry = page.getByTestId('panel-order-entry');
  await expect(orderEntry.getByTestId('no-api-key')).toContainText('No API key for binance');
  await orderEntry.getByLabel('Key password for a new simulator key').fill('trade-pass-1');
  await orderEntry.getByRole('button', { name: 'Create a simulator key' }).click();

  // Unlock it, remembered on this device.
  const unlock = inPanel(page, 'order-entry', 'unlock-key');
  await expect(unlock).toBeVisible({ timeout: 15_000 });
  await unlock.getByLabel('Key password').fill('trade-pass-1');
  await unlock.getByLabel('Remember on this device').check();
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  await expect(inPanel(page, 'order-entry', 'account-stream-status')).toHaveText('connected', { timeout: 15_000 });

  // A market buy of 0.010 BTC.
  const entry = inPanel(page, 'order-entry', 'order-entry');
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Market', exact: true }).click();
  await entry.getByLabel(/^Size/).fill('0.010');
  await entry.getByTestId('place-order').click();

  await tab(page, 'Positions').click();
  const positions = inPanel(page, 'positions', 'positions-table');
  await expect(positions).toContainText('BTCUSDT', { timeout: 15_000 });
  await expect(positions).toContainText('Long');
  await tab(page, 'Balance').click();
  await expect(inPanel(page, 'balance', 'balance-headline')).toContainText('USDT');

  // A bracket: stop 1 % below, size from 1 % risk, one take-profit at 2R.
  await tab(page, 'Order entry').click();
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Bracket', exact: true }).click();
  await entry.getByText('SL 1%', { exact: true }).click();
  await expect(entry.getByLabel('Stop-loss')).not.toHaveValue('');
  await entry.getByText('1%', { exact: true }).click();
  await entry.getByRole('button', { name: '2R' }).click();
  await expect(entry.getByTestId('order-preview')).toContainText('2R');
  await expect(entry.getByTestId('risk-size')).not.toContainText('Size —');
  await entry.getByTestId('place-order').click();
  // The first bracket on the key asks once for the server's custody: the server guards every bracket.
  const consent = page.getByRole('dialog', { name: /^Let the server guard brackets with / });
  await expect(consent).toContainText('cancels what is left of the bracket when its position closes');
  const placed = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/brackets$/.test(r.url()) && r.request().method() === 'POST');
  await consent.getByRole('button', { name: 'Allow', exact: true }).click();
  expect((await placed).status()).toBe(201);

  await tab(page, 'Orders').click();
  const orders = inPanel(page, 'orders', 'orders-table');
  await expect(orders).toContainText('stop-loss', { timeout: 15_000 });
  await expect(orders).toContainText('take-profit');
  await expect(orders).toContainText('UNTRIGGERED');

  // On the chart: the stop, the take-profit, the position's entry and break-even (and liquidation when it has one).
  const body = page.getByTestId('chart-body').first();
  await expect(body).toHaveAttribute('data-trade-lines', /^[4-5]$/, { timeout: 15_000 });
  // Drag the stop line up halfway to the price: the order is amended on the exchange. The stop (1 %
  // under the price) may be below the visible prices: the chart then pins it to the plot's bottom edge
  // as a marker, and a click on the marker brings it into view (lineY).
  const stopRow = orders.getByRole('row').filter({ hasText: 'stop-loss' });
  const stopAt = Number((await stopRow.getByRole('cell').nth(5).textContent()) ?? '0');
  const last = Number(await body.getAttribute('data-last-price'));
  const box = (await body.boundingBox())!;
  const x = box.x + (box.width - 90) * 0.5;
  await expect(body).toHaveAttribute('data-offscreen-lines', /^\[/);
  const fromY = await lineY(page, body, (m) => m.kind === 'order' && m.role === 'stop', stopAt, x);
  // Halfway to the price, or to the top of the plot if the price scale had to move to the stop.
  const top = await priceAtY(page, body, x, box.y + 24);
  const toY = await yForPrice(page, body, stopAt + (Math.min(last, top) - stopAt) / 2, x);
  const amended = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/orders\//.test(r.url()) && r.request().method() === 'PATCH');
  await page.mouse.move(x, fromY);
  await page.mouse.down();
  await page.mouse.move(x, toY, { steps: 10 });
  await page.mouse.up();
  const res = await amended;
  expect(res.status()).toBe(200);
  const moved = (await res.json()) as { triggerPrice: string; role: string };
  expect(moved.role).toBe('stop-loss');
  expect(Number(moved.triggerPrice)).toBeGreaterThan(stopAt);
  await expect(orders).toContainText(String(Number(moved.triggerPrice)), { timeout: 15_000 });

  // Cancel every BTCUSDT order (confirm), then close the position (confirm).
  await page.getByTestId('panel-orders').getByRole('button', { name: 'Cancel all BTCUSDT' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(inPanel(page, 'orders', 'no-orders')).toBeVisible({ timeout: 15_000 });
  await tab(page, 'Positions').click();
  // Half with the quick link (FF_ENABLE_POSITION_QUICK_LINKS), then the rest (confirm).
  const sizeCell = positions.getByRole('row').filter({ hasText: 'BTCUSDT' }).getByRole('cell').nth(2);
  const before = Number(await sizeCell.textContent());
  await withFlags(admin, { FF_ENABLE_POSITION_QUICK_LINKS: true }, async () => {
    await page.reload();
    await tab(page, 'Positions').click();
    await positions.getByRole('button', { name: '50%' }).click();
    await expect.poll(async () => Number(await sizeCell.textContent()), { timeout: 15_000 }).toBeLessThan(before);
  });
  await positions.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Yes' }).click();
  await expect(inPanel(page, 'positions', 'no-positions')).toBeVisible({ timeout: 15_000 });

  // Trading from the chart: with it on, Shift+click below the price prepares a limit buy there.
  await tab(page, 'Order entry').click();
  await entry.getByLabel('Shift+click on the chart prepares a limit order here').check();
  const chart = page.getByTestId('chart-body').first();
  const live = Number(await chart.getAttribute('data-last-price'));
  const bb = (await chart.boundingBox())!;
  const cx = bb.x + (bb.width - 90) * 0.5;
  // Half a percent under the price, or nearer when the plot shows less than that under it.
  const low = await priceAtY(page, chart, cx, bb.y + bb.height * 0.7);
  const y = await yForPrice(page, chart, low < live ? Math.max(live * 0.995, (live + low) / 2) : live * 0.995, cx);
  await page.keyboard.down('Shift');
  await page.mouse.click(cx, y);
  await page.keyboard.up('Shift');
  const prepared = Number(await entry.getByLabel('Entry price').inputValue());
  expect(prepared).toBeGreaterThan(live * 0.99);
  expect(prepared).toBeLessThan(live);
});

test('a funded user with a $1,000 position limit sees the refusal at the size field, and nothing is placed', async ({ page }) => {
  test.setTimeout(60_000);
  const user = await createAccount(admin, 'funded-trader');
  await admin.send('POST', '/v1/users/funded', { userId: user.id });
  await admin.send('PATCH', '/v1/users/settings/trade', { userId: user.id, maxPositionNotional: 1000 });
  const api = await ApiClient.create();
  await api.signin(user);
  const creds = await simApiCredentials(api, 'binance');
  await api.send('POST', '/v1/api-keys', { name: 'funded key', exchange: 'binance', network: 'MAINNET', ...creds, keyPassword: 'funded-pass-1' });
  await api.dispose();

  await signInThroughUi(page, user);
  await tab(page, 'Order entry').click();
  const unlock = inPanel(page, 'order-entry', 'unlock-key');
  await unlock.getByLabel('Key password').fill('funded-pass-1');
  await unlock.getByRole('button', { name: 'Unlock' }).click();
  const entry = inPanel(page, 'order-entry', 'order-entry');
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Market', exact: true }).click();
  await entry.getByLabel(/^Size/).fill('0.100');
  await entry.getByTestId('place-order').click();
  await expect(entry.getByText(/above your limit of \$1,000/)).toBeVisible({ timeout: 15_000 });
  await expect(entry.getByLabel(/^Size/)).toHaveValue('0.1'); // what was typed, snapped to the step (kept after the refusal)
  await tab(page, 'Positions').click();
  await expect(inPanel(page, 'positions', 'no-positions')).toBeVisible();
});

/**
 * Where the ✕ of the order or position line at `price` (the one `match` picks) is: the pointer turns
 * into a hand over it. A label (and its ✕) may sit a little above or below its line when the labels
 * of lines close by are stacked, so rows beside the line are tried too.
 */
async function closeBoxAt(page: Page, body: Locator, price: number, match: (m: LineMarker) => boolean): Promise<{ x: number; y: number }> {
  const box = (await body.boundingBox())!;
  const y = await lineY(page, body, match, price, box.x + (box.width - 90) * 0.6);
  const canvas = body.locator('canvas');
  for (const dy of [0, -12, 12, -24, 24]) {
    for (let x = box.x + 30; x < box.x + 360; x += 4) {
      await page.mouse.move(x, y + dy);
      await nextFrames(page);
      if ((await canvas.evaluate((c) => (c as HTMLCanvasElement).style.cursor)) === 'pointer') return { x: x + 4, y: y + dy };
    }
  }
  throw new Error(`no ✕ on the line at ${price}`);
}

/** A chart line outside the visible prices, as the chart body reports it (`data-offscreen-lines`): a marker pinned to the plot's edge. */
interface LineMarker {
  id: string;
  kind: string;
  role: string | null;
  edge: 'above' | 'below';
  /** The marker's centre, px from the chart body's top-left corner. */
  x: number;
  y: number;
}

async function lineMarkers(body: Locator): Promise<LineMarker[]> {
  return JSON.parse((await body.getAttribute('data-offscreen-lines')) ?? '[]') as LineMarker[];
}

/** Two frames: the chart has painted what the last render gave it, and reported its markers. */
async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The screen y of the chart line `match` picks, at `price`. The visible prices follow the simulated
 * market, so the line may be outside them: the chart pins it to the plot's edge as a marker, and a
 * click on the marker brings it into view (the price scale turns manual: the market no longer moves
 * it away). Tried again if auto-scale carried the line out between the look and the search.
 */
async function lineY(page: Page, body: Locator, match: (m: LineMarker) => boolean, price: number, x: number): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    await nextFrames(page);
    const marker = (await lineMarkers(body)).find(match);
    if (marker) {
      const box = (await body.boundingBox())!;
      await page.mouse.click(box.x + marker.x, box.y + marker.y);
      await expect.poll(async () => (await lineMarkers(body)).some(match), { message: 'the line is still pinned after a click on its marker' }).toBe(false);
    }
    try {
      return await yForPrice(page, body, price, x);
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

test('a key added in Settings; hotkeys buy and list themselves; the ✕ on the chart lines cancels an order and closes the position', async ({ page }) => {
  test.setTimeout(120_000);
  await signInThroughUi(page, await signUpFreshUser('chart-trader'));

  // Settings → API keys → a generated simulator key, its password remembered on this device.
  await page.goto('/settings/api-keys/add-new');
  const form = page.getByRole('form', { name: 'New API key' });
  await form.getByLabel('Name').fill('Sim binance');
  await form.getByRole('button', { name: 'Generate simulator key' }).click();
  await expect(form.getByLabel('API key')).toHaveValue(/^sim-/);
  await form.getByLabel('Key password', { exact: true }).fill('chart-pass-1');
  await form.getByLabel('Repeat key password').fill('chart-pass-1');
  await form.getByLabel('Remember password on this device').check();
  await form.getByRole('button', { name: 'Add API key' }).click();
  await expect(page).not.toHaveURL(/add-new/, { timeout: 15_000 });
  await expect(page.getByText('Sim binance').first()).toBeVisible();

  // Preferences: closing from the chart allowed, and the trading hotkeys (off by default) turned on.
  await page.goto('/settings/preferences');
  await page.getByRole('switch', { name: /^Allow position close/ }).check();
  await page.getByRole('switch', { name: /^Trading hotkeys/ }).check();

  await page.goto('/trade');
  await tab(page, 'Order entry').click();
  await expect(inPanel(page, 'order-entry', 'account-stream-status')).toHaveText('connected', { timeout: 15_000 });
  const entry = inPanel(page, 'order-entry', 'order-entry');
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Market', exact: true }).click();
  await entry.getByLabel(/^Size/).fill('0.010');

  // `?` lists the hotkeys; Shift+B presses Order entry's Buy: a market buy of its size (not while typing in a field).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Shift+Slash');
  const help = page.getByTestId('hotkeys-help');
  await expect(help).toContainText('Buy: what Order entry would send (its type, bracket and size)');
  await expect(help.getByRole('row').filter({ hasText: 'Buy: what Order entry would send' })).toContainText('Shift + B');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();
  await page.keyboard.press('Shift+B');
  await tab(page, 'Positions').click();
  const positions = inPanel(page, 'positions', 'positions-table');
  await expect(positions).toContainText('Long', { timeout: 15_000 });
  await expect(positions.getByRole('row').filter({ hasText: 'BTCUSDT' }).getByRole('cell').nth(2)).toHaveText('0.01');
  const entryPrice = Number(await positions.getByRole('row').filter({ hasText: 'BTCUSDT' }).getByRole('cell').nth(4).textContent());

  // A resting limit order: its line on the chart has a ✕ that cancels it after a confirm.
  const body = page.getByTestId('chart-body').first();
  const last = Number(await body.getAttribute('data-last-price'));
  // The buy's toast sits over Order entry's tab at the top right, and a pointer resting on a toast keeps it:
  // let it leave before reaching for the tab, as a trader would.
  await expect(page.locator('.mantine-Notification-root', { hasText: 'Placed: buy market' })).toBeHidden({ timeout: 15_000 });
  await tab(page, 'Order entry').click();
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Limit', exact: true }).click();
  // On the roomier side of the market (a sell limit above it, or a buy limit below), on screen and apart
  // from the position's line (the visible range moves with the simulated market).
  const bodyBox = (await body.boundingBox())!;
  const { dir, edge } = await roomAround(page, body, bodyBox.x + (bodyBox.width - 90) * 0.6, last);
  const target = Math.round(last + (edge - last) * 0.6);
  const limitSide = dir === 1 ? 'sell' : 'buy';
  await entry.getByText(dir === 1 ? 'Sell / Short' : 'Buy / Long').click();
  await entry.getByLabel('Price').fill(String(target));
  await entry.getByLabel(/^Size/).fill('0.004');
  await entry.getByTestId('place-order').click();
  await tab(page, 'Orders').click();
  const orders = inPanel(page, 'orders', 'orders-table');
  await expect(orders).toContainText(String(target), { timeout: 15_000 });
  await expect(body).toHaveAttribute('data-trade-lines', /^[3-4]$/, { timeout: 15_000 });

  const cross = await closeBoxAt(page, body, target, (m) => m.kind === 'order');
  await page.mouse.click(cross.x, cross.y);
  const confirm = page.getByRole('dialog', { name: 'Cancel order' });
  await expect(confirm).toContainText(`Cancel the ${limitSide} limit 0.004 BTCUSDT order at ${target}?`);
  await confirm.getByRole('button', { name: 'Cancel order' }).click();
  await expect(inPanel(page, 'orders', 'no-orders')).toBeVisible({ timeout: 15_000 });

  // The position's ✕ closes it at market after its confirm.
  const posCross = await closeBoxAt(page, body, entryPrice, (m) => m.id === 'position:entry');
  await page.mouse.click(posCross.x, posCross.y);
  const closeDialog = page.getByRole('dialog', { name: 'Close position' });
  await expect(closeDialog).toContainText('Close the long 0.01 BTCUSDT at market?');
  await closeDialog.getByRole('button', { name: 'Close position' }).click();
  await tab(page, 'Positions').click();
  await expect(inPanel(page, 'positions', 'no-positions')).toBeVisible({ timeout: 15_000 });
});

test('a limit-entry bracket: the entry rests alone, Orders says what goes on when it fills; cancelled, nothing of it is left', async ({ page }) => {
  test.setTimeout(90_000);
  await newTraderWithSimKey(page, 'resting');

  // A buy limit 5 % under the market, typed key by key; stop 1 % under the entry, the target at 2R.
  const entry = inPanel(page, 'order-entry', 'order-entry');
  await entry.getByLabel('Order type').click();
  await page.getByRole('option', { name: 'Bracket', exact: true }).click();
  await entry.getByText('Limit entry').click();
  const last = Number(await page.getByTestId('chart-body').first().getAttribute('data-last-price'));
  const at = String(Math.round(last * 0.95));
  await entry.getByLabel('Entry price').pressSequentially(at);
  await entry.getByText('SL 1%', { exact: true }).click();
  await entry.getByText('1%', { exact: true }).click();
  await entry.getByRole('button', { name: '2R' }).click();
  await expect(entry.getByTestId('risk-size')).not.toContainText('Size —');
  await entry.getByTestId('place-order').click();
  const placed = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/brackets$/.test(r.url()) && r.request().method() === 'POST');
  await page.getByRole('dialog', { name: /^Let the server guard brackets with / }).getByRole('button', { name: 'Allow', exact: true }).click();
  const bracket = (await (await placed).json()) as { orders: Array<{ role: string }>; planned: Array<{ role: string; triggerPrice: string }> };
  expect(bracket.orders.map((o) => o.role)).toEqual(['entry']);
  expect(bracket.planned.map((l) => l.role)).toEqual(['stop-loss', 'take-profit']);
  await expect(page.getByText('Its stop-loss and take-profits go on the moment it fills')).toBeVisible();

  await tab(page, 'Orders').click();
  const orders = inPanel(page, 'orders', 'orders-table');
  const planned = orders.getByTestId('planned-legs');
  await expect(planned).toContainText(`then SL ${Number(bracket.planned[0]!.triggerPrice)} · TP`, { timeout: 15_000 });
  await expect(orders).not.toContainText('stop-loss');

  // The trader cancels the entry: the server's guard ends, and nothing of the bracket is left.
  await orders.getByRole('row').filter({ hasText: 'entry' }).getByRole('button', { name: /^Cancel / }).click();
  await page.getByRole('button', { name: 'Yes' }).click(); // the cancel confirm is on by default
  await expect(inPanel(page, 'orders', 'no-orders')).toBeVisible({ timeout: 15_000 });
});

test('at 1280×720 in the default layout the bracket form\'s button and its risk line stay in view while the form scrolls', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await newTraderWithSimKey(page, 'small-screen');
  const entry = inPanel(page, 'order-entry', 'order-entry');
  await entry.getByText('SL 1%', { exact: true }).click();
  await entry.getByRole('button', { name: '2R' }).click();
  const button = entry.getByTestId('place-order');
  const summary = entry.getByTestId('order-summary');
  await expect(summary).toContainText(/^Risk [\d.]+ USDT \(\d+(\.\d+)? %\) · 2(\.00)?R/);
  await expect(button).toBeInViewport();
  await expect(summary).toBeInViewport();
  // Scrolled to the top of the form, the action is still there.
  await entry.getByLabel('Stop-loss').scrollIntoViewIfNeeded();
  await expect(button).toBeInViewport();
  await page.screenshot({ path: test.info().outputPath('order-entry-1280x720.png') });
});

test('a managed bracket: allowed once for the key, marked on its rows; closed elsewhere with the browser closed, the server cancels the rest and says so', async ({ browser }) => {
  test.setTimeout(120_000);
  await withFlags(admin, { FF_ENABLE_SEMI_AUTO: true }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const creds = await newTraderWithSimKey(page, 'managed');

    // Off and explained until the key is allowed; allowed once, in a dialog that says what it means.
    const entry = inPanel(page, 'order-entry', 'order-entry');
    const managed = entry.getByTestId('managed-bracket');
    await expect(managed.getByLabel('Move the stop to break-even when take-profit 1 fills')).toBeDisabled();
    await managed.getByRole('button', { name: /^Allow for / }).click();
    const dialog = page.getByRole('dialog', { name: /^Let the server guard brackets with / });
    await expect(dialog).toContainText('encrypted under the server');
    await dialog.getByRole('button', { name: 'Allow', exact: true }).click();
    await expect(managed.getByLabel('Move the stop to break-even when take-profit 1 fills')).toBeEnabled();
    await managed.getByLabel('Move the stop to break-even when take-profit 1 fills').check();

    await entry.getByText('SL 1%', { exact: true }).click();
    await entry.getByText('1%', { exact: true }).click();
    await entry.getByRole('button', { name: '2R' }).click();
    await expect(entry.getByTestId('risk-size')).not.toContainText('Size —');
    const placed = page.waitForResponse((r) => /\/v1\/trade\/[^/]+\/brackets$/.test(r.url()) && r.request().method() === 'POST');
    await entry.getByTestId('place-order').click();
    const bracket = (await (await placed).json()) as { bracketId: string; managed: boolean };
    expect(bracket.managed).toBe(true);

    await tab(page, 'Orders').click();
    const orders = inPanel(page, 'orders', 'orders-table');
    await expect(orders.getByTestId('managed-badge')).toHaveCount(2, { timeout: 15_000 });

    // The browser goes away; the position is closed elsewhere (the exchange's own app, here the API).
    await context.close();
    const api = await ApiClient.create();
    try {
      await api.signin(creds);
      const [key] = await api.get<Array<{ id: string }>>('/v1/api-keys');
      const pass = { 'X-Key-Password': 'trade-pass-1' };
      await api.send('POST', `/v1/trade/${key!.id}/positions/close`, { symbol: 'BTCUSDT', percent: 100, type: 'MARKET' }, pass);
      await expect.poll(async () => (await api.get<unknown[]>(`/v1/trade/${key!.id}/orders?symbol=BTCUSDT`, pass)).length, { timeout: 15_000 }).toBe(0);
    } finally {
      await api.dispose();
    }

    // Back in the app: the bell has it, and the activity log says what the server did.
    const again = await browser.newPage();
    await signInThroughUi(again, creds);
    const bell = again.getByTestId('notifications-bell');
    await expect(bell).toHaveAccessibleName(/^Notifications: \d+ unread$/, { timeout: 15_000 });
    await bell.click();
    await expect(again.getByTestId('notifications-list')).toContainText('Cancelled the remaining orders');
    await again.getByRole('button', { name: 'Server activity' }).click();
    const log = again.getByTestId('activity-log');
    await expect(log).toContainText('Guarding the bracket');
    await expect(log).toContainText('Cancelled the remaining orders');
    await expect(log).toContainText('Finished guarding the bracket');
    await again.close();
  });
});

test('a BitMEX quanto (ETHUSD, priced in USD, settled in XBT): its worth and its PnL are XBT to the satoshi, in Order entry, Positions and on the chart', async ({ page }) => {
  test.setTimeout(120_000);
  await withFlags(admin, { FF_ENABLE_BITMEX: true }, async () => {
    await signInThroughUi(page, await signUpFreshUser('quanto'));
    const header = page.getByTestId('chart-header').filter({ visible: true }).first();
    await header.getByLabel('Exchange', { exact: true }).click();
    await page.getByRole('option', { name: 'BitMEX' }).click();
    await header.getByRole('combobox', { name: 'Pair' }).fill('ETHUSD');
    await header.getByRole('combobox', { name: 'Pair' }).press('Enter');
    const chart = page.getByTestId('chart-body').first();
    await expect(chart).toContainText('ETHUSD · 5m · BitMEX');
    await expect(chart).toHaveAttribute('data-status', 'ready', { timeout: 20_000 });

    await createSimKey(page); // on BitMEX

    // 1000 contracts at market: worth 1000 × 100 satoshi × the price, in XBT (not "$3").
    const entry = inPanel(page, 'order-entry', 'order-entry');
    await entry.getByLabel('Order type').click();
    await page.getByRole('option', { name: 'Market', exact: true }).click();
    await entry.getByLabel(/^Size/).pressSequentially('1000');
    const price = Number(await chart.getAttribute('data-last-price'));
    // Under the Size field (and in the sticky summary).
    const worthText = entry.getByText(/^≈ \d+\.\d{8} XBT$/).first();
    await expect(worthText).toBeVisible();
    const worth = Number((await worthText.textContent())!.replace(/[^\d.]/g, ''));
    expect(worth).toBeGreaterThan(1000 * 0.000001 * price * 0.98);
    expect(worth).toBeLessThan(1000 * 0.000001 * price * 1.02);
    await entry.getByTestId('place-order').click();

    // The position's PnL in XBT with its satoshis, on the Positions row and the chart's position line.
    await tab(page, 'Positions').click();
    const positions = inPanel(page, 'positions', 'positions-table');
    await expect(positions).toContainText('ETHUSD', { timeout: 15_000 });
    await expect(positions.getByTestId('position-pnl')).toHaveText(/^[+-]?\d+\.\d{8} XBT \(/);
    await expect(chart).toHaveAttribute('data-trade-lines', /^[1-9]$/, { timeout: 15_000 });

    await positions.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Yes' }).click();
    await expect(inPanel(page, 'positions', 'no-positions')).toBeVisible({ timeout: 15_000 });
  });
});
