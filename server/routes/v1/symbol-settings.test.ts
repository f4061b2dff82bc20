/**
 * `GET /v1/trade/{apiKeyId}/symbol-settings` (issue 22) against the paper exchange in-process, on
 * PGlite and PostgreSQL: a symbol's leverage and margin mode as each exchange holds them, with no
 * position — the venue's default first, then what `PUT leverage` / `PUT margin-mode` changed, read
 * back from the exchange (per account: another key still reads the default) — and with a position
 * (the same as the position's). Refusals as on the other trade routes; the admin twin for a funded user.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { symbolSettingsSchema, type Position, type SymbolSettings } from '../../../src/api/contracts/trading';
import { BITMEX_DEFAULT_LEVERAGE } from '../../sim/paper/bitmex/economics';
import { BYBIT_DEFAULT_LEVERAGE } from '../../sim/paper/bybit/economics';
import { OKX_DEFAULT_LEVERAGE } from '../../sim/paper/okx/economics';
import { manualClock } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const UUID0 = '00000000-0000-4000-8000-000000000000';

interface Venue {
  exchange: 'binance' | 'bybit' | 'okx' | 'bitmex';
  symbol: string;
  /** The paper venue's leverage for a symbol never touched (always cross). */
  defaultLeverage: string;
  /** A small market order in the venue's unit. */
  qty: string;
}
const VENUES: Venue[] = [
  // Binance's paper engine opens symbols at 20× (binance/economics.ts), as Binance does for BTCUSDT.
  { exchange: 'binance', symbol: 'BTCUSDT', defaultLeverage: '20', qty: '0.010' },
  { exchange: 'bybit', symbol: 'BTCUSDT', defaultLeverage: String(BYBIT_DEFAULT_LEVERAGE), qty: '0.010' },
  { exchange: 'okx', symbol: 'BTCUSDT', defaultLeverage: String(OKX_DEFAULT_LEVERAGE), qty: '1' },
  { exchange: 'bitmex', symbol: 'XBTUSD', defaultLeverage: String(BITMEX_DEFAULT_LEVERAGE), qty: '100' },
];

describe.each(TEST_DRIVERS)('/v1/trade/{apiKeyId}/symbol-settings on %s (simulator)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  let other: SignedIn;
  let admin: SignedIn;
  const clock = manualClock(T0);

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market: { sim: { now: clock.now, seed: 'symbol-settings' } } });
    [user, other, admin] = await Promise.all([t.signInAs('user'), t.signInAs('user'), t.signInAs('admin')]);
  });
  afterAll(() => t?.close());

  const addKey = async (who: SignedIn, exchange: string): Promise<ApiKey> => {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange }, { token: who.accessToken });
    expect(c.statusCode).toBe(200);
    const res = await t.client.post('/v1/api-keys', { name: `${exchange} key`, exchange, network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  };
  const call = (who: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, password = KEY_PASSWORD) =>
    t.client.request(method, url, body, { token: who.accessToken, headers: { 'x-key-password': password } });

  describe.each(VENUES)('$exchange', (v) => {
    let key: ApiKey;
    const base = () => `/v1/trade/${key.id}`;
    const read = async (who: SignedIn = user, url = `${base()}/symbol-settings?symbol=${v.symbol}`): Promise<SymbolSettings> => {
      const res = await call(who, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      return symbolSettingsSchema.parse(res.json());
    };
    const put = async (path: 'leverage' | 'margin-mode', body: Record<string, unknown>) => {
      const res = await call(user, 'PUT', `${base()}/${path}`, { symbol: v.symbol, ...body });
      expect(res.statusCode, res.body).toBe(200);
    };

    beforeAll(async () => {
      key = await addKey(user, v.exchange);
    });

    it("with no position: the venue's default, then exactly what leverage and margin mode were set to", async () => {
      expect((await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>()).toEqual([]);
      expect(await read()).toEqual({ symbol: v.symbol, leverage: v.defaultLeverage, marginMode: 'CROSS' });

      await put('margin-mode', { marginMode: 'ISOLATED' });
      expect(await read()).toEqual({ symbol: v.symbol, leverage: v.defaultLeverage, marginMode: 'ISOLATED' });

      await put('leverage', { leverage: 4 });
      expect(await read()).toEqual({ symbol: v.symbol, leverage: '4', marginMode: 'ISOLATED' });
      await put('leverage', { leverage: 7 });
      expect(await read()).toEqual({ symbol: v.symbol, leverage: '7', marginMode: 'ISOLATED' });

      await put('margin-mode', { marginMode: 'CROSS' });
      expect(await read()).toEqual({ symbol: v.symbol, leverage: '7', marginMode: 'CROSS' });

      // Still no position: all of it was read from the exchange's settings, not from a position.
      expect((await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>()).toEqual([]);
      // Per account: a fresh key of another user still reads the venue's default.
      const otherKey = await addKey(other, v.exchange);
      expect(await read(other, `/v1/trade/${otherKey.id}/symbol-settings?symbol=${v.symbol}`)).toEqual({ symbol: v.symbol, leverage: v.defaultLeverage, marginMode: 'CROSS' });
      // The exchange's own symbol names the same product (answered under the product's symbol).
      if (v.exchange === 'okx') expect(await read(user, `${base()}/symbol-settings?symbol=BTC-USDT-SWAP`)).toEqual({ symbol: v.symbol, leverage: '7', marginMode: 'CROSS' });
    });

    it("with a position: the same leverage and margin mode as the position's", async () => {
      const order = await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.qty });
      expect(order.statusCode, order.body).toBe(201);
      const [position] = (await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>();
      expect(position).toBeDefined();
      const settings = await read();
      expect(settings).toEqual({ symbol: v.symbol, leverage: '7', marginMode: 'CROSS' });
      expect({ leverage: settings.leverage, marginMode: settings.marginMode }).toEqual({ leverage: position.leverage, marginMode: position.marginMode });
      const close = await call(user, 'POST', `${base()}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' });
      expect(close.statusCode, close.body).toBe(201);

      // Isolated: Positions says so too (Bybit's unified account states it once for the account, not per row).
      await put('margin-mode', { marginMode: 'ISOLATED' });
      expect((await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.qty })).statusCode).toBe(201);
      const [isolated] = (await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>();
      expect(isolated?.marginMode).toBe('ISOLATED');
      expect((await read()).marginMode).toBe('ISOLATED');
      expect((await call(user, 'POST', `${base()}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' })).statusCode).toBe(201);
      await put('margin-mode', { marginMode: 'CROSS' });
    });

    it('refusals as on the other trade routes: 401, 403 wrong key password, 404 key, 400 unknown or missing symbol', async () => {
      const url = `${base()}/symbol-settings?symbol=${v.symbol}`;
      expect((await t.client.get(url, { headers: { 'x-key-password': KEY_PASSWORD } })).statusCode).toBe(401);
      const wrong = await call(user, 'GET', url, undefined, 'not-the-password');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toEqual((await call(user, 'GET', `${base()}/balance`, undefined, 'not-the-password')).json());
      expect(wrong.json()).toMatchObject({ message: 'Wrong key password' });
      // The calls above unlocked the key for this sign-in; another sign-in without the password is refused.
      expect((await t.client.get(url, { token: user.accessToken })).statusCode).toBe(200);
      const again = (await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).json<{ accessToken: string }>();
      expect((await t.client.get(url, { token: again.accessToken })).statusCode).toBe(403);
      expect((await call(other, 'GET', url)).statusCode).toBe(404);
      expect((await call(user, 'GET', `/v1/trade/${UUID0}/symbol-settings?symbol=${v.symbol}`)).statusCode).toBe(404);

      const unknown = await call(user, 'GET', `${base()}/symbol-settings?symbol=NOPEUSDT`);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ message: string; fields: Record<string, string> }>()).toMatchObject({ message: `NOPEUSDT is not a perpetual of ${v.exchange}`, fields: { symbol: 'Unknown symbol NOPEUSDT' } });
      const missing = await call(user, 'GET', `${base()}/symbol-settings`);
      expect(missing.statusCode).toBe(400);
      expect(missing.json<{ message: string }>().message).toBeTruthy();
    });

    it("the admin twin reads a funded user's key; not a funded user: 404", async () => {
      const funded = await t.signInAs('user');
      const fkey = await addKey(funded, v.exchange);
      expect((await t.client.post('/v1/users/funded', { userId: funded.id }, { token: admin.accessToken })).statusCode).toBe(201);
      const set = await call(funded, 'PUT', `/v1/trade/${fkey.id}/leverage`, { symbol: v.symbol, leverage: 3 });
      expect(set.statusCode, set.body).toBe(200);
      const asAdmin = await call(admin, 'GET', `/v1/users/${funded.id}/trade/${fkey.id}/symbol-settings?symbol=${v.symbol}`);
      expect(asAdmin.statusCode, asAdmin.body).toBe(200);
      expect(asAdmin.json<SymbolSettings>().leverage).toBe('3');
      expect((await call(admin, 'GET', `/v1/users/${user.id}/trade/${key.id}/symbol-settings?symbol=${v.symbol}`)).statusCode).toBe(404);
      expect((await call(other, 'GET', `/v1/users/${funded.id}/trade/${fkey.id}/symbol-settings?symbol=${v.symbol}`)).statusCode).toBe(403);
    });
  });
});
