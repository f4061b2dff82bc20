import { expect, test, type Page } from '@playwright/test';
import { ApiClient, createAccount, signInThroughUi, signUpFreshUser, simApiCredentials, withFlags, yForPrice } from './helpers';

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

  await tab(page, 'Orders').click();
  const orders = inPanel(page, 'orders', 'orders-table');
  await expect(orders).toContainText('stop-loss', { timeout: 15_000 });
  await expect(orders).toContainText('take-profit');
  await expect(orders).toContainText('UNTRIGGERED');

  // On the chart: the stop, the take-profit, the position's entry and break-even (and liquidation when it has one).
  const body = page.getByTestId('chart-body').first();
  await expect(body).toHaveAttribute('data-trade-lines', /^[4-5]$/, { timeout: 15_000 });
  // Drag the stop line up halfway to the price: the order is amended on the exchange.
  const stopRow = orders.getByRole('row').filter({ hasText: 'stop-loss' });
  const stopAt = Number((await stopRow.getByRole('cell').nth(5).textContent()) ?? '0');
  const last = Number(await body.getAttribute('data-last-price'));
  const box = (await body.boundingBox())!;
  const x = box.x + (box.width - 90) * 0.5;
  const fromY = await yForPrice(page, body, stopAt, x);
  const toY = await yForPrice(page, body, stopAt + (last - stopAt) / 2, x);
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
  const y = await yForPrice(page, chart, live * 0.995, cx);
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
