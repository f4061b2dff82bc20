/**
 * The paper exchange inside the product (MARKET_DATA=sim), on PGlite and PostgreSQL: accounts live
 * in the product's database (the migration's tables), and the new test hooks sit behind the same
 * admin guard as the other /sim/_control routes.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paperAccounts, paperFills, paperOrders, paperPositions } from '../../db/schema-paper';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';
import { binanceClient } from './binance/testing';

describe.each(TEST_DRIVERS)('the paper exchange inside the product on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
  });
  afterAll(() => t?.close());

  it('writes every acknowledged order, fill and position to the product database before answering', async () => {
    const c = binanceClient(t.app, 'sim-product-1', { seed: 'crypto-terminal', now: Date.now });
    const market = await c.call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' });
    expect(market.status).toBe(200);
    const [account] = await t.db.select().from(paperAccounts).where(eq(paperAccounts.apiKey, 'sim-product-1'));
    expect(account).toMatchObject({ exchange: 'binance', network: 'MAINNET' });
    const orders = await t.db.select().from(paperOrders).where(eq(paperOrders.accountId, account.id));
    expect(orders.map((o) => [o.orderId, o.status, o.filledQty])).toEqual([[market.json<{ orderId: number }>().orderId, 'FILLED', '0.002000000000000000']]);
    expect(await t.db.select().from(paperFills).where(eq(paperFills.accountId, account.id))).toHaveLength(1);
    const [position] = await t.db.select().from(paperPositions).where(and(eq(paperPositions.accountId, account.id), eq(paperPositions.symbol, 'BTCUSDT')));
    expect(position.size).toBe('0.002000000000000000');
  });

  it.each([
    ['POST', '/sim/_control/reset-account?key=sim-product-1&exchange=binance'],
    ['POST', '/sim/_control/faults?x=1'],
    ['GET', '/sim/_control/faults'],
    ['DELETE', '/sim/_control/faults'],
  ] as const)('%s %s needs an admin token: 401 without, 403 for a user, 200 for an admin', async (method, url) => {
    const body = url.includes('faults?') ? { exchange: 'binance', latencyMs: 0 } : undefined;
    expect((await t.client.request(method, url, body)).statusCode).toBe(401);
    expect((await t.client.request(method, url, body, { token: user.accessToken })).statusCode).toBe(403);
    expect((await t.client.request(method, url, body, { token: admin.accessToken })).statusCode).toBe(200);
  });
});
