/**
 * Two instances, one paper exchange (issue 24): two simulators on ONE database (one PGlite shared by
 * both; on PostgreSQL two pools on one database) behave as one. A request on either instance works on
 * the account as the database has it (an order placed through 1 is listed by 2 at once, a cancel
 * through 2 is gone on 1), a private stream on either instance gets every event of its account once
 * and in order whichever instance made it (a request, or a fill made by the other's runner), and a
 * fill happens once with both runners ticking. On PostgreSQL, a listener that lost its connection
 * catches up with what was committed meanwhile.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle, type Db } from '../../db/client';
import { paperAccounts, paperFills } from '../../db/schema-paper';
import { createPostgresDatabase, TEST_DRIVERS } from '../../test/helper';
import { findInstrument } from '../market/catalogue';
import { SimMarket } from '../market/market';
import { connectWs, has, manualClock, simTestKey, startSim, type SimServer, type WsProbe } from '../testing';
import { PaperEngine, type AccountKey, type PaperEngineOptions } from './engine';
import { LINEAR, ListTape, px } from './engine/testing';
import { PaperRuntime } from './runtime';
import { PaperStore } from './store';

const SEED = 'paper-instances';
const T0 = Date.parse('2026-03-03T09:00:00Z');
const SEALING_KEY = randomBytes(32).toString('hex');

type Json = Record<string, unknown>;
interface Client {
  call(method: 'GET' | 'POST' | 'DELETE', path: string, params?: Record<string, string>): Promise<{ status: number; body: unknown }>;
  listenKey(): Promise<string>;
}

/** A Binance client of `apiKey` on one instance (signing as Binance's docs say, over `app.inject`). */
function client(app: FastifyInstance, apiKey: string, secret: string, now: () => number): Client {
  const headers = { 'x-mbx-apikey': apiKey };
  return {
    async call(method, path, params = {}) {
      const payload = Object.entries({ ...params, timestamp: String(now()) })
        .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
        .join('&');
      const signed = `${payload}&signature=${createHmac('sha256', secret).update(payload).digest('hex')}`;
      const res =
        method === 'POST'
          ? await app.inject({ method, url: `/sim/binance${path}`, payload: signed, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } })
          : await app.inject({ method, url: `/sim/binance${path}?${signed}`, headers });
      return { status: res.statusCode, body: res.body ? (JSON.parse(res.body) as unknown) : null };
    },
    async listenKey() {
      const res = await app.inject({ method: 'POST', url: '/sim/binance/fapi/v1/listenKey', headers });
      return (JSON.parse(res.body) as { listenKey: string }).listenKey;
    },
  };
}

const orderUpdates = (ws: WsProbe, orderId: number) =>
  ws.frames.filter((f): f is { o: Json } => has(f, 'e', 'ORDER_TRADE_UPDATE') && (f as { o: Json }).o.i === orderId).map((f) => f.o.x);
const isUpdate = (orderId: number, x: string) => (f: unknown) => has(f, 'e', 'ORDER_TRADE_UPDATE') && (f as { o: Json }).o.i === orderId && (f as { o: Json }).o.x === x;
const settle = (ms = 400) => new Promise((r) => setTimeout(r, ms));
const far = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.200', price: '1000' };

describe.each(TEST_DRIVERS)('the paper exchange on two instances, one %s database', (driver) => {
  const clock = manualClock(T0);
  const handles: DatabaseHandle[] = [];
  const sockets: WsProbe[] = [];
  let drop: (() => Promise<void>) | null = null;
  let one: SimServer;
  let two: SimServer;
  let dbOne: Db;

  beforeAll(async () => {
    if (driver === 'pglite') {
      const h = await openDatabase({ driver: 'pglite' });
      await h.migrate();
      handles.push(h, h);
    } else {
      const created = await createPostgresDatabase();
      drop = created.drop;
      for (let i = 0; i < 2; i++) handles.push(await openDatabase({ driver: 'postgres', url: created.url, poolSize: 4 }));
      await handles[0].migrate();
    }
    dbOne = handles[0].db;
    const opts = { seed: SEED, now: clock.now, pushIntervalMs: 20, sealingKey: SEALING_KEY };
    one = await startSim({ ...opts, db: handles[0].db });
    two = await startSim({ ...opts, db: handles[1].db });
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await two?.close();
    await one?.close();
    for (const h of new Set(handles)) await h.close();
    await drop?.();
  });

  /** The key's client on instance 1 and on instance 2 (minted on 1, read from the database by 2). */
  let n = 0;
  let apiKey = '';
  const clients = async (): Promise<[Client, Client]> => {
    const key = simTestKey(one.app, `sim-inst-${driver}-${++n}`, 'binance');
    expect(await key.stored).toBe(true);
    apiKey = key.apiKey;
    return [client(one.app, key.apiKey, key.secret, clock.now), client(two.app, key.apiKey, key.secret, clock.now)];
  };
  const stream = async (server: SimServer, c: Client): Promise<WsProbe> => {
    const ws = await connectWs(`${server.ws}/sim/binance/private/ws/${await c.listenKey()}`);
    sockets.push(ws);
    return ws;
  };
  const openIds = async (c: Client) => ((await c.call('GET', '/fapi/v1/openOrders', { symbol: 'BTCUSDT' })).body as Array<{ orderId: number }>).map((o) => o.orderId);

  it('an order placed through instance 1 is listed by instance 2 at once', async () => {
    const [c1, c2] = await clients();
    expect(await openIds(c2)).toEqual([]); // instance 2 holds the account now
    const placed = await c1.call('POST', '/fapi/v1/order', far);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const { orderId } = placed.body as { orderId: number };
    expect(await openIds(c2)).toEqual([orderId]);
    expect((await c2.call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(orderId) })).body).toMatchObject({ orderId, status: 'NEW' });
  });

  it('an order cancelled through instance 2 is gone on instance 1 at once', async () => {
    const [c1, c2] = await clients();
    const { orderId } = (await c1.call('POST', '/fapi/v1/order', far)).body as { orderId: number };
    expect(await openIds(c1)).toEqual([orderId]);
    const cancelled = await c2.call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(orderId) });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await openIds(c1)).toEqual([]);
    expect((await c1.call('GET', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(orderId) })).body).toMatchObject({ orderId, status: 'CANCELED' });
    // …and instance 1 places its next order on the account as it is (ids continue, nothing reappears)
    const next = (await c1.call('POST', '/fapi/v1/order', far)).body as { orderId: number };
    expect(next.orderId).toBeGreaterThan(orderId);
    expect(await openIds(c2)).toEqual([next.orderId]);
  });

  it('a private stream on instance 2 gets the events of orders placed and cancelled through instance 1, once each, in order', async () => {
    const [c1, c2] = await clients();
    const [s1, s2] = [await stream(one, c1), await stream(two, c2)];
    const a = ((await c1.call('POST', '/fapi/v1/order', far)).body as { orderId: number }).orderId;
    const b = ((await c1.call('POST', '/fapi/v1/order', { ...far, price: '1001' })).body as { orderId: number }).orderId;
    expect((await c1.call('DELETE', '/fapi/v1/order', { symbol: 'BTCUSDT', orderId: String(a) })).status).toBe(200);
    await s2.next(isUpdate(a, 'CANCELED'));
    await settle();
    for (const s of [s1, s2]) {
      expect(orderUpdates(s, a)).toEqual(['NEW', 'CANCELED']);
      expect(orderUpdates(s, b)).toEqual(['NEW']);
      const mine = s.frames.filter((f): f is { o: Json } => has(f, 'e', 'ORDER_TRADE_UPDATE')).map((f) => `${String(f.o.i)}:${String(f.o.x)}`);
      expect(mine).toEqual([`${a}:NEW`, `${b}:NEW`, `${a}:CANCELED`]);
    }
  });

  it('a price move fills a resting order once with both runners ticking; both instances and both streams see the fill', async () => {
    const [c1, c2] = await clients();
    // A buy limit the next five minutes of the (deterministic) tape trade through.
    const market = new SimMarket({ seed: SEED, now: clock.now });
    const inst = findInstrument('binance', 'BTCUSDT')!;
    const low = Math.min(...market.trades(inst, clock.now(), clock.now() + 5 * 60_000).map((t) => t.price));
    expect(low).toBeLessThan(market.lastTrade(inst, clock.now())!.price - 2);
    const price = ((low + 1) / 10).toFixed(2);
    expect((await c2.call('GET', '/fapi/v3/balance')).status).toBe(200); // instance 2 holds the account before the order
    const [s1, s2] = [await stream(one, c1), await stream(two, c2)];
    const { orderId } = (await c1.call('POST', '/fapi/v1/order', { ...far, quantity: '0.002', price })).body as { orderId: number };
    await s2.next(isUpdate(orderId, 'NEW'));
    await settle(100); // both runners hold the order now
    clock.advance(5 * 60_000);
    await s1.next(isUpdate(orderId, 'TRADE'));
    await s2.next(isUpdate(orderId, 'TRADE'));
    await settle();
    for (const s of [s1, s2]) expect(orderUpdates(s, orderId)).toEqual(['NEW', 'TRADE']);
    for (const c of [c1, c2]) {
      const trades = (await c.call('GET', '/fapi/v1/userTrades', { symbol: 'BTCUSDT' })).body as Json[];
      expect(trades.map((t) => [t.orderId, t.price, t.qty])).toEqual([[orderId, price, '0.002']]);
      const positions = (await c.call('GET', '/fapi/v3/positionRisk', { symbol: 'BTCUSDT' })).body as Json[];
      expect(positions).toMatchObject([{ symbol: 'BTCUSDT', positionAmt: '0.002' }]);
    }
    const [account] = await dbOne.select({ id: paperAccounts.id }).from(paperAccounts).where(eq(paperAccounts.apiKey, apiKey));
    expect((await dbOne.select({ n: count() }).from(paperFills).where(eq(paperFills.accountId, account.id)))[0].n).toBe(1);
  });

  /**
   * A writer whose notice never arrives (a dropped listener, a writer of an older build): the
   * runtime still works on the account as the database has it — each call checks the stored version,
   * and the runner checks its copies once per tick before deciding what to advance.
   */
  describe('without the notice', () => {
    const tape = new ListTape().add('BTCUSDT', [{ time: 1000, price: px(20000) }, { time: 5000, price: px(19000) }]);
    const options = (): PaperEngineOptions => ({
      tape,
      instrument: (sym) => (sym === 'BTCUSDT' ? LINEAR : undefined),
      economics: { makerRate: '0.0002', takerRate: '0.0005', maintenanceRate: '0.004' },
      policy: { postOnly: 'reject', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
      startingBalances: { USDT: '10000' },
    });
    let at = 2000;
    const runtimes: PaperRuntime[] = [];
    const runtime = (db: Db) => {
      const r = new PaperRuntime({ exchange: 'binance', engine: options(), db: async () => db, now: () => at, tickMs: 20 });
      runtimes.push(r);
      return r;
    };
    afterAll(() => runtimes.forEach((r) => r.close()));
    /** Places a resting buy at `price` behind the runtimes' backs: committed with no events, so no notice. */
    const placeSilently = async (key: AccountKey, price: string) => {
      const store = new PaperStore(dbOne);
      const stored = (await store.load(key))!;
      const engine = new PaperEngine(options());
      engine.load('x', stored.snapshot);
      engine.advance('x', at);
      expect(engine.place('x', { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.1', price }, at).ok).toBe(true);
      await store.commit(stored.dbId, stored.version, engine.takeChanges('x').changes);
    };

    it('every call checks the stored version and reloads what another writer changed', async () => {
      const key: AccountKey = { apiKey: `sim-silent-${driver}-1`, exchange: 'binance', network: 'MAINNET' };
      const b = runtime(handles[1].db);
      expect(await b.run(key, (id) => b.engine.openOrders(id).length)).toBe(0);
      await placeSilently(key, '19500');
      expect(await b.run(key, (id) => b.engine.openOrders(id).map((o) => o.price))).toEqual(['19500.00']);
    });

    it('the runner does not act on a stale copy: it reloads it and fills the order it did not know', async () => {
      const key: AccountKey = { apiKey: `sim-silent-${driver}-2`, exchange: 'binance', network: 'MAINNET' };
      at = 2000;
      const b = runtime(handles[1].db);
      await b.run(key, () => undefined);
      await placeSilently(key, '19500');
      at = 6000;
      b.start();
      const store = new PaperStore(dbOne);
      const dbId = (await store.load(key))!.dbId;
      for (let i = 0; i < 100 && (await store.fills(dbId, { limit: 10 })).length === 0; i++) await settle(20);
      b.close();
      expect((await store.fills(dbId, { limit: 10 })).map((f) => [f.price, f.qty])).toEqual([['19500', '0.1']]);
    });
  });

  it.runIf(driver === 'postgres')('a listener that lost its connection catches up with what was committed meanwhile', async () => {
    const [c1, c2] = await clients();
    const s2 = await stream(two, c2);
    await dbOne.execute(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query like 'LISTEN %' and pid <> pg_backend_pid()`);
    const { orderId } = (await c1.call('POST', '/fapi/v1/order', far)).body as { orderId: number };
    await s2.next(isUpdate(orderId, 'NEW'), 5_000);
    await settle();
    expect(orderUpdates(s2, orderId)).toEqual(['NEW']);
  });
});
