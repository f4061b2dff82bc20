import { expect, test, type Page } from '@playwright/test';
import { ApiClient, localStorageValues, signInThroughUi, signUpFreshUser, type Credentials } from './helpers';

const PRODUCT = 'Crypto Terminal';
const KEY_PASSWORD = 'my-key-password-1';

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

const form = (page: Page) => page.getByRole('form', { name: 'New API key' });

async function choose(page: Page, label: string, option: string) {
  await form(page).getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Fills the add-key form with a generated simulator key; answers what was generated. */
async function fillWithSimKey(page: Page, opts: { name: string; exchange: string; network: 'Mainnet' | 'Testnet'; withdraw?: boolean; remember?: boolean }) {
  await expect(page).toHaveURL(/\/settings\/api-keys\/add-new$/);
  await form(page).getByLabel('Name').fill(opts.name);
  await choose(page, 'Exchange', opts.exchange);
  await choose(page, 'Network', opts.network);
  if (opts.withdraw) await form(page).getByLabel('with withdrawal permission').check();
  await form(page).getByRole('button', { name: 'Generate simulator key' }).click();
  await expect(form(page).getByLabel('API key')).toHaveValue(/^sim-/);
  const apiKey = await form(page).getByLabel('API key').inputValue();
  const apiSecret = await form(page).getByLabel('API secret').inputValue();
  expect(apiSecret).toMatch(/^[0-9a-f]{64}$/);
  await form(page).getByLabel('Key password', { exact: true }).fill(KEY_PASSWORD);
  await form(page).getByLabel('Repeat key password').fill(KEY_PASSWORD);
  if (opts.remember) await form(page).getByLabel('Remember password on this device').check();
  return { apiKey, apiSecret };
}

test.describe('settings: exchange API keys', () => {
  let user: Credentials;
  test.beforeEach(async ({ page }) => {
    user = await signUpFreshUser('keys');
    await signInThroughUi(page, user);
  });

  test('a user adds a simulator key and sees it listed, masked, without its secret', async ({ page }) => {
    await page.goto('/settings/api-keys');
    await expect(page).toHaveTitle(`API keys · ${PRODUCT}`);
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await page.getByRole('link', { name: 'Add API key' }).click();
    await expect(page).toHaveTitle(`Add API key · ${PRODUCT}`);

    const { apiKey, apiSecret } = await fillWithSimKey(page, { name: 'Bybit testnet', exchange: 'bybit', network: 'Testnet', remember: true });
    const listed = page.waitForResponse((r) => r.url().endsWith('/v1/api-keys') && r.request().method() === 'GET');
    await form(page).getByRole('button', { name: 'Add API key' }).click();

    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    await expect(page.getByText('API key “Bybit testnet” added')).toBeVisible();
    const row = page.getByRole('row', { name: /Bybit testnet/ });
    await expect(row).toContainText('bybit');
    await expect(row).toContainText('Testnet');
    await expect(row).toContainText(`sim-…${apiKey.slice(-4)}`);
    await expect(row).toContainText('Trade');
    await expect(row.getByText('Withdraw')).toHaveCount(0);

    // Neither the page nor the API answer carries the key or the secret.
    const body = await (await listed).text();
    expect(body).not.toContain(apiSecret);
    expect(body).not.toContain(apiKey);
    const html = await page.content();
    expect(html).not.toContain(apiSecret);
    expect(html).not.toContain(apiKey);

    // "Remember password on this device" kept the key password in this browser's user settings.
    await expect.poll(async () => (await localStorageValues(page)).some((v) => v.includes(KEY_PASSWORD))).toBe(true);
  });

  test('a key with withdrawal permission is flagged as a risk', async ({ page }) => {
    await page.goto('/settings/api-keys/add-new');
    await fillWithSimKey(page, { name: 'Risky', exchange: 'binance', network: 'Mainnet', withdraw: true });
    await form(page).getByRole('button', { name: 'Add API key' }).click();
    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    const row = page.getByRole('row', { name: /Risky/ });
    await expect(row.getByText('Withdraw')).toBeVisible();
    await row.getByRole('link', { name: 'Risky', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Withdrawal permission enabled' })).toBeVisible();
  });

  test('a key the exchange refuses is not added: the exchange’s message shows on the secret', async ({ page }) => {
    await page.goto('/settings/api-keys/add-new');
    await fillWithSimKey(page, { name: 'Typo', exchange: 'okx', network: 'Mainnet' });
    await expect(form(page).getByLabel('Passphrase')).toHaveValue(/^[0-9a-f]{16}$/);
    await form(page).getByLabel('API secret').fill('0'.repeat(64));
    await form(page).getByRole('button', { name: 'Add API key' }).click();
    await expect(form(page).getByText('Invalid signature.', { exact: true })).toBeVisible();
    await expect(page.getByText('okx rejected the key: Invalid signature. (50113)')).toBeVisible();
    await expect(page).toHaveURL(/\/add-new$/);
    await page.goto('/settings/api-keys');
    await expect(page.getByText('No API keys yet')).toBeVisible();
  });

  test('a key is renamed, checked with its key password (a wrong one is refused) and deleted after confirmation', async ({ page }) => {
    await page.goto('/settings/api-keys/add-new');
    await fillWithSimKey(page, { name: 'BitMEX main', exchange: 'BitMEX', network: 'Mainnet' });
    await form(page).getByRole('button', { name: 'Add API key' }).click();
    await page.getByRole('row', { name: /BitMEX main/ }).getByRole('link', { name: 'BitMEX main', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'BitMEX main' })).toBeVisible();
    await expect(page).toHaveTitle(`BitMEX main · ${PRODUCT}`);

    const rename = page.getByRole('form', { name: 'Rename API key' });
    await rename.getByLabel('Name').fill('BitMEX prop');
    await rename.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByRole('heading', { name: 'BitMEX prop' })).toBeVisible();

    await page.getByRole('button', { name: 'Check with exchange' }).click();
    const prompt = page.getByRole('form', { name: 'Enter key password' });
    await prompt.getByLabel('Key password').fill('not-the-password');
    await prompt.getByRole('button', { name: 'Check with exchange' }).click();
    await expect(prompt.getByText('Wrong key password')).toBeVisible();
    await prompt.getByLabel('Key password').fill(KEY_PASSWORD);
    await prompt.getByRole('button', { name: 'Check with exchange' }).click();
    await expect(page.getByText('The exchange accepted “BitMEX prop”')).toBeVisible();

    await page.getByRole('button', { name: 'Delete key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete API key' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('heading', { name: 'BitMEX prop' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete key' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    await expect(page.getByText('No API keys yet')).toBeVisible();
  });
});
