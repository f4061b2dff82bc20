import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnReferrals, ReferralMonthlyRecord, ReferrersPage } from '../../../src/api/contracts/referrals';
import { recordFills, type RecordFill } from '../../services/fills';
import { createUser } from '../../services/users';
import { createTestApp, TEST_DRIVERS, uniqueEmail, type SignedIn, type TestApp } from '../../test/helper';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';

describe.each(TEST_DRIVERS)('/v1/referrals on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let referrer: SignedIn;
  let user: SignedIn;
  let referredId: string;

  const fill = (over: Partial<RecordFill> & Pick<RecordFill, 'externalId' | 'time'>): RecordFill => ({
    userId: referredId,
    exchange: 'bitmex',
    network: 'MAINNET',
    symbol: 'XBTUSD',
    side: 'BUY',
    qty: '1000',
    price: '50000',
    notionalUsd: '1000',
    ...over,
  });

  beforeAll(async () => {
    t = await createTestApp(driver);
    admin = await t.signInAs('admin');
    referrer = await t.signInAs('referrer');
    user = await t.signInAs('user');
    const referred = await createUser(t.db, { email: uniqueEmail('referred'), password: 'password-1', referrerId: referrer.id });
    referredId = referred.id;
    // Second referred user and a user nobody referred (their fills must not count).
    const referred2 = await createUser(t.db, { email: uniqueEmail('referred2'), password: 'password-1', referrerId: referrer.id });
    await recordFills(t.db, [
      fill({ externalId: 'e1', time: new Date('2026-01-10T12:00:00Z'), notionalUsd: '1000', notionalXbt: '0.02' }),
      fill({ externalId: 'e2', time: new Date('2026-01-31T23:59:59Z'), notionalUsd: '500', price: '25000' }),
      fill({ externalId: 'e3', time: new Date('2026-02-01T00:00:00Z'), userId: referred2.id, notionalUsd: '2000' }),
      fill({ externalId: 'e4', time: new Date('2026-02-02T00:00:00Z'), exchange: 'binance', symbol: 'BTCUSDT', qty: '0.1', price: '40000', notionalUsd: undefined }),
      fill({ externalId: 'e5', time: new Date('2026-02-03T00:00:00Z'), network: 'TESTNET', notionalUsd: '7777' }),
      fill({ externalId: 'e6', time: new Date('2026-02-04T00:00:00Z'), userId: user.id, notionalUsd: '99999' }),
    ]);
  });
  afterAll(() => t.close());

  const volume = (query: Record<string, string>, token = admin.accessToken) => t.client.get('/v1/referrals/volume', { token, query });
  const records = async (query: Record<string, string>) => (await volume(query)).json() as ReferralMonthlyRecord[];
  const setTotals = (body: unknown) => t.client.patch('/v1/referrals/volume', body, { token: admin.accessToken });
  const submit = (body: unknown, query?: Record<string, string>) => t.client.patch('/v1/referrals/user', body, { token: admin.accessToken, query });

  it('PATCH /volume records exchange totals per month; GET type=user gives the referrer months newest first', async () => {
    const saved = await setTotals({
      exchange: 'BITMEX',
      type: 'exchange',
      currency: 'USD',
      entries: [
        { date: '2026-01', totalExchangeVolume: 100_000, totalExchangeIncome: 250.5 },
        { date: '2025-12-01', totalExchangeVolume: 80_000, totalExchangeIncome: 100 },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ message: 'BITMEX MAINNET exchange totals (USD) saved for 2 months' });

    const res = await volume({ exchange: 'BITMEX', type: 'user', userId: referrer.id, testnet: 'false', currency: 'USD' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { date: '2026-02-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '0', totalExchangeIncome: '0', totalReferrerVolume: '2000', totalReferrerIncome: '0' },
      { date: '2026-01-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '100000', totalExchangeIncome: '250.5', totalReferrerVolume: '1500', totalReferrerIncome: '0' },
      { date: '2025-12-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '80000', totalExchangeIncome: '100', totalReferrerVolume: '0', totalReferrerIncome: '0' },
    ]);
  });

  it('keeps networks, exchanges and currencies apart (XBT sums the XBT notional)', async () => {
    const testnet = await records({ exchange: 'BITMEX', type: 'user', userId: referrer.id, testnet: 'true' });
    expect(testnet.map((r) => [r.date.slice(0, 7), r.totalReferrerVolume])).toEqual([['2026-02', '7777']]);
    const binance = await records({ exchange: 'BINANCE', type: 'user', userId: referrer.id });
    expect(binance.map((r) => [r.date.slice(0, 7), r.totalReferrerVolume])).toEqual([['2026-02', '4000']]);
    await setTotals({ exchange: 'BITMEX', type: 'exchange', currency: 'XBT', entries: [{ date: '2026-01', totalExchangeVolume: '2', totalExchangeIncome: '300' }] });
    const xbt = await records({ exchange: 'BITMEX', type: 'user', userId: referrer.id, currency: 'XBT' });
    const jan = xbt.find((r) => r.date.startsWith('2026-01'));
    // e1 reported 0.02 XBT; e2 is an XBT instrument: 500 USD / 25,000 = 0.02 XBT.
    expect(jan?.totalReferrerVolume).toBe('0.04');
    expect(jan).toMatchObject({ totalExchangeVolume: '2', totalExchangeIncome: '300' });
  });

  it('PATCH /user saves the income with the server message, replaces a resubmission and refetches into the record', async () => {
    const res = await submit({ exchange: 'BITMEX', type: 'user', userId: referrer.id, date: '2026-01-01T00:00:00.000Z', income: 1234.5 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: `Income of $1,234.50 for 01/2026 saved for ${referrer.email}` });
    await submit({ exchange: 'BITMEX', type: 'user', userId: referrer.id, date: '2026-01', income: 42 });
    // The date picker's YYYY-MM-DD string is read as UTC (never the previous month).
    await submit({ exchange: 'BITMEX', type: 'user', userId: referrer.id, date: '2026-02-01', income: 10 }, { testnet: 'true' });
    const main = await records({ exchange: 'BITMEX', type: 'user', userId: referrer.id });
    expect(main.find((r) => r.date.startsWith('2026-01'))?.totalReferrerIncome).toBe('42');
    expect(main.find((r) => r.date.startsWith('2026-02'))?.totalReferrerIncome).toBe('0');
    const test = await records({ exchange: 'BITMEX', type: 'user', userId: referrer.id, testnet: 'true' });
    expect(test.find((r) => r.date.startsWith('2026-02'))?.totalReferrerIncome).toBe('10');
  });

  it('GET /volume type=exchange sums every referrer (referred users only)', async () => {
    const all = await records({ exchange: 'BITMEX', type: 'exchange' });
    const feb = all.find((r) => r.date.startsWith('2026-02'));
    expect(feb?.totalReferrerVolume).toBe('2000');
    expect(all.find((r) => r.date.startsWith('2026-01'))?.totalReferrerIncome).toBe('42');
  });

  it('GET /v1/referrals lists referrers with referred users, volume and income over the months and exchange asked', async () => {
    const page = (await t.client.get('/v1/referrals', { token: admin.accessToken })).json() as ReferrersPage;
    const me = page.data.find((r) => r.userId === referrer.id);
    expect(me).toEqual({
      userId: referrer.id,
      email: referrer.email,
      role: 'referrer',
      referralCode: expect.any(String),
      referredUsers: 2,
      totalReferrerVolume: '7500',
      totalReferrerIncome: '42',
    });
    expect(page.data.map((r) => r.userId)).not.toContain(user.id);
    const jan = (await t.client.get('/v1/referrals', { token: admin.accessToken, query: { startAt: '2026-01', endAt: '2026-01', exchangeName: 'BITMEX' } })).json() as ReferrersPage;
    expect(jan.data.find((r) => r.userId === referrer.id)).toMatchObject({ totalReferrerVolume: '1500', totalReferrerIncome: '42' });
    const binance = (await t.client.get('/v1/referrals', { token: admin.accessToken, query: { exchangeName: 'BINANCE' } })).json() as ReferrersPage;
    expect(binance.data.find((r) => r.userId === referrer.id)).toMatchObject({ totalReferrerVolume: '4000', totalReferrerIncome: '0' });
    const paged = (await t.client.get('/v1/referrals', { token: admin.accessToken, query: { limit: '1' } })).json() as ReferrersPage;
    expect(paged.data).toHaveLength(1);
  });

  it('GET /v1/referrals/user gives a referrer their own months, code and referred count', async () => {
    const res = await t.client.get('/v1/referrals/user', { token: referrer.accessToken, query: { exchange: 'BITMEX', type: 'user' } });
    expect(res.statusCode).toBe(200);
    const own = res.json() as OwnReferrals;
    expect(own.referredUsers).toBe(2);
    expect(own.referralCode).toMatch(/^[A-Z2-9]{8}$/);
    expect(own.data).toEqual([
      { date: '2026-02-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalReferrerVolume: '2000', totalReferrerIncome: '0' },
      { date: '2026-01-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalReferrerVolume: '1500', totalReferrerIncome: '42' },
    ]);
    const adminOwn = await t.client.get('/v1/referrals/user', { token: admin.accessToken, query: { exchange: 'BINANCE', type: 'user' } });
    expect(adminOwn.json()).toMatchObject({ referredUsers: 0, data: [] });
  });

  it('amounts round-trip exactly as decimal strings: an income past a float, volumes that a float sum would miss', async () => {
    const exact = await createUser(t.db, { email: uniqueEmail('exact'), password: 'password-1' });
    const referredExactly = await createUser(t.db, { email: uniqueEmail('exact-referred'), password: 'password-1', referrerId: exact.id });
    // 0.1 + 0.2 as floats is 0.30000000000000004; the notionals are qty × price, computed exactly.
    await recordFills(t.db, [
      fill({ externalId: 'x1', userId: referredExactly.id, time: new Date('2024-05-01T00:00:00Z'), qty: '1', price: '0.1', notionalUsd: undefined, notionalXbt: undefined }),
      fill({ externalId: 'x2', userId: referredExactly.id, time: new Date('2024-05-02T00:00:00Z'), qty: '2', price: '0.1', notionalUsd: undefined, notionalXbt: undefined }),
    ]);
    // A float keeps about 16 digits: 999999999999.1234 and 12345678901234.123 of these.
    const income = '999999999999.123456789012';
    const exchangeIncome = '12345678901234.123456789012';
    const saved = await submit({ exchange: 'BITMEX', type: 'user', userId: exact.id, date: '2024-05', income: ` ${income} ` });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({ message: `Income of $999,999,999,999.12 for 05/2024 saved for ${exact.email}` });
    // The income is at most 1,000,000,000,000, checked exactly (a float would let 1000000000000.0000000001 through).
    expect((await submit({ exchange: 'BITMEX', type: 'user', userId: exact.id, date: '2024-05', income: '1000000000000.000000000001' })).json().fields).toEqual({
      income: 'At most 1,000,000,000,000',
    });
    const usdTotals = await setTotals({ exchange: 'BITMEX', type: 'exchange', currency: 'USD', entries: [{ date: '2024-05', totalExchangeVolume: '0.1', totalExchangeIncome: exchangeIncome }] });
    expect(usdTotals.statusCode, usdTotals.body).toBe(200);
    const totals = await setTotals({ exchange: 'BITMEX', type: 'exchange', currency: 'XBT', entries: [{ date: '2024-05', totalExchangeVolume: '99999999999999999999999999.999999999999', totalExchangeIncome: '0.000000000001' }] });
    expect(totals.statusCode, totals.body).toBe(200);

    const usd = (await records({ exchange: 'BITMEX', type: 'user', userId: exact.id })).filter((r) => r.date.startsWith('2024-05'));
    expect(usd).toEqual([{ date: '2024-05-01T00:00:00.000Z', exchange: { name: 'BITMEX' }, totalExchangeVolume: '0.1', totalExchangeIncome: exchangeIncome, totalReferrerVolume: '0.3', totalReferrerIncome: income }]);
    // XBT: each notional ÷ its price (XBTUSD is a bitcoin instrument): 1 + 2.
    const xbt = await records({ exchange: 'BITMEX', type: 'user', userId: exact.id, currency: 'XBT' });
    expect(xbt.find((r) => r.date.startsWith('2024-05'))).toMatchObject({ totalExchangeVolume: '99999999999999999999999999.999999999999', totalExchangeIncome: '0.000000000001', totalReferrerVolume: '3' });
    const page = (await t.client.get('/v1/referrals', { token: admin.accessToken, query: { startAt: '2024-05', endAt: '2024-05', limit: '200' } })).json() as ReferrersPage;
    expect(page.data.find((r) => r.userId === exact.id)).toMatchObject({ totalReferrerVolume: '0.3', totalReferrerIncome: income });
  });

  it('answers 400 naming the field', async () => {
    const noUser = await volume({ exchange: 'BITMEX', type: 'user' });
    expect(noUser.statusCode).toBe(400);
    expect(noUser.json()).toEqual({ message: 'Invalid userId: userId is required when type is user', fields: { userId: 'userId is required when type is user' } });
    expect((await volume({ exchange: 'KRAKEN', type: 'exchange' })).json().fields).toHaveProperty('exchange');
    expect((await volume({ exchange: 'BINANCE', type: 'exchange', currency: 'XBT' })).json().fields).toEqual({ currency: 'XBT is offered only for BITMEX' });
    const base = { exchange: 'BITMEX', type: 'user', userId: referrer.id, date: '2026-01', income: 1 };
    expect((await submit({ ...base, date: 'May' })).json().fields).toEqual({ date: 'Enter a month as YYYY-MM' });
    expect((await submit({ ...base, income: 'abc' })).json().fields).toHaveProperty('income');
    expect((await submit({ ...base, income: null })).json().fields).toHaveProperty('income');
    expect((await submit({ ...base, type: 'exchange' })).json().fields).toHaveProperty('type');
    expect((await setTotals({ exchange: 'BITMEX', type: 'exchange', entries: [] })).json().fields).toEqual({ entries: 'Add at least one month' });
    expect((await setTotals({ exchange: 'BITMEX', type: 'exchange', entries: [{ date: '2026-01', totalExchangeVolume: -1, totalExchangeIncome: 0 }] })).json().fields).toEqual({
      'entries.0.totalExchangeVolume': 'Volume cannot be negative',
    });
    const range = await t.client.get('/v1/referrals', { token: admin.accessToken, query: { startAt: '2026-03', endAt: '2026-01' } });
    expect(range.json().fields).toEqual({ endAt: 'endAt must not be before startAt' });
  });

  it('answers 404 for an unknown user', async () => {
    const get = await volume({ exchange: 'BITMEX', type: 'user', userId: MISSING_ID });
    expect(get.statusCode).toBe(404);
    expect(get.json()).toEqual({ message: 'User not found' });
    const patch = await submit({ exchange: 'BITMEX', type: 'user', userId: MISSING_ID, date: '2026-01', income: 1 });
    expect(patch.statusCode).toBe(404);
  });

  it('answers 401 without a token and 403 for the wrong role', async () => {
    for (const [method, url] of [
      ['GET', '/v1/referrals'],
      ['GET', '/v1/referrals/volume?type=exchange'],
      ['PATCH', '/v1/referrals/volume'],
      ['GET', '/v1/referrals/user'],
      ['PATCH', '/v1/referrals/user'],
    ] as const) {
      expect((await t.client.request(method, url, method === 'PATCH' ? {} : undefined)).statusCode, `${method} ${url}`).toBe(401);
      expect((await t.client.request(method, url, method === 'PATCH' ? {} : undefined, { token: user.accessToken })).statusCode, `${method} ${url}`).toBe(403);
    }
    // Referrers read only their own data.
    expect((await volume({ type: 'user', userId: referrer.id }, referrer.accessToken)).statusCode).toBe(403);
    expect((await t.client.get('/v1/referrals', { token: referrer.accessToken })).statusCode).toBe(403);
    expect((await t.client.patch('/v1/referrals/user', {}, { token: referrer.accessToken })).statusCode).toBe(403);
  });
});
