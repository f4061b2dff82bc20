import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_SETTINGS_DEFAULTS } from '../../../src/api/contracts/settings';
import { userSettings } from '../../db/schema';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('/v1/users/settings on %s', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  it('answers the defaults before anything is stored', async () => {
    const res = await t.client.get('/v1/users/settings', { token: user.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(SERVER_SETTINGS_DEFAULTS);
  });

  it('PATCH replaces only the given keys and follows the user, not other users', async () => {
    const lines = { binance: [{ id: 'l1', symbol: 'BTCUSDT', price: 65000.5 }] };
    const first = await t.client.patch('/v1/users/settings', { horizontalLines: lines }, { token: user.accessToken });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ...SERVER_SETTINGS_DEFAULTS, horizontalLines: lines });

    const second = await t.client.patch('/v1/users/settings', { riskOptions: [1, 2.5], favoritePairs: [{ symbol: 'XBTUSD', exchange: 'bitmex' }] }, { token: user.accessToken });
    expect(second.json()).toEqual({ ...SERVER_SETTINGS_DEFAULTS, horizontalLines: lines, riskOptions: [1, 2.5], favoritePairs: [{ symbol: 'XBTUSD', exchange: 'bitmex' }] });

    // A per-exchange map merges by exchange: bybit's list is set, binance's stays; a list is replaced whole.
    const merged = await t.client.patch('/v1/users/settings', { horizontalLines: { bybit: [] } }, { token: user.accessToken });
    expect(merged.json().horizontalLines).toEqual({ ...lines, bybit: [] });
    const emptied = await t.client.patch('/v1/users/settings', { horizontalLines: { binance: [] } }, { token: user.accessToken });
    expect(emptied.json().horizontalLines).toEqual({ binance: [], bybit: [] });
    expect((await t.client.get('/v1/users/settings', { token: user.accessToken })).json().riskOptions).toEqual([1, 2.5]);

    const other = await t.signInAs('user');
    expect((await t.client.get('/v1/users/settings', { token: other.accessToken })).json()).toEqual(SERVER_SETTINGS_DEFAULTS);
  });

  it('keeps chart drawings per exchange: coloured lines, rectangles and fib retracements', async () => {
    const me = await t.signInAs('user');
    const drawings = {
      horizontalLines: { binance: [{ id: 'l1', symbol: 'BTCUSDT', price: 65000.5, color: 'red' }] },
      rectangles: { bybit: [{ id: 'r1', symbol: 'ETHUSDT', p1: { time: 1_700_000_000, price: 3000 }, p2: { time: 1_700_003_600, price: 3100 }, color: 'green' }] },
      fibs: {
        okx: [
          {
            id: 'f1', exchange: 'okx', symbol: 'BTCUSDT', rect: { startTime: 1_700_000_000, startPrice: 60000, endTime: 1_700_360_000, endPrice: 64000 },
            fibColor: 'yellow', fibAmountOfPositiveLines: '2', fibIncrement: '1', fibMainValue: '0.618', fibCustomValue: '',
          },
        ],
      },
    };
    const res = await t.client.patch('/v1/users/settings', drawings, { token: me.accessToken });
    expect(res.statusCode).toBe(200);
    expect((await t.client.get('/v1/users/settings', { token: me.accessToken })).json()).toEqual({ ...SERVER_SETTINGS_DEFAULTS, ...drawings });
    const bad = await t.client.patch('/v1/users/settings', { fibs: { okx: [{ ...drawings.fibs.okx[0], fibColor: 'purple' }] } }, { token: me.accessToken });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['fibs.okx.0.fibColor']);
  });

  it('concurrent patches of different keys both land', async () => {
    const me = await t.signInAs('user');
    await Promise.all([
      t.client.patch('/v1/users/settings', { riskOptions: [3] }, { token: me.accessToken }),
      t.client.patch('/v1/users/settings', { stopLossOptions: [4] }, { token: me.accessToken }),
    ]);
    const res = (await t.client.get('/v1/users/settings', { token: me.accessToken })).json();
    expect(res.riskOptions).toEqual([3]);
    expect(res.stopLossOptions).toEqual([4]);
  });

  it('two devices saving drawings on different exchanges at once both keep theirs', async () => {
    const me = await t.signInAs('user');
    // A second device: its own sign-in, as a phone beside the desktop.
    const phone = (await t.client.post('/v1/auth/signin', { email: me.email, password: me.password })).json<{ accessToken: string }>();
    const line = (id: string, symbol: string) => ({ id, symbol, price: 100 });
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all([
        t.client.patch('/v1/users/settings', { horizontalLines: { binance: [line(`b${round}`, 'BTCUSDT')] }, rectangles: { okx: [] } }, { token: me.accessToken }),
        t.client.patch('/v1/users/settings', { horizontalLines: { bitmex: [line(`x${round}`, 'XBTUSD')] } }, { token: phone.accessToken }),
      ]);
      expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
      const stored = (await t.client.get('/v1/users/settings', { token: me.accessToken })).json();
      expect(stored.horizontalLines, `round ${round}`).toEqual({ binance: [line(`b${round}`, 'BTCUSDT')], bitmex: [line(`x${round}`, 'XBTUSD')] });
      expect(stored.rectangles).toEqual({ okx: [] });
    }
  });

  it('replaces a damaged per-exchange map (not an object) instead of failing the PATCH', async () => {
    const me = await t.signInAs('user');
    await t.db.insert(userSettings).values({ userId: me.id, data: { horizontalLines: [1, 2] } });
    const res = await t.client.patch('/v1/users/settings', { horizontalLines: { okx: [] } }, { token: me.accessToken });
    expect(res.statusCode).toBe(200);
    expect(res.json().horizontalLines).toEqual({ okx: [] });
  });

  it('falls back to the default for a stored value that no longer fits the contract', async () => {
    const me = await t.signInAs('user');
    await t.db.insert(userSettings).values({ userId: me.id, data: { riskOptions: 'broken', stopLossOptions: [7], retiredKey: 1 } });
    const res = (await t.client.get('/v1/users/settings', { token: me.accessToken })).json();
    expect(res).toEqual({ ...SERVER_SETTINGS_DEFAULTS, stopLossOptions: [7] });
  });

  it('answers 400 naming the field (bad value, unknown key) and 401 signed out', async () => {
    const bad = await t.client.patch('/v1/users/settings', { riskOptions: [-1] }, { token: user.accessToken });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['riskOptions.0']);
    expect(bad.json().message).toMatch(/^Invalid riskOptions\.0: /);
    const unknown = await t.client.patch('/v1/users/settings', { theme: 'dark' }, { token: user.accessToken });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: 'Invalid request: unknown field theme', fields: { theme: 'Unknown field' } });
    const exchange = await t.client.patch('/v1/users/settings', { favoritePairs: [{ symbol: 'X', exchange: 'ftx' }] }, { token: user.accessToken });
    expect(Object.keys(exchange.json().fields)).toEqual(['favoritePairs.0.exchange']);
    expect((await t.client.get('/v1/users/settings')).statusCode).toBe(401);
    expect((await t.client.patch('/v1/users/settings', { riskOptions: [1] })).statusCode).toBe(401);
  });
});
