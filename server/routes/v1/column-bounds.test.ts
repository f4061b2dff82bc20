import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SimCredentials } from '../../../src/api/contracts/api-keys';
import type { TradeSettings } from '../../../src/api/contracts/funded-users';
import { fills } from '../../db/schema-fills';
import { referralExchangeMonths } from '../../db/schema-referrals';
import { tradeSettings, transactions } from '../../db/schema-api-keys';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

/**
 * Numbers and dates are bounded to what their columns hold (issue "Hardening"): a value with more
 * decimals than the column's scale is refused (PostgreSQL would round it, to 0 for the tiny ones),
 * one with more digits before the point than it holds is refused (PostgreSQL refused it: 500), and
 * dates stay within the years 1900–9999. Each answer is a 400 naming the field; nothing is stored.
 */

const fieldsOf = (body: string) => Object.keys((JSON.parse(body) as { fields?: object }).fields ?? {});

describe.each(TEST_DRIVERS)('input bounded to its column on %s', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let user: SignedIn;
  let keyId: string;

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    admin = await t.signInAs('admin');
    user = await t.signInAs('user');
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'bybit' }, { token: user.accessToken })).json<SimCredentials>();
    const key = await t.client.post('/v1/api-keys', { name: 'k', exchange: 'bybit', network: 'TESTNET', ...creds, keyPassword: 'bounds-key-password' }, { token: user.accessToken });
    keyId = key.json<{ id: string }>().id;
  });
  afterAll(() => t?.close());

  describe('trade settings (numeric(9,4) percent and leverage, numeric(24,8) money)', () => {
    const patch = (body: object) => t.client.patch('/v1/users/settings/trade', { userId: user.id, ...body }, { token: admin.accessToken });
    const stored = async () => (await t.db.select().from(tradeSettings).where(eq(tradeSettings.userId, user.id)))[0];

    it.each([
      ['maxPositionNotional', 1e-9, 'Use at most 8 decimal places'],
      ['dailyLossLimit', 5e-324, 'Use at most 8 decimal places'],
      ['maxRiskPercent', 0.00001, 'Use at most 4 decimal places'],
      ['maxLeverage', 1.00001, 'Use at most 4 decimal places'],
    ])('%s %s: 400 "%s", nothing stored', async (field, value, reason) => {
      const res = await patch({ [field]: value });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: `Invalid ${field}: ${reason}`, fields: { [field]: reason } });
      expect(await stored()).toBeUndefined();
    });

    it('the smallest values the columns hold are kept exactly', async () => {
      const res = await patch({ maxRiskPercent: 0.0001, maxPositionNotional: 0.00000001, maxLeverage: 1.0001, dailyLossLimit: 999_999_999_999.99 });
      expect(res.statusCode).toBe(200);
      expect(res.json<TradeSettings>()).toMatchObject({ maxRiskPercent: '0.0001', maxPositionNotional: '0.00000001', maxLeverage: '1.0001', dailyLossLimit: '999999999999.99' });
    });

    it('limits are decimal text, kept to the last digit the column holds (more than a float carries)', async () => {
      const res = await patch({ maxPositionNotional: '999999999999.12345678', dailyLossLimit: '0.30000000' });
      expect(res.statusCode).toBe(200);
      expect(res.json<TradeSettings>()).toMatchObject({ maxPositionNotional: '999999999999.12345678', dailyLossLimit: '0.3' });
      const read = await t.client.get(`/v1/users/settings/trade/${user.id}`, { token: admin.accessToken });
      expect(read.json<TradeSettings>().maxPositionNotional).toBe('999999999999.12345678');
      const bad = await patch({ maxRiskPercent: '1,5' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'Invalid maxRiskPercent: Enter a number, e.g. 1500.25', fields: { maxRiskPercent: 'Enter a number, e.g. 1500.25' } });
    });

    it('a row stored before these rules (a limit of 0) is still readable, and fixable through the API', async () => {
      await t.db.update(tradeSettings).set({ maxPositionNotional: '0' }).where(eq(tradeSettings.userId, user.id));
      const read = await t.client.get(`/v1/users/settings/trade/${user.id}`, { token: admin.accessToken });
      expect(read.statusCode).toBe(200);
      expect(read.json<TradeSettings>().maxPositionNotional).toBe('0');
      expect((await t.client.get(`/v1/users/settings/trade/${user.id}`, { token: user.accessToken })).statusCode).toBe(200);

      const other = await patch({ maxLeverage: 5 });
      expect(other.statusCode).toBe(200);
      expect(other.json<TradeSettings>()).toMatchObject({ maxLeverage: '5', maxPositionNotional: '0' });

      const fixed = await patch({ maxPositionNotional: 1000 });
      expect(fixed.statusCode).toBe(200);
      expect(fixed.json<TradeSettings>().maxPositionNotional).toBe('1000');
    });
  });

  describe('transactions (amount numeric(30,10))', () => {
    const record = (body: object) =>
      t.client.post('/v1/users/transactions', { apiKeyId: keyId, type: 'adjustment', amount: 1, currency: 'USDT', occurredAt: '2024-01-01T00:00:00Z', ...body }, { token: user.accessToken });
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(transactions))[0].n;

    it.each([
      ['amount', { amount: 5e-324 }, 'Use at most 10 decimal places'],
      ['amount', { amount: -1e-11 }, 'Use at most 10 decimal places'],
      ['amount', { amount: 1e308 }, 'Amount is too large'],
      ['occurredAt', { occurredAt: '0001-01-01T00:00:00+01:00' }, 'Use a date between the years 1900 and 9999'],
      ['occurredAt', { occurredAt: '0005-06-01T00:00:00Z' }, 'Use a date between the years 1900 and 9999'],
      ['occurredAt', { occurredAt: '1899-12-31T23:59:59.999Z' }, 'Use a date between the years 1900 and 9999'],
    ])('%s %j: 400, nothing stored', async (field, body, reason) => {
      const res = await record(body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: `Invalid ${field}: ${reason}`, fields: { [field]: reason } });
      expect(await count()).toBe(0);
    });

    it('ten decimals are kept', async () => {
      const res = await record({ amount: -0.0000000001 });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ amount: '-0.0000000001' });
      const exact = await record({ amount: '123456789012.0123456789' });
      expect(exact.statusCode).toBe(201);
      expect(exact.json()).toMatchObject({ amount: '123456789012.0123456789' });
    });
  });

  describe('fills import (numeric(38,12))', () => {
    const fill = (over: object) => ({ externalId: 'x1', userId: user.id, exchange: 'binance', symbol: 'BTCUSDT', side: 'BUY', qty: 1, price: 100, time: '2024-01-01T00:00:00Z', ...over });
    const load = (over: object) => t.client.post('/v1/fills/import', { fills: [fill({}), fill({ externalId: 'x2', ...over })] }, { token: admin.accessToken });
    const count = async () => (await t.db.select({ n: sql<number>`count(*)::int` }).from(fills))[0].n;

    it.each([
      ['qty and price 1e308', { qty: 1e308, price: 1e308 }, ['fills.1.qty', 'fills.1.price'], 'At most 26 digits before the decimal point'],
      ['qty 1e-13', { qty: 1e-13 }, ['fills.1.qty'], 'Use at most 12 decimal places'],
      ['feeUsd -1e30', { feeUsd: -1e30 }, ['fills.1.feeUsd'], 'At most 26 digits before the decimal point'],
      ['time in year 0', { time: '0000-12-31T00:00:00Z' }, ['fills.1.time'], 'Use a date between the years 1900 and 9999'],
    ])('%s: 400 naming the row and field, nothing stored', async (_, over, fields, reason) => {
      const res = await load(over);
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.body)).toEqual(fields);
      expect(res.json<{ message: string }>().message).toBe(`Invalid ${fields[0]}: ${reason}`);
      expect(await count()).toBe(0);
    });

    it('qty × price past the column (each fits) answers 400 naming notionalUsd; notionalUsd ÷ price past it names notionalXbt', async () => {
      const product = await load({ qty: 1e13, price: 1e13 });
      expect(product.statusCode).toBe(400);
      expect(fieldsOf(product.body)).toEqual(['fills.1.notionalUsd']);
      const quotient = await load({ symbol: 'XBTUSD', qty: 1, price: 0.000000000001, notionalUsd: 1e20 });
      expect(quotient.statusCode).toBe(400);
      expect(fieldsOf(quotient.body)).toEqual(['fills.1.notionalXbt']);
      expect(await count()).toBe(0);
    });
  });

  describe('referrals (numeric(38,12)) and month strings', () => {
    const totals = (entry: object) =>
      t.client.patch('/v1/referrals/volume', { exchange: 'BITMEX', type: 'exchange', entries: [{ date: '2024-01', totalExchangeVolume: 1, totalExchangeIncome: 1, ...entry }] }, { token: admin.accessToken });

    it.each([
      [{ totalExchangeVolume: 1e308 }, 'entries.0.totalExchangeVolume'],
      [{ totalExchangeIncome: 1e-13 }, 'entries.0.totalExchangeIncome'],
      [{ date: '0000-01' }, 'entries.0.date'],
      [{ date: '0005-06' }, 'entries.0.date'],
      [{ date: '1899-12-31T23:59:59Z' }, 'entries.0.date'],
      [{ date: '9999-12-31T23:30:00-01:00' }, 'entries.0.date'],
    ])('%j: 400 naming %s', async (entry, field) => {
      const res = await totals(entry);
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.body)).toEqual([field]);
      expect(await t.db.select().from(referralExchangeMonths)).toEqual([]);
    });

    it('the first and last accepted months are stored as given', async () => {
      for (const date of ['1900-01', '9999-12']) expect((await totals({ date })).statusCode).toBe(200);
      const months = (await t.db.select().from(referralExchangeMonths)).map((r) => r.month.toISOString()).sort();
      expect(months).toEqual(['1900-01-01T00:00:00.000Z', '9999-12-01T00:00:00.000Z']);
    });

    it('income with more than 12 decimals: 400 naming income', async () => {
      const res = await t.client.patch('/v1/referrals/user', { exchange: 'BITMEX', type: 'user', userId: admin.id, date: '2024-01', income: 5e-324 }, { token: admin.accessToken });
      expect(res.statusCode).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['income']);
    });
  });

  it('an invitation expiring past the year 9999 (once converted to UTC) answers 400 naming expiresAt', async () => {
    const res = await t.client.post('/v1/invitations', { count: 1, expiresAt: '9999-12-31T23:59:59.999-01:00' }, { token: admin.accessToken });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.body)).toEqual(['expiresAt']);
  });
});
