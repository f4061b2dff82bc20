import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { ALERTS_ACTIVE_MAX, ALERTS_DISABLED_MESSAGE, ALERTS_TRIGGERED_KEPT, type Alert } from '../../../src/api/contracts/alerts';
import { alerts } from '../../db/schema-alerts';
import { jobs, notifications } from '../../db/schema-jobs';
import { fireAlert, fireAlerts } from '../../services/alerts';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const MISSING_ID = '00000000-0000-4000-8000-000000000000';
const BTC = { exchange: 'binance', symbol: 'BTCUSDT', initialPrice: 60_000, triggerPrice: 65_000 } as const;

describe.each(TEST_DRIVERS)('/v1/alerts on %s', (driver) => {
  let t: TestApp;
  let alice: SignedIn;
  let bob: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver);
    await t.setFlag('FF_ENABLE_ALERTS', true);
    alice = await t.signInAs('user');
    bob = await t.signInAs('user');
  });
  afterAll(() => t.close());
  beforeEach(() => t.setFlag('FF_ENABLE_ALERTS', true));

  const as = (user: SignedIn) => ({ token: user.accessToken });
  const create = async (user: SignedIn, body: Record<string, unknown> = BTC): Promise<Alert> => {
    const res = await t.client.post('/v1/alerts', body, as(user));
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as Alert;
  };
  const list = async (user: SignedIn, status?: string): Promise<Alert[]> =>
    (await t.client.get('/v1/alerts', { ...as(user), ...(status ? { query: { status } } : {}) })).json() as Alert[];
  /** What the server's evaluator does on a price (services/jobs/alert-watch.ts): true when this call fired it. */
  const trigger = async (user: SignedIn, id: string, price: number): Promise<boolean> => {
    const [row] = await t.db.select().from(alerts).where(and(eq(alerts.id, id), eq(alerts.userId, user.id)));
    if (!row) throw new Error('no such alert');
    return (await fireAlert(t.db, row, price, new Date())) !== null;
  };

  it('creates an alert with the SPEC fields plus symbol, status, note and times', async () => {
    const before = Date.now();
    const alert = await create(alice, { ...BTC, symbol: ' ethusdt ', note: '  breakout retest ' });
    expect(alert).toEqual({
      id: expect.any(String),
      exchange: 'binance',
      // Left out, the network is MAINNET (the exchange's real market).
      network: 'MAINNET',
      symbol: 'ETHUSDT',
      initialPrice: 60_000,
      triggerPrice: 65_000,
      status: 'active',
      triggeredAt: null,
      triggeredPrice: null,
      note: 'breakout retest',
      drawingId: null,
      createdAt: expect.any(String),
      updatedAt: alert.createdAt,
    });
    expect(Date.parse(alert.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await list(alice)).map((a) => a.id)).toContain(alert.id);
  });

  it('keeps the network an alert was set on, lists it, and wakes that network’s evaluator', async () => {
    const user = await t.signInAs('user');
    const testnet = await create(user, { ...BTC, exchange: 'bybit', network: 'TESTNET' });
    expect(testnet).toMatchObject({ exchange: 'bybit', network: 'TESTNET', status: 'active' });
    const mainnet = await create(user, { ...BTC, exchange: 'bybit', network: 'MAINNET', triggerPrice: 66_000 });
    expect((await list(user)).map((a) => [a.id, a.network])).toEqual([
      [testnet.id, 'TESTNET'],
      [mainnet.id, 'MAINNET'],
    ]);
    const keys = (await t.db.select({ key: jobs.key }).from(jobs)).map((j) => j.key);
    expect(keys).toEqual(expect.arrayContaining(['alerts:bybit:testnet', 'alerts:bybit']));
    // Moving or re-arming keeps it on its network.
    const moved = await t.client.patch(`/v1/alerts/${testnet.id}`, { triggerPrice: 64_000, initialPrice: 61_000 }, as(user));
    expect(moved.json()).toMatchObject({ network: 'TESTNET', triggerPrice: 64_000 });
  });

  it('answers 400 naming the field for bad input', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...BTC, triggerPrice: undefined }, 'triggerPrice'],
      [{ ...BTC, triggerPrice: -1 }, 'triggerPrice'],
      [{ ...BTC, triggerPrice: BTC.initialPrice }, 'triggerPrice'],
      [{ ...BTC, initialPrice: '60000' }, 'initialPrice'],
      [{ ...BTC, exchange: 'ftx' }, 'exchange'],
      [{ ...BTC, network: 'SIMNET' }, 'network'],
      [{ ...BTC, network: 'testnet' }, 'network'],
      [{ ...BTC, network: null }, 'network'],
      [{ ...BTC, symbol: 'BTC USDT' }, 'symbol'],
      [{ ...BTC, note: 'x'.repeat(201) }, 'note'],
      [{ ...BTC, status: 'triggered' }, 'status'],
    ];
    for (const [body, field] of cases) {
      const res = await t.client.post('/v1/alerts', body, as(alice));
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().fields), field).toEqual([field]);
    }
    const same = await t.client.post('/v1/alerts', { ...BTC, triggerPrice: BTC.initialPrice }, as(alice));
    expect(same.json()).toEqual({
      message: 'Invalid triggerPrice: The trigger price must differ from the current price',
      fields: { triggerPrice: 'The trigger price must differ from the current price' },
    });
    const badNetwork = await t.client.post('/v1/alerts', { ...BTC, network: 'SIMNET' }, as(alice));
    expect(badNetwork.json()).toEqual({ message: 'Invalid network: The network must be MAINNET or TESTNET', fields: { network: 'The network must be MAINNET or TESTNET' } });
    const badId = await t.client.delete('/v1/alerts/not-a-uuid', as(alice));
    expect(badId.statusCode).toBe(400);
    expect(Object.keys(badId.json().fields)).toEqual(['id']);
    const badStatus = await t.client.get('/v1/alerts', { ...as(alice), query: { status: 'done' } });
    expect(Object.keys(badStatus.json().fields)).toEqual(['status']);
  });

  it('answers 401 signed out or with an expired token, on every route', async () => {
    const id = (await create(alice)).id;
    const attempts = [
      t.client.get('/v1/alerts'),
      t.client.post('/v1/alerts', BTC),
      t.client.patch(`/v1/alerts/${id}`, { note: 'x' }),
      t.client.delete(`/v1/alerts/${id}`),
      t.client.post(`/v1/alerts/${id}/rearm`, { initialPrice: 1 }),
      t.client.delete('/v1/alerts', { query: { status: 'triggered' } }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode).toBe(401);
    const expired = await t.client.get('/v1/alerts', { token: t.expiredAccessToken(alice) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({ message: 'Invalid access token' });
    expect((await list(alice)).find((a) => a.id === id)?.status).toBe('active');
  });

  it('answers 403 on every route while FF_ENABLE_ALERTS is off (before validating the input)', async () => {
    const id = (await create(alice)).id;
    await t.setFlag('FF_ENABLE_ALERTS', false);
    const attempts = [
      t.client.get('/v1/alerts', as(alice)),
      t.client.post('/v1/alerts', { nonsense: true }, as(alice)),
      t.client.patch(`/v1/alerts/${id}`, { note: 'x' }, as(alice)),
      t.client.delete(`/v1/alerts/${id}`, as(alice)),
      t.client.post(`/v1/alerts/${id}/rearm`, { initialPrice: 1 }, as(alice)),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: ALERTS_DISABLED_MESSAGE });
    }
    await t.setFlag('FF_ENABLE_ALERTS', true);
    expect((await list(alice)).find((a) => a.id === id)?.status).toBe('active');
    // Mutations also need the XSRF header, like every mutating /v1 call.
    expect((await t.client.post('/v1/alerts', BTC, { ...as(alice), xsrf: false })).statusCode).toBe(403);
  });

  it("keeps users apart: another user's alert is 404 everywhere and never listed", async () => {
    const mine = await create(alice);
    expect((await list(bob)).map((a) => a.id)).not.toContain(mine.id);
    const attempts = [
      t.client.patch(`/v1/alerts/${mine.id}`, { note: 'hi' }, as(bob)),
      t.client.delete(`/v1/alerts/${mine.id}`, as(bob)),
      t.client.post(`/v1/alerts/${mine.id}/rearm`, { initialPrice: 61_000 }, as(bob)),
      t.client.delete(`/v1/alerts/${MISSING_ID}`, as(alice)),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Alert not found' });
    }
    const after = (await list(alice)).find((a) => a.id === mine.id);
    expect(after).toMatchObject({ status: 'active', note: null });
  });

  it('moves an active alert (new trigger and initial price) and edits or clears its note', async () => {
    const alert = await create(alice);
    const moved = await t.client.patch(`/v1/alerts/${alert.id}`, { triggerPrice: 58_000, initialPrice: 61_000 }, as(alice));
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ id: alert.id, triggerPrice: 58_000, initialPrice: 61_000, status: 'active', note: null });
    expect(Date.parse(moved.json().updatedAt)).toBeGreaterThanOrEqual(Date.parse(alert.updatedAt));

    const noted = await t.client.patch(`/v1/alerts/${alert.id}`, { note: 'support' }, as(alice));
    expect(noted.json()).toMatchObject({ triggerPrice: 58_000, note: 'support' });
    expect((await t.client.patch(`/v1/alerts/${alert.id}`, { note: null }, as(alice))).json().note).toBeNull();

    const noInitial = await t.client.patch(`/v1/alerts/${alert.id}`, { triggerPrice: 59_000 }, as(alice));
    expect(noInitial.statusCode).toBe(400);
    expect(Object.keys(noInitial.json().fields)).toEqual(['initialPrice']);
    const empty = await t.client.patch(`/v1/alerts/${alert.id}`, {}, as(alice));
    expect(empty.statusCode).toBe(400);
    expect(Object.keys(empty.json().fields)).toEqual(['triggerPrice']);
    expect((await t.client.patch(`/v1/alerts/${MISSING_ID}`, { note: 'x' }, as(alice))).statusCode).toBe(404);
  });

  it('fires only when the price crosses from the initial side, exactly once across concurrent evaluators, with one notification', async () => {
    const rising = await create(alice, { ...BTC, initialPrice: 60_000, triggerPrice: 65_000 });
    expect(await trigger(alice, rising.id, 64_999.5)).toBe(false);

    // Five evaluators (instances, a re-run after a crash) see the crossing at once: exactly one fires it.
    const results = await Promise.all([65_000, 65_001, 65_002, 65_003, 65_004].map((p) => trigger(alice, rising.id, p)));
    expect(results.filter(Boolean)).toHaveLength(1);
    const [fired] = (await list(alice, 'triggered')).filter((a) => a.id === rising.id);
    expect(fired).toMatchObject({ status: 'triggered', triggeredPrice: expect.any(Number), triggeredAt: expect.any(String) });
    expect(await trigger(alice, rising.id, 70_000)).toBe(false);
    const notes = await t.db.select().from(notifications).where(eq(notifications.refId, rising.id));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'alert', title: 'Alert triggered: BTCUSDT', userId: alice.id });
    expect(notes[0]!.body).toBe(`BTCUSDT on binance rose to 65,000 (last ${fired!.triggeredPrice!.toLocaleString('en-US')})`);

    const falling = await create(alice, { ...BTC, initialPrice: 60_000, triggerPrice: 55_000 });
    expect(await trigger(alice, falling.id, 56_000)).toBe(false);
    expect(await trigger(alice, falling.id, 54_000)).toBe(true);

    // An evaluator holding a stale copy (the alert was moved meanwhile) cannot fire it at the old trigger.
    const moved = await create(alice, { ...BTC, initialPrice: 60_000, triggerPrice: 61_000 });
    const [stale] = await t.db.select().from(alerts).where(eq(alerts.id, moved.id));
    await t.client.patch(`/v1/alerts/${moved.id}`, { triggerPrice: 61_200, initialPrice: 60_500 }, as(alice));
    expect(await fireAlert(t.db, stale!, 61_500, new Date())).toBeNull();
    expect((await list(alice, 'active')).find((a) => a.id === moved.id)?.triggerPrice).toBe(61_200);
    // The browser does not decide any more: there is no trigger route.
    expect((await t.client.post(`/v1/alerts/${moved.id}/trigger`, { price: 70_000 }, as(alice))).statusCode).toBe(404);
  });

  it('fires a burst of one user’s crossings in one go, each judged by its own version and price', async () => {
    const user = await t.signInAs('user');
    const up = await create(user, { ...BTC, initialPrice: 60_000, triggerPrice: 61_000 });
    const down = await create(user, { ...BTC, initialPrice: 60_000, triggerPrice: 59_000 });
    const notYet = await create(user, { ...BTC, initialPrice: 60_000, triggerPrice: 62_000 });
    const moved = await create(user, { ...BTC, initialPrice: 60_000, triggerPrice: 63_000 });
    const rows = async () => new Map((await t.db.select().from(alerts).where(eq(alerts.userId, user.id))).map((r) => [r.id, r]));
    const held = await rows();
    // Moved after the evaluator read it: its old version fires nothing, the new one (queued beside it) does.
    await t.client.patch(`/v1/alerts/${moved.id}`, { triggerPrice: 64_000, initialPrice: 60_000 }, as(user));
    const fresh = (await rows()).get(moved.id)!;
    const at1 = new Date('2026-11-28T08:00:00.123Z');
    const at2 = new Date('2026-11-28T08:00:01.456Z');
    const fired = await fireAlerts(t.db, [
      { alert: held.get(up.id)!, price: 61_000.5, at: at1 },
      { alert: held.get(down.id)!, price: 58_999.25, at: at2 },
      { alert: held.get(notYet.id)!, price: 61_999, at: at1 },
      { alert: held.get(moved.id)!, price: 64_500, at: at1 },
      { alert: fresh, price: 64_000, at: at2 },
    ]);
    expect(fired.map((f) => f.row.id)).toEqual([up.id, down.id, moved.id]);
    const after = await rows();
    expect(after.get(up.id)).toMatchObject({ status: 'triggered', triggeredPrice: 61_000.5, triggeredAt: at1 });
    expect(after.get(down.id)).toMatchObject({ status: 'triggered', triggeredPrice: 58_999.25, triggeredAt: at2 });
    expect(after.get(notYet.id)).toMatchObject({ status: 'active', triggeredPrice: null, triggeredAt: null });
    expect(after.get(moved.id)).toMatchObject({ status: 'triggered', triggeredPrice: 64_000, triggeredAt: at2 });
    const notes = await t.db.select().from(notifications).where(eq(notifications.userId, user.id));
    expect(notes.map((n) => n.refId).sort()).toEqual([up.id, down.id, moved.id].sort());
    // The same burst again (a retry after a write that landed): nothing fires twice.
    expect(await fireAlerts(t.db, [{ alert: held.get(up.id)!, price: 61_001, at: at2 }, { alert: fresh, price: 64_001, at: at2 }])).toEqual([]);
    expect(await t.db.select().from(notifications).where(eq(notifications.userId, user.id))).toHaveLength(3);
  });

  it('wakes the exchange’s evaluator job when an alert is set, moved or re-armed', async () => {
    const user = await t.signInAs('user');
    await t.db.delete(jobs).where(eq(jobs.key, 'alerts:okx'));
    const alert = await create(user, { ...BTC, exchange: 'okx' });
    const [job] = await t.db.select().from(jobs).where(eq(jobs.key, 'alerts:okx'));
    expect(job).toMatchObject({ kind: 'alerts', state: 'pending' });
    await t.db.update(jobs).set({ state: 'done' }).where(eq(jobs.key, 'alerts:okx'));
    await t.client.patch(`/v1/alerts/${alert.id}`, { triggerPrice: 66_000, initialPrice: 60_000 }, as(user));
    expect((await t.db.select().from(jobs).where(eq(jobs.key, 'alerts:okx')))[0]?.state).toBe('pending');
    expect(await t.db.select().from(jobs).where(eq(jobs.key, 'alerts:okx'))).toHaveLength(1);
  });

  it('tells the evaluator every new version of an active alert (set, moved, note edited, re-armed), nothing of a fired or deleted one', async () => {
    const user = await t.signInAs('user');
    const heard: { id: string; triggerPrice: number; initialPrice: number; updatedAt: number; exchange: string; network: string; symbol: string }[] = [];
    const off = t.app.events.on('alert.active', (e) => void (e.userId === user.id && heard.push(e)));
    try {
      const alert = await create(user, { ...BTC, exchange: 'okx' });
      const moved = (await t.client.patch(`/v1/alerts/${alert.id}`, { triggerPrice: 66_000, initialPrice: 60_500 }, as(user))).json<Alert>();
      const noted = (await t.client.patch(`/v1/alerts/${alert.id}`, { note: 'breakout' }, as(user))).json<Alert>();
      expect(await trigger(user, alert.id, 66_000)).toBe(true);
      const rearmed = (await t.client.post(`/v1/alerts/${alert.id}/rearm`, { initialPrice: 65_000 }, as(user))).json<Alert>();
      expect((await t.client.delete(`/v1/alerts/${alert.id}`, as(user))).statusCode).toBe(204);
      // Each version as the row holds it (the firing is guarded by `updatedAt`): four versions, in order.
      expect(heard).toEqual(
        [alert, moved, noted, rearmed].map((a) => ({
          id: a.id,
          userId: user.id,
          exchange: 'okx',
          network: 'MAINNET',
          symbol: 'BTCUSDT',
          initialPrice: a.initialPrice,
          triggerPrice: a.triggerPrice,
          updatedAt: Date.parse(a.updatedAt),
        })),
      );
      expect(new Set(heard.map((h) => h.updatedAt)).size).toBe(4);
    } finally {
      off();
    }
  });

  it('lists active alerts oldest first, then triggered newest first, filtered by status', async () => {
    const user = await t.signInAs('user');
    const a1 = await create(user, { ...BTC, triggerPrice: 61_000 });
    const a2 = await create(user, { ...BTC, triggerPrice: 62_000 });
    const a3 = await create(user, { ...BTC, triggerPrice: 63_000 });
    await trigger(user, a1.id, 61_000);
    await new Promise((r) => setTimeout(r, 5));
    await trigger(user, a3.id, 63_000);
    expect((await list(user)).map((a) => a.id)).toEqual([a2.id, a3.id, a1.id]);
    expect((await list(user, 'active')).map((a) => a.id)).toEqual([a2.id]);
    expect((await list(user, 'triggered')).map((a) => a.id)).toEqual([a3.id, a1.id]);
  });

  it('re-arms a triggered alert from the price now, optionally at a new trigger', async () => {
    const alert = await create(alice, { ...BTC, initialPrice: 60_000, triggerPrice: 62_000 });
    await trigger(alice, alert.id, 62_500);
    const moveTriggered = await t.client.patch(`/v1/alerts/${alert.id}`, { triggerPrice: 70_000, initialPrice: 62_500 }, as(alice));
    expect(moveTriggered.statusCode).toBe(409);

    const rearmed = await t.client.post(`/v1/alerts/${alert.id}/rearm`, { initialPrice: 63_000 }, as(alice));
    expect(rearmed.statusCode).toBe(200);
    expect(rearmed.json()).toMatchObject({ status: 'active', initialPrice: 63_000, triggerPrice: 62_000, triggeredAt: null, triggeredPrice: null });
    // Now it waits for a fall back to 62,000.
    expect(await trigger(alice, alert.id, 62_500)).toBe(false);
    expect(await trigger(alice, alert.id, 61_900)).toBe(true);

    const atNew = await t.client.post(`/v1/alerts/${alert.id}/rearm`, { initialPrice: 61_900, triggerPrice: 64_000 }, as(alice));
    expect(atNew.json()).toMatchObject({ status: 'active', initialPrice: 61_900, triggerPrice: 64_000 });
    const same = await t.client.post(`/v1/alerts/${alert.id}/rearm`, { initialPrice: 64_000 }, as(alice));
    expect(same.statusCode).toBe(400);
    expect(Object.keys(same.json().fields)).toEqual(['triggerPrice']);
    const missing = await t.client.post(`/v1/alerts/${alert.id}/rearm`, {}, as(alice));
    expect(Object.keys(missing.json().fields)).toEqual(['initialPrice']);
  });

  it('deletes one alert, and clears the triggered list', async () => {
    const user = await t.signInAs('user');
    const keep = await create(user);
    const gone = await create(user, { ...BTC, triggerPrice: 61_000 });
    const fired = await create(user, { ...BTC, triggerPrice: 61_000 });
    await trigger(user, fired.id, 61_000);

    const del = await t.client.delete(`/v1/alerts/${gone.id}`, as(user));
    expect(del.statusCode).toBe(204);
    expect((await t.client.delete(`/v1/alerts/${gone.id}`, as(user))).statusCode).toBe(404);

    expect((await t.client.delete('/v1/alerts', as(user))).statusCode).toBe(400);
    const cleared = await t.client.delete('/v1/alerts', { ...as(user), query: { status: 'triggered' } });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toEqual({ deleted: 1 });
    expect((await list(user)).map((a) => a.id)).toEqual([keep.id]);
  });

  it(`refuses more than ${ALERTS_ACTIVE_MAX} active alerts (409), also when re-arming`, async () => {
    const user = await t.signInAs('user');
    const fired = await create(user, { ...BTC, triggerPrice: 61_000 });
    await trigger(user, fired.id, 61_000);
    await t.db.insert(alerts).values(
      Array.from({ length: ALERTS_ACTIVE_MAX }, (_, i) => ({ userId: user.id, exchange: 'bybit' as const, network: 'MAINNET' as const, symbol: 'ETHUSDT', initialPrice: 3000, triggerPrice: 3100 + i })),
    );
    const over = await t.client.post('/v1/alerts', BTC, as(user));
    expect(over.statusCode).toBe(409);
    expect(over.json().message).toBe(`You can have at most ${ALERTS_ACTIVE_MAX} active alerts: delete some first`);
    expect((await t.client.post(`/v1/alerts/${fired.id}/rearm`, { initialPrice: 60_000 }, as(user))).statusCode).toBe(409);
    // Others are not affected by this user's count.
    await create(bob);
    const [first] = await list(user, 'active');
    await t.client.delete(`/v1/alerts/${first!.id}`, as(user));
    await create(user);
  });

  it(`keeps the newest ${ALERTS_TRIGGERED_KEPT} triggered alerts, dropping the oldest when another fires`, async () => {
    const user = await t.signInAs('user');
    const old = Date.now() - 86_400_000;
    await t.db.insert(alerts).values(
      Array.from({ length: ALERTS_TRIGGERED_KEPT }, (_, i) => ({
        userId: user.id,
        exchange: 'okx' as const,
        network: 'MAINNET' as const,
        symbol: 'BTCUSDT',
        initialPrice: 1,
        triggerPrice: 2,
        status: 'triggered' as const,
        triggeredAt: new Date(old + i * 1000),
        triggeredPrice: 2,
      })),
    );
    const oldest = (await list(user, 'triggered')).at(-1)!;
    const fresh = await create(user, { ...BTC, triggerPrice: 61_000 });
    expect(await trigger(user, fresh.id, 61_000)).toBe(true);
    const kept = await list(user, 'triggered');
    expect(kept).toHaveLength(ALERTS_TRIGGERED_KEPT);
    expect(kept[0]!.id).toBe(fresh.id);
    expect(kept.map((a) => a.id)).not.toContain(oldest.id);
  });
});
