/**
 * Issue 25 §1 / 26 §2 on the paper exchange: once a key's account state is fresh, a bracket's pre-send checks
 * read price, open orders and balance from the server's copy — the exchange sees only the bracket's legs
 * (its fills are recorded from the stream, not read after the answer) — and without it (the state closed) they are
 * read from the exchange, and the fills after the answer.
 * The requests are counted at the connectors' transport: every signed call the trade routes make.
 * One driver: what is measured lives in memory, not in the database.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import { fills } from '../../db/schema-fills';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
let seq = 0;
const cid = () => `acct${process.pid}x${Date.now().toString(36)}x${++seq}`;

describe('a bracket against the account state (simulator, binance)', () => {
  let t: TestApp;
  let user: SignedIn;
  let key: ApiKey;
  const seen: Array<{ method: string; path: string }> = [];

  beforeAll(async () => {
    // Jobs on: their market feed is where the checks read the last price.
    t = await createTestApp(TEST_DRIVERS[0]!, { MARKET_DATA: 'sim', JOBS_ENABLED: true });
    user = await t.signInAs('user');
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: user.accessToken });
    const res = await t.client.post('/v1/api-keys', { name: 'state', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    key = res.json<ApiKey>();
    expect((await t.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    // Every signed request of a connector the trade routes make from now on is seen (the bracket guard's
    // job, which works on its own connector, is counted in jobs/bracket-guard.test.ts).
    const connectors = t.app.trading.connectors;
    const transport = connectors.transport.bind(connectors);
    vi.spyOn(connectors, 'transport').mockImplementation((exchange: ExchangeId, network: Network) => {
      const inner = transport(exchange, network);
      if (/BracketGuard/.test(new Error().stack ?? '')) return inner;
      return (req) => {
        seen.push({ method: req.method, path: req.path.split('?')[0]! });
        return inner(req);
      };
    });
  }, 180_000);
  afterAll(() => t?.close());

  const last = async () => Number((await t.app.inject('/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT')).json<{ lastPrice: string }>().lastPrice);
  const px = (price: number, f: number) => (Math.round((price * f) / 0.1) * 0.1).toFixed(1);
  const bracket = async (entry: 'LIMIT' | 'MARKET') => {
    const p = await last();
    const body =
      entry === 'LIMIT'
        ? { entry: { type: 'LIMIT', price: px(p, 0.5) }, stopLoss: { triggerPrice: px(p, 0.45) }, takeProfits: [{ price: px(p, 0.55), qtyPercent: 100 }] }
        : { entry: { type: 'MARKET' }, stopLoss: { triggerPrice: px(p, 0.8) }, takeProfits: [{ price: px(p, 1.2), qtyPercent: 100 }] };
    seen.length = 0;
    const res = await t.client.post(`/v1/trade/${key.id}/brackets`, { symbol: 'BTCUSDT', side: 'BUY', qty: '0.010', ...body, clientOrderId: cid() }, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
    expect(res.statusCode, res.body).toBe(201);
    return [...seen];
  };
  const fillsOfKey = async () => (await t.db.select().from(fills).where(eq(fills.apiKeyId, key.id))).length;
  const reads = (rs: Array<{ method: string; path: string }>) => rs.filter((r) => r.method === 'GET').map((r) => r.path);

  it('with the state fresh, the checks read nothing from the exchange: the legs are the only requests', async () => {
    // The first bracket opens the key's state (its checks still ask the exchange).
    expect(reads(await bracket('LIMIT')).length).toBeGreaterThan(0);
    await vi.waitFor(
      () => {
        expect(t.app.trading.accounts.get(key.id)?.fresh).toBe(true);
        expect(t.app.jobs!.feed.lastPrice('binance', 'BTCUSDT', 5000)).not.toBeNull();
      },
      { timeout: 15_000, interval: 100 },
    );
    const limit = await bracket('LIMIT');
    expect(reads(limit)).toEqual([]);
    expect(limit.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /fapi/v1/order']);

    const before = await fillsOfKey();
    const market = await bracket('MARKET');
    expect(reads(market)).toEqual([]);
    // The entry, its stop and its target: sent at once (Binance's stops go to the algo service).
    expect(market.every((r) => r.method === 'POST')).toBe(true);
    expect(market.length).toBe(3);
    // The entry's fill is recorded from the stream: no read of the account's trades (5 of the address's weight) after it.
    await vi.waitFor(async () => expect(await fillsOfKey()).toBeGreaterThan(before), { timeout: 10_000, interval: 100 });
    await new Promise((r) => setTimeout(r, 300));
    expect(seen.map((r) => r.path)).not.toContain('/fapi/v1/userTrades');
  }, 60_000);

  it('without the state (closed), the checks read price, open orders and balance from the exchange', async () => {
    t.app.trading.accounts.closeKey(key.id);
    const paths = reads(await bracket('LIMIT'));
    expect(paths).toEqual(expect.arrayContaining(['/fapi/v1/openOrders', '/fapi/v1/ticker/24hr']));
    expect(paths.some((p) => /balance|account/.test(p))).toBe(true);
    // Not streaming, the fills the order made are read after it.
    await vi.waitFor(() => expect(seen.map((r) => r.path)).toContain('/fapi/v1/userTrades'), { timeout: 10_000, interval: 100 });
  }, 30_000);
});
