/**
 * The bracket guard (issue 21) on the paper exchange of all four venues, with no browser, on PGlite
 * and PostgreSQL. The simulated market is a pure function of its seed and the clock, so the test
 * reads the path ahead (SimMarket with the same seed) and sets the clock to the moments it needs:
 * - a stop entry whose market goes through the stop before the entry fills: no stop was waiting to
 *   expire, and the stop is on the exchange once the entry has filled;
 * - the position closed from the terminal, or by its stop: the rest of the bracket is cancelled;
 * - a stop the exchange refuses once the entry filled: what the entry filled is closed at market — also
 *   when the entry cannot be cancelled and goes on filling (each part closed, none left unprotected), and
 *   when the trader closed the position first (nothing left to close: the guard ends, not retrying a refusal);
 * - an entry cancelled before it filled: the guard ends, nothing of the bracket is left.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { ActivityEntry, BracketResult, ManagedBracketInfo, Order, Position } from '../../../src/api/contracts/trading';
import { SimMarket } from '../../sim/market/market';
import { manualClock } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';
import { until } from '../../test/waiting';
import { bracketIdFor } from '../trading/ids';

const KEY_PASSWORD = 'key-password-1';
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const SEED = 'bracket-guard';
const MINUTE = 60_000;

interface Venue {
  exchange: 'binance' | 'bybit' | 'okx' | 'bitmex';
  symbol: string;
  /** The simulator's own symbol (OKX: the instId). */
  simSymbol: string;
  qty: string;
  tick: number;
}
const VENUES: Venue[] = [
  { exchange: 'binance', symbol: 'BTCUSDT', simSymbol: 'BTCUSDT', qty: '0.020', tick: 0.1 },
  { exchange: 'bybit', symbol: 'BTCUSDT', simSymbol: 'BTCUSDT', qty: '0.020', tick: 0.1 },
  { exchange: 'okx', symbol: 'BTCUSDT', simSymbol: 'BTC-USDT-SWAP', qty: '2', tick: 0.1 },
  { exchange: 'bitmex', symbol: 'XBTUSD', simSymbol: 'XBTUSD', qty: '200', tick: 0.5 },
];

const fmt = (x: number, tick: number) => (Math.round(x / tick) * tick).toFixed(tick < 1 ? String(tick).split('.')[1].length : 0);


/** The simulated path, minute by minute, as the paper exchange will trade it. */
function path(v: Venue, from: number, minutes: number) {
  const market = new SimMarket({ seed: SEED, now: () => from + minutes * MINUTE + MINUTE });
  const inst = market.instrument(v.exchange, v.simSymbol);
  if (!inst) throw new Error(`no simulated ${v.simSymbol} on ${v.exchange}`);
  const tick = Number(inst.tickSize);
  const start = market.lastTrade(inst, from)!.price * tick;
  const bars = Array.from({ length: minutes }, (_, i) => {
    const agg = market.range(inst, from + i * MINUTE, from + (i + 1) * MINUTE, from + minutes * MINUTE + MINUTE)!;
    return { at: from + i * MINUTE, low: agg.low * tick, high: agg.high * tick };
  });
  return { start, bars };
}

/**
 * A set-up whose market first goes through the stop and only later through the entry. Long: stop S a
 * fraction below the start, a buy-stop entry E above every high before the fall (reached after it).
 * Short, the mirror image. Whichever the simulated path offers first.
 */
function stopBeforeEntry(v: Venue, from: number) {
  const { bars } = path(v, from, 6 * 24 * 60);
  // From the start of any hour of the first four days, within the two days after it.
  for (let s = 0; s < 4 * 24 * 60; s += 60) {
    const start = bars[s]!.low;
    const ahead = bars.slice(s + 1, s + 2 * 24 * 60);
    for (const d of [0.001, 0.002, 0.003, 0.005]) {
      for (const side of ['BUY', 'SELL'] as const) {
        const long = side === 'BUY';
        const stop = long ? start * (1 - d) : start * (1 + d);
        const i1 = ahead.findIndex((b) => (long ? b.low < stop - v.tick : b.high > stop + v.tick));
        if (i1 < 0) continue;
        const before = [bars[s]!, ...ahead.slice(0, i1 + 1)];
        const entry = long ? Math.max(...before.map((b) => b.high)) + 4 * v.tick : Math.min(...before.map((b) => b.low)) - 4 * v.tick;
        const i2 = ahead.findIndex((b, i) => i > i1 && (long ? b.high > entry + v.tick : b.low < entry - v.tick));
        if (i2 < 0) continue;
        return {
          side,
          at: bars[s]!.at + MINUTE,
          stop: fmt(stop, v.tick),
          entry: fmt(entry, v.tick),
          target: fmt(long ? entry * 1.5 : entry * 0.6, v.tick),
          throughStopAt: ahead[i1]!.at + MINUTE,
          throughEntryAt: ahead[i2]!.at + MINUTE,
        };
      }
    }
  }
  throw new Error(`no stop-before-entry path for ${v.exchange} within six days`);
}

/** When the market first trades a fraction `d` below where it starts (a stop there fills). */
function fallOf(v: Venue, from: number, d: number) {
  const { start, bars } = path(v, from, 4 * 24 * 60);
  const level = start * (1 - d);
  const i = bars.findIndex((b) => b.low < level - v.tick);
  if (i < 0) throw new Error(`the market never falls ${d * 100} % within four days on ${v.exchange}`);
  return { stop: fmt(level, v.tick), at: bars[i]!.at + MINUTE };
}

/**
 * A limit buy entry the market fills in two parts: the entry E one tick above a print A that is the lowest
 * of the three minutes before it (so the entry rests until A, and A alone fills part of it), and B, the
 * next print at or below A's price within four minutes (the paper exchange replays at most five minutes
 * of prints per clock jump), which fills more of it or all of it.
 */
function twoPartFill(v: Venue, from: number, qty: number) {
  const market = new SimMarket({ seed: SEED, now: () => from + 7 * 24 * 60 * MINUTE });
  const inst = market.instrument(v.exchange, v.simSymbol)!;
  const step = Number(inst.qtyStep);
  const trades = Array.from({ length: 2 * 24 * 60 }, (_, i) => market.trades(inst, from + 5 * MINUTE + i * MINUTE, from + 5 * MINUTE + (i + 1) * MINUTE)).flat();
  let start = 0;
  for (let i = 0; i < trades.length; i++) {
    const a = trades[i]!;
    while (trades[start]!.time < a.time - 3 * MINUTE) start += 1;
    if (a.time - trades[0]!.time < 3 * MINUTE || a.steps * step > qty * 0.6) continue;
    if (trades.slice(start, i).some((t) => t.price <= a.price + 2)) continue;
    const b = trades.slice(i + 1).find((t) => t.price <= a.price);
    if (!b || b.time - a.time > 4 * MINUTE || b.time === a.time) continue;
    const tick = Number(inst.tickSize);
    return { placeAt: a.time - 2 * MINUTE, entry: fmt((a.price + 1) * tick, tick), stop: fmt(a.price * 0.99 * tick, tick), target: fmt(a.price * 1.2 * tick, tick), firstFill: a.steps * step, atA: a.time, atB: b.time };
  }
  throw new Error(`no two-part fill on ${v.exchange} within two days`);
}

describe.each(TEST_DRIVERS)('the bracket guard on %s (simulator, no browser)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  let admin: SignedIn;
  const clock = manualClock(T0);

  beforeAll(async () => {
    t = await createTestApp(
      driver,
      { MARKET_DATA: 'sim', JOBS_ENABLED: true },
      { market: { sim: { now: clock.now, seed: SEED }, jobs: { owner: `guard-${driver}`, leaseMs: 3000, tickMs: 100, refreshMs: 200, bracketPollMs: 100 } } },
    );
    [user, admin] = await Promise.all([t.signInAs('user'), t.signInAs('admin')]);
    for (const flag of ['FF_ENABLE_BYBIT', 'FF_ENABLE_OKX', 'FF_ENABLE_BITMEX']) await t.setFlag(flag, true);
  });
  afterAll(() => t?.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
    t.client.request(method, url, body, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });

  async function addKey(v: Venue, name = `${v.exchange} guard`): Promise<ApiKey> {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange: v.exchange }, { token: user.accessToken });
    const res = await t.client.post('/v1/api-keys', { name, exchange: v.exchange, network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const key = res.json<ApiKey>();
    expect((await t.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token: user.accessToken })).statusCode).toBe(200);
    return key;
  }

  const orders = async (key: ApiKey, v: Venue) => (await call('GET', `/v1/trade/${key.id}/orders?symbol=${v.symbol}`)).json<Order[]>();
  const positions = async (key: ApiKey, v: Venue) => (await call('GET', `/v1/trade/${key.id}/positions?symbol=${v.symbol}`)).json<Position[]>();
  const guarded = async (key: ApiKey) => (await call('GET', `/v1/trade/${key.id}/managed`)).json<ManagedBracketInfo[]>();
  const activity = async () => (await t.client.get('/v1/notifications/activity', { token: user.accessToken })).json<ActivityEntry[]>();
  const finished = (key: ApiKey, bracketId: string) => until(`the guard of ${bracketId} to finish`, async () => (await guarded(key)).find((b) => b.bracketId === bracketId && b.phase === 'finished'));

  /** A market long whose stop, `d` below the price now, the simulated market reaches next (at `fall.at`); its targets far above. */
  async function longBeforeFall(v: Venue, key: ApiKey, d: number, targetPercents: number[]) {
    const from = clock.now() + MINUTE;
    clock.set(from);
    const fall = fallOf(v, from, d);
    const price = Number(fall.stop) / (1 - d);
    const res = await call('POST', `/v1/trade/${key.id}/brackets`, {
      symbol: v.symbol,
      side: 'BUY',
      qty: v.qty,
      entry: { type: 'MARKET' },
      stopLoss: { triggerPrice: fall.stop },
      takeProfits: targetPercents.map((qtyPercent, i) => ({ price: fmt(price * (1.4 + i * 0.1), v.tick), qtyPercent })),
    });
    expect(res.statusCode, res.body).toBe(201);
    return { b: res.json<BracketResult>(), fall };
  }

  /** A long whose limit entry is above the market (`price`), so it fills at once; its stop far below, one target far above. */
  async function fillingLong(v: Venue, key: ApiKey, clientOrderId: string, price: number) {
    const res = await call('POST', `/v1/trade/${key.id}/brackets`, {
      symbol: v.symbol,
      side: 'BUY',
      qty: v.qty,
      entry: { type: 'LIMIT', price: fmt(price * 1.002, v.tick) },
      stopLoss: { triggerPrice: fmt(price * 0.9, v.tick) },
      takeProfits: [{ price: fmt(price * 1.3, v.tick), qtyPercent: 100 }],
      clientOrderId,
    });
    expect(res.statusCode, res.body).toBe(201);
  }

  describe.each(VENUES)('$exchange', (v) => {
    let key: ApiKey;
    beforeAll(async () => {
      key = await addKey(v);
    });

    it('the market goes through the stop before the stop entry fills: no stop waited to expire, and the stop is placed when the entry fills', async () => {
      // The clock only moves forward: every paper account follows the one simulated market.
      const plan = stopBeforeEntry(v, clock.now());
      clock.set(plan.at);
      const res = await call('POST', `/v1/trade/${key.id}/brackets`, {
        symbol: v.symbol,
        side: plan.side,
        qty: v.qty,
        entry: { type: 'STOP_MARKET', triggerPrice: plan.entry },
        stopLoss: { triggerPrice: plan.stop },
        takeProfits: [{ price: plan.target, qtyPercent: 100 }],
      });
      expect(res.statusCode, res.body).toBe(201);
      const b = res.json<BracketResult>();
      expect(b.orders.map((o) => o.role)).toEqual(['entry']);
      expect(b.planned.map((l) => [l.role, l.triggerPrice])).toEqual([
        ['stop-loss', plan.stop],
        ['take-profit', plan.target],
      ]);
      expect((await guarded(key)).find((g) => g.bracketId === b.bracketId)).toMatchObject({ phase: 'waiting', options: null });

      // The market goes through the stop: the entry still waits, and no stop-loss rests to expire.
      clock.set(plan.throughStopAt);
      const waiting = await orders(key, v);
      expect(waiting.map((o) => [o.role, o.status])).toEqual([['entry', 'UNTRIGGERED']]);
      expect(await positions(key, v)).toEqual([]);

      // Then through the entry: the entry fills, and the server places its stop and target.
      clock.set(plan.throughEntryAt);
      const protectedOrders = await until('the stop-loss after the fill', async () => {
        const open = await orders(key, v);
        return open.some((o) => o.role === 'stop-loss') && open.some((o) => o.role === 'take-profit') ? open : null;
      });
      const stop = protectedOrders.find((o) => o.role === 'stop-loss')!;
      expect(stop).toMatchObject({ bracketId: b.bracketId, status: 'UNTRIGGERED', reduceOnly: true, side: plan.side === 'BUY' ? 'SELL' : 'BUY' });
      expect(Number(stop.triggerPrice)).toBe(Number(plan.stop));
      const pos = await positions(key, v);
      expect(pos).toHaveLength(1);
      expect(Number(pos[0]!.size)).toBe(Number(v.qty));
      // The orders are on the exchange a moment before the guard's log entry for them is written.
      await until('the placing logged', async () => (await activity()).some((a) => a.job === `bracket:${b.bracketId}` && a.action === 'Placed the stop-loss and take-profits'));

      // Closed from the terminal: the server cancels the rest of the bracket (no browser involved).
      expect((await call('POST', `/v1/trade/${key.id}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' })).statusCode).toBe(201);
      await until('the rest of the bracket cancelled', async () => (await orders(key, v)).length === 0);
      await finished(key, b.bracketId);
      const log = (await activity()).filter((a) => a.job === `bracket:${b.bracketId}`);
      expect(log.find((a) => a.action === 'Cancelled the remaining orders')?.message).toMatch(/the position was closed; 2 orders of the bracket cancelled/);
    });

    it('the stop fills: the targets are cancelled', async () => {
      const { b, fall } = await longBeforeFall(v, key, 0.003, [50, 50]);
      expect(b.orders.map((o) => o.role)).toEqual(['entry', 'stop-loss', 'take-profit', 'take-profit']);
      await until('the guard running', async () => (await guarded(key)).find((g) => g.bracketId === b.bracketId && g.phase === 'open'));
      clock.set(fall.at);
      await until('the targets cancelled after the stop filled', async () => (await orders(key, v)).length === 0 && (await positions(key, v)).length === 0);
      await finished(key, b.bracketId);
      expect((await activity()).find((a) => a.job === `bracket:${b.bracketId}` && a.action === 'Cancelled the remaining orders')?.message).toMatch(/2 orders of the bracket cancelled \(take-profit, take-profit\)/);
    });

    it('the exchange refuses the stop once the entry has filled: what it filled is closed at market', async () => {
      const from = clock.now() + MINUTE;
      clock.set(from);
      const id = `refuse${v.exchange}${driver}${Date.now().toString(36)}`;
      const bracketId = bracketIdFor(key.id, id);
      const price = path(v, from, 1).start;
      expect((await t.client.post('/sim/_control/faults', { exchange: v.exchange, refuse: [`${bracketId}S`] }, { token: admin.accessToken })).statusCode).toBe(200);
      try {
        // A limit entry above the market fills at once; the guard then tries to place the stop.
        await fillingLong(v, key, id, price);
        await finished(key, bracketId);
      } finally {
        await t.client.delete(`/sim/_control/faults?exchange=${v.exchange}`, { token: admin.accessToken });
      }
      expect(await positions(key, v)).toEqual([]);
      expect(await orders(key, v)).toEqual([]);
      expect((await activity()).find((a) => a.job === `bracket:${bracketId}` && a.action === 'Closed the entry at market')?.message).toMatch(/the stop-loss could not be placed after the entry filled/);
    });

    it('the stop is refused and the position is closed by hand before the guard closes it: nothing is left to close, and the guard ends', async () => {
      // On the clock as it is (moving it on would move the later venues' markets).
      const from = clock.now();
      const id = `byhand${v.exchange}${driver}${Date.now().toString(36)}`;
      const bracketId = bracketIdFor(key.id, id);
      const price = path(v, from, 1).start;
      // The stop is refused, and so is the guard's closing while the position is open (the trader is quicker).
      const faults = { exchange: v.exchange, refuse: [`${bracketId}S`, `${bracketId}X`] };
      expect((await t.client.post('/sim/_control/faults', faults, { token: admin.accessToken })).statusCode).toBe(200);
      try {
        await fillingLong(v, key, id, price);
        await until('the entry filled', async () => (await positions(key, v)).length === 1);
        const close = await call('POST', `/v1/trade/${key.id}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' });
        expect(close.statusCode, close.body).toBe(201);
        await finished(key, bracketId);
      } finally {
        await t.client.delete(`/sim/_control/faults?exchange=${v.exchange}`, { token: admin.accessToken });
      }
      expect(await positions(key, v)).toEqual([]);
      expect(await orders(key, v)).toEqual([]);
      const told = (await activity()).filter((a) => a.job === `bracket:${bracketId}`);
      expect(told.find((a) => a.action === 'Nothing left to close')?.message).toMatch(/the stop-loss could not be placed after the entry filled .*; the position it opened was already closed/);
      expect(told.map((a) => a.action)).not.toContain('Closed the entry at market');
    });

    it('the entry is cancelled before it fills: the guard ends and nothing of the bracket is left', async () => {
      const price = path(v, clock.now(), 1).start;
      const res = await call('POST', `/v1/trade/${key.id}/brackets`, {
        symbol: v.symbol,
        side: 'BUY',
        qty: v.qty,
        entry: { type: 'LIMIT', price: fmt(price * 0.8, v.tick) },
        stopLoss: { triggerPrice: fmt(price * 0.7, v.tick) },
        takeProfits: [{ price: fmt(price * 0.9, v.tick), qtyPercent: 100 }],
      });
      expect(res.statusCode, res.body).toBe(201);
      const b = res.json<BracketResult>();
      // Consent cannot be withdrawn while the server is to place this entry's stop.
      const withdraw = await t.client.delete(`/v1/api-keys/${key.id}/server-custody`, { token: user.accessToken });
      expect(withdraw.statusCode).toBe(409);
      expect(withdraw.json<{ message: string }>().message).toMatch(/wait.* for the entry to fill/);
      expect((await call('DELETE', `/v1/trade/${key.id}/orders/${encodeURIComponent(b.orders[0]!.id)}`)).statusCode).toBe(200);
      await finished(key, b.bracketId);
      expect(await orders(key, v)).toEqual([]);
      expect((await activity()).find((a) => a.job === `bracket:${b.bracketId}` && a.action === 'Finished guarding the bracket')?.message).toMatch(/the entry was cancelled before it filled/);
    });
  });

  // After every venue's tests: the clock this moves on is the one market all of them trade.
  it('binance: the stop fills while cancels fail: the targets stay guarded until they are cancelled, never left live on a closed bracket', async () => {
    const v = VENUES[0]!;
    const key = await addKey(v, 'binance guard (failing cancels)');
    const { b, fall } = await longBeforeFall(v, key, 0.001, [100]);
    await until('the guard running', async () => (await guarded(key)).find((g) => g.bracketId === b.bracketId && g.phase === 'open'));
    // The exchange answers every cancel of a conditional order with its 5xx (as when it is overloaded).
    const faults = { exchange: v.exchange, failing: [{ method: 'DELETE', path: '/fapi/v1/algoOrder' }] };
    expect((await t.client.post('/sim/_control/faults', faults, { token: admin.accessToken })).statusCode).toBe(200);
    try {
      clock.set(fall.at);
      await until('the stop filled', async () => (await positions(key, v)).length === 0);
      await new Promise((r) => setTimeout(r, 1500));
      expect((await orders(key, v)).map((o) => o.role)).toEqual(['take-profit']);
      expect((await guarded(key)).find((g) => g.bracketId === b.bracketId)?.phase).not.toBe('finished');
      expect((await activity()).filter((a) => a.job === `bracket:${b.bracketId}`).map((a) => a.action)).not.toContain('Finished guarding the bracket');
    } finally {
      await t.client.delete(`/sim/_control/faults?exchange=${v.exchange}`, { token: admin.accessToken });
    }
    await until('the target cancelled once cancels go through', async () => (await orders(key, v)).length === 0);
    await finished(key, b.bracketId);
    expect((await activity()).find((a) => a.job === `bracket:${b.bracketId}` && a.action === 'Cancelled the remaining orders')?.message).toMatch(/1 order of the bracket cancelled \(take-profit\)/);
  });

  it('binance: the stop is refused and the entry cannot be cancelled while it fills in parts: every part is closed at market, none is left without its stop', async () => {
    const v = VENUES[0]!;
    const key = await addKey(v, 'binance guard (entry filling in parts)');
    const qty = 1;
    const plan = twoPartFill(v, clock.now(), qty);
    clock.set(plan.placeAt);
    const id = `parts${driver}${Date.now().toString(36)}`;
    const bracketId = bracketIdFor(key.id, id);
    // The stop is refused (the market is through it, as the exchange sees it) and the entry's cancel fails (a 5xx).
    const faults = { exchange: v.exchange, refuse: [`${bracketId}S`], failing: [{ method: 'DELETE', path: '/fapi/v1/order' }] };
    expect((await t.client.post('/sim/_control/faults', faults, { token: admin.accessToken })).statusCode).toBe(200);
    try {
      const res = await call('POST', `/v1/trade/${key.id}/brackets`, {
        symbol: v.symbol,
        side: 'BUY',
        qty: qty.toFixed(3),
        entry: { type: 'LIMIT', price: plan.entry },
        stopLoss: { triggerPrice: plan.stop },
        takeProfits: [{ price: plan.target, qtyPercent: 100 }],
        clientOrderId: id,
      });
      expect(res.statusCode, res.body).toBe(201);
      // The first print fills part of the entry: that part is closed, the rest of the entry still rests (its cancel fails).
      clock.set(plan.atA);
      const firstClose = await until('the first part closed', async () => (await activity()).find((a) => a.job === `bracket:${bracketId}` && a.action === 'Closed the entry at market'));
      expect(Number(/the ([\d.]+) it filled was closed at market/.exec(firstClose.message)?.[1])).toBeCloseTo(plan.firstFill, 9);
      await until('the position flat again', async () => (await positions(key, v)).length === 0);
      const [entry, ...others] = await orders(key, v);
      expect(others).toEqual([]);
      expect(entry).toMatchObject({ role: 'entry', status: 'PARTIALLY_FILLED' });
      expect(Number(entry!.filledQty)).toBeCloseTo(plan.firstFill, 9);
      expect((await guarded(key)).find((g) => g.bracketId === bracketId)?.phase).not.toBe('finished');

      // The next print fills more of it, its cancel still failing: what it filled since is closed too.
      clock.set(plan.atB);
      const closes = async () => (await activity()).filter((a) => a.job === `bracket:${bracketId}` && a.action === 'Closed the entry at market');
      const second = await until('the second part closed', async () => (await closes()).find((a) => /filled since it was last closed was closed at market/.test(a.message)), 30_000);
      expect(second.message).toMatch(/the stop-loss could not be placed after the entry filled/);
      // Then the cancel goes through (what is left of the entry, if anything): the guard ends with nothing live.
      expect((await t.client.post('/sim/_control/faults', { exchange: v.exchange, failing: [] }, { token: admin.accessToken })).statusCode).toBe(200);
      await until(`the guard of ${bracketId} to finish`, async () => (await guarded(key)).find((b) => b.bracketId === bracketId && b.phase === 'finished'), 30_000);
      expect(await closes()).toHaveLength(2);
    } finally {
      await t.client.delete(`/sim/_control/faults?exchange=${v.exchange}`, { token: admin.accessToken });
    }
    expect(await positions(key, v)).toEqual([]);
    expect(await orders(key, v)).toEqual([]);
  }, 90_000);
});
