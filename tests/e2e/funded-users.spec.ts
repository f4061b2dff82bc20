import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env';
import { ApiClient, signInThroughUi, signUpFreshUser, type Credentials } from './helpers';

const PRODUCT = 'Crypto Terminal';

let admin: ApiClient;
let registrationWas: boolean;
let trader: Credentials;

test.beforeAll(async () => {
  admin = await ApiClient.admin();
  registrationWas = await admin.setFlag('FF_ENABLE_REGISTRATION', true);
  trader = await signUpFreshUser('funded');
});

test.afterAll(async () => {
  await admin.setFlag('FF_ENABLE_REGISTRATION', registrationWas);
  await admin.dispose();
});

const fundedRow = (page: Page) => page.getByRole('row', { name: new RegExp(trader.email.replace(/[.+]/g, '\\$&')) });

test('an admin adds a funded user, sets trade settings, adds a key for them and records and sees a transaction', async ({ page }) => {
  await signInThroughUi(page, E2E_ADMIN);

  // Add the funded user: search by email, add.
  await page.goto('/admin-panel/users-funded');
  await expect(page).toHaveTitle(`Funded users · ${PRODUCT}`);
  await page.getByRole('link', { name: 'Add funded user' }).click();
  await expect(page).toHaveTitle(`Add funded user · ${PRODUCT}`);
  await page.getByLabel('Note').fill('Prop account A');
  await page.getByLabel('Find the user').fill(trader.email);
  await page.getByRole('button', { name: `Add ${trader.email}` }).click();
  await expect(page.getByText(`${trader.email} added to funded users`)).toBeVisible();
  await expect(page).toHaveURL(/\/admin-panel\/users-funded$/);
  await expect(fundedRow(page)).toContainText('Prop account A');

  // Trade settings.
  await fundedRow(page).getByRole('link', { name: `Trade settings of ${trader.email}` }).click();
  await expect(page).toHaveTitle(`Trade settings · ${PRODUCT}`);
  await expect(page.getByTestId('funded-user-email')).toHaveText(trader.email);
  const settings = page.getByRole('form', { name: 'Trade settings' });
  await settings.getByLabel('Max risk per trade').fill('1.5');
  await settings.getByLabel('Max leverage').fill('10');
  // Typed key by key, with thousands separators and more digits than a float keeps: stored exactly.
  await settings.getByLabel('Daily loss limit').pressSequentially('999,999,999,999.12345678');
  await settings.getByLabel('Allowed symbols').fill('btcusdt');
  await settings.getByLabel('Allowed symbols').press('Enter');
  await settings.getByRole('button', { name: 'Save trade settings' }).click();
  await expect(page.getByText('Trade settings saved')).toBeVisible();
  await page.reload();
  await expect(settings.getByLabel('Max risk per trade')).toHaveValue('1.5');
  await expect(settings.getByLabel('Max leverage')).toHaveValue('10');
  await expect(settings.getByLabel('Daily loss limit')).toHaveValue('999999999999.12345678');
  await expect(settings.getByLabel('Max position notional')).toHaveValue('');
  await expect(settings.getByText('BTCUSDT', { exact: true })).toBeVisible();

  // A firm-provided key for the user.
  await page.getByRole('link', { name: 'Back to Funded users' }).click();
  await fundedRow(page).getByRole('link', { name: `API keys of ${trader.email}` }).click();
  await expect(page).toHaveTitle(`API keys settings · ${PRODUCT}`);
  await expect(page.getByText('No API keys yet')).toBeVisible();
  await page.getByRole('link', { name: 'Add API key' }).click();
  const keyForm = page.getByRole('form', { name: 'New API key' });
  await keyForm.getByLabel('Name').fill('Firm binance');
  await keyForm.getByRole('button', { name: 'Generate simulator key' }).click();
  await expect(keyForm.getByLabel('API key')).toHaveValue(/^sim-/);
  const secret = await keyForm.getByLabel('API secret').inputValue();
  await expect(keyForm.getByLabel('Remember password on this device')).toHaveCount(0);
  await keyForm.getByLabel('Key password', { exact: true }).fill('firm-key-password');
  await keyForm.getByLabel('Repeat key password').fill('firm-key-password');
  await keyForm.getByRole('button', { name: 'Add API key' }).click();
  await expect(page.getByText('API key “Firm binance” added')).toBeVisible();
  // The keys table's row (the daily-loss list below names the key too).
  const keyRow = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'Transactions of Firm binance' }) });
  await expect(keyRow).toContainText('binance');
  expect(await page.content()).not.toContain(secret);

  // Record a transaction; the list refreshes with it.
  await keyRow.getByRole('link', { name: 'Transactions of Firm binance' }).click();
  await expect(page).toHaveTitle(`Transactions · ${PRODUCT}`);
  await expect(page.getByText('No transactions recorded yet')).toBeVisible();
  const txForm = page.getByRole('form', { name: 'Add transaction' });
  await txForm.getByLabel('Amount').pressSequentially('10,000.0123456789');
  await txForm.getByLabel('Note').fill('Initial funding');
  await txForm.getByRole('button', { name: 'Add transaction' }).click();
  await expect(page.getByText('Transaction added')).toBeVisible();
  const txRow = page.getByRole('row', { name: /Initial funding/ });
  await expect(txRow).toContainText('Deposit');
  await expect(txRow).toContainText('10,000.0123456789');
  await expect(txRow).toContainText('USDT');

  // The user records one on the same key through the API; the admin sees it after a refresh.
  const traderApi = await ApiClient.create();
  try {
    await traderApi.signin(trader);
    const [key] = await traderApi.get<{ id: string }[]>('/v1/api-keys');
    await traderApi.send('POST', '/v1/users/transactions', { apiKeyId: key.id, type: 'profit-share', amount: 420.5, currency: 'USDT', occurredAt: new Date().toISOString(), note: 'October share' });
  } finally {
    await traderApi.dispose();
  }
  await page.reload();
  await expect(page.getByRole('row', { name: /October share/ })).toContainText('Profit share');
  await expect(page.getByRole('row', { name: /October share/ })).toContainText('420.5');
});

test('a user who is not an admin cannot open the funded-user pages', async ({ page }) => {
  await signInThroughUi(page, trader);
  await page.goto('/admin-panel/users-funded');
  await expect(page.getByText('Uh-oh... Page not found.')).toBeVisible();
});
