import { expect, request, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { E2E_ADMIN, E2E_BASE_URL } from './env';

/** localStorage key of the refresh token (SPEC §4). */
export const REFRESH_TOKEN_KEY = 'crypto_terminal';

export interface Credentials {
  email: string;
  password: string;
}

let counter = 0;
/** A unique, never-registered e-mail and a valid password. */
export function freshCredentials(prefix = 'user'): Credentials {
  counter += 1;
  const id = `${Date.now().toString(36)}${counter}${Math.random().toString(36).slice(2, 6)}`;
  return { email: `${prefix}-${id}@e2e.test`, password: `pw-${id}-secret` };
}

/**
 * A JSON client of our API with the XSRF double-submit done the way the SPA does it: a GET hands
 * out the `XSRF-TOKEN` cookie, every mutating call echoes it in `X-XSRF-TOKEN`.
 */
export class ApiClient {
  private accessToken: string | null = null;

  private constructor(private readonly ctx: APIRequestContext) {}

  static async create(): Promise<ApiClient> {
    const ctx = await request.newContext({ baseURL: E2E_BASE_URL });
    const client = new ApiClient(ctx);
    expect((await ctx.get('/v1/config')).ok()).toBe(true);
    return client;
  }

  /** An API client signed in as the e2e admin (tests/e2e/env.ts). */
  static async admin(): Promise<ApiClient> {
    const client = await ApiClient.create();
    await client.signin(E2E_ADMIN);
    return client;
  }

  private async xsrf(): Promise<string> {
    const { cookies } = await this.ctx.storageState();
    const cookie = cookies.find((c) => c.name === 'XSRF-TOKEN');
    if (!cookie) throw new Error('No XSRF-TOKEN cookie: the server did not hand one out on GET /v1/config');
    return decodeURIComponent(cookie.value);
  }

  private headers(): Record<string, string> {
    return this.accessToken ? { Authorization: `Bearer ${this.accessToken}` } : {};
  }

  async get<T>(path: string, headers: Record<string, string> = {}): Promise<T> {
    const res = await this.ctx.get(path, { headers: { ...this.headers(), ...headers } });
    if (!res.ok()) throw new Error(`GET ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, data?: unknown, headers: Record<string, string> = {}): Promise<T> {
    const res = await this.ctx.fetch(path, {
      method,
      headers: { ...this.headers(), 'X-XSRF-TOKEN': await this.xsrf(), ...headers },
      ...(data === undefined ? {} : { data }),
    });
    if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (res.status() === 204 ? undefined : await res.json()) as T;
  }

  async signin(creds: Credentials): Promise<{ accessToken: string; refreshToken: string }> {
    const tokens = await this.send<{ accessToken: string; refreshToken: string }>('POST', '/v1/auth/signin', creds);
    this.accessToken = tokens.accessToken;
    return tokens;
  }

  async signup(creds: Credentials & { referralCode?: string }): Promise<{ accessToken: string; refreshToken: string }> {
    const tokens = await this.send<{ accessToken: string; refreshToken: string }>('POST', '/v1/auth/signup', creds);
    this.accessToken = tokens.accessToken;
    return tokens;
  }

  me(): Promise<{ id: string; email: string; role: string; referralCode: string; referrerId: string | null }> {
    return this.get('/v1/users/me');
  }

  /** Sets a flag (admin) and returns its previous value, for restoring it afterwards. */
  async setFlag(name: string, enabled: boolean): Promise<boolean> {
    const flags = await this.get<{ id: string; name: string; enabled: boolean }[]>('/v1/feature-flags');
    const flag = flags.find((f) => f.name === name);
    if (!flag) throw new Error(`No feature flag ${name}`);
    if (flag.enabled !== enabled) await this.send('PUT', `/v1/feature-flags/${flag.id}`, { ...flag, enabled });
    return flag.enabled;
  }

  async getMaintenance(): Promise<string | null> {
    return (await this.get<{ message: string | null }>('/v1/maintenance')).message;
  }

  /** Posts the maintenance message (admin; '' clears it). */
  async setMaintenance(message: string): Promise<void> {
    await this.send('POST', '/v1/maintenance', { message });
  }

  dispose(): Promise<void> {
    return this.ctx.dispose();
  }
}

/**
 * Runs `body` with feature flags set as given and restores their previous values afterwards, so
 * other specs see the server as it was.
 */
export async function withFlags<T>(admin: ApiClient, flags: Record<string, boolean>, body: () => Promise<T>): Promise<T> {
  const previous: Record<string, boolean> = {};
  try {
    for (const [name, enabled] of Object.entries(flags)) previous[name] = await admin.setFlag(name, enabled);
    return await body();
  } finally {
    for (const [name, enabled] of Object.entries(previous)) await admin.setFlag(name, enabled);
  }
}

/** Registers a new user through the API (needs FF_ENABLE_REGISTRATION on) and returns its credentials. */
export async function signUpFreshUser(prefix = 'user', extra: { referralCode?: string } = {}): Promise<Credentials> {
  const creds = freshCredentials(prefix);
  const api = await ApiClient.create();
  try {
    await api.signup({ ...creds, ...extra });
  } finally {
    await api.dispose();
  }
  return creds;
}

/** Signs in through the login form and waits for the workstation route. */
export async function signInThroughUi(page: Page, creds: Credentials): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(creds.email);
  await page.getByLabel('Password', { exact: true }).fill(creds.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/trade$/);
}

/** Opens the user menu and clicks Log out; waits for /login. */
export async function signOutThroughUi(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A key/secret (and OKX passphrase) the simulator accepts: `POST /v1/api-keys/sim-credentials` (sim mode only). */
export async function simApiCredentials(
  api: ApiClient,
  exchange: 'binance' | 'bybit' | 'bitmex' | 'okx',
  extra: { label?: string; withdraw?: boolean } = {},
): Promise<{ apiKey: string; apiSecret: string; passphrase?: string }> {
  return api.send('POST', '/v1/api-keys/sim-credentials', { exchange, ...extra });
}

/** Every value the page keeps in localStorage, for checking what is (or is not) remembered on the device. */
export async function localStorageValues(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(localStorage).map((k) => localStorage.getItem(k) ?? ''));
}

/** An account created through the API while registration is briefly opened (restored afterwards). */
export async function createAccount(admin: ApiClient, prefix = 'user', extra: { referralCode?: string } = {}): Promise<Credentials & { id: string; referralCode: string }> {
  const creds = freshCredentials(prefix);
  const api = await ApiClient.create();
  try {
    await withFlags(admin, { FF_ENABLE_REGISTRATION: true }, () => api.signup({ ...creds, ...extra }));
    const me = await api.me();
    return { ...creds, id: me.id, referralCode: me.referralCode };
  } finally {
    await api.dispose();
  }
}

/** The first day of the month `offset` months from the current UTC month, as `YYYY-MM`. */
export function utcMonth(offset = 0, now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
  return d.toISOString().slice(0, 7);
}

export interface SeededReferrer {
  referrer: Credentials & { id: string; referralCode: string };
  referred: Credentials & { id: string };
}

/**
 * A referrer (role referrer) with one referred user whose BitMEX MAINNET fills are recorded through
 * the admin import: `volumes` maps `YYYY-MM` to the month's USD notional (one fill each).
 */
export async function seedReferrer(admin: ApiClient, volumes: Record<string, number>): Promise<SeededReferrer> {
  const referrer = await createAccount(admin, 'referrer');
  await admin.send('PATCH', `/v1/users/${referrer.id}`, { role: 'referrer' });
  const referred = await createAccount(admin, 'referred', { referralCode: referrer.referralCode });
  const fills = Object.entries(volumes).map(([month, notionalUsd], i) => ({
    externalId: `e2e-${referred.id}-${i}`,
    userId: referred.id,
    exchange: 'bitmex',
    network: 'MAINNET',
    symbol: 'XBTUSD',
    side: 'BUY',
    qty: notionalUsd,
    price: 60_000,
    notionalUsd,
    time: `${month}-02T12:00:00Z`,
  }));
  await admin.send('POST', '/v1/fills/import', { fills });
  return { referrer, referred };
}

/**
 * The screen y of `price` on the chart: the crosshair reports the price under the pointer, so a
 * binary search over the pane's height finds it (prices fall as y grows).
 */
/**
 * The price the crosshair shows at page height `y` over the chart body: what the chart's price axis
 * covers there (the visible range moves with the simulated market, so tests pick prices inside it).
 */
export async function priceAtY(page: Page, body: Locator, x: number, y: number): Promise<number> {
  const box = (await body.boundingBox())!;
  await page.mouse.move(x, box.y - 8);
  await expect(body).not.toHaveAttribute('data-crosshair-price');
  await page.mouse.move(x, y);
  await expect(body).toHaveAttribute('data-crosshair-price', /\d/);
  return Number(await body.getAttribute('data-crosshair-price'));
}

/**
 * The side of the market price with more of the chart's visible price range, and the price near that
 * edge (12 % from the top, or 70 % down): lines a test puts between the market and it are on screen
 * and apart from the market price, wherever the simulated market stands in the range.
 */
export async function roomAround(page: Page, body: Locator, x: number, live: number): Promise<{ dir: 1 | -1; edge: number }> {
  const box = (await body.boundingBox())!;
  const high = await priceAtY(page, body, x, box.y + box.height * 0.12);
  const low = await priceAtY(page, body, x, box.y + box.height * 0.7);
  return high - live >= live - low ? { dir: 1, edge: high } : { dir: -1, edge: low };
}

export async function yForPrice(page: Page, body: Locator, price: number, x: number): Promise<number> {
  const box = (await body.boundingBox())!;
  // The plot is the pane less the time axis (26 px, engine's TIME_AXIS_HEIGHT): a stop can sit on its last pixels.
  const [lo, hi] = [box.y + 20, box.y + box.height - 28];
  let top = lo;
  let bottom = hi;
  for (let i = 0; i < 14 && bottom - top > 0.5; i++) {
    const mid = (top + bottom) / 2;
    // Chromium delivers pointer moves with the next animation frame: leave the pane first (the
    // attribute goes), so the value read is the one for this position, not the previous one.
    await page.mouse.move(x, box.y - 8);
    await expect(body).not.toHaveAttribute('data-crosshair-price');
    await page.mouse.move(x, mid);
    await expect(body).toHaveAttribute('data-crosshair-price', /\d/);
    const at = Number(await body.getAttribute('data-crosshair-price'));
    if (at > price) top = mid;
    else bottom = mid;
  }
  const y = (top + bottom) / 2;
  if (y < lo + 1 || y > hi - 1) throw new Error(`yForPrice: ${price} is outside the visible price range of the chart`);
  return y;
}
