import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec, str } from '../../../src/api/contracts/decimal';
import type { ImportFillsBody, TradingVolumeResponse } from '../../../src/api/contracts/trading-volume';
import { fills } from '../../db/schema-fills';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

type ImportFill = ImportFillsBody['fills'][number];

describe.each(TEST_DRIVERS)('/v1/trading-volume and /v1/fills/import on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let alice: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
    alice = await t.signInAs('user');
    bob = await t.signInAs('user');
  });
  afterAll(() => t.close());

  const base = (over: Partial<ImportFill> & Pick<ImportFill, 'externalId' | 'time'>): ImportFill => ({
    exchange: 'binance',
    symbol: 'BTCUSDT',
    side: 'BUY',
    qty: 0.5,
    price: 40_000,
    feeUsd: 8,
    ...over,
  });
  const importFills = (fills: unknown[]) => t.client.post('/v1/fills/import', { fills }, { token: admin.accessToken });
  const volume = async (query: Record<string, string> = {}) =>
    (await t.client.get('/v1/trading-volume', { token: admin.accessToken, query })).json() as TradingVolumeResponse;

  it('imports fills by e-mail or user id (any-case exchange and side) and skips executions already recorded', async () => {
    const res = await importFills([
      base({ externalId: 'a1', email: alice.email.toUpperCase(), time: '2026-03-05T10:00:00Z' }),
      base({ externalId: 'a2', userId: alice.id, time: '2026-03-20T10:00:00Z', side: 'SELL', qty: 1 }),
      base({ externalId: 'a3', userId: alice.id, exchange: 'BITMEX' as ImportFill['exchange'], symbol: 'XBTUSD', qty: 10_000, price: 50_000, notionalUsd: 10_000, time: '2026-04-01T00:00:00Z' }),
      base({ externalId: 'b1', userId: bob.id, time: '2026-04-15T00:00:00Z', side: 'sell' as ImportFill['side'], feeUsd: -1 }),
      base({ externalId: 'b1', userId: bob.id, time: '2026-04-15T00:00:00Z' }),
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ inserted: 4, duplicates: 1 });
    expect((await importFills([base({ externalId: 'a1', userId: alice.id, time: '2026-03-05T10:00:00Z' })])).json()).toEqual({ inserted: 0, duplicates: 1 });
  });

  it('sums volume per user, exchange, network and month with totals and a monthly series', async () => {
    const res = await volume();
    expect(res.totals).toEqual({ fills: 4, volumeUsd: '90000', feeUsd: '23', users: 2 });
    expect(res.data).toEqual([
      { userId: alice.id, email: alice.email, exchange: 'bitmex', network: 'MAINNET', month: '2026-04-01T00:00:00.000Z', fills: 1, volumeUsd: '10000', feeUsd: '8' },
      { userId: bob.id, email: bob.email, exchange: 'binance', network: 'MAINNET', month: '2026-04-01T00:00:00.000Z', fills: 1, volumeUsd: '20000', feeUsd: '-1' },
      { userId: alice.id, email: alice.email, exchange: 'binance', network: 'MAINNET', month: '2026-03-01T00:00:00.000Z', fills: 2, volumeUsd: '60000', feeUsd: '16' },
    ].sort((a, b) => (a.month === b.month ? a.email.localeCompare(b.email) : b.month.localeCompare(a.month))));
    expect(res.series).toEqual([
      { month: '2026-03-01T00:00:00.000Z', volumeUsd: '60000', byExchange: { binance: '60000' } },
      { month: '2026-04-01T00:00:00.000Z', volumeUsd: '30000', byExchange: { binance: '20000', bitmex: '10000' } },
    ]);
    expect(res.meta).toEqual({ nextCursor: null, previousCursor: null });
  });

  it('filters by months, exchange, network and user, sorts and pages', async () => {
    expect((await volume({ from: '2026-04', to: '2026-04' })).totals.fills).toBe(2);
    expect((await volume({ exchange: 'bitmex' })).data.map((r) => r.volumeUsd)).toEqual(['10000']);
    expect((await volume({ network: 'TESTNET' })).data).toEqual([]);
    expect((await volume({ userId: bob.id })).totals).toMatchObject({ fills: 1, users: 1 });
    // Sorted by value, not as text ('60000' < '9' as text).
    expect((await volume({ sort: 'volumeUsd', order: 'desc' })).data.map((r) => r.volumeUsd)).toEqual(['60000', '20000', '10000']);
    expect((await volume({ sort: 'volumeUsd', order: 'asc' })).data.map((r) => r.volumeUsd)).toEqual(['10000', '20000', '60000']);
    expect((await volume({ sort: 'feeUsd', order: 'asc' })).data.map((r) => r.feeUsd)).toEqual(['-1', '8', '16']);
    const first = await volume({ sort: 'volumeUsd', limit: '2' });
    expect(first.data.map((r) => r.volumeUsd)).toEqual(['60000', '20000']);
    const second = await volume({ sort: 'volumeUsd', limit: '2', cursor: first.meta.nextCursor ?? '' });
    expect(second.data.map((r) => r.volumeUsd)).toEqual(['10000']);
    expect(second.meta).toEqual({ nextCursor: null, previousCursor: expect.any(String) });
  });

  it('sums exactly: 0.1 + 0.2 is 0.3 (a float sum is 0.30000000000000004), amounts past a float kept to the last digit', async () => {
    const carol = await t.signInAs('user');
    const res = await importFills([
      base({ externalId: 'c1', userId: carol.id, qty: 1, price: 0.1, feeUsd: '0.1', time: '2025-06-01T00:00:00Z' }),
      base({ externalId: 'c2', userId: carol.id, qty: '1', price: '0.2', feeUsd: 0.2, time: '2025-06-02T00:00:00Z' }),
      base({ externalId: 'c3', userId: carol.id, exchange: 'bybit', qty: '1', price: '12345678901234567890.123456789012', feeUsd: '-0.000000000001', time: '2025-06-03T00:00:00Z' }),
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const june = await volume({ from: '2025-06', to: '2025-06', userId: carol.id });
    expect(june.data.find((r) => r.exchange === 'binance')).toMatchObject({ fills: 2, volumeUsd: '0.3', feeUsd: '0.3' });
    expect(june.data.find((r) => r.exchange === 'bybit')).toMatchObject({ volumeUsd: '12345678901234567890.123456789012', feeUsd: '-0.000000000001' });
    expect(june.totals).toEqual({ fills: 3, volumeUsd: '12345678901234567890.423456789012', feeUsd: '0.299999999999', users: 1 });
    expect(june.series).toEqual([
      { month: '2025-06-01T00:00:00.000Z', volumeUsd: '12345678901234567890.423456789012', byExchange: { binance: '0.3', bybit: '12345678901234567890.123456789012' } },
    ]);
    // The stored columns are exact too: qty × price in the database's own digits.
    const stored = await t.db.select({ notionalUsd: fills.notionalUsd, feeUsd: fills.feeUsd }).from(fills).where(eq(fills.externalId, 'c3'));
    expect(stored.map((r) => [dec(r.notionalUsd), dec(r.feeUsd)].map(str))).toEqual([['12345678901234567890.123456789012', '-0.000000000001']]);
  });

  it('answers 400 naming the field', async () => {
    const unknown = await importFills([base({ externalId: 'x1', userId: alice.id, time: '2026-01-01T00:00:00Z' }), base({ externalId: 'x2', email: 'nobody@example.com', time: '2026-01-01T00:00:00Z' })]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ message: 'Invalid fills.1.email: no user nobody@example.com (row 2)', fields: { 'fills.1.email': 'No such user' } });
    // All or nothing: the valid first row was not recorded either.
    expect((await volume({ from: '2026-01', to: '2026-01' })).totals.fills).toBe(0);
    const noUser = await importFills([base({ externalId: 'x3', time: '2026-01-01T00:00:00Z' })]);
    expect(noUser.json().fields).toEqual({ 'fills.0.email': 'Give the user as userId or email' });
    expect((await importFills([base({ externalId: 'x4', userId: alice.id, time: 'yesterday' })])).json().fields).toHaveProperty(['fills.0.time']);
    expect((await importFills([base({ externalId: 'x5', userId: alice.id, time: '2026-01-01T00:00:00Z', qty: 0 })])).json().fields).toHaveProperty(['fills.0.qty']);
    expect((await importFills([])).json().fields).toEqual({ fills: 'No fills to import' });
    const badSort = await t.client.get('/v1/trading-volume', { token: admin.accessToken, query: { sort: 'nonsense' } });
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().fields).toHaveProperty('sort');
    expect((await t.client.get('/v1/trading-volume', { token: admin.accessToken, query: { cursor: 'x' } })).json().fields).toEqual({ cursor: 'Invalid cursor' });
    expect((await t.client.get('/v1/trading-volume', { token: admin.accessToken, query: { from: '2026-05', to: '2026-01' } })).json().fields).toEqual({
      to: 'to must not be before from',
    });
  });

  it('answers 401 without a token and 403 to non-admins', async () => {
    expect((await t.client.get('/v1/trading-volume')).statusCode).toBe(401);
    expect((await t.client.post('/v1/fills/import', { fills: [] })).statusCode).toBe(401);
    expect((await t.client.get('/v1/trading-volume', { token: alice.accessToken })).statusCode).toBe(403);
    expect((await t.client.post('/v1/fills/import', { fills: [] }, { token: alice.accessToken })).statusCode).toBe(403);
  });
});
