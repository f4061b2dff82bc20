import { expect, test, type Locator, type Page } from '@playwright/test';
import { ApiClient, signInThroughUi, signUpFreshUser, type Credentials } from './helpers';

// The workstation layout (issue 5): default layout, panels from the menu, close/re-open, named
// layouts, reset, maximise across a reload, and the layout following the user to another browser.

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

const workstation = (page: Page) => page.getByTestId('workstation');
const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true });
const chartTabs = (page: Page) => page.getByRole('tab', { name: 'Chart', exact: true });

async function openWorkstation(page: Page, creds: Credentials): Promise<void> {
  await signInThroughUi(page, creds);
  await expect(workstation(page)).toBeVisible();
  await expect(chartTabs(page).first()).toBeVisible();
}

async function addPanel(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: 'Add panel' }).click();
  await page.getByRole('menuitem', { name: new RegExp(`^${title}`) }).click();
}

async function closePanel(page: Page, name: string): Promise<void> {
  const button = tab(page, name);
  await button.click();
  await button.locator('.flexlayout__tab_button_trailing').click();
  await expect(button).toHaveCount(0);
}

/** The tabset (flexlayout container) holding the tab `name`. */
const tabsetOf = (page: Page, name: string): Locator =>
  page.locator('.flexlayout__tabset_container, .flexlayout__tabset', { has: tab(page, name) }).last();

/** Waits until the server has the latest layout (the debounced save went through). */
async function waitForServerSave(page: Page): Promise<void> {
  await expect(workstation(page)).toHaveAttribute('data-save-status', 'saved', { timeout: 15_000 });
}

async function openLayoutsMenu(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Layouts' }).click();
}

test('a new user gets the default layout filling the page under the top bar', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('layout-default'));
  await expect(page).toHaveTitle(/^Trade · /);
  for (const name of ['Positions', 'Orders', 'Balance', 'Order entry', 'Favourites']) await expect(tab(page, name)).toBeVisible();
  await expect(chartTabs(page)).toHaveCount(1);
  await expect(chartTabs(page)).toContainText('BTCUSDT · 5m');
  await expect(page.getByTestId('chart-body')).toBeVisible();
  await expect(page.getByTestId('chart-header').getByRole('combobox', { name: 'Pair' })).toHaveValue('BTCUSDT');
  // Without an API key the trading panels say so and where to add one.
  await tab(page, 'Positions').click();
  await expect(page.getByTestId('panel-positions').getByTestId('no-api-key')).toContainText('No API key for binance');

  const viewport = page.viewportSize();
  const box = await page.locator('.flexlayout__layout').boundingBox();
  const header = await page.locator('header').boundingBox();
  expect(box && header && viewport).toBeTruthy();
  expect(Math.abs(box!.y + box!.height - viewport!.height)).toBeLessThanOrEqual(2);
  expect(box!.y).toBeGreaterThanOrEqual(header!.y + header!.height);
  expect(box!.width).toBeGreaterThan(viewport!.width - 4);
});

test('panels are added from the menu, closed and re-opened', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('layout-add'));

  await addPanel(page, 'Chart');
  await expect(chartTabs(page)).toHaveCount(2);
  await expect(page.getByTestId('chart-body').filter({ visible: true })).toHaveCount(1); // one tabset shows one chart at a time

  await closePanel(page, 'Favourites');
  await addPanel(page, 'Favourites');
  await expect(tab(page, 'Favourites')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('favorites-empty')).toBeVisible();

  // A single-instance panel is brought to view, not opened twice.
  await tab(page, 'Orders').click();
  await addPanel(page, 'Positions');
  await expect(tab(page, 'Positions')).toHaveCount(1);
  await expect(tab(page, 'Positions')).toHaveAttribute('aria-selected', 'true');
});

test('a named layout is saved, the layout reset, and the named layout restored', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('layout-named'));
  await closePanel(page, 'Balance');
  await addPanel(page, 'Chart');
  await expect(chartTabs(page)).toHaveCount(2);

  await openLayoutsMenu(page);
  await page.getByRole('button', { name: 'Save layout as…' }).click();
  await page.getByLabel('Layout name').fill('Two charts');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Layout "Two charts" saved')).toBeVisible();

  await openLayoutsMenu(page);
  await page.getByRole('button', { name: 'Reset layout' }).click();
  await page.getByRole('dialog', { name: 'Reset the layout?' }).getByRole('button', { name: 'Reset layout' }).click();
  await expect(chartTabs(page)).toHaveCount(1);
  await expect(tab(page, 'Balance')).toBeVisible();

  await openLayoutsMenu(page);
  await page.getByRole('button', { name: 'Open layout Two charts' }).click();
  await expect(chartTabs(page)).toHaveCount(2);
  await expect(tab(page, 'Balance')).toHaveCount(0);

  // Saved layouts are kept on the server: after a reload the name is still offered, and can be deleted.
  await waitForServerSave(page);
  await page.reload();
  await expect(chartTabs(page)).toHaveCount(2);
  await openLayoutsMenu(page);
  await page.getByRole('button', { name: 'Delete layout Two charts' }).click();
  await page.getByRole('dialog', { name: 'Delete the layout?' }).getByRole('button', { name: 'Delete' }).click();
  await openLayoutsMenu(page);
  await expect(page.getByRole('button', { name: 'Open layout Two charts' })).toHaveCount(0);
  await expect(page.getByText('None yet.', { exact: false })).toBeVisible();
});

test('a maximised panel is still maximised after a reload', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('layout-max'));
  await tab(page, 'Favourites').click();
  await tabsetOf(page, 'Favourites').getByRole('button', { name: 'Maximize tabset' }).click();
  await expect(tab(page, 'Positions')).toBeHidden();
  await expect(tabsetOf(page, 'Favourites').getByRole('button', { name: 'Restore tabset' })).toBeVisible();

  await page.reload();
  await expect(tab(page, 'Favourites')).toBeVisible();
  await expect(tabsetOf(page, 'Favourites').getByRole('button', { name: 'Restore tabset' })).toBeVisible();
  await expect(tab(page, 'Positions')).toBeHidden();

  await tabsetOf(page, 'Favourites').getByRole('button', { name: 'Restore tabset' }).click();
  await expect(tab(page, 'Positions')).toBeVisible();
});

test('the layout follows the user to another browser', async ({ page, browser }) => {
  const creds = await signUpFreshUser('layout-roam');
  await openWorkstation(page, creds);
  await closePanel(page, 'Order entry');
  await addPanel(page, 'Chart');
  const pair = page.getByTestId('chart-header').filter({ visible: true }).getByRole('combobox', { name: 'Pair' });
  await pair.fill('ETHUSDT');
  await pair.press('Enter');
  await expect(chartTabs(page).filter({ hasText: 'ETHUSDT · 5m' })).toHaveCount(1);
  await waitForServerSave(page);

  const other = await browser.newContext();
  try {
    const second = await other.newPage();
    await openWorkstation(second, creds);
    await expect(chartTabs(second)).toHaveCount(2);
    await expect(chartTabs(second).filter({ hasText: 'ETHUSDT · 5m' })).toHaveCount(1);
    await expect(tab(second, 'Order entry')).toHaveCount(0);
  } finally {
    await other.close();
  }
});

test('linked charts follow each other, and a favourite opens in the active chart', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('layout-link'));
  // Put a second chart beside the first by opening it into the order-entry tabset.
  await tab(page, 'Order entry').click();
  await addPanel(page, 'Chart');
  const headers = page.getByTestId('chart-header').filter({ visible: true });
  await expect(headers).toHaveCount(2);
  const [first, second] = [headers.nth(0), headers.nth(1)];

  for (const header of [first, second]) {
    await header.getByRole('button', { name: /^Link group/ }).click();
    await page.getByRole('menuitem', { name: 'Green' }).click();
    // The menu closes with a transition: wait until it is gone before opening the next one.
    await expect(page.getByRole('menuitem', { name: 'Green' })).toHaveCount(0);
  }
  await first.getByRole('combobox', { name: 'Pair' }).fill('SOLUSDT');
  await first.getByRole('combobox', { name: 'Pair' }).press('Enter');
  await expect(second.getByRole('combobox', { name: 'Pair' })).toHaveValue('SOLUSDT');
  await second.getByRole('button', { name: '15m', exact: true }).click();
  await expect(second.getByLabel('Interval', { exact: true })).toHaveValue('15m');
  await expect(first.getByLabel('Interval', { exact: true })).toHaveValue('5m'); // intervals stay per chart

  await first.getByRole('button', { name: 'Add to favourites' }).click();
  await first.getByRole('combobox', { name: 'Pair' }).fill('XRPUSDT');
  await first.getByRole('combobox', { name: 'Pair' }).press('Enter');
  await expect(second.getByRole('combobox', { name: 'Pair' })).toHaveValue('XRPUSDT');
  await tab(page, 'Favourites').click();
  await page.getByRole('button', { name: 'Show SOLUSDT on binance in the active chart' }).click();
  await expect(first.getByRole('combobox', { name: 'Pair' })).toHaveValue('SOLUSDT');
  await expect(second.getByRole('combobox', { name: 'Pair' })).toHaveValue('SOLUSDT');
});

test('a chart popped out into its own window keeps working there', async ({ page }) => {
  await openWorkstation(page, await signUpFreshUser('layout-popout'));
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    tabsetOf(page, 'Chart').getByRole('button', { name: 'Popout selected tab' }).click(),
  ]);
  const header = popup.getByTestId('chart-header');
  await expect(header).toBeVisible();
  await expect(popup).toHaveTitle(/^Chart · /);
  await expect(chartTabs(page)).toHaveCount(0);

  // Pickers open inside the popout window, not in the main one.
  await header.getByLabel('Exchange', { exact: true }).click();
  await expect(popup.getByRole('option', { name: 'binance' })).toBeVisible();
  await expect(page.getByRole('option')).toHaveCount(0);
  await popup.keyboard.press('Escape');

  await header.getByRole('combobox', { name: 'Pair' }).fill('ETHUSDT');
  await header.getByRole('combobox', { name: 'Pair' }).press('Enter');
  await header.getByRole('button', { name: '15m', exact: true }).click();
  await expect(popup.getByRole('tab', { name: 'Chart', exact: true })).toContainText('ETHUSDT · 15m');
  await expect(popup.getByTestId('chart-body')).toContainText('ETHUSDT · 15m');

  // Settings changed in the popout reach the main window: the favourite shows up in Favourites there.
  await header.getByRole('button', { name: 'Add to favourites' }).click();
  await expect(page.getByRole('button', { name: 'Show ETHUSDT on binance in the active chart' })).toBeVisible();
  await waitForServerSave(page);
});

test('a layout change the server refuses is kept on the device and sent again', async ({ page }) => {
  const creds = await signUpFreshUser('layout-offline');
  await openWorkstation(page, creds);
  await page.route('**/v1/users/settings', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ message: 'Settings are read-only right now' }) })
      : route.continue(),
  );
  await closePanel(page, 'Balance');
  // The failure toast carries the server's message (SPEC §8; 'Unable to update settings.' without one).
  await expect(page.getByText('Settings are read-only right now')).toBeVisible();
  await expect(workstation(page)).toHaveAttribute('data-save-status', 'error');
  await expect(page.getByTestId('layout-save-status')).toHaveText('Not saved');
  await expect(tab(page, 'Balance')).toHaveCount(0); // nothing lost

  await page.unroute('**/v1/users/settings');
  await page.reload();
  await expect(tab(page, 'Orders')).toBeVisible();
  await expect(tab(page, 'Balance')).toHaveCount(0);
  await waitForServerSave(page);

  const api = await ApiClient.create();
  try {
    await api.signin(creds);
    const settings = await api.get<{ layout: { model: unknown } | null }>('/v1/users/settings');
    const components = JSON.stringify(settings.layout?.model ?? null);
    expect(components).toContain('"component":"orders"');
    expect(components).not.toContain('"component":"balance"');
  } finally {
    await api.dispose();
  }
});
