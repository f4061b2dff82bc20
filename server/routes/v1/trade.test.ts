/**
 * `/v1/trade` against the paper exchange in-process (MARKET_DATA=sim, a manual market clock), on
 * PGlite and PostgreSQL: every route's success and refusals (400, 401, 403, 404, 422), a bracket's
 * life (entry fills, stop and targets rest, the stop moves, the first target fills, the rest closes),
 * fills recorded once for the admin's volume, and funded-user limits.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { Balance, BracketResult, Fill, Order, Position } from '../../../src/api/contracts/trading';
import { fills } from '../../db/schema-fills';
import { LEVERAGE_RULES } from '../../services/trading/leverage-rules';
import { manualClock } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';
import { holdTimersOf, until } from '../../test/waiting';

const KEY_PASSWORD = 'key-password-1';
const SEED = 'trade-routes';
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const UUID0 = '00000000-0000-4000-8000-000000000000';

/** Sizes are in each exchange's order unit: BTC on Binance and Bybit, contracts of 0.01 BTC on OKX, USD on BitMEX XBTUSD. */
interface Venue {
  exchange: 'binance' | 'bybit' | 'okx' | 'bitmex';
  symbol: string;
  /** 0.01 BTC, 0.02, 0.03, 0.1, 50 BTC; a size below the minimum; 0.1 ETH. */
  qty: string;
  qty2: string;
  qty3: string;
  big: string;
  huge: string;
  tooSmall: string;
  eth: string;
  marginMessage: RegExp;
  /** Price tick, settle currency and starting balance, category, USD notional of a fill. */
  tick: number;
  currency: string;
  start: number;
  category: 'linear' | 'inverse';
  notional: (price: number, qty: number) => number;
}
const linearBtc = { tick: 0.1, currency: 'USDT', start: 10_000, category: 'linear' as const, notional: (price: number, qty: number) => price * qty };
const VENUES: Venue[] = [
  { exchange: 'binance', symbol: 'BTCUSDT', qty: '0.010', qty2: '0.020', qty3: '0.030', big: '0.100', huge: '50.000', tooSmall: '0.0001', eth: '0.100', marginMessage: /^binance: Margin is insufficient\. \(-2019\)$/, ...linearBtc },
  { exchange: 'bybit', symbol: 'BTCUSDT', qty: '0.010', qty2: '0.020', qty3: '0.030', big: '0.100', huge: '50.000', tooSmall: '0.0001', eth: '0.10', marginMessage: /^bybit: Available balance is insufficient \(110007\)$/, ...linearBtc },
  { exchange: 'okx', symbol: 'BTCUSDT', qty: '1', qty2: '2', qty3: '3', big: '10', huge: '5000', tooSmall: '0.001', eth: '1', marginMessage: /^okx: Order failed\. Insufficient USDT margin in account \(51008\)$/, ...linearBtc, notional: (price, qty) => price * qty * 0.01 },
  {
    exchange: 'bitmex',
    symbol: 'XBTUSD',
    qty: '100',
    qty2: '200',
    qty3: '300',
    big: '2000',
    huge: '10000000',
    tooSmall: '50',
    eth: '1000',
    marginMessage: /^BitMEX: Account has insufficient Available Balance \(400\)$/,
    tick: 0.5,
    currency: 'XBT',
    start: 1,
    category: 'inverse',
    notional: (_price, qty) => qty,
  },
];

/** A price on the instrument's tick, rounded down or up, as the decimal string the API takes. */
function onTick(x: number, tick: number, dir: 'floor' | 'ceil'): string {
  const n = Math[dir](x / tick) * tick;
  return n.toFixed(tick < 1 ? String(tick).split('.')[1].length : 0);
}

describe.each(TEST_DRIVERS)('/v1/trade on %s (simulator)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  let other: SignedIn;
  let admin: SignedIn;
  const clock = manualClock(T0);

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market: { sim: { now: clock.now, seed: SEED } } });
    [user, other, admin] = await Promise.all([t.signInAs('user'), t.signInAs('user'), t.signInAs('admin')]);
  });
  afterAll(() => t?.close());

  const addKey = async (who: SignedIn, exchange: string, network = 'MAINNET'): Promise<ApiKey> => {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange }, { token: who.accessToken });
    expect(c.statusCode).toBe(200);
    const res = await t.client.post('/v1/api-keys', { name: `${exchange} key`, exchange, network, ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    // Brackets are guarded by the server: the owner's consent for the key (issue 21).
    const custody = await t.client.put(`/v1/api-keys/${res.json<ApiKey>().id}/server-custody`, undefined, { token: who.accessToken });
    expect(custody.statusCode, custody.body).toBe(200);
    return res.json<ApiKey>();
  };
  const call = (who: SignedIn, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, password = KEY_PASSWORD) =>
    t.client.request(method, url, body, { token: who.accessToken, headers: { 'x-key-password': password } });

  describe.each(VENUES)('$exchange', (v) => {
    let key: ApiKey;
    const base = () => `/v1/trade/${key.id}`;
    beforeAll(async () => {
      key = await addKey(user, v.exchange);
    });

    it('answers the balance of a fresh paper account: 10,000 USDT (linear) or 1 XBT (BitMEX)', async () => {
      const res = await call(user, 'GET', `${base()}/balance`);
      expect(res.statusCode, res.body).toBe(200);
      const b = res.json<Balance>();
      expect(b.currency).toBe(v.currency);
      expect(Number(b.total)).toBe(v.start);
      expect(Number(b.available)).toBe(v.start);
    });

    it('places a market order, shows the position and records its fill once', async () => {
      const res = await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.qty });
      expect(res.statusCode, res.body).toBe(201);
      const order = res.json<Order>();
      expect(order).toMatchObject({ exchange: v.exchange, symbol: v.symbol, side: 'BUY', type: 'MARKET', status: 'FILLED', filledQty: order.qty });
      expect(Number(order.qty)).toBe(Number(v.qty));

      const positions = (await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>();
      expect(positions).toHaveLength(1);
      expect(positions[0]).toMatchObject({ symbol: v.symbol, side: 'BUY', marginMode: 'CROSS', category: v.category });
      expect(Number(positions[0].size)).toBe(Number(v.qty));

      const f = await call(user, 'GET', `${base()}/fills?symbol=${v.symbol}`);
      expect(f.statusCode).toBe(200);
      const page = f.json<{ data: Fill[] }>();
      expect(page.data.length).toBeGreaterThanOrEqual(1);
      expect(page.data[0]).toMatchObject({ side: 'BUY', symbol: v.symbol });
      // Read twice, recorded once (the order route already recorded it in the background).
      await call(user, 'GET', `${base()}/fills?symbol=${v.symbol}`);
      const rows = await t.db.select().from(fills).where(and(eq(fills.userId, user.id), eq(fills.exchange, v.exchange)));
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].notionalUsd)).toBeCloseTo(v.notional(Number(page.data[0].price), Number(v.qty)), 6);

      const close = await call(user, 'POST', `${base()}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' });
      expect(close.statusCode, close.body).toBe(201);
      expect((await call(user, 'GET', `${base()}/positions`)).json<Position[]>()).toEqual([]);
    });

    it('a TESTNET key trades its own paper account, not the MAINNET one (OKX demo: the exchange\'s x-simulated-trading header)', async () => {
      const testnet = await addKey(user, v.exchange, 'TESTNET');
      // Far below the market (it rests); Binance's 100 USDT minimum notional needs the larger size there.
      const price = onTick(2000, v.tick, 'floor');
      const placed = await call(user, 'POST', `/v1/trade/${testnet.id}/orders`, { symbol: v.symbol, side: 'BUY', type: 'LIMIT', price, qty: v.exchange === 'binance' ? v.big : v.qty });
      expect(placed.statusCode, placed.body).toBe(201);
      const id = placed.json<Order>().id;
      expect((await call(user, 'GET', `/v1/trade/${testnet.id}/orders?symbol=${v.symbol}`)).json<Order[]>().map((o) => o.id)).toContain(id);
      expect((await call(user, 'GET', `${base()}/orders?symbol=${v.symbol}`)).json<Order[]>().map((o) => o.id)).not.toContain(id);
      expect((await call(user, 'DELETE', `/v1/trade/${testnet.id}/orders/${id}`)).statusCode).toBe(200);
    });

    it('400 names the field: a price off the tick, a size below the minimum, an unknown symbol', async () => {
      const offTick = await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'LIMIT', qty: v.qty, price: '50000.05' });
      expect(offTick.statusCode).toBe(400);
      expect(offTick.json<{ fields: Record<string, string> }>().fields).toHaveProperty('price');
      const small = await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.tooSmall });
      expect(small.statusCode).toBe(400);
      expect(small.json<{ fields: Record<string, string> }>().fields).toHaveProperty('qty');
      const unknown = await call(user, 'GET', `${base()}/positions?symbol=NOPEUSDT`);
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json<{ fields: Record<string, string> }>().fields).toHaveProperty('symbol');
    });

    it('422 with the exchange message when the margin does not cover the order', async () => {
      const res = await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.huge });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(v.marginMessage);
    });

    it('401 without a token, 403 on a wrong key password, 404 on another user\'s key', async () => {
      expect((await t.client.get(`${base()}/balance`, { headers: { 'x-key-password': KEY_PASSWORD } })).statusCode).toBe(401);
      const wrong = await call(user, 'GET', `${base()}/balance`, undefined, 'not-the-password');
      expect(wrong.statusCode).toBe(403);
      expect(wrong.json()).toMatchObject({ message: 'Wrong key password' });
      expect((await call(other, 'GET', `${base()}/balance`)).statusCode).toBe(404);
      expect((await call(user, 'GET', `/v1/trade/${UUID0}/balance`)).statusCode).toBe(404);
      // The managed-bracket list too: someone else's key is not found, not an empty list.
      expect((await call(user, 'GET', `${base()}/managed`)).statusCode).toBe(200);
      const managed = await call(other, 'GET', `${base()}/managed`);
      expect(managed.statusCode).toBe(404);
      expect(managed.json()).toEqual({ message: 'API key not found' });
      // No password, and no unlock of the key by this sign-in (a new one): 403 (issue 25, trade-unlock.test.ts).
      const fresh = (await t.client.post('/v1/auth/signin', { email: user.email, password: user.password })).json<{ accessToken: string }>();
      const noPassword = await t.client.get(`${base()}/balance`, { token: fresh.accessToken });
      expect(noPassword.statusCode).toBe(403);
    });

    it('a bracket: the entry fills, stop and targets rest; the stop moves; the first target fills; the rest closes', async () => {
      const last = Number((await call(user, 'GET', `${base()}/balance`)).statusCode === 200 ? await lastPrice(v) : 0);
      const stop = onTick(last * 0.8, v.tick, 'floor');
      const tp1 = onTick(last * 1.0005, v.tick, 'ceil');
      const tp2 = onTick(last * 1.3, v.tick, 'ceil');
      const res = await call(user, 'POST', `${base()}/brackets`, {
        symbol: v.symbol,
        side: 'BUY',
        qty: v.qty2,
        entry: { type: 'MARKET' },
        stopLoss: { triggerPrice: stop },
        takeProfits: [
          { price: tp1, qtyPercent: 50 },
          { price: tp2, qtyPercent: 50 },
        ],
      });
      expect(res.statusCode, res.body).toBe(201);
      const b = res.json<BracketResult>();
      expect(b.orders.map((o) => [o.role, o.type, o.side, o.reduceOnly])).toEqual([
        ['entry', 'MARKET', 'BUY', false],
        ['stop-loss', 'STOP_MARKET', 'SELL', true],
        ['take-profit', 'TAKE_PROFIT', 'SELL', true],
        ['take-profit', 'TAKE_PROFIT', 'SELL', true],
      ]);
      expect(b.orders.every((o) => o.bracketId === b.bracketId)).toBe(true);
      expect(b.orders[0].status).toBe('FILLED');
      expect(b.orders.slice(1).map((o) => o.status)).toEqual(['UNTRIGGERED', 'UNTRIGGERED', 'UNTRIGGERED']);

      // Move the stop up: the open orders show it at the new trigger, still the bracket's stop-loss.
      const newStop = onTick(last * 0.9, v.tick, 'floor');
      const moved = await call(user, 'PATCH', `${base()}/orders/${encodeURIComponent(b.orders[1].id)}`, { triggerPrice: newStop });
      expect(moved.statusCode, moved.body).toBe(200);
      expect(moved.json<Order>()).toMatchObject({ role: 'stop-loss', bracketId: b.bracketId, status: 'UNTRIGGERED' });
      const open = (await call(user, 'GET', `${base()}/orders?symbol=${v.symbol}`)).json<Order[]>();
      const stops = open.filter((o) => o.role === 'stop-loss');
      expect(stops).toHaveLength(1);
      expect(Number(stops[0].triggerPrice)).toBe(Number(newStop));

      // Let the market run until the first target fills (the seeded path rises 0.05 % within the day).
      for (let i = 0; i < 24 * 60; i++) {
        clock.advance(60_000);
        const p = (await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>();
        if (!p.length || Number(p[0].size) < Number(v.qty2)) break;
      }
      const after = (await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>();
      expect(after).toHaveLength(1);
      expect(Number(after[0].size)).toBe(Number(v.qty));

      // Close the rest, cancel what is left: flat, no open orders, every fill recorded.
      expect((await call(user, 'POST', `${base()}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' })).statusCode).toBe(201);
      const cancelled = await call(user, 'DELETE', `${base()}/orders?symbol=${v.symbol}`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect((await call(user, 'GET', `${base()}/orders?symbol=${v.symbol}`)).json<Order[]>()).toEqual([]);
      const page = (await call(user, 'GET', `${base()}/fills?symbol=${v.symbol}`)).json<{ data: Fill[] }>();
      const rows = await t.db.select().from(fills).where(and(eq(fills.userId, user.id), eq(fills.exchange, v.exchange)));
      expect(rows.length).toBe(page.data.length);
    });

    it('the stop of a bracket must be on the losing side of the entry (400, nothing sent)', async () => {
      const last = await lastPrice(v);
      const res = await call(user, 'POST', `${base()}/brackets`, {
        symbol: v.symbol,
        side: 'BUY',
        qty: v.qty,
        entry: { type: 'MARKET' },
        stopLoss: { triggerPrice: onTick(last * 1.1, v.tick, 'ceil') },
        takeProfits: [{ price: onTick(last * 1.2, v.tick, 'ceil'), qtyPercent: 100 }],
      });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ fields: Record<string, string> }>().fields).toHaveProperty(['stopLoss.triggerPrice']);
      expect((await call(user, 'GET', `${base()}/positions?symbol=${v.symbol}`)).json<Position[]>()).toEqual([]);
    });

    it('a limit order rests, is amended, then cancelled; an unknown order is 404', async () => {
      const last = await lastPrice(v);
      const price = onTick(last * 0.7, v.tick, 'floor');
      const placed = await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'LIMIT', qty: v.qty, price, clientOrderId: `lim${v.exchange}${driver}` });
      expect(placed.statusCode, placed.body).toBe(201);
      const o = placed.json<Order>();
      expect(o).toMatchObject({ status: 'NEW', type: 'LIMIT', clientOrderId: `lim${v.exchange}${driver}` });
      const lower = onTick(last * 0.6, v.tick, 'floor');
      const amended = await call(user, 'PATCH', `${base()}/orders/${encodeURIComponent(o.id)}`, { price: lower });
      expect(amended.statusCode, amended.body).toBe(200);
      expect(Number(amended.json<Order>().price)).toBe(Number(lower));
      const cancelled = await call(user, 'DELETE', `${base()}/orders/${encodeURIComponent(o.id)}`);
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      expect(cancelled.json<Order>().status).toBe('CANCELED');
      expect((await call(user, 'DELETE', `${base()}/orders/${encodeURIComponent(o.id)}`)).statusCode).toBe(404);
      expect((await call(user, 'DELETE', `${base()}/orders/nonsense`)).statusCode).toBe(404);
      const history = await call(user, 'GET', `${base()}/orders/history?symbol=${v.symbol}`);
      expect(history.statusCode).toBe(200);
      expect(history.json<{ data: Order[] }>().data.some((h) => h.id === o.id && h.status === 'CANCELED')).toBe(true);
    });

    it('every conditional type rests untriggered and cancels: stop-market, stop-limit, take-profit, take-profit-market', async () => {
      const last = await lastPrice(v);
      const sell = (type: string, trigger: number, price?: number) => ({ symbol: v.symbol, side: 'SELL', type, qty: v.qty, triggerPrice: onTick(trigger, v.tick, 'floor'), ...(price ? { price: onTick(price, v.tick, 'floor') } : {}) });
      const bodies = [sell('STOP_MARKET', last * 0.8), sell('STOP_LIMIT', last * 0.8, last * 0.79), sell('TAKE_PROFIT', last * 1.2, last * 1.21), sell('TAKE_PROFIT_MARKET', last * 1.2)];
      const placed: Order[] = [];
      for (const body of bodies) {
        const res = await call(user, 'POST', `${base()}/orders`, body);
        expect(res.statusCode, `${body.type}: ${res.body}`).toBe(201);
        placed.push(res.json<Order>());
      }
      expect(placed.map((o) => [o.type, o.status])).toEqual([
        ['STOP_MARKET', 'UNTRIGGERED'],
        ['STOP_LIMIT', 'UNTRIGGERED'],
        ['TAKE_PROFIT', 'UNTRIGGERED'],
        ['TAKE_PROFIT_MARKET', 'UNTRIGGERED'],
      ]);
      const open = (await call(user, 'GET', `${base()}/orders?symbol=${v.symbol}`)).json<Order[]>();
      expect(open.map((o) => o.type).sort()).toEqual(['STOP_LIMIT', 'STOP_MARKET', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET']);
      for (const o of placed) expect((await call(user, 'DELETE', `${base()}/orders/${encodeURIComponent(o.id)}`)).statusCode).toBe(200);
      expect((await call(user, 'GET', `${base()}/orders?symbol=${v.symbol}`)).json<Order[]>()).toEqual([]);
    });

    it('leverage and margin mode', async () => {
      const lev = await call(user, 'PUT', `${base()}/leverage`, { symbol: v.symbol, leverage: 5 });
      expect(lev.statusCode, lev.body).toBe(200);
      // A leverage the exchange does not take is a 400 in words before anything is sent (Binance: whole numbers).
      const bad = { binance: 1.5, bybit: 2.345, okx: 0.001, bitmex: 100.5 }[v.exchange];
      const refused = await call(user, 'PUT', `${base()}/leverage`, { symbol: v.symbol, leverage: bad });
      expect(refused.statusCode, refused.body).toBe(400);
      expect(refused.json<{ fields: Record<string, string> }>().fields.leverage).toBe(LEVERAGE_RULES[v.exchange].text);
      if (v.exchange === 'binance') expect(refused.json<{ message: string }>().message).toBe('Invalid leverage: Binance takes whole-number leverage: 1 to 125');
      const mm = await call(user, 'PUT', `${base()}/margin-mode`, { symbol: v.symbol, marginMode: 'ISOLATED' });
      expect(mm.statusCode, mm.body).toBe(200);
      const back = await call(user, 'PUT', `${base()}/margin-mode`, { symbol: v.symbol, marginMode: 'CROSS' });
      expect(back.statusCode, back.body).toBe(200);
    });

    it('ladders and execute-now are behind their flags (403 naming the flag)', async () => {
      await t.setFlag('FF_LADDER_ORDERS', false);
      const last = await lastPrice(v);
      const body = { symbol: v.symbol, side: 'BUY', qty: v.qty3, from: onTick(last * 0.8, v.tick, 'floor'), to: onTick(last * 0.7, v.tick, 'floor'), count: 3, distribution: 'linear' };
      const off = await call(user, 'POST', `${base()}/ladders`, body);
      expect(off.statusCode).toBe(403);
      expect(off.json<{ message: string }>().message).toContain('FF_LADDER_ORDERS');
      await t.setFlag('FF_LADDER_ORDERS', true);
      const on = await call(user, 'POST', `${base()}/ladders`, body);
      expect(on.statusCode, on.body).toBe(201);
      const ladder = on.json<Order[]>();
      expect(ladder.map((o) => Number(o.qty))).toEqual([1, 1, 1].map(() => Number(v.qty)));
      expect(Number(ladder[0].price)).toBeGreaterThan(Number(ladder[2].price));
      expect((await call(user, 'DELETE', `${base()}/orders?symbol=${v.symbol}`)).statusCode).toBe(200);

      const stopAt = onTick(last * 1.2, v.tick, 'ceil');
      const cond = (await call(user, 'POST', `${base()}/orders`, { symbol: v.symbol, side: 'BUY', type: 'STOP_MARKET', qty: v.qty, triggerPrice: stopAt })).json<Order>();
      expect(cond.status).toBe('UNTRIGGERED');
      await t.setFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED', false);
      const execOff = await call(user, 'POST', `${base()}/orders/${encodeURIComponent(cond.id)}/execute`);
      expect(execOff.statusCode).toBe(403);
      await t.setFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED', true);
      const exec = await call(user, 'POST', `${base()}/orders/${encodeURIComponent(cond.id)}/execute`);
      expect(exec.statusCode, exec.body).toBe(201);
      expect(exec.json<Order>()).toMatchObject({ type: 'MARKET', status: 'FILLED' });
      expect((await call(user, 'POST', `${base()}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' })).statusCode).toBe(201);
    });

    it('funded-user limits: 422 naming the limit; reduce-only always passes; an admin trades for the user', async () => {
      const funded = await t.signInAs('user');
      const fkey = await addKey(funded, v.exchange);
      expect((await t.client.post('/v1/users/funded', { userId: funded.id }, { token: admin.accessToken })).statusCode).toBe(201);
      const patch = await t.client.patch('/v1/users/settings/trade', { userId: funded.id, maxLeverage: 3, maxPositionNotional: 1000, allowedSymbols: [v.symbol] }, { token: admin.accessToken });
      expect(patch.statusCode, patch.body).toBe(200);
      const fb = `/v1/trade/${fkey.id}`;
      const lev = await call(funded, 'PUT', `${fb}/leverage`, { symbol: v.symbol, leverage: 10 });
      expect(lev.statusCode).toBe(422);
      expect(lev.json<{ fields: Record<string, string> }>().fields).toHaveProperty('maxLeverage');
      const big = await call(funded, 'POST', `${fb}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.big });
      expect(big.statusCode).toBe(422);
      expect(big.json<{ message: string; fields: Record<string, string> }>()).toMatchObject({ fields: { maxPositionNotional: expect.stringContaining('$1,000') } });
      const eth = await call(funded, 'POST', `${fb}/orders`, { symbol: 'ETHUSDT', side: 'BUY', type: 'MARKET', qty: v.eth });
      expect(eth.statusCode).toBe(422);
      expect(eth.json<{ fields: Record<string, string> }>().fields).toHaveProperty('allowedSymbols');
      // The admin acts for the funded user (same limits), at /v1/users/{userId}/trade/{apiKeyId}.
      const asAdmin = await call(admin, 'POST', `/v1/users/${funded.id}/trade/${fkey.id}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.qty });
      expect(asAdmin.statusCode, asAdmin.body).toBe(201);
      expect((await call(funded, 'GET', `${fb}/positions`)).json<Position[]>()).toHaveLength(1);
      // Not an admin: 403; not a funded user: 404.
      expect((await call(other, 'GET', `/v1/users/${funded.id}/trade/${fkey.id}/balance`)).statusCode).toBe(403);
      expect((await call(admin, 'GET', `/v1/users/${user.id}/trade/${key.id}/balance`)).statusCode).toBe(404);
      // The admin twin of the managed list: the funded user's key answers, another user's key is a 404.
      expect((await call(admin, 'GET', `/v1/users/${funded.id}/trade/${fkey.id}/managed`)).statusCode).toBe(200);
      expect((await call(admin, 'GET', `/v1/users/${funded.id}/trade/${key.id}/managed`)).statusCode).toBe(404);
      const close = await call(funded, 'POST', `${fb}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' });
      expect(close.statusCode, close.body).toBe(201);
    });

    async function lastPrice(venue: Venue): Promise<number> {
      const url = {
        binance: `/sim/binance/fapi/v1/ticker/24hr?symbol=${venue.symbol}`,
        bybit: `/sim/bybit/v5/market/tickers?category=linear&symbol=${venue.symbol}`,
        okx: '/sim/okx/api/v5/market/ticker?instId=BTC-USDT-SWAP',
        bitmex: '/sim/bitmex/api/v1/instrument?symbol=XBTUSD',
      }[venue.exchange];
      const res = await t.app.inject({ method: 'GET', url });
      const body = res.json<{ lastPrice?: string; result?: { list: Array<{ lastPrice: string }> }; data?: Array<{ last: string }> } | Array<{ lastPrice: number }>>();
      if (Array.isArray(body)) return body[0].lastPrice;
      return Number(body.lastPrice ?? body.result?.list[0].lastPrice ?? body.data?.[0].last);
    }
  });
});



describe.each(TEST_DRIVERS)('/v1/trade against exchange faults on %s (simulator fault hooks)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  let admin: SignedIn;
  let key: ApiKey;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market: { trade: { timeoutMs: 400 } } });
    [user, admin] = await Promise.all([t.signInAs('user'), t.signInAs('admin')]);
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'binance' }, { token: user.accessToken });
    key = (await t.client.post('/v1/api-keys', { name: 'faults', exchange: 'binance', network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: user.accessToken })).json<ApiKey>();
  });
  afterAll(() => t?.close());
  const fault = (body: Record<string, unknown>) => t.client.post('/sim/_control/faults', { exchange: 'binance', ...body }, { token: admin.accessToken });
  const clear = () => t.client.delete('/sim/_control/faults?exchange=binance', { token: admin.accessToken });
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => t.client.request(method, `/v1/trade/${key.id}${url}`, body, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });

  it('a down exchange → 502 naming it; a rate limit → 429 with its message', async () => {
    await fault({ unavailable: true });
    const down = await call('GET', '/balance');
    expect(down.statusCode).toBe(502);
    expect(down.json<{ message: string }>().message).toBe('Could not reach binance: HTTP 503');
    await clear();
    await fault({ rateLimit: true });
    const limited = await call('GET', '/balance');
    expect(limited.statusCode).toBe(429);
    expect(limited.json<{ message: string }>().message).toMatch(/^binance: Too many requests/);
    // The exchange's own wait (its Retry-After: 1) reaches the client.
    expect(limited.headers['retry-after']).toBe('1');
    await clear();
    // Binance said "retry after 1 s": this server holds the key's calls until then instead of hammering it.
    const held = await call('GET', '/balance');
    expect(held.statusCode).toBe(429);
    expect(held.json<{ message: string }>().message).toMatch(/holds further requests for 1 s/);
    expect(held.headers['retry-after']).toBe('1');
    await new Promise((r) => setTimeout(r, 1_100));
    expect((await call('GET', '/balance')).statusCode).toBe(200);
  });

  it('the same order sent again while the first is still at the exchange: 409 naming the field, with Retry-After', async () => {
    await fault({ latencyMs: 1_357 });
    const exchange = holdTimersOf(1_357);
    try {
      const body = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price: '1000.0', qty: '0.200', clientOrderId: `dup${driver}` };
      const first = call('POST', '/orders', body);
      await until('the first order to reach the exchange', async () => (exchange.waiting() > 0 ? true : null));
      const again = await call('POST', '/orders', body);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ message: /still being processed/, fields: { clientOrderId: 'Still being processed' } });
      expect(again.headers['retry-after']).toBe('1');
      await clear();
      exchange.release();
      await first;
    } finally {
      exchange.release();
      await clear();
    }
  });

  it('a slow exchange → 504 within the timeout; the order is never sent twice and its fate is checked by client id', async () => {
    // The exchange holds the order until the test releases it: the server's 0.4 s timeout has
    // nothing to race against, and every request that reaches the exchange meanwhile is counted.
    await fault({ latencyMs: 1_357 });
    const exchange = holdTimersOf(1_357);
    try {
      const res = await call('POST', '/orders', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0.010', clientOrderId: `slow${driver}` });
      expect(res.statusCode).toBe(504);
      expect(res.json<{ message: string }>().message).toMatch(new RegExp(`no answer within 0.4 s\\. Whether the order was placed is unknown: it has client id slow${driver}`));
      // Held at the exchange, unanswered: the order (sent once) and the server's look-up of its fate by client id.
      expect(exchange.waiting()).toBe(2);
      await clear();
      exchange.release(); // the exchange now takes the held order
    } finally {
      exchange.release();
    }
    // The held request went through once; nothing retried it.
    const history = await until('the held order to reach the exchange', async () => {
      const h = (await call('GET', '/orders/history?symbol=BTCUSDT')).json<{ data: Order[] }>();
      return h.data.some((o) => o.clientOrderId === `slow${driver}`) ? h : null;
    });
    expect(history.data.filter((o) => o.clientOrderId === `slow${driver}`)).toHaveLength(1);
    const positions = (await call('GET', '/positions')).json<Position[]>();
    expect(positions.map((p) => Number(p.size))).toEqual([0.01]);
  });
});
