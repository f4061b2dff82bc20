/**
 * The answer goes out before it is stored (issue 25 §1), and a retry never doubles meanwhile: the
 * store of the first request's answer is held here until the test lets it go.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiKeys } from '../../db/schema-api-keys';
import { tradeRequests } from '../../db/schema-trading';
import { createTestDatabase, TEST_DRIVERS, uniqueEmail } from '../../test/helper';
import { createUser } from '../users';
import { idempotent, type Answer } from './idempotency';

/** `db` whose UPDATEs wait until `open()`: everything else goes through at once. */
function heldUpdates(db: Db): { db: Db; open: () => void } {
  let open = () => undefined as void;
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const hold = (builder: object): object =>
    new Proxy(builder, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop === 'then' && typeof value === 'function') {
          return (ok: (v: unknown) => unknown, fail: (e: unknown) => unknown) => gate.then(() => (value as (a: unknown, b: unknown) => unknown).call(target, ok, fail));
        }
        return typeof value === 'function' ? (...args: unknown[]) => hold((value as (...a: unknown[]) => object).apply(target, args)) : value;
      },
    });
  const held = new Proxy(db, {
    get(target, prop) {
      if (prop === 'update') return (table: typeof tradeRequests) => hold(target.update(table));
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { db: held, open };
}

describe.each(TEST_DRIVERS)('idempotency: the answer before its store, on %s', (driver) => {
  let db: Db;
  let close: () => Promise<void>;
  let userId: string;
  let apiKeyId: string;
  beforeAll(async () => {
    const made = await createTestDatabase(driver);
    db = made.handle.db;
    close = made.close;
    userId = (await createUser(db, { email: uniqueEmail('idem'), password: 'a-password-123' })).id;
    const [key] = await db
      .insert(apiKeys)
      .values({ userId, name: 'idem', exchange: 'binance', network: 'MAINNET', apiKeyMasked: 'ab…cd', ciphertext: 'x', iv: 'x', tag: 'x', kdfSalt: 'x', kdfParams: { N: 2, r: 1, p: 1 } as never, permissions: {} as never })
      .returning({ id: apiKeys.id });
    apiKeyId = key.id;
  }, 180_000);
  afterAll(() => close?.());

  const request = (clientId: string) => ({ clientId, route: 'order', body: { symbol: 'BTCUSDT', qty: '0.010' }, field: 'clientOrderId' });
  const rowOf = async (clientId: string) => (await db.select().from(tradeRequests).where(and(eq(tradeRequests.apiKeyId, apiKeyId), eq(tradeRequests.clientId, clientId))))[0];

  it('a retry arriving while the first answer is being stored gets that answer, and nothing runs twice', async () => {
    const held = heldUpdates(db);
    const placed: string[] = [];
    const place = (id: string) => async (): Promise<Answer<{ orderId: string }, 201>> => {
      placed.push(id);
      return { status: 201, body: { orderId: id } };
    };
    // The first request answers although its store is held.
    const first = await idempotent({ db: held.db, apiKeyId, userId }, request('window-1'), place('first'));
    expect(first).toEqual({ status: 201, body: { orderId: 'first' } });
    expect((await rowOf('window-1')).state).toBe('running');

    let settled = false;
    const retry = idempotent({ db, apiKeyId, userId }, request('window-1'), place('second')).finally(() => {
      settled = true;
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(settled).toBe(false);
    held.open();
    expect(await retry).toEqual({ status: 201, body: { orderId: 'first' } });
    expect(placed).toEqual(['first']);
    expect(await rowOf('window-1')).toMatchObject({ state: 'done', status: 201, response: { orderId: 'first' } });
  });

  it('a retry after the store answers the stored answer; another body under the same id is refused', async () => {
    const placed: string[] = [];
    const place = async (): Promise<Answer<{ n: number }, 201>> => {
      placed.push('x');
      return { status: 201, body: { n: placed.length } };
    };
    expect((await idempotent({ db, apiKeyId, userId }, request('window-2'), place)).body).toEqual({ n: 1 });
    expect((await idempotent({ db, apiKeyId, userId }, request('window-2'), place)).body).toEqual({ n: 1 });
    await expect(idempotent({ db, apiKeyId, userId }, { ...request('window-2'), body: { symbol: 'ETHUSDT' } }, place)).rejects.toMatchObject({ status: 422 });
    expect(placed).toHaveLength(1);
  });
});
