import { expect, test } from '@playwright/test';
import { E2E_ADMIN } from './env';
import { ApiClient, createAccount, freshCredentials, signInThroughUi, signOutThroughUi, withFlags } from './helpers';

let admin: ApiClient;

test.beforeAll(async () => {
  admin = await ApiClient.admin();
});

test.afterAll(async () => {
  await admin.dispose();
});

test('an admin generates an invitation and a new user registers with it while registration is off', async ({ page }) => {
  await withFlags(admin, { FF_ENABLE_REGISTRATION: false }, async () => {
    await signInThroughUi(page, E2E_ADMIN);
    await page.goto('/admin-panel/invitations');
    await expect(page).toHaveTitle('Invitations · Crypto Terminal');
    await page.getByRole('link', { name: 'Generate invitations' }).click();
    await expect(page).toHaveURL(/\/admin-panel\/invitations\/generate$/);
    await page.getByRole('textbox', { name: 'Number of codes' }).fill('');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    await expect(page.getByText('Enter how many codes')).toBeVisible();
    await page.getByRole('textbox', { name: 'Number of codes' }).fill('1');
    await page.getByRole('button', { name: 'Generate', exact: true }).click();
    const code = (await page.getByTestId('generated-code').innerText()).trim();
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    await expect(page.getByRole('alert').filter({ hasText: '1 invitation generated' })).toBeVisible();
    await signOutThroughUi(page);

    const creds = freshCredentials('invited');
    await page.goto(`/register?invite=${code}`);
    await expect(page.getByRole('textbox', { name: 'Invitation code' })).toHaveValue(code);
    await page.getByLabel('Email').fill(creds.email);
    await page.getByLabel('Password', { exact: true }).fill(creds.password);
    await page.getByLabel('Repeat password').fill(creds.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/trade$/);
    await signOutThroughUi(page);

    // The list shows the code as used, by that account; a second sign-up with it is refused.
    await signInThroughUi(page, E2E_ADMIN);
    await page.goto('/admin-panel/invitations');
    const invitation = page.getByRole('row').filter({ hasText: code });
    await expect(invitation).toContainText('used');
    await expect(invitation).toContainText(creds.email);
    const again = freshCredentials('again');
    const api = await ApiClient.create();
    await expect(api.send('POST', '/v1/auth/signup', { ...again, inviteCode: code })).rejects.toThrow(/403/);
    await api.dispose();
  });
});

test('an admin revokes an invitation after confirming', async ({ page }) => {
  const [invitation] = (await admin.send<{ data: { id: string; code: string }[] }>('POST', '/v1/invitations', { count: 1 })).data;
  await signInThroughUi(page, E2E_ADMIN);
  await page.goto('/admin-panel/invitations');
  const row = page.getByRole('row').filter({ hasText: invitation.code });
  await row.getByRole('button', { name: 'Revoke' }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke invitation' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(row).toContainText('unused');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('revoked');
  await expect(row.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
});

test("an admin toggles a flag and the users' UI follows", async ({ browser, page }) => {
  const user = await createAccount(admin, 'flags');
  const previousMessage = await admin.getMaintenance();
  await withFlags(admin, { FF_MAINTENANCE_BANNER: true }, async () => {
    try {
      await admin.setMaintenance('Scheduled maintenance tonight at 22:00 UTC');
      const userContext = await browser.newContext();
      const userPage = await userContext.newPage();
      await signInThroughUi(userPage, user);
      await expect(userPage.getByTestId('maintenance-banner')).toHaveText('Scheduled maintenance tonight at 22:00 UTC');

      await signInThroughUi(page, E2E_ADMIN);
      await page.goto('/admin-panel/feature-flags');
      await expect(page.getByTestId('maintenance-banner')).toBeVisible();
      const toggle = page.getByRole('switch', { name: 'FF_MAINTENANCE_BANNER' });
      await expect(toggle).toBeChecked();
      await toggle.click({ force: true });
      await expect(page.getByRole('alert').filter({ hasText: 'FF_MAINTENANCE_BANNER disabled' })).toBeVisible();
      // The admin's own app refreshed its flag map at once; the user sees it on their next load.
      await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
      await expect(toggle).not.toBeChecked();
      await userPage.reload();
      await expect(userPage.getByRole('button', { name: 'User menu' })).toBeVisible();
      await expect(userPage.getByTestId('maintenance-banner')).toHaveCount(0);
      await userContext.close();
    } finally {
      await admin.setMaintenance(previousMessage ?? '');
    }
  });
});

test('an admin adds and deletes a custom feature flag', async ({ page }) => {
  const name = `FF_E2E_${Date.now().toString(36).toUpperCase()}`;
  await signInThroughUi(page, E2E_ADMIN);
  await page.goto('/admin-panel/feature-flags/add-new');
  await expect(page).toHaveTitle('Add feature flag · Crypto Terminal');
  await page.getByRole('textbox', { name: 'Name' }).fill('bad name');
  await page.getByRole('button', { name: 'Create flag' }).click();
  await expect(page.getByText('Use upper-case letters, digits and underscores, e.g. FF_MY_FEATURE')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await page.getByRole('button', { name: 'Create flag' }).click();
  await expect(page).toHaveURL(/\/admin-panel\/feature-flags$/);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('custom');
  await row.getByRole('button', { name: `Delete ${name}` }).click();
  await page.getByRole('dialog', { name: 'Delete feature flag' }).getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
  const flags = await admin.get<{ name: string }[]>('/v1/feature-flags');
  expect(flags.map((f) => f.name)).not.toContain(name);
});

test('an admin sets and clears the maintenance message', async ({ page }) => {
  const previous = await admin.getMaintenance();
  try {
    await signInThroughUi(page, E2E_ADMIN);
    await page.goto('/admin-panel/maintenance');
    await page.getByRole('textbox', { name: 'Message' }).fill('Exchange upgrade in progress');
    await page.getByRole('button', { name: 'Save message' }).click();
    await expect(page.getByTestId('current-maintenance-message')).toHaveText('Exchange upgrade in progress');
    await expect(page.getByTestId('maintenance-banner')).toHaveText('Exchange upgrade in progress');
    await page.getByRole('button', { name: 'Clear message' }).click();
    await page.getByRole('dialog', { name: 'Clear maintenance message' }).getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByTestId('current-maintenance-message')).toHaveText('No message: the banner is hidden.');
    expect(await admin.getMaintenance()).toBeNull();
  } finally {
    await admin.setMaintenance(previous ?? '');
  }
});

test('an admin finds a user, changes the role and resets the password to a temporary one', async ({ page }) => {
  const user = await createAccount(admin, 'managed');
  await signInThroughUi(page, E2E_ADMIN);
  await page.goto('/admin-panel/users');
  await expect(page).toHaveTitle('Users · Crypto Terminal');
  await page.getByRole('textbox', { name: 'Search' }).fill(user.email);
  const row = page.getByRole('row').filter({ hasText: user.email });
  await expect(page.getByRole('row')).toHaveCount(2);

  await row.getByRole('combobox', { name: `Role of ${user.email}` }).click();
  await page.getByRole('option', { name: 'referrer' }).click();
  await page.getByRole('dialog', { name: 'Change role' }).getByRole('button', { name: 'Change role' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `${user.email} is now referrer` })).toBeVisible();
  expect((await admin.get<{ role: string }>(`/v1/users/${user.id}`)).role).toBe('referrer');

  await row.getByRole('button', { name: 'Reset password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset password' });
  await dialog.getByLabel('Set a temporary password now (signs the user out everywhere)').check();
  await dialog.getByRole('button', { name: 'Reset password' }).click();
  const temporary = (await dialog.getByTestId('temporary-password').innerText()).trim();
  expect(temporary).toMatch(/^[A-Z2-9]{16}$/);
  await dialog.getByRole('button', { name: 'Done' }).click();

  const api = await ApiClient.create();
  await expect(api.signin(user)).rejects.toThrow(/401/);
  await api.signin({ email: user.email, password: temporary });
  await api.dispose();
});

test('an admin imports fills and sees volume per user and month with totals; filters follow FF_TRADING_VOLUME_FILTERS', async ({ page }) => {
  const trader = await createAccount(admin, 'trader');
  const csv = [
    'externalId,email,exchange,network,symbol,side,qty,price,feeUsd,time',
    `tv-${trader.id}-1,${trader.email},binance,MAINNET,BTCUSDT,BUY,0.5,40000,8,2025-03-05T10:00:00Z`,
    `tv-${trader.id}-2,${trader.email},binance,MAINNET,BTCUSDT,SELL,0.25,40000,4,2025-03-06T10:00:00Z`,
  ].join('\n');
  await withFlags(admin, { FF_TRADING_VOLUME_FILTERS: true }, async () => {
    await signInThroughUi(page, E2E_ADMIN);
    await page.goto('/admin-panel/trading-volume');
    await page.getByRole('button', { name: 'Import fills' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import fills' });
    await dialog.getByRole('textbox', { name: 'CSV' }).fill(csv);
    await dialog.getByRole('button', { name: 'Import 2 fills' }).click();
    await expect(page.getByRole('alert').filter({ hasText: '2 fills imported' })).toBeVisible();

    await page.getByRole('combobox', { name: 'User' }).fill(trader.email);
    await page.getByRole('option', { name: trader.email }).click();
    await expect(page.getByTestId('total-volume')).toHaveText('$30,000');
    await expect(page.getByTestId('total-fills')).toHaveText('2');
    await expect(page.getByTestId('total-fees')).toHaveText('$12');
    const row = page.getByRole('row').filter({ hasText: trader.email });
    await expect(row.getByRole('cell')).toHaveText(['03/25', trader.email, 'binance', 'MAINNET', '2', '$30,000', '$12']);
  });
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'User' })).toHaveCount(0);
});
