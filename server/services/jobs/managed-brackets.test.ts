/**
 * Semi-auto brackets (issue 13) on the paper exchange of all four venues, with no browser: consent,
 * the stop moved to break-even by the server once the first target fills, the rest cancelled when
 * the position is closed elsewhere, the sealed credentials gone with the job and never in a
 * response or a log line; a holder "killed -9" just before its amend, and the other instance
 * finishing the job exactly once.
 */
import { Writable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { Tokens } from '../../../src/api/contracts/auth';
import { dec, roundToStep, str } from '../../../src/api/contracts/decimal';
import type { NotificationList } from '../../../src/api/contracts/notifications';
import type { ActivityEntry, BracketResult, ManagedBracketInfo, Order, Position } from '../../../src/api/contracts/trading';
import { buildApp } from '../../app';
import { testConfig } from '../../config';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { featureFlags } from '../../db/schema';
import { jobs, sealedCredentials } from '../../db/schema-jobs';
import { manualClock } from '../../sim/testing';
import { createPostgresDatabase, RecordingMailer, TEST_DRIVERS, TestClient, uniqueEmail, type TestDriver } from '../../test/helper';
import { prepareDatabase } from '../bootstrap';
import { createUser } from '../users';

const KEY_PASSWORD = 'key-password-1';
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Venue {
  exchange: 'binance' | 'bybit' | 'okx' | 'bitmex';
  symbol: string;
  qty: string;
  tick: number;
  ticker: string;
}
const VENUES: Venue[] = [
  { exchange: 'binance', symbol: 'BTCUSDT', qty: '0.020', tick: 0.1, ticker: '/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT' },
  { exchange: 'bybit', symbol: 'BTCUSDT', qty: '0.020', tick: 0.1, ticker: '/sim/bybit/v5/market/tickers?category=linear&symbol=BTCUSDT' },
  { exchange: 'okx', symbol: 'BTCUSDT', qty: '2', tick: 0.1, ticker: '/sim/okx/api/v5/market/ticker?instId=BTC-USDT-SWAP' },
  { exchange: 'bitmex', symbol: 'XBTUSD', qty: '200', tick: 0.5, ticker: '/sim/bitmex/api/v1/instrument?symbol=XBTUSD' },
];

const onTick = (x: number, tick: number, dir: 'floor' | 'ceil') => {
  const n = Math[dir](x / tick) * tick;
  return n.toFixed(tick < 1 ? String(tick).split('.')[1].length : 0);
};

/** Polls `fn` until it gives a value; the cap only turns a hang into a clear failure (no speed limit). */
async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(25);
  }
}

describe.each(TEST_DRIVERS)('server-managed brackets on %s (simulator, no browser)', (driver: TestDriver) => {
  const clock = manualClock(T0);
  const handles: DatabaseHandle[] = [];
  const apps: FastifyInstance[] = [];
  const logLines: string[] = [];
  let url = '';
  let drop: (() => Promise<void>) | null = null;
  let token = '';
  let email = '';

  async function handle(): Promise<DatabaseHandle> {
    if (driver === 'pglite') return handles[0]!;
    const h = await openDatabase({ driver: 'postgres', url, poolSize: 4 });
    handles.push(h);
    return h;
  }

  /** One server instance on the shared database; `hook` runs before each of its bracket jobs' exchange actions. */
  async function instance(owner: string, hook?: (action: string, signal: AbortSignal, jobKey: string) => Promise<void>): Promise<{ app: FastifyInstance; client: TestClient }> {
    const h = await handle();
    const config = testConfig({ MARKET_DATA: 'sim', JOBS_ENABLED: true, LOG_LEVEL: 'trace', AUTH_RATE_LIMIT_MAX: 10_000, SIM_CREDENTIALS_RATE_LIMIT_MAX: 10_000 });
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        logLines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp({
      config,
      db: h.db,
      driver,
      mailer: new RecordingMailer(),
      logger: { level: 'trace', stream },
      distDir: '/nonexistent',
      market: {
        sim: { now: clock.now, seed: 'semi-auto' },
        jobs: { owner, leaseMs: 1500, tickMs: 100, refreshMs: 200, bracketPollMs: 100, beforeBracketAction: hook ? (action, ctx) => hook(action, ctx.signal, ctx.job.key) : undefined },
      },
    });
    await app.ready();
    apps.push(app);
    return { app, client: new TestClient(app, config.JWT_SECRET ?? '') };
  }

  beforeAll(async () => {
    if (driver === 'postgres') {
      const created = await createPostgresDatabase();
      url = created.url;
      drop = created.drop;
      handles.push(await openDatabase({ driver: 'postgres', url, poolSize: 2 }));
    } else {
      handles.push(await openDatabase({ driver: 'pglite' }));
    }
    const db = handles[0]!.db;
    await prepareDatabase(handles[0]!);
    for (const name of ['FF_ENABLE_SEMI_AUTO', 'FF_ENABLE_BYBIT', 'FF_ENABLE_OKX', 'FF_ENABLE_BITMEX']) {
      await db.insert(featureFlags).values({ name, enabled: true }).onConflictDoUpdate({ target: featureFlags.name, set: { enabled: true } });
    }
    email = uniqueEmail('semi');
    await createUser(db, { email, password: 'password-1', role: 'user' });
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => undefined);
    for (const h of handles.reverse()) await h.close();
    await drop?.();
  });

  const call = (c: TestClient, method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) =>
    c.request(method, path, body, { token, headers: { 'x-key-password': KEY_PASSWORD } });

  async function setUp(c: TestClient, v: Venue): Promise<{ key: ApiKey; secret: string }> {
    if (!token) token = ((await c.post('/v1/auth/signin', { email, password: 'password-1' })).json() as Tokens).accessToken;
    const creds = (await c.post('/v1/api-keys/sim-credentials', { exchange: v.exchange }, { token })).json<SimCredentials>();
    const res = await c.post('/v1/api-keys', { name: `${v.exchange} semi`, exchange: v.exchange, network: 'MAINNET', ...creds, keyPassword: KEY_PASSWORD }, { token });
    expect(res.statusCode, res.body).toBe(201);
    return { key: res.json<ApiKey>(), secret: creds.apiSecret };
  }

  async function last(app: FastifyInstance, v: Venue): Promise<number> {
    const body = (await app.inject(v.ticker)).json<{ lastPrice?: string; result?: { list: Array<{ lastPrice: string }> }; data?: Array<{ last: string }> } | Array<{ lastPrice: number }>>();
    if (Array.isArray(body)) return body[0]!.lastPrice;
    return Number(body.lastPrice ?? body.result?.list[0]!.lastPrice ?? body.data?.[0]!.last);
  }

  const bracketBody = (v: Venue, price: number, managed: unknown) => ({
    symbol: v.symbol,
    side: 'BUY',
    qty: v.qty,
    entry: { type: 'MARKET' },
    stopLoss: { triggerPrice: onTick(price * 0.8, v.tick, 'floor') },
    takeProfits: [
      // Far enough above the entry for break-even (entry + two taker fees) to lie below it.
      { price: onTick(price * 1.002, v.tick, 'ceil'), qtyPercent: 50 },
      { price: onTick(price * 1.3, v.tick, 'ceil'), qtyPercent: 50 },
    ],
    managed,
  });

  it.each(VENUES)('$exchange: consent first; TP1 fills → the server moves the stop to break-even; closed elsewhere → the rest is cancelled and the sealed credentials deleted', async (v) => {
    clock.set(T0);
    const { app, client } = apps[0] ? { app: apps[0], client: new TestClient(apps[0], testConfig().JWT_SECRET ?? '') } : await instance('A');
    const db = handles[0]!.db;
    const { key, secret } = await setUp(client, v);
    const base = `/v1/trade/${key.id}`;
    const managed = { breakEven: true, trail: null };
    const price = await last(app, v);

    // Without the key's consent: refused before anything is placed, and said where to allow it.
    const refused = await call(client, 'POST', `${base}/brackets`, bracketBody(v, price, managed));
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toMatchObject({ message: expect.stringMatching(/^Brackets are guarded by the server .*allow it for this key first/), fields: { custody: expect.any(String) } });
    expect((await call(client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>()).toEqual([]);

    const consent = await client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token });
    expect(consent.statusCode, consent.body).toBe(200);
    expect(consent.json<ApiKey>().serverCustody).toBe(true);

    const placed = await call(client, 'POST', `${base}/brackets`, bracketBody(v, price, managed));
    expect(placed.statusCode, placed.body).toBe(201);
    const b = placed.json<BracketResult>();
    expect(b.managed).toBe(true);
    expect(await db.select().from(sealedCredentials).where(eq(sealedCredentials.apiKeyId, key.id))).toHaveLength(1);
    const list = (await call(client, 'GET', `${base}/managed`)).json<ManagedBracketInfo[]>();
    expect(list).toEqual([expect.objectContaining({ bracketId: b.bracketId, symbol: v.symbol, side: 'BUY', state: 'running', breakEvenDone: false, options: managed })]);
    // Before the fill the stop is where the user put it.
    const stopsBefore = (await call(client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>().filter((o) => o.role === 'stop-loss');
    expect(stopsBefore.map((o) => Number(o.triggerPrice))).toEqual([Number(bracketBody(v, price, managed).stopLoss.triggerPrice)]);

    // The market runs until the first target fills; the server then moves the stop, with no browser.
    let filled = false;
    for (let i = 0; i < 7 * 24 * 12 && !filled; i++) {
      clock.advance(5 * 60_000);
      const p = (await call(client, 'GET', `${base}/positions?symbol=${v.symbol}`)).json<Position[]>();
      filled = p.length > 0 && Number(p[0]!.size) < Number(v.qty);
    }
    expect(filled, 'TP1 filled within a simulated week').toBe(true);
    const pos = (await call(client, 'GET', `${base}/positions?symbol=${v.symbol}`)).json<Position[]>()[0]!;
    const be = str(roundToStep(dec(pos.breakEvenPrice), dec(String(v.tick)), 'up'));
    const stop = await until('the stop at break-even', async () => {
      const open = (await call(client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>();
      const stops = open.filter((o) => o.role === 'stop-loss');
      return stops.length === 1 && stops[0]!.triggerPrice !== null && Number(stops[0]!.triggerPrice) === Number(be) ? stops[0] : null;
    });
    // No market time passed after the fill: the server moved the stop on the fill itself.
    expect(stop.bracketId).toBe(b.bracketId);
    expect(Number(be)).toBeGreaterThan(Number(pos.entryPrice));

    // Closed elsewhere (here: the API, as the exchange's own app would): the job cancels TP2 and ends.
    expect((await call(client, 'POST', `${base}/positions/close`, { symbol: v.symbol, percent: 100, type: 'MARKET' })).statusCode).toBe(201);
    await until('the remaining orders cancelled', async () => (await call(client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>().length === 0);
    const [job] = await until('the job done', async () => {
      const rows = await db.select().from(jobs).where(eq(jobs.key, `bracket:${b.bracketId}`));
      return rows[0]?.state === 'done' ? rows : null;
    });
    expect(job!.attempts).toBe(1);
    // The key's brackets gather on one instance (one account state per key): the runner's affinity.
    expect(job!.affinity).toBe(`api-key:${key.id}`);
    // Deleted right after the job is marked done (`end`: complete, then drop the sealed credentials if idle).
    await until('the sealed credentials deleted', async () => (await db.select().from(sealedCredentials).where(eq(sealedCredentials.apiKeyId, key.id))).length === 0);

    const activity = (await client.get('/v1/notifications/activity', { token })).json<ActivityEntry[]>().filter((a) => a.job === `bracket:${b.bracketId}`);
    expect(activity.map((a) => a.action).reverse()).toEqual(['Guarding the bracket', 'Moved the stop to break-even', 'Cancelled the remaining orders', 'Finished guarding the bracket']);
    expect(activity.find((a) => a.action === 'Moved the stop to break-even')).toMatchObject({ result: 'ok', orderId: expect.any(String), message: expect.stringContaining(`stop moved to ${be}`) });
    const notes = (await client.get('/v1/notifications', { token })).json<NotificationList>();
    expect(notes.items.filter((n) => n.kind === 'job' && n.refId === `bracket:${b.bracketId}`).map((n) => n.title)).toEqual(['Cancelled the remaining orders', 'Moved the stop to break-even']);
    expect((await call(client, 'GET', `${base}/managed`)).json<ManagedBracketInfo[]>()[0]).toMatchObject({ state: 'done', breakEvenDone: true });

    // The secret was in no answer and no log line; the sealed copy is gone.
    expect(logLines.some((l) => l.includes(secret))).toBe(false);
    expect(consent.body.includes(secret) || placed.body.includes(secret)).toBe(false);
  }, 120_000); // a simulated week of polling: a guard against a hang, roomy enough for a busy machine

  it('bybit: a trailing stop (1 %) follows the price up once in profit and never moves back down', async () => {
    const v = VENUES[1]!;
    clock.set(T0 + 10 * 86_400_000);
    const { app, client } = apps[0] ? { app: apps[0], client: new TestClient(apps[0], testConfig().JWT_SECRET ?? '') } : await instance('A');
    const { key } = await setUp(client, v);
    const base = `/v1/trade/${key.id}`;
    await client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token });
    const price = await last(app, v);
    const body = { ...bracketBody(v, price, { breakEven: false, trail: { mode: 'percent', value: '1' } }), takeProfits: [{ price: onTick(price * 1.5, v.tick, 'ceil'), qtyPercent: 100 }] };
    const placed = await call(client, 'POST', `${base}/brackets`, body);
    expect(placed.statusCode, placed.body).toBe(201);
    const stopNow = async () => Number((await call(client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>().find((o) => o.role === 'stop-loss')?.triggerPrice);
    const seen: number[] = [await stopNow()];
    for (let i = 0; i < 40 && seen.filter((x, k) => k > 0 && x !== seen[k - 1]).length < 2; i++) {
      clock.advance(20 * 60_000);
      await wait(1100); // the trail moves at most once a second
      const now = await stopNow();
      if (Number.isNaN(now)) {
        // Stopped out by the trailed stop (that is the point of it): the position is gone.
        expect((await call(client, 'GET', `${base}/positions?symbol=${v.symbol}`)).json<Position[]>()).toEqual([]);
        break;
      }
      seen.push(now);
    }
    const moves = seen.filter((x, k) => k > 0 && x !== seen[k - 1]);
    expect(moves.length, 'the stop trailed').toBeGreaterThanOrEqual(1);
    // Never loosened, and each time 1 % under the price it followed (within a tick).
    for (let k = 1; k < seen.length; k++) expect(seen[k]!).toBeGreaterThanOrEqual(seen[k - 1]!);
    const activity = (await client.get('/v1/notifications/activity', { token })).json<ActivityEntry[]>().filter((e) => e.action === 'Trailed the stop');
    expect(activity.length).toBe(moves.length);
    const latest = activity[0]!;
    const [, lastText, stopText] = /last ([\d.]+); stop moved to ([\d.]+)/.exec(latest.message) ?? [];
    expect(Number(stopText)).toBeCloseTo(Number(lastText) * 0.99, 0);
    expect(Number(stopText)).toBeGreaterThan(Number((body.stopLoss as { triggerPrice: string }).triggerPrice));
  }, 90_000);

  it('binance: the holder killed -9 just before its amend; the other instance moves the stop once', async () => {
    const v = VENUES[0]!;
    clock.set(T0 + 3 * 86_400_000);
    for (const app of apps.splice(0)) await app.close();
    let reached: (() => void) | null = null;
    const atAmend = new Promise<void>((r) => (reached = r));
    const a = await instance('A', async (action, signal) => {
      if (action !== 'amend' && action !== 'place-stop') return;
      reached?.();
      // Frozen here until killed.
      await new Promise<void>((r) => signal.addEventListener('abort', () => r(), { once: true }));
    });
    const db = handles[0]!.db;
    const { key } = await setUp(a.client, v);
    const base = `/v1/trade/${key.id}`;
    await a.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token });
    const price = await last(a.app, v);
    const placed = await call(a.client, 'POST', `${base}/brackets`, bracketBody(v, price, { breakEven: true, trail: null }));
    expect(placed.statusCode, placed.body).toBe(201);
    const b = placed.json<BracketResult>();
    await until('A to hold the job', async () => (await db.select().from(jobs).where(eq(jobs.key, `bracket:${b.bracketId}`)))[0]?.leaseOwner === 'A');
    // When B first acts on this bracket, by the database's clock (the one leases are measured in).
    let bActedAt: number | null = null;
    const bInst = await instance('B', async (_action, _signal, jobKey) => {
      if (jobKey !== `bracket:${b.bracketId}` || bActedAt !== null) return;
      const [row] = await db.select({ now: sql<number>`(extract(epoch from now()) * 1000)::float8` }).from(jobs).limit(1);
      bActedAt ??= Number(row!.now);
    });

    for (let i = 0; i < 7 * 24 * 12; i++) {
      clock.advance(5 * 60_000);
      const p = (await call(a.client, 'GET', `${base}/positions?symbol=${v.symbol}`)).json<Position[]>();
      if (p.length && Number(p[0]!.size) < Number(v.qty)) {
        break;
      }
    }
    // If the price fell back below break-even the job waits for it: let the market go on until A acts.
    let atStop = false;
    void atAmend.then(() => (atStop = true));
    for (let i = 0; i < 7 * 24 * 60 && !atStop; i++) {
      clock.advance(60_000);
      await wait(20);
    }
    await atAmend;
    a.app.jobs!.runner.kill();
    // A's lease as it stands at the kill (a renewal still in flight could only make it later).
    const [atKill] = await db.select().from(jobs).where(eq(jobs.key, `bracket:${b.bracketId}`));
    expect(atKill).toMatchObject({ leaseOwner: 'A', attempts: 1 });
    const aLeaseEnd = atKill!.leaseUntil!.getTime();

    const stop = await until(
      'B to move the stop',
      async () => {
        const stops = (await call(bInst.client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>().filter((o) => o.role === 'stop-loss');
        return stops.length === 1 && Number(stops[0]!.triggerPrice) > price ? stops[0] : null;
      },
    );
    // B waited for A's lease to run out (nobody renews it after the kill), then finished the job.
    expect(bActedAt, 'B acted on the bracket').not.toBeNull();
    expect(bActedAt!).toBeGreaterThan(aLeaseEnd);
    // The stop is moved on the exchange a moment before the job saves that it was (one more read of the orders in between).
    const row = await until('B to save the break-even', async () => {
      const [r] = await db.select().from(jobs).where(eq(jobs.key, `bracket:${b.bracketId}`));
      return r?.payload.beDone === true ? r : null;
    });
    expect(row).toMatchObject({ leaseOwner: 'B', attempts: 2, state: 'pending', payload: expect.objectContaining({ beDone: true }) });
    // One replacement of the original stop (Binance amends a conditional by place-then-cancel): R1, not R2.
    expect(stop.clientOrderId).toBe(`${b.bracketId}SR1`);
    await wait(500);
    const stops = (await call(bInst.client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>().filter((o) => o.role === 'stop-loss');
    expect(stops).toHaveLength(1);
    const moved = (await bInst.client.get('/v1/notifications/activity', { token })).json<ActivityEntry[]>().filter((e) => e.job === `bracket:${b.bracketId}` && e.action === 'Moved the stop to break-even');
    expect(moved).toHaveLength(1);

    // Turning the consent off stops the management (orders stay) and deletes the sealed credentials.
    const off = await bInst.client.delete(`/v1/api-keys/${key.id}/server-custody`, { token });
    expect(off.json<ApiKey>().serverCustody).toBe(false);
    expect(await db.select().from(sealedCredentials).where(eq(sealedCredentials.apiKeyId, key.id))).toHaveLength(0);
    expect((await db.select().from(jobs).where(eq(jobs.key, `bracket:${b.bracketId}`)))[0]).toMatchObject({ state: 'failed', lastError: expect.stringContaining('turned off') });
    expect((await call(bInst.client, 'GET', `${base}/orders?symbol=${v.symbol}`)).json<Order[]>().length).toBeGreaterThan(0);

    // Deleting the key stops the guard of its brackets too (managed or not), and the sealed copy goes with the key.
    await bInst.client.put(`/v1/api-keys/${key.id}/server-custody`, undefined, { token });
    const again = await call(bInst.client, 'POST', `${base}/brackets`, bracketBody(v, await last(bInst.app, v), undefined));
    expect(again.statusCode, again.body).toBe(201);
    const second = again.json<BracketResult>();
    expect(second.managed).toBe(false);
    expect(await db.select().from(sealedCredentials).where(eq(sealedCredentials.apiKeyId, key.id))).toHaveLength(1);
    expect((await bInst.client.delete(`/v1/api-keys/${key.id}`, { token })).statusCode).toBe(204);
    expect((await db.select().from(jobs).where(eq(jobs.key, `bracket:${second.bracketId}`)))[0]).toMatchObject({ state: 'failed', lastError: expect.stringContaining('deleted') });
    expect(await db.select().from(sealedCredentials).where(eq(sealedCredentials.apiKeyId, key.id))).toHaveLength(0);
  }, 120_000);
});
