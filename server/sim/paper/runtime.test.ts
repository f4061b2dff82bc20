/**
 * The runtime's write-through contract on a real (in-memory PGlite) database: accounts are created
 * lazily with the starting balances; what `run` returns has been committed; a failed commit is
 * not acknowledged and leaves no trace in memory; two writers on one database never lose an update
 * (the version check makes the stale one reload and retry).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { LINEAR, ListTape, px } from './engine/testing';
import type { AccountKey, PaperEngineOptions } from './engine';
import { PaperRuntime } from './runtime';
import { PaperStore } from './store';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openDatabase({ driver: 'pglite' });
  await handle.migrate();
});
afterAll(() => handle.close());

const tape = new ListTape().add('BTCUSDT', [{ time: 1000, price: px(20000) }, { time: 5000, price: px(19000) }]);
const engine = (): PaperEngineOptions => ({
  tape,
  instrument: (s) => (s === 'BTCUSDT' ? LINEAR : undefined),
  economics: { makerRate: '0.0002', takerRate: '0.0005', maintenanceRate: '0.004' },
  policy: { postOnly: 'reject', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
  startingBalances: { USDT: '10000' },
});
let now = 2000;
const runtime = () => new PaperRuntime({ exchange: 'binance', engine: engine(), db: async () => handle.db, now: () => now, tickMs: 1000 });
let n = 0;
const key = (): AccountKey => ({ apiKey: `sim-runtime-${++n}`, exchange: 'binance', network: 'MAINNET' });
const limit = (price: string) => ({ symbol: 'BTCUSDT', side: 'BUY' as const, type: 'LIMIT' as const, qty: '0.1', price });

describe('paper runtime', () => {
  it('creates an account on first use with the starting balances, and commits before returning', async () => {
    const rt = runtime();
    const k = key();
    const placed = await rt.run(k, (id, at) => rt.engine.place(id, limit('19500'), at));
    expect(placed.ok).toBe(true);
    const stored = await new PaperStore(handle.db).load(k);
    expect(stored?.snapshot.balances).toEqual([{ currency: 'USDT', wallet: '10000' }]);
    expect(stored?.snapshot.orders.map((o) => [o.status, o.price])).toEqual([['NEW', '19500']]);
  });

  it('fills a resting order from the tape and writes the fill as time passes', async () => {
    const rt = runtime();
    const k = key();
    now = 2000;
    await rt.run(k, (id, at) => rt.engine.place(id, limit('19500'), at));
    now = 6000;
    await rt.run(k, () => undefined);
    const store = new PaperStore(handle.db);
    const fills = await store.fills(await rt.dbId(k), { limit: 10 });
    expect(fills.map((f) => [f.price, f.qty, f.maker])).toEqual([['19500', '0.1', true]]);
    now = 2000;
  });

  it('does not acknowledge what it could not write: memory is dropped and reloaded from the database', async () => {
    const rt = runtime();
    const k = key();
    await rt.run(k, (id, at) => rt.engine.place(id, limit('19000'), at));
    const store = await rt.history();
    const commit = store.commit.bind(store);
    store.commit = async () => {
      throw new Error('database went away');
    };
    await expect(rt.run(k, (id, at) => rt.engine.place(id, limit('18000'), at))).rejects.toThrow('database went away');
    store.commit = commit;
    const open = await rt.run(k, (id) => rt.engine.openOrders(id));
    expect(open.map((o) => o.price)).toEqual(['19000.00']);
  });

  it('two writers on one database: the stale one reloads and retries, nothing is lost', async () => {
    const a = runtime();
    const b = runtime();
    const k = key();
    await a.run(k, (id, at) => a.engine.place(id, limit('19100'), at));
    await b.run(k, (id) => b.engine.openOrders(id)); // b loads the account (version 1)
    await a.run(k, (id, at) => a.engine.place(id, limit('19200'), at)); // version 2
    const r = await b.run(k, (id, at) => b.engine.place(id, limit('19300'), at)); // stale: conflict → reload → retry
    expect(r.ok && r.value.price).toBe('19300.00');
    const stored = await new PaperStore(handle.db).load(k);
    expect(stored?.snapshot.orders.map((o) => o.price).sort()).toEqual(['19100', '19200', '19300']);
    expect(new Set(stored?.snapshot.orders.map((o) => o.id)).size).toBe(3);
  });

  it('reset deletes the account and starts it afresh', async () => {
    const rt = runtime();
    const k = key();
    await rt.run(k, (id, at) => rt.engine.place(id, { ...limit('19000'), type: 'MARKET', price: undefined }, at));
    await rt.reset(k);
    expect(await rt.run(k, (id) => [rt.engine.balances(id)[0].wallet, rt.engine.openOrders(id).length, rt.engine.positions(id).length])).toEqual(['10000.00000000', 0, 0]);
  });

  /** A runtime and an account that exists, its commits counted (`restore`: the store's own again). */
  async function counting() {
    const rt = runtime();
    const k = key();
    await rt.run(k, () => undefined);
    const store = await rt.history();
    const commit = store.commit.bind(store);
    const c = { rt, k, commits: 0, restore: () => void (store.commit = commit) };
    store.commit = async (...args) => {
      c.commits++;
      return commit(...args);
    };
    return c;
  }

  it('orders that arrive while the account is being written go in together: one transaction, each answered after it', async () => {
    const c = await counting();
    const { rt, k } = c;
    // A bracket's legs sent at once: one batch, one transaction.
    const prices = ['19100', '19200', '19300', '19400'];
    const placed = await Promise.all(prices.map((p) => rt.run(k, (id, at) => rt.engine.place(id, limit(p), at))));
    expect(placed.every((r) => r.ok)).toBe(true);
    expect(c.commits).toBe(1);
    const stored = await new PaperStore(handle.db).load(k);
    expect(stored?.snapshot.orders.map((o) => o.price)).toEqual(prices);
    // Those that come while a batch is being written wait for the next one, together.
    const first = rt.run(k, (id, at) => rt.engine.place(id, limit('19500'), at));
    await new Promise((r) => setImmediate(r));
    const behind = [rt.run(k, (id, at) => rt.engine.place(id, limit('19600'), at)), rt.run(k, (id, at) => rt.engine.place(id, limit('19700'), at))];
    expect((await Promise.all([first, ...behind])).every((r) => r.ok)).toBe(true);
    expect(c.commits).toBe(3);

    // One that throws (a defect) is refused alone; the others of its batch are written.
    const results = await Promise.allSettled([
      rt.run(k, (id) => rt.engine.openOrders(id).length),
      rt.run(k, (id, at) => rt.engine.place(id, limit('18100'), at)),
      rt.run(k, () => {
        throw new Error('a defect');
      }),
      rt.run(k, (id, at) => rt.engine.place(id, limit('18200'), at)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    c.restore();
    const open = await rt.run(k, (id) => rt.engine.openOrders(id).map((o) => o.price));
    expect(open.map(Number).sort()).toEqual([18100, 18200, 19100, 19200, 19300, 19400, 19500, 19600, 19700]);
  });

  it('orders heard in one turn of the event loop, each in its own callback (legs on their own sockets), go in one transaction', async () => {
    const c = await counting();
    const { rt, k } = c;
    // Three timers due together fire one after the other in one turn, as three requests read from their sockets do.
    const placed = await Promise.all(
      ['16100', '16200', '16300'].map((p) => new Promise((r) => setTimeout(r, 0)).then(() => rt.run(k, (id, at) => rt.engine.place(id, limit(p), at)))),
    );
    c.restore();
    expect(placed.every((r) => r.ok)).toBe(true);
    expect(c.commits).toBe(1);
  });

  it('a batch whose commit fails answers none of its orders, and none of them is live', async () => {
    const rt = runtime();
    const k = key();
    await rt.run(k, () => undefined);
    const store = await rt.history();
    const commit = store.commit.bind(store);
    let calls = 0;
    store.commit = async (...args) => {
      if (++calls === 1) throw new Error('database went away');
      return commit(...args);
    };
    const results = await Promise.allSettled(['17100', '17200', '17300'].map((p) => rt.run(k, (id, at) => rt.engine.place(id, limit(p), at))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    store.commit = commit;
    expect(await rt.run(k, (id) => rt.engine.openOrders(id))).toEqual([]);
  });
});
