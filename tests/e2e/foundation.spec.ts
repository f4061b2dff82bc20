import { expect, test, type Page } from '@playwright/test';
import {
  ApiClient,
  REFRESH_TOKEN_KEY,
  freshCredentials,
  signInThroughUi,
  signOutThroughUi,
  signUpFreshUser,
  withFlags,
  type Credentials,
} from './helpers';
import { E2E_ADMIN } from './env';

const PRODUCT = 'Crypto Terminal';
const title = (page: string) => `${page} · ${PRODUCT}`;

let admin: ApiClient;
let registrationWas: boolean;

// Most tests need fresh users: open registration for this file and put it back afterwards.
test.beforeAll(async () => {
  admin = await ApiClient.admin();
  registrationWas = await admin.setFlag('FF_ENABLE_REGISTRATION', true);
});

test.afterAll(async () => {
  await admin.setFlag('FF_ENABLE_REGISTRATION', registrationWas);
  await admin.dispose();
});

const refreshTokenIn = (page: Page) => page.evaluate((key) => localStorage.getItem(key), REFRESH_TOKEN_KEY);

test.describe('signed out', () => {
  for (const path of ['/', '/trade', '/settings', '/settings/account', '/admin-panel', '/admin-panel/users']) {
    test(`${path} redirects to /login`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
      await expect(page).toHaveTitle(title('Log in'));
    });
  }

  test('an unknown path shows the not-found screen with a link to the main page', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('Uh-oh... Page not found.')).toBeVisible();
    await page.getByRole('link', { name: 'Main page' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('the top bar shows the product, the bug link, the simulated-market badge, and a Log in link off /login', async ({ page }) => {
    await page.goto('/register');
    const header = page.locator('header');
    await expect(header.getByText(PRODUCT)).toBeVisible();
    await expect(header.getByRole('link', { name: 'Report a Bug?' })).toHaveAttribute('target', '_blank');
    await expect(header.getByText('Simulated market', { exact: true })).toBeVisible();
    await expect(header.getByRole('link', { name: 'Log in' })).toBeVisible();
    await expect(header.getByRole('button', { name: 'User menu' })).toHaveCount(0);
    await header.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(header.getByRole('link', { name: 'Log in' })).toHaveCount(0);
  });

  test('forgot-password exists only while FF_ENABLE_FORGOT_PASSWORD is on and never tells whether the email exists', async ({ page }) => {
    await withFlags(admin, { FF_ENABLE_FORGOT_PASSWORD: false }, async () => {
      await page.goto('/forgot-password');
      await expect(page.getByText('Uh-oh... Page not found.')).toBeVisible();
    });
    await withFlags(admin, { FF_ENABLE_FORGOT_PASSWORD: true }, async () => {
      await page.goto('/login');
      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await expect(page).toHaveTitle(title('Forgot password'));
      await page.getByLabel('Email').fill(`nobody-${Date.now()}@e2e.test`);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      const unknownText = await page.getByRole('alert').filter({ hasText: 'If an account exists' }).innerText();
      await page.goto('/forgot-password');
      await page.getByLabel('Email').fill(E2E_ADMIN.email);
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await expect(page.getByRole('alert').filter({ hasText: 'If an account exists' })).toHaveText(unknownText);
    });
  });

  test('change-password without a token explains the link is incomplete', async ({ page }) => {
    await page.goto('/change-password');
    await expect(page).toHaveTitle(title('Change password'));
    await expect(page.getByText('This link has no reset token.')).toBeVisible();
  });
});

test.describe('accounts', () => {
  test('sign up, sign out, sign in; auth pages redirect to /trade while signed in; tab titles', async ({ page }) => {
    const creds = freshCredentials('signup');
    await page.goto('/register');
    await expect(page).toHaveTitle(title('Register'));
    await page.getByLabel('Email').fill(creds.email);
    await page.getByLabel('Password', { exact: true }).fill(creds.password);
    await page.getByLabel('Repeat password').fill(creds.password);
    await page.getByRole('button', { name: 'Register' }).click();

    await expect(page).toHaveURL(/\/trade$/);
    await expect(page).toHaveTitle(title('Trade'));
    expect(await refreshTokenIn(page)).toBeTruthy();
    for (const path of ['/login', '/register', '/change-password', '/']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/trade$/);
    }

    // A reload restores the session from the stored refresh token.
    await page.reload();
    await expect(page.getByRole('button', { name: 'User menu' })).toHaveText(creds.email);

    await signOutThroughUi(page);
    expect(await refreshTokenIn(page)).toBeNull();
    await page.goto('/trade');
    await expect(page).toHaveURL(/\/login$/);

    await signInThroughUi(page, creds);
    await expect(page.getByRole('button', { name: 'User menu' })).toHaveText(creds.email);
  });

  test('a wrong password toasts the server message and keeps what was typed', async ({ page }) => {
    const creds = await signUpFreshUser('wrongpw');
    await page.goto('/login');
    await page.getByLabel('Email').fill(creds.email);
    await page.getByLabel('Password', { exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /password/i })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Email')).toHaveValue(creds.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('not-the-password');
  });

  test('register passes ?ref= to sign-up, which records the referrer', async ({ page }) => {
    const referrer = await signUpFreshUser('referrer');
    const referrerApi = await ApiClient.create();
    await referrerApi.signin(referrer);
    const { id: referrerId, referralCode } = await referrerApi.me();
    await referrerApi.dispose();

    const creds = freshCredentials('referred');
    await page.goto(`/register?ref=${referralCode}`);
    await expect(page.getByText(`You were referred with code ${referralCode}.`)).toBeVisible();
    await page.getByLabel('Email').fill(creds.email);
    await page.getByLabel('Password', { exact: true }).fill(creds.password);
    await page.getByLabel('Repeat password').fill(creds.password);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page).toHaveURL(/\/trade$/);

    const referred = await ApiClient.create();
    await referred.signin(creds);
    expect((await referred.me()).referrerId).toBe(referrerId);
    await referred.dispose();
  });

  test('with registration closed, sign-up asks for an invitation and shows the server refusal', async ({ page }) => {
    await withFlags(admin, { FF_ENABLE_REGISTRATION: false }, async () => {
      const creds = freshCredentials('closed');
      await page.goto('/register?invite=NOT-A-REAL-CODE');
      await expect(page.getByLabel('Invitation code')).toHaveValue('NOT-A-REAL-CODE');
      await page.getByLabel('Email').fill(creds.email);
      await page.getByLabel('Password', { exact: true }).fill(creds.password);
      await page.getByLabel('Repeat password').fill(creds.password);
      await page.getByRole('button', { name: 'Register' }).click();
      await expect(page.getByRole('alert').filter({ hasText: /invitation/i })).toBeVisible();
      await expect(page).toHaveURL(/\/register/);
      await expect(page.getByLabel('Email')).toHaveValue(creds.email);
    });
  });

  test('the account page shows the email and changes the password', async ({ page }) => {
    const creds = await signUpFreshUser('account');
    await signInThroughUi(page, creds);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings\/account$/);
    await expect(page).toHaveTitle(title('Account'));
    await expect(page.getByTestId('account-email')).toHaveText(creds.email);

    const newPassword = `${creds.password}-changed`;
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat new password').fill(newPassword);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password changed successfully')).toBeVisible();

    await signOutThroughUi(page);
    await signInThroughUi(page, { email: creds.email, password: newPassword });
  });

  test('settings subpages exist; referrals is for admins and referrers only', async ({ page }) => {
    const creds = await signUpFreshUser('settings');
    await signInThroughUi(page, creds);
    await page.goto('/settings');
    await expect(page).toHaveURL(/\/settings\/account$/);
    for (const [path, heading] of [
      ['/settings/api-keys', 'API keys'],
      ['/settings/api-keys/add-new', 'Add API key'],
      ['/settings/api-keys/123', 'API key'],
      ['/settings/preferences', 'Preferences'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
      await expect(page).toHaveTitle(title(heading));
    }
    await page.goto('/settings/referrals');
    await expect(page.getByText('Uh-oh... Page not found.')).toBeVisible();
  });

  test('risk and stop-loss quick picks are edited in preferences and kept on the server', async ({ page }) => {
    const creds = await signUpFreshUser('picks');
    await signInThroughUi(page, creds);
    await page.goto('/settings/preferences');
    const risk = page.getByRole('group', { name: 'Risk options' });
    const stop = page.getByRole('group', { name: 'Stop-loss options' });
    const saved = () => page.waitForResponse((r) => r.url().endsWith('/v1/users/settings') && r.request().method() === 'PATCH' && r.ok());
    await expect(risk.getByText('1.5 %')).toBeVisible();
    await risk.getByRole('textbox', { name: 'New risk options value' }).fill('0.75');
    let save = saved();
    await risk.getByRole('button', { name: 'Add to risk options' }).click();
    await expect(risk.getByText('0.75 %')).toBeVisible();
    await save;
    save = saved();
    await stop.getByRole('button', { name: 'Remove 3 %' }).click();
    await expect(stop.getByText('3 %', { exact: true })).toHaveCount(0);
    await save;
    // Kept on the server, not only in this page: a reload reads them back.
    await page.reload();
    await expect(risk.getByText('0.75 %')).toBeVisible();
    await expect(risk.getByText('1.5 %')).toBeVisible();
    await expect(stop.getByText('2 %', { exact: true })).toBeVisible();
    await expect(stop.getByText('3 %', { exact: true })).toHaveCount(0);
  });
});

test.describe('roles', () => {
  test('an admin sees the Admin panel and its routes; a user does not', async ({ page }) => {
    const user: Credentials = await signUpFreshUser('plain');
    await signInThroughUi(page, user);
    await page.getByRole('button', { name: 'User menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Admin panel' })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await page.goto('/admin-panel/users');
    await expect(page.getByText('Uh-oh... Page not found.')).toBeVisible();
    await signOutThroughUi(page);

    await signInThroughUi(page, E2E_ADMIN);
    await page.getByRole('button', { name: 'User menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin panel' }).click();
    await expect(page).toHaveURL(/\/admin-panel\/users$/);
    await expect(page).toHaveTitle(title('Users'));
    for (const [path, heading] of [
      ['/admin-panel/users-funded/trade-settings/u-42', 'Trade settings'],
      ['/admin-panel/users-funded/api-keys-settings/u-42/k-7/transactions', 'Transactions'],
      ['/admin-panel/feature-flags/add-new', 'Add feature flag'],
      ['/admin-panel/referrals/user/u-42', 'Referrer Volume & Income Overview u-42'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, exact: true })).toBeVisible();
    }
    await page.goto('/admin-panel/referrals');
    await expect(page).toHaveURL(/\/admin-panel\/referrals\/overview$/);
    await page.goto('/settings/referrals');
    await expect(page.getByRole('heading', { name: 'Referrals', exact: true })).toBeVisible();
  });
});

test.describe('flags and maintenance', () => {
  test('FF_ENABLE_BITMEX shows and hides BitMEX in the exchange picker', async ({ page }) => {
    const creds = await signUpFreshUser('picker');
    await withFlags(admin, { FF_ENABLE_BITMEX: true }, async () => {
      await signInThroughUi(page, creds);
      await page.getByRole('banner').getByRole('combobox', { name: 'Exchange' }).click();
      await expect(page.getByRole('option', { name: 'binance' })).toBeVisible();
      await expect(page.getByRole('option', { name: 'BitMEX' })).toBeVisible();
      await page.getByRole('option', { name: 'BitMEX' }).click();
      await expect(page.getByRole('banner').getByRole('combobox', { name: 'Exchange' })).toHaveValue('BitMEX');
    });
    await page.reload();
    // BitMEX was selected; now that it is off the picker falls back to binance and no longer offers it.
    await expect(page.getByRole('banner').getByRole('combobox', { name: 'Exchange' })).toHaveValue('binance');
    await page.getByRole('banner').getByRole('combobox', { name: 'Exchange' }).click();
    await expect(page.getByRole('option', { name: 'binance' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'BitMEX' })).toHaveCount(0);
  });

  test('the maintenance banner appears after an admin posts a message, and goes when it is cleared', async ({ page }) => {
    const previous = (await admin.getMaintenance()) ?? '';
    const message = `Scheduled maintenance at ${Date.now()}`;
    const creds = await signUpFreshUser('banner');
    try {
      await withFlags(admin, { FF_MAINTENANCE_BANNER: true }, async () => {
        await admin.setMaintenance('');
        await signInThroughUi(page, creds);
        await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
        await admin.setMaintenance(message);
        // No reload: the banner polls the message (every 20 s).
        await expect(page.getByTestId('maintenance-banner')).toHaveText(message, { timeout: 30_000 });
        await admin.setMaintenance('');
        await page.reload();
        await expect(page.getByRole('button', { name: 'User menu' })).toBeVisible();
        await expect(page.getByTestId('maintenance-banner')).toHaveCount(0);
      });
    } finally {
      await admin.setMaintenance(previous);
    }
  });
});
