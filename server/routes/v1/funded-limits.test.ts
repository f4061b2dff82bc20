/**
 * Funded users' daily loss limit and the audit of admin trading (issue 21), against the paper exchange
 * in-process (MARKET_DATA=sim, a manual market clock), on PGlite and PostgreSQL: the day ledger adds
 * every symbol, a stop that filled with nobody watching counts once the ledger refreshes, at the limit
 * new risk is refused while reducing orders and closes still work, `/limits` says so, and every admin
 * request that changes something on a funded user's key leaves one audit row.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { add, cmp, dec, fixed, mul, str, sub, type Decimal } from '../../../src/api/contracts/decimal';
import type { AdminTradeAuditPage, FundedDailyLoss, TradeLimitsStatus } from '../../../src/api/contracts/funded-users';
import type { Fill, Order, Position } from '../../../src/api/contracts/trading';
import { fills } from '../../db/schema-fills';
import { adminTradeAudit } from '../../db/schema-trading';
import { recordFills } from '../../services/fills';
import { manualClock } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
/** 01:00 UTC: the seeded BTCUSDT path falls about 0.8 % within the next 40 minutes, well before midnight. */
const T0 = Date.UTC(2026, 5, 1, 1, 0, 0);
const MIDNIGHT = '2026-06-02T00:00:00.000Z';
const SEED = 'funded-limits';
const UUID0 = '00000000-0000-4000-8000-000000000000';
const ADMIN_ORDERS = '/v1/users/:userId/trade/:apiKeyId/orders';

type Err = { message: string; fields?: Record<string, string> };

describe.each(TEST_DRIVERS)('funded users: day ledger, daily loss lock and admin audit on %s (simulator)', (driver) => {
  let t: TestApp;
  let admin: SignedIn;
  let funded: SignedIn;
  let key: ApiKey;
  const clock = manualClock(T0);

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market: { sim: { now: clock.now, seed: SEED } } });
    [admin, funded] = await Promise.all([t.signInAs('admin'), t.signInAs('user')]);
    key = await addKey(funded, 'binance');
    expect((await t.client.post('/v1/users/funded', { userId: funded.id }, { token: admin.accessToken })).statusCode).toBe(201);
    await setLimit(funded, 1_000_000);
  });
  afterAll(() => t?.close());

  async function addKey(who: SignedIn, exchange: string): Promise<ApiKey> {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange }, { token: who.accessToken });
    expect(c.statusCode).toBe(200);
    const res = await t.client.post('/v1/api-keys', { name: `${exchange} key`, exchange, network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  }
  async function setLimit(who: SignedIn, dailyLossLimit: number | null) {
    const res = await t.client.patch('/v1/users/settings/trade', { userId: who.id, dailyLossLimit }, { token: admin.accessToken });
    expect(res.statusCode, res.body).toBe(200);
  }
  const call = (who: SignedIn, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.client.request(method, url, body, { token: who.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });
  const base = () => `/v1/trade/${key.id}`;
  const adminBase = () => `/v1/users/${funded.id}/trade/${key.id}`;
  const limits = async (url = `${base()}/limits`, who = funded): Promise<TradeLimitsStatus> => {
    const res = await call(who, 'GET', url);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<TradeLimitsStatus>();
  };
  async function lastPrice(symbol: string): Promise<Decimal> {
    const res = await t.app.inject({ method: 'GET', url: `/sim/binance/fapi/v1/ticker/24hr?symbol=${symbol}` });
    return dec(res.json<{ lastPrice: string }>().lastPrice);
  }
  const onTick = (x: Decimal, mode: 'down' | 'up') => fixed(x, 1, mode);
  const marketOrder = (symbol: string, side: 'BUY' | 'SELL', qty: string, extra: object = {}) => call(funded, 'POST', `${base()}/orders`, { symbol, side, type: 'MARKET', qty, ...extra });
  const close = async (symbol: string) => {
    const res = await call(funded, 'POST', `${base()}/positions/close`, { symbol, percent: 100, type: 'MARKET' });
    expect(res.statusCode, res.body).toBe(201);
  };
  /** The exchange's own fills of today (read through the API: this records them too). */
  async function exchangeFills(symbol: string): Promise<Fill[]> {
    const res = await call(funded, 'GET', `${base()}/fills?symbol=${symbol}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: Fill[] }>().data;
  }
  /** fee − realised, summed: the loss of a set of linear (USDT) fills. */
  const lossOf = (list: Fill[]) => list.reduce((a, f) => add(a, sub(dec(f.fee), dec(f.realisedPnl))), dec(0));
  const recorded = () => t.db.select().from(fills).where(eq(fills.apiKeyId, key.id));
  const same = (a: string | Decimal, b: string | Decimal) => expect(str(dec(a)), `${str(dec(a))} vs ${str(dec(b))}`).toBe(str(dec(b)));

  it('losses on two symbols add up in the day ledger, each fill recorded with its key and realised PnL in USD', async () => {
    for (const [symbol, qty] of [
      ['BTCUSDT', '0.010'],
      ['ETHUSDT', '0.100'],
    ] as const) {
      const opened = await marketOrder(symbol, 'BUY', qty);
      expect(opened.statusCode, opened.body).toBe(201);
      await close(symbol);
    }
    const status = await limits();
    const [btc, eth] = [await exchangeFills('BTCUSDT'), await exchangeFills('ETHUSDT')];
    expect(btc).toHaveLength(2);
    expect(eth).toHaveLength(2);
    // Bought at the ask, sold at the bid, fees on both: a loss on each symbol, and the ledger holds both.
    expect(cmp(lossOf(btc), dec(0))).toBe(1);
    expect(cmp(lossOf(eth), dec(0))).toBe(1);
    expect(status).toMatchObject({ funded: true, dailyLossLimit: '1000000', locked: false, lockedUntil: null, reason: null });
    same(status.lossToday, add(lossOf(btc), lossOf(eth)));

    const rows = await recorded();
    expect(rows).toHaveLength(4);
    for (const f of [...btc, ...eth]) {
      const row = rows.find((r) => r.externalId.includes(`:${f.id}:`) && r.symbol === f.symbol);
      expect(row, f.id).toBeDefined();
      same(row!.realisedPnlUsd ?? 'null', f.realisedPnl);
      expect(row!.apiKeyId).toBe(key.id);
    }
  });

  it('a stop that filled while nobody read the fills counts, once, when the ledger refreshes', async () => {
    const before = await limits();
    const opened = await marketOrder('BTCUSDT', 'BUY', '0.010');
    expect(opened.statusCode, opened.body).toBe(201);
    const trigger = onTick(mul(await lastPrice('BTCUSDT'), dec('0.998')), 'down');
    const stop = await call(funded, 'POST', `${base()}/orders`, { symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', qty: '0.010', triggerPrice: trigger, reduceOnly: true });
    expect(stop.statusCode, stop.body).toBe(201);
    // The background recording after each order reads the fills of that moment: let it finish.
    await expect.poll(async () => (await recorded()).length).toBe(5);

    // The market falls through the stop; only positions are read (they record no fills). The key's account
    // state, open since the trading calls, may hear the fill on the private stream and record it at once;
    // else the ledger's refresh does. Either way it is recorded, once.
    for (let i = 0; i < 240 && cmp(await lastPrice('BTCUSDT'), dec(trigger)) >= 0; i++) clock.advance(60_000);
    expect(cmp(await lastPrice('BTCUSDT'), dec(trigger))).toBe(-1);
    expect((await call(funded, 'GET', `${base()}/positions`)).json<Position[]>()).toEqual([]);

    const after = await limits();
    const rows = await recorded();
    const btc = await exchangeFills('BTCUSDT');
    // Newest first: the stop's fill, a sale at a loss, recorded by the stream or the refresh (not by this read).
    expect(btc[0]).toMatchObject({ side: 'SELL' });
    expect(cmp(dec(btc[0].realisedPnl), dec(0))).toBe(-1);
    expect(rows.filter((r) => r.externalId.includes(`:${btc[0].id}:`))).toHaveLength(1);
    expect(new Set(rows.map((r) => r.externalId)).size).toBe(rows.length);
    same(after.lossToday, add(lossOf(btc), lossOf(await exchangeFills('ETHUSDT'))));
    // The stop's loss is in it: today's loss grew by more than the entry's fee.
    expect(cmp(dec(after.lossToday), dec(before.lossToday))).toBe(1);
  });

  it('at the limit, new risk is refused (422 naming dailyLossLimit) while a reduce-only order and a close still work', async () => {
    await t.setFlag('FF_LADDER_ORDERS', true);
    await t.setFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED', true);
    expect((await marketOrder('BTCUSDT', 'BUY', '0.010')).statusCode).toBe(201);
    const last = await lastPrice('BTCUSDT');
    const waiting = await call(funded, 'POST', `${base()}/orders`, { symbol: 'BTCUSDT', side: 'BUY', type: 'STOP_MARKET', qty: '0.010', triggerPrice: onTick(mul(last, dec('1.2')), 'up') });
    expect(waiting.statusCode, waiting.body).toBe(201);

    // Brackets need the key's consent to server guarding (else 409 before any limit is judged).
    const custody = await t.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: funded.accessToken });
    expect(custody.statusCode, custody.body).toBe(200);

    // The limit is set at today's loss (to the 8 decimals a limit keeps, rounded down): reached.
    const loss = dec((await limits()).lossToday);
    const limit = fixed(loss, 8, 'down');
    expect(cmp(dec(limit), dec(0))).toBe(1);
    await setLimit(funded, Number(limit));

    const locked = /^Daily loss limit reached: a loss of \$[\d,]+\.\d\d today against your limit of \$[\d,]+\.\d\d\. Only orders that reduce a position and closes are accepted until 00:00 UTC \(2026-06-02T00:00:00\.000Z\)$/;
    const refusals = [
      await marketOrder('BTCUSDT', 'BUY', '0.010'),
      await marketOrder('ETHUSDT', 'SELL', '0.100'),
      await call(funded, 'POST', `${base()}/brackets`, {
        symbol: 'BTCUSDT',
        side: 'BUY',
        qty: '0.010',
        entry: { type: 'MARKET' },
        stopLoss: { triggerPrice: onTick(mul(last, dec('0.9')), 'down') },
        takeProfits: [{ price: onTick(mul(last, dec('1.1')), 'up'), qtyPercent: 100 }],
      }),
      await call(funded, 'POST', `${base()}/ladders`, { symbol: 'BTCUSDT', side: 'BUY', qty: '0.030', from: onTick(mul(last, dec('0.8')), 'down'), to: onTick(mul(last, dec('0.7')), 'down'), count: 3, distribution: 'linear' }),
      await call(funded, 'POST', `${base()}/orders/${encodeURIComponent(waiting.json<Order>().id)}/execute`),
    ];
    for (const [i, res] of refusals.entries()) {
      expect(res.statusCode, `${i}: ${res.body}`).toBe(422);
      const body = res.json<Err>();
      expect(body.message).toMatch(locked);
      expect(body.fields?.dailyLossLimit).toBe(body.message);
    }
    // Leverage: up is new risk (422), down on the open position is not.
    const position = (await call(funded, 'GET', `${base()}/positions?symbol=BTCUSDT`)).json<Position[]>()[0];
    const up = await call(funded, 'PUT', `${base()}/leverage`, { symbol: 'BTCUSDT', leverage: Number(position.leverage) + 5 });
    expect(up.statusCode, up.body).toBe(422);
    expect(up.json<Err>().fields).toHaveProperty('dailyLossLimit');
    const down = await call(funded, 'PUT', `${base()}/leverage`, { symbol: 'BTCUSDT', leverage: 2 });
    expect(down.statusCode, down.body).toBe(200);

    // Reducing and closing still work.
    const reduce = await marketOrder('BTCUSDT', 'SELL', '0.005', { reduceOnly: true });
    expect(reduce.statusCode, reduce.body).toBe(201);
    await close('BTCUSDT');
    expect((await call(funded, 'DELETE', `${base()}/orders?symbol=BTCUSDT`)).statusCode).toBe(200);
    expect((await call(funded, 'GET', `${base()}/positions`)).json<Position[]>()).toEqual([]);
  });

  it('/limits says locked and until when (the admin twin too, without an audit row); another user’s key is not funded', async () => {
    const status = await limits();
    expect(status).toMatchObject({ funded: true, locked: true, lockedUntil: MIDNIGHT });
    expect(status.reason).toMatch(/^Daily loss limit reached: .* until 00:00 UTC \(2026-06-02T00:00:00\.000Z\)$/);
    expect(cmp(dec(status.lossToday), dec(status.dailyLossLimit ?? 'x'))).toBeGreaterThanOrEqual(0);
    expect(await limits(`${adminBase()}/limits`, admin)).toMatchObject({ funded: true, locked: true, lockedUntil: MIDNIGHT });
    expect(await t.db.select().from(adminTradeAudit)).toEqual([]);

    const other = await t.signInAs('user');
    const otherKey = await addKey(other, 'binance');
    expect(await limits(`/v1/trade/${otherKey.id}/limits`, other)).toEqual({ funded: false, dailyLossLimit: null, lossToday: '0', locked: false, lockedUntil: null, reason: null });
    // The call above unlocked the key for that sign-in only: another sign-in without the key password is refused.
    expect((await t.client.get(`/v1/trade/${otherKey.id}/limits`, { token: other.accessToken })).statusCode).toBe(200);
    const again = (await t.client.post('/v1/auth/signin', { email: other.email, password: other.password })).json<{ accessToken: string }>();
    expect((await t.client.get(`/v1/trade/${otherKey.id}/limits`, { token: again.accessToken })).statusCode).toBe(403);
    expect((await call(funded, 'GET', `/v1/trade/${otherKey.id}/limits`)).statusCode).toBe(404);
  });

  it('an admin order on the funded user’s key writes one audit row with the body and the result, a refused one too', async () => {
    const order = { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0.010' };
    const refused = await call(admin, 'POST', `${adminBase()}/orders`, order);
    expect(refused.statusCode).toBe(422);
    await setLimit(funded, 1_000_000);
    const placed = await call(admin, 'POST', `${adminBase()}/orders`, order);
    expect(placed.statusCode, placed.body).toBe(201);
    const closed = await call(admin, 'POST', `${adminBase()}/positions/close`, { symbol: 'BTCUSDT', percent: 100, type: 'MARKET' });
    expect(closed.statusCode, closed.body).toBe(201);
    // Reads are not audited; neither is a user who is not an admin (403 before anything ran).
    expect((await call(admin, 'GET', `${adminBase()}/balance`)).statusCode).toBe(200);
    expect((await call(funded, 'POST', `${adminBase()}/orders`, order)).statusCode).toBe(403);

    const rows = await t.db.select().from(adminTradeAudit).where(and(eq(adminTradeAudit.ownerId, funded.id))).orderBy(adminTradeAudit.at);
    expect(rows).toHaveLength(3);
    const body = { ...order, reduceOnly: false, postOnly: false, timeInForce: 'GTC' };
    expect(rows[0]).toMatchObject({ actorId: admin.id, ownerId: funded.id, apiKeyId: key.id, method: 'POST', route: ADMIN_ORDERS, body, status: 422 });
    expect(rows[0].result).toBe(refused.json<Err>().message);
    expect(rows[1]).toMatchObject({ method: 'POST', route: ADMIN_ORDERS, body, status: 201, result: 'ok' });
    expect(rows[2]).toMatchObject({ method: 'POST', route: '/v1/users/:userId/trade/:apiKeyId/positions/close', body: { symbol: 'BTCUSDT', percent: 100, type: 'MARKET' }, status: 201, result: 'ok' });
    expect(JSON.stringify(rows)).not.toContain(KEY_PASSWORD);

    // The admin's list: newest first, with who and which key, cursor-paged.
    const first = await t.client.get(`/v1/users/${funded.id}/trade-audit?limit=2`, { token: admin.accessToken });
    expect(first.statusCode, first.body).toBe(200);
    const page = first.json<AdminTradeAuditPage>();
    expect(page.data.map((r) => [r.status, r.result === 'ok'])).toEqual([
      [201, true],
      [201, true],
    ]);
    expect(page.data[0]).toMatchObject({ actorId: admin.id, actorEmail: admin.email, apiKeyId: key.id, apiKeyName: key.name, route: '/v1/users/:userId/trade/:apiKeyId/positions/close' });
    expect(page.meta.nextCursor).not.toBeNull();
    const second = (await t.client.get(`/v1/users/${funded.id}/trade-audit?limit=2&cursor=${page.meta.nextCursor}`, { token: admin.accessToken })).json<AdminTradeAuditPage>();
    expect(second.data).toHaveLength(1);
    expect(second.data[0]).toMatchObject({ status: 422, body, result: rows[0].result });
    expect(second.meta.nextCursor).toBeNull();
  });

  it('XBT-settled fills (BitMEX XBTUSD): realised PnL and fee recorded in USD at the fill price, exactly', async () => {
    const trader = await t.signInAs('user');
    const xbt = await addKey(trader, 'bitmex');
    const xb = `/v1/trade/${xbt.id}`;
    expect((await call(trader, 'POST', `${xb}/orders`, { symbol: 'XBTUSD', side: 'BUY', type: 'MARKET', qty: '100' })).statusCode).toBe(201);
    expect((await call(trader, 'POST', `${xb}/positions/close`, { symbol: 'XBTUSD', percent: 100, type: 'MARKET' })).statusCode).toBe(201);
    const page = (await call(trader, 'GET', `${xb}/fills?symbol=XBTUSD`)).json<{ data: Fill[] }>().data;
    expect(page).toHaveLength(2);
    const rows = await t.db.select().from(fills).where(eq(fills.apiKeyId, xbt.id));
    expect(rows).toHaveLength(2);
    for (const f of page) {
      expect(f.feeCurrency).toBe('XBT');
      const row = rows.find((r) => r.externalId.includes(`:${f.id}:`));
      same(row?.realisedPnlUsd ?? 'null', fixed(mul(dec(f.realisedPnl), dec(f.price)), 12));
    }
    // The closing fill realised something (the spread at least): a coin amount, converted, not left in XBT.
    const closing = page.find((f) => f.side === 'SELL');
    expect(cmp(dec(closing?.realisedPnl ?? '0'), dec(0))).not.toBe(0);
  });

  it('the audit list and the day view are admin-only: 401 without a token, 403 for a user, 404 for nobody, 400 naming a bad cursor', async () => {
    for (const path of ['trade-audit', 'daily-loss']) {
      expect((await t.client.get(`/v1/users/${funded.id}/${path}`)).statusCode).toBe(401);
      const asUser = await t.client.get(`/v1/users/${funded.id}/${path}`, { token: funded.accessToken });
      expect(asUser.statusCode).toBe(403);
      expect((await t.client.get(`/v1/users/${UUID0}/${path}`, { token: admin.accessToken })).statusCode).toBe(404);
      expect((await t.client.get(`/v1/users/not-a-uuid/${path}`, { token: admin.accessToken })).json<Err>().fields).toHaveProperty('userId');
    }
    const bad = await t.client.get(`/v1/users/${funded.id}/trade-audit?cursor=nonsense`, { token: admin.accessToken });
    expect(bad.statusCode).toBe(400);
    expect(bad.json<Err>().fields).toHaveProperty('cursor');
  });

  it('the day view shows each key’s recorded loss today against the limit (the admin holds no key password)', async () => {
    const user = await t.signInAs('user');
    const [a, b] = [await addKey(user, 'binance'), await addKey(user, 'bybit')];
    expect((await t.client.post('/v1/users/funded', { userId: user.id }, { token: admin.accessToken })).statusCode).toBe(201);
    await setLimit(user, 5);
    // The admin's view is the server's day (no exchange to ask): fills recorded now, one key over the limit.
    const now = new Date();
    const fill = (apiKeyId: string, id: string, realisedPnlUsd: string, feeUsd: string) => ({
      userId: user.id, exchange: 'binance' as const, network: 'MAINNET' as const, symbol: 'BTCUSDT', side: 'SELL' as const, qty: '0.01', price: '70000', feeUsd, realisedPnlUsd, apiKeyId, time: now, externalId: `day-view:${id}`,
    });
    await recordFills(t.db, [fill(a.id, '1', '-4.5', '0.25'), fill(a.id, '2', '-0.5', '0.25'), fill(b.id, '3', '1.25', '0.5')]);
    const res = await t.client.get(`/v1/users/${user.id}/daily-loss`, { token: admin.accessToken });
    expect(res.statusCode, res.body).toBe(200);
    const day = res.json<FundedDailyLoss>();
    expect(day.dailyLossLimit).toBe('5');
    expect(Date.parse(day.dayEnd) - Date.parse(day.dayStart)).toBe(86_400_000);
    expect(day.keys).toEqual([
      { apiKeyId: a.id, name: a.name, exchange: 'binance', network: 'MAINNET', lossToday: '5.5', locked: true },
      { apiKeyId: b.id, name: b.name, exchange: 'bybit', network: 'MAINNET', lossToday: '0', locked: false },
    ]);
    // Recording the same executions again changes nothing.
    expect(await recordFills(t.db, [fill(a.id, '1', '-4.5', '0.25')])).toEqual({ inserted: 0, duplicates: 1 });
  });
});
