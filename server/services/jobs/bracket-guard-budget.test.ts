/**
 * Issue 26 §2 on the paper exchange (binance): the bracket guards of one key read the key's account state,
 * not the exchange, so N guarded brackets make no more REST requests than the key's stated budget
 * (README "REST budget"): one snapshot every ACCOUNT_SNAPSHOT_MS, whatever N. Every signed request of the
 * instance's connectors is counted (the guards', the account state's) over a quiet window.
 * One driver: what is measured is the exchange's side, not the database's.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
const SNAPSHOT_MS = 5000;
/** Binance's snapshot: open orders, open algo orders, positions, account. */
const SNAPSHOT_REQUESTS = 4;
const BRACKETS = 4;

describe('the REST budget of a key with several guarded brackets (simulator, binance)', () => {
  let t: TestApp;
  let user: SignedIn;
  let key: ApiKey;
  const seen: number[] = [];

  beforeAll(async () => {
    t = await createTestApp(TEST_DRIVERS[0]!, { MARKET_DATA: 'sim', JOBS_ENABLED: true, ACCOUNT_SNAPSHOT_MS: SNAPSHOT_MS });
    user = await t.signInAs('user');
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: user.accessToken });
    key = (await t.client.post('/v1/api-keys', { name: 'budget', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: user.accessToken })).json<ApiKey>();
    expect((await t.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    const connectors = t.app.trading.connectors;
    const transport = connectors.transport.bind(connectors);
    vi.spyOn(connectors, 'transport').mockImplementation((exchange: ExchangeId, network: Network) => {
      const inner = transport(exchange, network);
      return (req) => {
        seen.push(Date.now());
        return inner(req);
      };
    });
  }, 180_000);
  afterAll(() => t?.close());

  it(`${BRACKETS} resting brackets on one key: no more requests over a quiet window than its snapshots`, async () => {
    const last = Number((await t.app.inject('/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT')).json<{ lastPrice: string }>().lastPrice);
    const px = (f: number) => (Math.round((last * f) / 0.1) * 0.1).toFixed(1);
    for (let i = 0; i < BRACKETS; i++) {
      const body = { symbol: 'BTCUSDT', side: 'BUY', qty: '0.010', entry: { type: 'LIMIT', price: px(0.5 + i * 0.01) }, stopLoss: { triggerPrice: px(0.4) }, takeProfits: [{ price: px(0.6), qtyPercent: 100 }], clientOrderId: `budget${process.pid}x${i}x${Date.now()}` };
      const res = await t.client.post(`/v1/trade/${key.id}/brackets`, body, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
      expect(res.statusCode, res.body).toBe(201);
    }
    // Every guard has started (its state open and fresh) and made its first rounds.
    await vi.waitFor(() => expect(t.app.trading.accounts.get(key.id)?.fresh).toBe(true), { timeout: 20_000, interval: 100 });
    await new Promise((r) => setTimeout(r, 4000));
    const from = Date.now();
    const windowMs = 10_000;
    await new Promise((r) => setTimeout(r, windowMs));
    const made = seen.filter((at) => at >= from && at < from + windowMs).length;
    // Polling (the guards before issue 26) made ~3 requests per bracket every 400 ms: ~300 here.
    expect(made).toBeLessThanOrEqual((Math.ceil(windowMs / SNAPSHOT_MS) + 1) * SNAPSHOT_REQUESTS);
    // The guards are still on: their brackets' entries rest.
    const open = (await t.client.get(`/v1/trade/${key.id}/orders?symbol=BTCUSDT`, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } })).json<unknown[]>();
    expect(open.length).toBe(BRACKETS);
  }, 90_000);
});
