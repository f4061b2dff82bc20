/**
 * The event bus between two instances on one database: an event reaches the other instance when its
 * transaction commits and never when it rolls back, once even when it travels by NOTIFY and by Redis,
 * and a malformed message from the wire reaches no subscriber.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../test/waiting';
import { createTestDatabase, TEST_DRIVERS } from '../../test/helper';
import type { Db } from '../../db/client';
import { featureFlags } from '../../db/schema';
import { EventBus } from './bus';
import type { AppEvent } from './events';
import { postgresTransport, redisTransport, type EventTransport } from './transports';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = { warn: () => undefined, info: () => undefined, debug: () => undefined, error: () => undefined };

type Deleted = AppEvent<'api-key.deleted'>;
const deleted = (): Deleted => ({ apiKeyId: randomUUID(), userId: randomUUID() });

function recorder(bus: EventBus) {
  const got: Deleted[] = [];
  bus.on('api-key.deleted', (e) => void got.push(e));
  return got;
}

describe.each(TEST_DRIVERS)('event bus on %s', (driver) => {
  let db: Db;
  let close: () => Promise<void>;
  const buses: EventBus[] = [];
  const redises: Redis[] = [];
  const channel = `ct_events_test_${randomUUID().slice(0, 8)}`;

  const bus = async (transports: (db: Db) => EventTransport[]) => {
    const b = new EventBus({ db, transports: transports(db), log });
    await b.start();
    buses.push(b);
    return b;
  };
  const redisClient = () => {
    const r = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    redises.push(r);
    return r;
  };

  beforeAll(async () => {
    const t = await createTestDatabase(driver);
    db = t.handle.db;
    close = t.close;
  });
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.stop()));
    for (const r of redises) r.disconnect();
    await close?.();
  });

  it('a transaction’s many events reach the other instance all, in the order published, with its commit', async () => {
    const one = await bus((d) => [postgresTransport(d, channel, log)]);
    const two = await bus((d) => [postgresTransport(d, channel, log)]);
    const gotTwo = recorder(two);
    const sent = Array.from({ length: 25 }, deleted);
    await one.transaction(db, async (_tx, emit) => {
      for (const e of sent) await emit('api-key.deleted', e);
    });
    await until('the other instance hears all of them', () => gotTwo.length >= sent.length);
    expect(gotTwo).toEqual(sent);
  });

  it('a committed event reaches this instance once and the other instance once; a rolled-back one reaches nobody', async () => {
    const one = await bus((d) => [postgresTransport(d, channel, log)]);
    const two = await bus((d) => [postgresTransport(d, channel, log)]);
    const [gotOne, gotTwo] = [recorder(one), recorder(two)];

    const lost = deleted();
    await expect(
      one.transaction(db, async (tx, emit) => {
        await emit('api-key.deleted', lost);
        await tx.execute(sql`select 1`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    const kept = deleted();
    await one.transaction(db, (_tx, emit) => emit('api-key.deleted', kept));
    expect(gotOne).toEqual([kept]); // delivered locally by the time the transaction returns
    await until('the other instance hears it', () => gotTwo.length > 0);
    // NOTIFYs arrive in commit order: had the rolled-back one been sent, it would be here first.
    expect(gotTwo).toEqual([kept]);
    await new Promise((r) => setTimeout(r, 100));
    expect(gotOne).toEqual([kept]);
  });

  it('by NOTIFY and Redis at once, an event is handled once; Redis alone carries it too', async () => {
    const redisChannel = `${channel}-redis`;
    const both = (d: Db) => [postgresTransport(d, `${channel}_both`, log), redisTransport(redisClient(), redisChannel, log)];
    const one = await bus(both);
    const two = await bus(both);
    const gotTwo = recorder(two);
    const e = deleted();
    await one.publish('api-key.deleted', e);
    await until('the other instance hears it', () => gotTwo.length > 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(gotTwo).toEqual([e]);

    const onlyRedis = (d: Db) => {
      void d;
      return [redisTransport(redisClient(), `${redisChannel}-only`, log)];
    };
    const three = await bus(onlyRedis);
    const four = await bus(onlyRedis);
    const gotFour = recorder(four);
    // The subscriber connection needs a moment to SUBSCRIBE after it connects.
    const e2 = deleted();
    await until('Redis carries it', async () => {
      await three.publish('api-key.deleted', e2);
      return gotFour.length > 0;
    });
    expect(gotFour[0]).toEqual(e2);
  });

  it('a database effect subscribed `within` commits and rolls back with its cause, and its failure undoes the cause', async () => {
    const one = await bus((d) => [postgresTransport(d, `${channel}_within`, log)]);
    const got = recorder(one);
    const flag = `FF_EVENT_TEST_${randomUUID().slice(0, 8)}`;
    let fail = false;
    one.within('api-key.deleted', async (tx) => {
      await tx.insert(featureFlags).values({ name: flag, enabled: true }).onConflictDoNothing();
      if (fail) throw new Error('effect failed');
    });
    const stored = async () => (await db.select().from(featureFlags).where(eq(featureFlags.name, flag))).length;

    await expect(
      one.transaction(db, async (_tx, emit) => {
        await emit('api-key.deleted', deleted());
        throw new Error('cause failed');
      }),
    ).rejects.toThrow('cause failed');
    expect(await stored()).toBe(0);

    fail = true;
    await expect(one.publish('api-key.deleted', deleted())).rejects.toThrow('effect failed');
    expect(await stored()).toBe(0);
    expect(got).toEqual([]);

    fail = false;
    await one.publish('api-key.deleted', deleted());
    expect(await stored()).toBe(1);
    expect(got).toHaveLength(1);
  });

  it('a malformed message or payload on the channel reaches no subscriber', async () => {
    const badChannel = `${channel}_bad`;
    const one = await bus((d) => [postgresTransport(d, badChannel, log)]);
    const got = recorder(one);
    const other = randomUUID();
    await db.execute(sql`select pg_notify(${badChannel}, ${'not json'})`);
    await db.execute(sql`select pg_notify(${badChannel}, ${JSON.stringify({ id: 'x1', origin: other, name: 'api-key.deleted', payload: { apiKeyId: 'nope' } })})`);
    const good = deleted();
    await db.execute(sql`select pg_notify(${badChannel}, ${JSON.stringify({ id: 'x2', origin: other, name: 'api-key.deleted', payload: good })})`);
    await until('the good message', () => got.length > 0);
    expect(got).toEqual([good]);
  });
});
