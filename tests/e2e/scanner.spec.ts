import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env';
import { ApiClient, signInThroughUi, signOutThroughUi, signUpFreshUser } from './helpers';

// The scanner (issue 14, FF_ENABLE_SCANNER) against the market simulator: an admin turns it on in
// the admin panel, a trader adds it, ranks by 24 h change, narrows to one exchange, puts a pair on
// the chart with one click, and watches the values tick (the server's stream of the simulator's
// all-market tickers).

let admin: ApiClient;
let flagsWere: Record<string, boolean>;

test.beforeAll(async () => {
  admin = await ApiClient.admin();
  flagsWere = {
    FF_ENABLE_REGISTRATION: await admin.setFlag('FF_ENABLE_REGISTRATION', true),
    FF_ENABLE_BYBIT: await admin.setFlag('FF_ENABLE_BYBIT', true),
    // Off to begin with: the test turns it on through the admin panel.
    FF_ENABLE_SCANNER: await admin.setFlag('FF_ENABLE_SCANNER', false),
  };
});

test.afterAll(async () => {
  for (const [name, enabled] of Object.entries(flagsWere)) await admin.setFlag(name, enabled);
  await admin.dispose();
});

/** The rows on screen (the table's unused line slots are hidden). */
const rows = (page: Page) => page.locator('[data-testid=scanner-row]:not([hidden])');
const numberOf = (text: string) => Number(text.replace(/[,%+]/g, ''));

async function addPanel(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Add panel' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${title}`) }).click();
}

test('an admin turns the scanner on; a trader ranks by 24 h change, narrows to one exchange, opens a pair on the chart, and values tick', async ({ page }) => {
  test.setTimeout(120_000);
  const trader = await signUpFreshUser('scanner');

  // Off: not in "Add panel".
  await signInThroughUi(page, trader);
  await page.getByRole('button', { name: 'Add panel' }).click();
  await expect(page.getByRole('menuitem', { name: /^Favourites/ })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: /^Scanner/ })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await signOutThroughUi(page);

  // The admin turns it on in the admin panel.
  await signInThroughUi(page, E2E_ADMIN);
  await page.goto('/admin-panel/feature-flags');
  const toggle = page.getByRole('switch', { name: 'FF_ENABLE_SCANNER' });
  await expect(toggle).not.toBeChecked();
  await toggle.click({ force: true });
  await expect(toggle).toBeChecked();
  await expect.poll(async () => (await admin.get<Record<string, boolean>>('/v1/feature-flags/json')).FF_ENABLE_SCANNER).toBe(true);
  await page.goto('/trade');
  await signOutThroughUi(page);

  // The trader adds it below the chart (the Positions tabset is the active one when adding).
  await signInThroughUi(page, trader);
  await page.getByRole('tab', { name: 'Positions', exact: true }).click();
  await addPanel(page, 'Scanner');
  const panel = page.getByTestId('scanner-panel');
  await expect(panel).toBeVisible();
  await expect(rows(page).first()).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('scanner-count')).toHaveText(/^\d+ of \d+ pairs$/);
  // Both enabled exchanges are listed.
  await expect(panel.locator('[data-exchange-status=binance]')).toBeVisible();
  await expect(panel.locator('[data-exchange-status=bybit]')).toBeVisible();

  // Sort by 24 h change: highest first.
  await panel.getByRole('button', { name: /^24h %/ }).click();
  await expect(panel.getByRole('columnheader', { name: /24h %/ })).toHaveAttribute('aria-sort', 'descending');
  const changes = async () => (await panel.locator('[data-testid=scanner-row]:not([hidden]) [data-field=changePercent]').allTextContents()).slice(0, 12).map(numberOf);
  // Move the pointer away from the rows: while it is over them the order holds still.
  await page.mouse.move(5, 5);
  await expect.poll(async () => {
    const values = await changes();
    return values.length > 5 && values.every((v, k) => k === 0 || values[k - 1] >= v);
  }).toBe(true);

  // Narrow to one exchange.
  await panel.getByRole('group', { name: 'Exchanges' }).getByText('bybit', { exact: true }).click();
  await expect(panel.getByRole('checkbox', { name: 'bybit' })).toBeChecked();
  await expect.poll(async () => {
    const keys = await rows(page).evaluateAll((els) => els.map((el) => el.getAttribute('data-key') ?? ''));
    return keys.length > 0 && keys.every((k) => k.startsWith('bybit:'));
  }).toBe(true);
  await expect(panel.locator('[data-exchange-status=binance]')).toHaveCount(0);

  // One click: the top mover on the chart.
  const top = rows(page).first();
  const key = (await top.getAttribute('data-key')) ?? '';
  const symbol = key.split(':')[1];
  expect(symbol).toBeTruthy();
  await top.click();
  await expect(top).toHaveAttribute('data-active', 'true');
  await expect(page.getByRole('tab', { name: 'Chart', exact: true })).toContainText(`${symbol} · 5m`);
  const header = page.getByTestId('chart-header').filter({ visible: true });
  await expect(header.getByRole('combobox', { name: 'Pair' })).toHaveValue(symbol);
  await expect(header.getByLabel('Exchange', { exact: true })).toHaveValue('bybit');

  // Values tick: the server pushes the simulator's ticks; some price on screen changes.
  await page.mouse.move(5, 5);
  const prices = () => panel.locator('[data-testid=scanner-row]:not([hidden]) [data-field=last]').allTextContents();
  const before = (await prices()).join('|');
  await expect.poll(async () => (await prices()).join('|'), { timeout: 30_000 }).not.toBe(before);
  await expect(panel.locator('[data-exchange-status=bybit]')).toContainText('live');
});
