/**
 * `/v1/stream` (issue 26): a fired alert or a job's notification is pushed to the user's open tabs
 * as it is written (not polled), only to that user; a tab that reconnects says what it saw last and
 * gets what it missed, each once; marking read and saving settings reach the user's other tabs;
 * no token, a bad one or a sign-out closes it with 4401.
 */
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Alert } from '../../../src/api/contracts/alerts';
import type { NotificationList } from '../../../src/api/contracts/notifications';
import { alerts } from '../../db/schema-alerts';
import { fireAlert } from '../../services/alerts';
import { logActivity } from '../../services/jobs/managed-brackets';
import { addNotification } from '../../services/notifications';
import { AppStreamClient, isApp } from '../../test/app-stream-client';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

describe.each(TEST_DRIVERS)('/v1/stream on %s', (driver) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(driver);
    await t.setFlag('FF_ENABLE_ALERTS', true);
  });
  afterAll(() => t?.close());

  const connect = async (who: SignedIn, resume: { since?: string | null; sinceTime?: string | null } = {}): Promise<AppStreamClient> => {
    const c = new AppStreamClient(await t.app.injectWS('/v1/stream'));
    c.send({ op: 'auth', accessToken: who.accessToken, ...resume });
    await c.next(isApp('notifications', (m) => m.resume));
    return c;
  };
  let seq = 0;
  const jobNotification = (who: SignedIn, title: string) =>
    addNotification(t.db, { userId: who.id, kind: 'job', title, body: `${title} happened`, refId: 'bracket:x', dedupeKey: `test:${++seq}` }, t.app.events);

  it('refuses a socket without a valid access token (4401) and answers a plain GET with 426', async () => {
    const bad = new AppStreamClient(await t.app.injectWS('/v1/stream'));
    bad.send({ op: 'auth', accessToken: 'not-a-token' });
    expect(await bad.closed()).toBe(4401);
    expect(bad.messages.some((m) => m.type === 'notifications')).toBe(false);

    const user = await t.signInAs('user');
    const expired = new AppStreamClient(await t.app.injectWS('/v1/stream'));
    expired.send({ op: 'auth', accessToken: t.expiredAccessToken(user) });
    expect(await expired.closed()).toBe(4401);

    const res = await t.client.get('/v1/stream');
    expect(res.statusCode).toBe(426);
  });

  it('pushes a fired alert to every tab of its user at once, and to nobody else', async () => {
    const [alice, bob] = [await t.signInAs('user'), await t.signInAs('user')];
    const created = await t.client.post('/v1/alerts', { exchange: 'binance', symbol: 'BTCUSDT', initialPrice: 60_000, triggerPrice: 65_000, note: 'pushed' }, { token: alice.accessToken });
    expect(created.statusCode, created.body).toBe(201);
    const alert = created.json<Alert>();
    const [tab1, tab2, other] = [await connect(alice), await connect(alice), await connect(bob)];

    // What the server's evaluator does on a crossing price (services/jobs/alert-watch.ts).
    const [row] = await t.db.select().from(alerts).where(and(eq(alerts.id, alert.id), eq(alerts.userId, alice.id)));
    expect(await fireAlert(t.db, row!, 65_010, new Date(), t.app.events)).not.toBeNull();

    for (const tab of [tab1, tab2]) {
      const push = await tab.next(isApp('notifications', (m) => !m.resume));
      expect(push.items).toHaveLength(1);
      expect(push.items[0]).toMatchObject({ kind: 'alert', title: 'Alert triggered: BTCUSDT', read: false, alert: { id: alert.id, status: 'triggered', triggeredPrice: 65_010 } });
      expect(push.unread).toBe(1);
    }
    // A job's notification too; Bob's tab heard of neither.
    await jobNotification(alice, 'Moved the stop to break-even');
    await tab1.next(isApp('notifications', (m) => m.items[0]?.title === 'Moved the stop to break-even'));
    other.send({ op: 'ping' });
    await other.next(isApp('pong'));
    expect(other.notifications()).toEqual([]);
    for (const s of [tab1, tab2, other]) s.socket.close();
  });

  it('resumes after a reconnect: what was written meanwhile arrives, once, and nothing after it twice', async () => {
    const user = await t.signInAs('user');
    await jobNotification(user, 'Before the tab opened');
    const first = await connect(user);
    const held = new Map(first.notifications().map((n) => [n.id, n]));
    expect([...held.values()].map((n) => n.title)).toEqual(['Before the tab opened']);
    await jobNotification(user, 'While open');
    const live = await first.next(isApp('notifications', (m) => !m.resume));
    for (const n of live.items) held.set(n.id, n);
    const lastSeen = live.items[0]!.id;
    first.socket.close();
    await first.closed();

    // The tab is away (network drop, instance restart): two notifications are written.
    const missed = [await jobNotification(user, 'Missed 1'), await jobNotification(user, 'Missed 2')];
    const again = await connect(user, { since: lastSeen });
    const resume = again.notifications();
    expect(new Set(resume.map((n) => n.id)).size).toBe(resume.length);
    const fresh = resume.filter((n) => !held.has(n.id));
    expect(fresh.map((n) => n.id)).toEqual(missed.map((m) => m!.id));
    // A new one after the resume arrives once.
    await jobNotification(user, 'After the resume');
    await again.next(isApp('notifications', (m) => !m.resume));
    expect(again.notifications().filter((n) => n.title === 'After the resume')).toHaveLength(1);
    again.socket.close();

    // A tab that names a notification it cannot have (pruned, another user's) falls back to the time of its list.
    const list = (await t.client.get('/v1/notifications', { token: user.accessToken })).json<NotificationList>();
    await jobNotification(user, 'After the list');
    const byTime = await connect(user, { since: '00000000-0000-4000-8000-000000000000', sinceTime: list.now });
    expect(byTime.notifications().map((n) => n.title)).toContain('After the list');
    byTime.socket.close();
  });

  it('a push needs no read: the event carries the notification and the count; one too large for NOTIFY is read and still arrives', async () => {
    const user = await t.signInAs('user');
    const tab = await connect(user);
    const heard: { notificationId: string; item?: { title: string }; unread?: number }[] = [];
    const off = t.app.events.on('notification.created', (e) => {
      if (e.userId === user.id) heard.push(e);
    });
    try {
      const small = await jobNotification(user, 'Carried in the event');
      await tab.next(isApp('notifications', (m) => m.items[0]?.id === small!.id));
      expect(heard).toMatchObject([{ notificationId: small!.id, item: { title: 'Carried in the event' }, unread: 1 }]);

      const body = 'x'.repeat(7_000);
      const large = await addNotification(t.db, { userId: user.id, kind: 'job', title: 'Too large to carry', body, refId: null, dedupeKey: `test:${++seq}` }, t.app.events);
      const push = await tab.next(isApp('notifications', (m) => m.items[0]?.id === large!.id));
      expect(push.items[0]!.body).toBe(body);
      expect(push.unread).toBe(2);
      expect(heard[1]).toEqual({ userId: user.id, notificationId: large!.id });
    } finally {
      off();
      tab.socket.close();
    }
  });

  it('two notifications written at once: the later push counts both (the bell never shows one too few)', async () => {
    const user = await t.signInAs('user');
    const tab = await connect(user);
    let second: Promise<unknown> | null = null;
    // The first stays uncommitted while the second is written beside it.
    await t.app.events.transaction(t.db, async (tx, emit) => {
      await addNotification(tx as unknown as typeof t.db, { userId: user.id, kind: 'job', title: 'First', body: 'First', refId: null, dedupeKey: `test:${++seq}` }, emit);
      second = jobNotification(user, 'Second');
      await new Promise((r) => setTimeout(r, 300));
    });
    await second;
    await tab.next(isApp('notifications', (m) => m.items[0]?.title === 'Second'));
    await tab.next(isApp('notifications', (m) => m.items[0]?.title === 'First'));
    const pushes = tab.messages.filter((m) => m.type === 'notifications' && !m.resume);
    expect(pushes.map((m) => (m.type === 'notifications' ? m.unread : null))).toEqual([1, 2]);
    tab.socket.close();
  });

  it('an alert fired while another notification of its user is being written: the firing’s push counts both', async () => {
    const user = await t.signInAs('user');
    const created = await t.client.post('/v1/alerts', { exchange: 'binance', symbol: 'BTCUSDT', initialPrice: 60_000, triggerPrice: 65_000 }, { token: user.accessToken });
    expect(created.statusCode, created.body).toBe(201);
    const [row] = await t.db.select().from(alerts).where(eq(alerts.id, created.json<Alert>().id));
    const tab = await connect(user);
    let firing: Promise<unknown> | null = null;
    // The job's notification stays uncommitted while the evaluator fires the alert (its statement takes the user's lock).
    await t.app.events.transaction(t.db, async (tx, emit) => {
      await addNotification(tx as unknown as typeof t.db, { userId: user.id, kind: 'job', title: 'First', body: 'First', refId: null, dedupeKey: `test:${++seq}` }, emit);
      firing = fireAlert(t.db, row!, 65_010, new Date(), t.app.events);
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(await firing).not.toBeNull();
    const rang = await tab.next(isApp('notifications', (m) => m.items[0]?.title === 'Alert triggered: BTCUSDT'));
    expect(rang.unread).toBe(2);
    tab.socket.close();
  });

  it('tells the other tabs when notifications are marked read, and when settings are saved', async () => {
    const user = await t.signInAs('user');
    const n = await jobNotification(user, 'To be read');
    const tab = await connect(user);
    const read = await t.client.post('/v1/notifications/read', { ids: [n!.id] }, { token: user.accessToken });
    expect(read.json()).toEqual({ unread: 0 });
    expect(await tab.next(isApp('notifications-read'))).toEqual({ type: 'notifications-read', ids: [n!.id], unread: 0 });

    const saved = await t.client.patch('/v1/users/settings', { alertEmails: true }, { token: user.accessToken });
    expect(saved.statusCode, saved.body).toBe(200);
    await tab.next(isApp('settings-changed'));
    tab.socket.close();
  });

  it('tells the user’s tabs when the server acted on a guarded bracket (its activity), and nobody else', async () => {
    const [alice, bob] = [await t.signInAs('user'), await t.signInAs('user')];
    const [tab, other] = [await connect(alice), await connect(bob)];
    const job = `bracket:${alice.id}`;
    await logActivity(t.db, alice.id, job, { action: 'Moved the stop', orderId: null, result: 'ok', message: 'to break-even', dedupe: 'be' }, t.app.events);
    await tab.next(isApp('managed-changed'));
    // The same entry again (a replay after a crash) writes nothing and tells nobody.
    await logActivity(t.db, alice.id, job, { action: 'Moved the stop', orderId: null, result: 'ok', message: 'to break-even', dedupe: 'be' }, t.app.events);
    tab.send({ op: 'ping' });
    await tab.next(isApp('pong'));
    expect(tab.messages.filter((m) => m.type === 'managed-changed')).toHaveLength(1);
    other.send({ op: 'ping' });
    await other.next(isApp('pong'));
    expect(other.messages.some((m) => m.type === 'managed-changed')).toBe(false);
    tab.socket.close();
    other.socket.close();
  });

  it('tells the user’s tabs when their alerts were edited, and every tab when the maintenance banner changed', async () => {
    const [alice, bob, admin] = [await t.signInAs('user'), await t.signInAs('user'), await t.signInAs('admin')];
    const [tab, other] = [await connect(alice), await connect(bob)];
    const created = await t.client.post('/v1/alerts', { exchange: 'binance', symbol: 'BTCUSDT', initialPrice: 60_000, triggerPrice: 61_000 }, { token: alice.accessToken });
    expect(created.statusCode, created.body).toBe(201);
    await tab.next(isApp('alerts-changed'));
    expect((await t.client.delete(`/v1/alerts/${created.json<Alert>().id}`, { token: alice.accessToken })).statusCode).toBe(204);
    await tab.next(isApp('alerts-changed', () => tab.messages.filter((m) => m.type === 'alerts-changed').length === 2));
    expect(other.messages.some((m) => m.type === 'alerts-changed')).toBe(false);

    const set = await t.client.post('/v1/maintenance', { message: 'Upgrade at noon' }, { token: admin.accessToken });
    expect(set.statusCode, set.body).toBe(200);
    await Promise.all([tab.next(isApp('maintenance-changed')), other.next(isApp('maintenance-changed'))]);
    expect((await t.client.post('/v1/maintenance', { message: '' }, { token: admin.accessToken })).statusCode).toBe(200);
    tab.socket.close();
    other.socket.close();
  });

  it('closes on sign-out (4401) and keeps the user’s other sign-in open', async () => {
    const user = await t.signInAs('user');
    const again = await t.client.post('/v1/auth/signin', { email: user.email, password: user.password });
    const other = { ...user, ...again.json<{ accessToken: string; refreshToken: string }>() };
    const [s, keep] = [await connect(user), await connect(other)];
    expect((await t.client.post('/v1/auth/signout', undefined, { token: user.accessToken })).statusCode).toBe(200);
    expect(await s.closed()).toBe(4401);
    expect(s.closeReason).toBe('Signed out: the session ended');
    keep.send({ op: 'ping' });
    await keep.next(isApp('pong'));
    expect(keep.closeCode).toBeNull();
    keep.socket.close();
  });
});
