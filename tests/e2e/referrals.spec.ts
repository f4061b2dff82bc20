import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN } from './env';
import { ApiClient, seedReferrer, signInThroughUi, utcMonth, type SeededReferrer } from './helpers';

const TITLE = 'Referrer Volume & Income Overview';
/** `2026-05` → `05/26`: SPEC's 2-digit month / 2-digit year. */
const mmYy = (ym: string) => `${ym.slice(5, 7)}/${ym.slice(2, 4)}`;

let admin: ApiClient;
let seeded: SeededReferrer;
const thisMonth = utcMonth(0);
const lastMonth = utcMonth(-1);

test.beforeAll(async () => {
  admin = await ApiClient.admin();
  seeded = await seedReferrer(admin, { [thisMonth]: 1500.5, [lastMonth]: 250_000 });
  // The exchange's own totals for last month (what the admin would enter or import).
  await admin.send('PATCH', '/v1/referrals/volume', {
    exchange: 'BITMEX',
    type: 'exchange',
    entries: [{ date: lastMonth, totalExchangeVolume: 1_234_567, totalExchangeIncome: 4321.5 }],
  });
  // Income already paid for last month.
  await admin.send('PATCH', '/v1/referrals/user', { exchange: 'BITMEX', type: 'user', userId: seeded.referrer.id, date: lastMonth, income: 500 });
});

test.afterAll(async () => {
  await admin.dispose();
});

const row = (page: Page, month: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: mmYy(month), exact: true }) });

test('the referrer user page shows the seeded months with SPEC formats and filters in the query string', async ({ page }) => {
  await signInThroughUi(page, E2E_ADMIN);
  await page.goto(`/admin-panel/referrals/user/${seeded.referrer.id}`);
  await expect(page).toHaveTitle(`${TITLE} · Crypto Terminal`);
  await expect(page.getByRole('heading', { name: `${TITLE} ${seeded.referrer.id}` })).toBeVisible();
  // Defaults written into the query string, in order.
  await expect(page).toHaveURL(new RegExp(`\\?exchange=BITMEX&userId=${seeded.referrer.id}&network=MAINNET&currency=USD$`));

  const headers = page.locator('thead th');
  await expect(headers).toHaveText(['Date', 'Exchange', 'Exchange Volume', 'Exchange Income', 'Referrer Volume', 'Referrer Income', '']);
  await expect(row(page, lastMonth).getByRole('cell')).toHaveText([mmYy(lastMonth), 'BITMEX', '$1,234,567', '$4,321.50', '$250,000', '$500.00', 'Submit income']);
  await expect(row(page, thisMonth).getByRole('cell')).toHaveText([mmYy(thisMonth), 'BITMEX', '$0', '$0.00', '$1,500.5', '$0.00', 'Submit income']);
  // Newest month first.
  await expect(page.getByRole('row').nth(1)).toContainText(mmYy(thisMonth));

  // XBT: the XBT notional of an XBT instrument (USD ÷ price); incomes stay in $.
  await page.locator('label').filter({ hasText: /^XBT$/ }).click();
  await expect(page).toHaveURL(/currency=XBT$/);
  await expect(row(page, lastMonth).getByRole('cell').nth(4)).toHaveText('XBT 4.16666667');

  // BINANCE is listed last; picking it hides the currency filter; nothing was traded there.
  await page.getByRole('main').getByRole('combobox', { name: 'Exchange' }).click();
  await expect(page.getByRole('option')).toHaveText(['BITMEX', 'BINANCE']);
  await page.getByRole('option', { name: 'BINANCE' }).click();
  await expect(page).toHaveURL(/exchange=BINANCE/);
  await expect(page.getByText('Currency', { exact: true })).toHaveCount(0);
  await expect(page.getByText('There are no records to display.')).toBeVisible();

  // The back button goes to the overview, which links the referrer again.
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/admin-panel\/referrals\/overview$/);
  await page.getByRole('link', { name: seeded.referrer.email }).click();
  await expect(page.getByRole('heading', { name: `${TITLE} ${seeded.referrer.id}` })).toBeVisible();
});

test('submitting income validates, toasts the server message and refreshes the row; the dialog resets on open', async ({ page }) => {
  await signInThroughUi(page, E2E_ADMIN);
  await page.goto(`/admin-panel/referrals/user/${seeded.referrer.id}?exchange=BITMEX&network=MAINNET&currency=USD`);
  await row(page, lastMonth).getByRole('button', { name: 'Submit income' }).click();
  const dialog = page.getByRole('dialog', { name: 'Referrer monthly income' });
  await expect(dialog.getByTestId('income-exchange-volume')).toHaveText('$1,234,567');
  await expect(dialog.getByTestId('income-exchange-income')).toHaveText('$4,321.50');
  await expect(dialog.getByTestId('income-referrer-volume')).toHaveText('$250,000');
  // 250,000 / 1,234,567 × 100
  await expect(dialog.getByTestId('income-recommended')).toHaveText('20.25%');
  // The date defaults to the current UTC month.
  await expect(dialog.getByRole('button', { name: 'Date', exact: true })).toHaveText(`${thisMonth.slice(5, 7)}/${thisMonth.slice(0, 4)}`);

  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog.getByText('Please enter income')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Income' }).fill('1234.5');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('alert').filter({ hasText: `Income of $1,234.50 for ${thisMonth.slice(5, 7)}/${thisMonth.slice(0, 4)} saved for ${seeded.referrer.email}` })).toBeVisible();
  await expect(row(page, thisMonth).getByRole('cell').nth(5)).toHaveText('$1,234.50');

  // Opened again: a fresh form.
  await row(page, thisMonth).getByRole('button', { name: 'Submit income' }).click();
  await expect(dialog.getByRole('textbox', { name: 'Income' })).toHaveValue('');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
});

test('a referrer sees their own link and monthly figures under settings/referrals; other users do not', async ({ page }) => {
  await signInThroughUi(page, seeded.referrer);
  await page.goto('/settings/referrals');
  await expect(page).toHaveTitle('Referrals · Crypto Terminal');
  await expect(page.getByTestId('referral-link')).toHaveText(new RegExp(`/register\\?ref=${seeded.referrer.referralCode}$`));
  await expect(page.getByTestId('referred-users')).toHaveText('Referred users: 1');
  await expect(row(page, lastMonth).getByRole('cell')).toHaveText([mmYy(lastMonth), 'BITMEX', '$250,000', '$500.00']);
  await expect(row(page, thisMonth).getByRole('cell').nth(2)).toHaveText('$1,500.5');
  // The admin overview's exchange totals are not shown to referrers.
  await expect(page.getByText('$1,234,567')).toHaveCount(0);
  await page.goto('/admin-panel/referrals/overview');
  await expect(page.getByText('Uh-oh... Page not found.')).toBeVisible();
});
