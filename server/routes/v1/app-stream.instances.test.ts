/**
 * `/v1/stream` across instances (issue 26): a notification written on instance 1 (an alert fired
 * there, a job's action) reaches a tab connected to instance 2 — PostgreSQL NOTIFY, and Redis as well
 * with REDIS_URL — as do marking read and a sign-out; a tab whose instance goes away reconnects to
 * the other one and resumes with what it missed, each once.
 */
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { addNotification } from '../../services/notifications';
import { AppStreamClient, isApp } from '../../test/app-stream-client';
import { createTestApp, RecordingMailer, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const VARIANTS = TEST_DRIVERS.flatMap((driver) => [
  { driver, redis: false },
  { driver, redis: true },
]);

describe.each(VARIANTS)('/v1/stream between two instances on $driver (redis: $redis)', ({ driver, redis }) => {
  let one: TestApp;
  let two: FastifyInstance;
  const redises: Redis[] = [];
  const channel = `ct_events_${Math.random().toString(36).slice(2, 10)}`;
  const redisFor = () => {
    if (!redis) return null;
    const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    redises.push(r);
    return r;
  };

  beforeAll(async () => {
    one = await createTestApp(driver, {}, { eventChannel: channel, redis: redisFor() });
    two = await buildApp({ config: one.config, db: one.db, driver, mailer: new RecordingMailer(), logger: false, distDir: '/nonexistent', eventChannel: channel, redis: redisFor() });
    await two.ready();
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    for (const r of redises) r.disconnect();
  });

  const connect = async (app: FastifyInstance, who: SignedIn, since?: string): Promise<AppStreamClient> => {
    const c = new AppStreamClient(await app.injectWS('/v1/stream'));
    c.send({ op: 'auth', accessToken: who.accessToken, since });
    await c.next(isApp('notifications', (m) => m.resume));
    return c;
  };
  let seq = 0;
  /** A notification written on instance 1, published on instance 1's bus. */
  const writeOnOne = (who: SignedIn, title: string) =>
    addNotification(one.db, { userId: who.id, kind: 'job', title, body: title, refId: null, dedupeKey: `instances:${++seq}` }, one.app.events);

  it('a notification written on instance 1 is pushed to the tab on instance 2; marking read there reaches it too', async () => {
    const user = await one.signInAs('user');
    const tab = await connect(two, user);
    const row = await writeOnOne(user, 'Written on instance 1');
    const push = await tab.next(isApp('notifications', (m) => !m.resume));
    expect(push.items.map((n) => [n.id, n.title, n.read])).toEqual([[row!.id, 'Written on instance 1', false]]);
    expect(push.unread).toBe(1);

    expect((await one.client.post('/v1/notifications/read', {}, { token: user.accessToken })).json()).toEqual({ unread: 0 });
    expect(await tab.next(isApp('notifications-read'))).toEqual({ type: 'notifications-read', ids: null, unread: 0 });
    tab.socket.close();
  });

  it('a sign-out through instance 1 closes the tab’s socket on instance 2 (4401)', async () => {
    const user = await one.signInAs('user');
    const tab = await connect(two, user);
    expect((await one.client.post('/v1/auth/signout', undefined, { token: user.accessToken })).statusCode).toBe(200);
    expect(await tab.closed()).toBe(4401);
  });

  it('a tab whose instance went away resumes on the other one: the missed ones once, none it had', async () => {
    const user = await one.signInAs('user');
    const tab = await connect(two, user);
    await writeOnOne(user, 'Heard live');
    const live = await tab.next(isApp('notifications', (m) => !m.resume));
    const held = new Set(tab.notifications().map((n) => n.id));
    tab.socket.terminate(); // the instance (or the network) is gone, without a goodbye
    const missed = [await writeOnOne(user, 'Missed 1'), await writeOnOne(user, 'Missed 2')];
    const back = await connect(one.app, user, live.items[0]!.id);
    const resumed = back.notifications();
    expect(new Set(resumed.map((n) => n.id)).size).toBe(resumed.length);
    expect(resumed.filter((n) => !held.has(n.id)).map((n) => n.title)).toEqual(['Missed 1', 'Missed 2']);
    expect(resumed.filter((n) => !held.has(n.id)).map((n) => n.id)).toEqual(missed.map((m) => m!.id));
    back.socket.close();
  });
});
