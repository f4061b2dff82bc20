import { EventEmitter } from 'node:events';
import { eq, inArray } from 'drizzle-orm';
import type WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Network } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { DatabaseHandle } from '../../db/client';
import { alerts } from '../../db/schema-alerts';
import { jobs, notifications } from '../../db/schema-jobs';
import { createTestDatabase, TEST_DRIVERS, uniqueEmail } from '../../test/helper';
import { activeAlertEvent, ensureAlertJob } from '../alerts';
import { createUser } from '../users';
import type { FetchLike } from '../exchange-info';
import { alertWatchHandler } from './alert-watch';
import { EventBus } from '../events/bus';
import { JobRunner } from './runner';
import { TradeFeed } from './trade-feed';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | null | undefined | false> | T | null | undefined | false, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(25);
  }
}

/** A Binance public socket of one network that the test speaks for: what was sent to it, and frames pushed out. */
class FakeSocket extends EventEmitter {
  readonly sent: string[] = [];
  terminated = false;
  constructor(readonly network: Network, readonly path: string) {
    super();
  }
  send(text: string): void {
    this.sent.push(text);
  }
  terminate(): void {
    if (this.terminated) return;
    this.terminated = true;
    this.emit('close');
  }
  subscribed(): string[] {
    const on = new Set<string>();
    for (const m of this.sent.map((t) => JSON.parse(t) as { method: string; params: string[] })) {
      for (const p of m.params) if (m.method === 'SUBSCRIBE') on.add(p);
      else on.delete(p);
    }
    return [...on].sort();
  }
  /** One `aggTrade` print (binance.md §3), as the exchange frames it on a raw stream. */
  trade(price: string, symbol = 'BTCUSDT'): void {
    this.emit('message', Buffer.from(JSON.stringify({ e: 'aggTrade', E: Date.now(), s: symbol, a: 1, p: price, q: '0.010', T: Date.now(), m: false })), false);
  }
}

const BTC = { symbol: 'BTCUSDT', exchangeSymbol: 'BTCUSDT', category: 'linear' } as Instrument;
const ETH = { symbol: 'ETHUSDT', exchangeSymbol: 'ETHUSDT', category: 'linear' } as Instrument;

describe.each(TEST_DRIVERS)('alerts evaluated on trades, per network, on %s', (driver) => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  let userId = '';
  const sockets: FakeSocket[] = [];
  const live = (network: Network) => sockets.filter((s) => s.network === network && !s.terminated);
  let trades: TradeFeed;
  let runner: JobRunner;
  let evaluator: (refreshMs: number, fetch?: FetchLike, db?: DatabaseHandle['db'], more?: Partial<Parameters<typeof alertWatchHandler>[0]>) => ReturnType<typeof alertWatchHandler>;

  beforeAll(async () => {
    ({ handle, close } = await createTestDatabase(driver));
    userId = (await createUser(handle.db, { email: uniqueEmail('trade-alerts'), password: 'password-1', role: 'user' })).id;
    trades = new TradeFeed({
      instruments: async () => [BTC, ETH],
      open: (exchange, network) => async (path) => {
        expect(exchange).toBe('binance');
        const s = new FakeSocket(network, path);
        sockets.push(s);
        return s as unknown as WebSocket;
      },
    });
    evaluator = (refreshMs: number, fetch: FetchLike = async () => ({ status: 200, json: async () => [] }), db = handle.db, more = {}) =>
      alertWatchHandler({
        db,
        trades,
        instruments: async () => [BTC, ETH],
        // By default the catch-up's candles (and a pair's recent trades): nothing happened while nobody listened.
        rest: { fetch, base: () => ({ base: 'http://candles.test' }) },
        refreshMs,
        ...more,
      });
    runner = new JobRunner({ db: handle.db, handlers: [evaluator(50)], owner: 'T', leaseMs: 10_000, tickMs: 50 });
  }, 180_000);
  afterAll(async () => {
    await runner?.stop();
    trades?.close();
    await close();
  });

  const setAlert = async (network: Network, symbol: string, initialPrice: number, triggerPrice: number, owner = userId) => {
    const [row] = await handle.db.insert(alerts).values({ userId: owner, exchange: 'binance', network, symbol, initialPrice, triggerPrice }).returning();
    await ensureAlertJob(handle.db, 'binance', network);
    return row!.id;
  };
  const statusOf = async (id: string) => (await handle.db.select().from(alerts).where(eq(alerts.id, id)))[0]!;
  const fired = (id: string) => until(`alert ${id} to fire`, async () => ((await statusOf(id)).status === 'triggered' ? statusOf(id) : null));

  it('fires on a print that touches the trigger inside a second, on the network the alert was set on only', async () => {
    const onMainnet = await setAlert('MAINNET', 'BTCUSDT', 64_000, 65_000);
    const onTestnet = await setAlert('TESTNET', 'BTCUSDT', 64_000, 65_000);
    runner.start();
    // One evaluator per network, each subscribed to the pair's trades on its own network's socket.
    const main = await until('the mainnet socket subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
    const test = await until('the testnet socket subscribed', () => live('TESTNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
    expect(main.path).toBe('/market/ws');
    expect((await handle.db.select({ key: jobs.key }).from(jobs)).map((j) => j.key).sort()).toEqual(['alerts:binance', 'alerts:binance:testnet']);
    await wait(200); // the evaluators have heard the sockets live

    // Mainnet: a wick to the trigger and straight back, inside one second — a once-a-second ticker would show 64,950 both times.
    main.trade('64950.0');
    main.trade('65000.0');
    main.trade('64900.0');
    const m = await fired(onMainnet);
    expect(m.triggeredPrice).toBe(65_000);
    // The testnet alert at the same level heard nothing of mainnet's prices.
    await wait(300);
    expect((await statusOf(onTestnet)).status).toBe('active');

    // Testnet's own prices: below the trigger, nothing; through it, it fires at that print.
    test.trade('64999.9');
    await wait(300);
    expect((await statusOf(onTestnet)).status).toBe('active');
    test.trade('65010.5');
    const t = await fired(onTestnet);
    expect(t.triggeredPrice).toBe(65_010.5);
    const [note] = await handle.db.select().from(notifications).where(eq(notifications.refId, onTestnet));
    expect(note?.body).toContain('BTCUSDT on binance testnet rose to 65,000 (last 65,010.5)');
    // Exactly once: the same print again, and another crossing, add nothing.
    test.trade('65020.0');
    await wait(300);
    expect(await handle.db.select().from(notifications).where(eq(notifications.refId, onTestnet))).toHaveLength(1);
  });

  it('subscribes pairs as alerts come and unsubscribes them as they go', async () => {
    const eth = await setAlert('MAINNET', 'ETHUSDT', 3_000, 2_900);
    const main = await until('ETHUSDT subscribed on mainnet', () => live('MAINNET').find((s) => s.subscribed().includes('ethusdt@aggTrade')));
    // BTCUSDT's alert fired: nothing listens to its trades any more.
    expect(main.subscribed()).toEqual(['ethusdt@aggTrade']);
    expect(trades.subscribed('binance', 'MAINNET')).toEqual(['ETHUSDT']);
    // No testnet alert is active: its socket is closed.
    await until('the testnet socket closed', () => live('TESTNET').length === 0);
    await handle.db.delete(alerts).where(eq(alerts.id, eth));
    await until('the mainnet socket closed', () => live('MAINNET').length === 0);
    expect(trades.connections('binance', 'MAINNET')).toBe(0);
  });

  it('an alert read after a print that touched it (its first second, on a pair already listened to) fires at that print', async () => {
    // Alerts are read every 1.5 s here: the print between this alert's creation and its first read is judged then.
    await runner.stop();
    const slow = new JobRunner({ db: handle.db, handlers: [evaluator(1500)], owner: 'T2', leaseMs: 10_000, tickMs: 50 });
    const keep = await setAlert('MAINNET', 'BTCUSDT', 64_000, 70_000); // keeps BTCUSDT listened to
    slow.start();
    try {
      const main = await until('BTCUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
      await wait(2000); // heard live, a read done
      const late = await setAlert('MAINNET', 'BTCUSDT', 64_000, 65_000);
      main.trade('65000.0');
      main.trade('64900.0');
      const f = await fired(late);
      expect(f.triggeredPrice).toBe(65_000);
      expect((await statusOf(keep)).status).toBe('active');
    } finally {
      await slow.stop();
      await handle.db.delete(alerts).where(eq(alerts.id, keep));
    }
  });

  it('a firing the database refuses is written again: the crossing print does not have to come back', async () => {
    await runner.stop();
    // The database refuses the first two firing transactions (a pool with no connection free under load).
    let refusals = 2;
    const db = new Proxy(handle.db, {
      get(target, prop) {
        if (prop === 'transaction' && refusals > 0) {
          return async () => {
            refusals--;
            throw new Error('timeout exceeded when trying to connect');
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const r = new JobRunner({ db: handle.db, handlers: [evaluator(50, undefined, db)], owner: 'T4', leaseMs: 10_000, tickMs: 50 });
    const id = await setAlert('MAINNET', 'BTCUSDT', 64_000, 65_000);
    r.start();
    try {
      const main = await until('BTCUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
      await wait(300); // heard live
      // One touch, and the price never returns to the trigger.
      main.trade('65000.0');
      main.trade('64000.0');
      const f = await fired(id);
      expect([f.triggeredPrice, refusals]).toEqual([65_000, 0]);
      expect(await handle.db.select().from(notifications).where(eq(notifications.refId, id))).toHaveLength(1);
    } finally {
      await r.stop();
    }
  });

  it('a crossing heard while a slow firing is in flight is written at once beside it, not after it', async () => {
    await runner.stop();
    // The first firing's transaction hangs (a lock, a slow disk) until the test lets it go.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    let transactions = 0;
    const db = new Proxy(handle.db, {
      get(target, prop) {
        if (prop === 'transaction') {
          const first = ++transactions === 1;
          return async (...args: unknown[]) => {
            if (first) await held;
            return (target.transaction as (...a: unknown[]) => Promise<unknown>)(...args);
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const r = new JobRunner({ db: handle.db, handlers: [evaluator(50, undefined, db)], owner: 'T6', leaseMs: 10_000, tickMs: 50 });
    const slow = await setAlert('MAINNET', 'BTCUSDT', 64_000, 65_000);
    const quick = await setAlert('MAINNET', 'ETHUSDT', 3_000, 3_100);
    r.start();
    try {
      const main = await until('both pairs subscribed', () =>
        live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade') && s.subscribed().includes('ethusdt@aggTrade')),
      );
      await wait(300); // heard live
      main.trade('65000.0');
      await until('the first firing in flight', () => transactions >= 1);
      main.trade('3100.0', 'ETHUSDT');
      expect((await fired(quick)).triggeredPrice).toBe(3_100);
      expect((await statusOf(slow)).status).toBe('active');
      release();
      expect((await fired(slow)).triggeredPrice).toBe(65_000);
    } finally {
      release();
      await r.stop();
    }
  });

  it("a print through many users' alerts fires them in one transaction, each with its notification and its user's unread count", async () => {
    await runner.stop();
    let transactions = 0;
    const db = new Proxy(handle.db, {
      get(target, prop) {
        if (prop === 'transaction') transactions++;
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const bus = new EventBus({ db: handle.db, transports: [], log: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined } });
    const pushed: { userId: string; unread?: number; refId?: string | null }[] = [];
    bus.on('notification.created', (e) => void pushed.push({ userId: e.userId, unread: e.unread, refId: e.item?.refId }));
    const handler = alertWatchHandler({ db, trades, events: bus, instruments: async () => [BTC, ETH], rest: { fetch: async () => ({ status: 200, json: async () => [] }), base: () => ({ base: 'http://candles.test' }) }, refreshMs: 50 });
    const r = new JobRunner({ db: handle.db, handlers: [handler], owner: 'T5', leaseMs: 10_000, tickMs: 50 });
    // Three users, two alerts each; the second already has one unread notification.
    const people = await Promise.all([1, 2, 3].map(async (i) => (await createUser(handle.db, { email: uniqueEmail(`burst-${i}`), password: 'password-1', role: 'user' })).id));
    await handle.db.insert(notifications).values({ userId: people[1]!, kind: 'job', title: 'earlier', body: 'x', dedupeKey: 'earlier:1' });
    const ids: string[] = [];
    const owner = new Map<string, string>();
    for (const [n, person] of people.entries()) {
      for (let i = 0; i < 2; i++) {
        const id = await setAlert('MAINNET', 'BTCUSDT', 64_000, 64_500 + n * 200 + i * 100, person);
        ids.push(id);
        owner.set(id, person);
      }
    }
    r.start();
    try {
      const main = await until('BTCUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
      await wait(300); // heard live
      main.trade('65100.0');
      for (const id of ids) expect((await fired(id)).triggeredPrice).toBe(65_100);
      // One transaction for the six firings of the three users and their notifications; then, after its commit,
      // each user's notification prune in its own.
      await until('the prunes after the commit', () => (transactions >= 4 ? true : undefined));
      await wait(200);
      expect(transactions).toBe(4);
      const notes = await handle.db.select().from(notifications).where(inArray(notifications.refId, ids));
      expect(notes.map((n) => n.refId).sort()).toEqual([...ids].sort());
      // Each push names its own user, with that user's unread count after the burst.
      expect(pushed.map((p) => p.refId).sort()).toEqual([...ids].sort());
      for (const p of pushed) expect([p.userId, p.unread]).toEqual([owner.get(p.refId!), p.userId === people[1] ? 3 : 2]);
    } finally {
      await r.stop();
    }
  });

  it('an alert on a pair nobody listened to: what the pair printed before its subscription is asked over REST', async () => {
    const asked: string[] = [];
    // The exchange's recent trades of ETHUSDT when asked: a touch of 3,100 just now, and back (Binance's /fapi/v1/trades).
    const fetch: FetchLike = async (url) => {
      if (!url.includes('/fapi/v1/trades?symbol=ETHUSDT')) return { status: 200, json: async () => [] };
      asked.push(url);
      const now = Date.now();
      return { status: 200, json: async () => [{ id: 1, price: '3100.00', qty: '0.1', quoteQty: '310', time: now, isBuyerMaker: false }, { id: 2, price: '3050.00', qty: '0.1', quoteQty: '305', time: now, isBuyerMaker: true }] };
    };
    const r = new JobRunner({ db: handle.db, handlers: [evaluator(200, fetch)], owner: 'T3', leaseMs: 10_000, tickMs: 50 });
    const keep = await setAlert('MAINNET', 'BTCUSDT', 64_000, 70_000);
    r.start();
    try {
      await until('BTCUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
      await wait(600); // the first read done: ETHUSDT is not listened to
      const eth = await setAlert('MAINNET', 'ETHUSDT', 3_000, 3_100);
      const main = await until('ETHUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('ethusdt@aggTrade')));
      // The REST read waits for the stream's first print of the pair: what printed before it is in the answer.
      await wait(500);
      expect(asked).toHaveLength(0);
      main.trade('3050.00', 'ETHUSDT');
      const f = await fired(eth);
      expect(f.triggeredPrice).toBe(3_100);
      expect(asked).toHaveLength(1);
    } finally {
      await r.stop();
      await handle.db.delete(alerts).where(eq(alerts.id, keep));
    }
  });

  it('an e-mail that takes long to send holds back no later firing', async () => {
    await runner.stop();
    let release = () => undefined as void;
    const held = new Promise<void>((r) => (release = r));
    const mailed: string[] = [];
    // The mail server answers nothing until the test lets it (an SMTP server that is away: each send waits for its timeout).
    const handler = evaluator(50, undefined, handle.db, {
      onNotification: async (row) => {
        mailed.push(row.refId ?? '');
        await held;
      },
    });
    const r = new JobRunner({ db: handle.db, handlers: [handler], owner: 'T6', leaseMs: 10_000, tickMs: 50 });
    const first = await setAlert('MAINNET', 'BTCUSDT', 64_000, 66_000);
    const second = await setAlert('MAINNET', 'BTCUSDT', 64_000, 67_000);
    r.start();
    try {
      const main = await until('BTCUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
      await wait(300); // heard live
      main.trade('66000.0');
      expect((await fired(first)).triggeredPrice).toBe(66_000);
      await until('the first e-mail under way', () => mailed.includes(first));
      // Its e-mail still waiting, the next crossing fires at once, and its e-mail goes out beside the first.
      main.trade('67000.0');
      expect((await fired(second)).triggeredPrice).toBe(67_000);
      await until('the second e-mail under way', () => mailed.includes(second));
      expect(mailed.filter((id) => id === first || id === second)).toHaveLength(2);
    } finally {
      release();
      await r.stop();
    }
  });
  it('an alert set elsewhere is pushed to the evaluator: it fires on the next print, not at the next read of the alerts, even past a read that began before it', async () => {
    await runner.stop();
    // Every read of the alerts runs at once but answers only when the test lets it: what the evaluator watches
    // between two answers came by the event alone.
    let gate: { open: () => void; opened: Promise<void> } | null = null;
    let pending = 0;
    const arm = () => {
      let open = () => undefined as void;
      const opened = new Promise<void>((r) => (open = r));
      gate = { open, opened };
    };
    const release = () => {
      const g = gate;
      gate = null;
      g?.open();
    };
    const db = new Proxy(handle.db, {
      get(target, prop) {
        const g = gate;
        if (prop === 'select' && g) {
          return (...fields: Parameters<typeof target.select>) => {
            const query = target.select(...fields);
            return {
              from: (...from: Parameters<typeof query.from>) => ({
                where: (...where: Parameters<ReturnType<typeof query.from>['where']>) => {
                  const answer = query.from(...from).where(...where).then((rows) => rows);
                  pending++;
                  return g.opened.then(() => answer).finally(() => pending--);
                },
              }),
            };
          };
        }
        const v = Reflect.get(target, prop, target) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    const bus = new EventBus({ db: handle.db, transports: [], log: { info: () => undefined, warn: () => undefined, debug: () => undefined, error: () => undefined } });
    const r = new JobRunner({ db: handle.db, handlers: [evaluator(50, undefined, db, { events: bus })], owner: 'T7', leaseMs: 10_000, tickMs: 50 });
    const keep = await setAlert('MAINNET', 'BTCUSDT', 64_000, 70_000); // keeps BTCUSDT listened to
    r.start();
    try {
      const main = await until('BTCUSDT subscribed', () => live('MAINNET').find((s) => s.subscribed().includes('btcusdt@aggTrade')));
      await wait(300); // heard live
      // A read of the alerts is under way (its rows taken before the new alert exists) when the alert is set and pushed.
      arm();
      await until('a read of the alerts under way', () => pending > 0);
      const [row] = await handle.db.insert(alerts).values({ userId, exchange: 'binance', network: 'MAINNET', symbol: 'BTCUSDT', initialPrice: 64_000, triggerPrice: 65_000 }).returning();
      await bus.publish('alert.active', activeAlertEvent(row!));
      // That read answers without the alert, and every later one waits: the pushed version must stay watched.
      const stale = gate as { open: () => void } | null;
      arm();
      stale?.open();
      await wait(100);
      main.trade('65000.0');
      main.trade('64900.0');
      expect((await fired(row!.id)).triggeredPrice).toBe(65_000);
      expect((await statusOf(keep)).status).toBe('active');
    } finally {
      release();
      await r.stop();
      await handle.db.delete(alerts).where(eq(alerts.id, keep));
    }
  });
});
