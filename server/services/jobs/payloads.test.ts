/**
 * Job payloads typed by a zod schema per kind (issue 23): the runner checks a claimed job's payload
 * against its kind's schema — a payload that does not parse fails that job, naming the field, and the
 * runner goes on with the next — and the handler gets the parsed, typed payload. Every write parses
 * first (`ctx.save`, `ensureJob`), and nothing invalid reaches the row.
 */
import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client';
import { jobs, type JobRow } from '../../db/schema-jobs';
import { createTestDatabase, TEST_DRIVERS } from '../../test/helper';
import {
  alertJobPayloadSchema,
  BRACKET_JOB,
  BRACKET_JOB_KIND,
  bracketJobPayloadSchema,
  InvalidJobPayloadError,
  listedBracketPayloadSchema,
  readJobPayload,
  writeJobPayload,
  type BracketJobPayload,
  type JobKind,
} from './payloads';
import { ensureJob, JobRunner, type JobContext, type JobHandler } from './runner';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await wait(25);
  }
}

const validBracket = (over: Partial<BracketJobPayload> = {}): BracketJobPayload => ({
  apiKeyId: randomUUID(),
  exchange: 'binance',
  network: 'TESTNET',
  symbol: 'BTCUSDT',
  side: 'BUY',
  bracketId: `b${randomUUID().replaceAll('-', '').slice(0, 20)}`,
  entryType: 'LIMIT',
  options: { breakEven: true, trail: { mode: 'percent', value: '0.5' } },
  legs: [
    { role: 'stop-loss', type: 'STOP_MARKET', qty: '0.020', price: null, triggerPrice: '64000.5', clientOrderId: 'bS' },
    { role: 'take-profit', type: 'TAKE_PROFIT', qty: '0.010', price: '66000', triggerPrice: '66000', clientOrderId: 'bT1' },
  ],
  armed: true,
  protectionPlaced: false,
  ...over,
});

/** The payload as a row might hold it: any JSON, not necessarily the kind's. */
const raw = (v: object): Record<string, unknown> => ({ ...v });

describe('job payload schemas', () => {
  it('types a bracket payload from its schema, and names the field that does not parse', () => {
    expectTypeOf<BracketJobPayload['legs'][number]['qty']>().toEqualTypeOf<string>();
    const ok = readJobPayload(BRACKET_JOB, validBracket());
    expect(ok.ok).toBe(true);

    const { apiKeyId: _gone, ...noKey } = validBracket();
    const missing = readJobPayload(BRACKET_JOB, noKey);
    expect(missing.ok).toBe(false);
    if (!missing.ok) {
      expect(missing.error).toBeInstanceOf(InvalidJobPayloadError);
      expect(missing.error.message).toMatch(/^Invalid bracket job payload: apiKeyId: /);
    }

    const bad = validBracket();
    const floatQty = readJobPayload(BRACKET_JOB, raw({ ...bad, legs: [{ ...bad.legs[0]!, qty: 0.02 }] }));
    expect(!floatQty.ok && floatQty.error.message).toContain('legs.0.qty: ');
    const textQty = readJobPayload(BRACKET_JOB, raw({ ...bad, legs: [bad.legs[0]!, { ...bad.legs[1]!, qty: 'ten' }] }));
    expect(!textQty.ok && textQty.error.message).toContain('legs.1.qty: Must be a decimal number');
    expect(() => writeJobPayload(BRACKET_JOB, { ...bad, side: 'LONG' as 'BUY' })).toThrow(/side: /);
  });

  it('reads a damaged alert `seenUntil` as absent (progress, not state), and a legacy bracket row for the lists', () => {
    expect(alertJobPayloadSchema.parse({ seenUntil: 1_780_000_000_000 })).toEqual({ seenUntil: 1_780_000_000_000 });
    expect(alertJobPayloadSchema.parse({ seenUntil: 'yesterday' })).toEqual({ seenUntil: undefined });
    expect(alertJobPayloadSchema.parse({})).toEqual({});
    const legacy = { apiKeyId: randomUUID(), exchange: 'bybit', network: 'MAINNET', symbol: 'BTCUSDT', side: 'SELL', bracketId: 'old1', options: { breakEven: true, trail: null, cancelOnClose: true }, beDone: true };
    expect(bracketJobPayloadSchema.safeParse(legacy).success).toBe(false);
    expect(listedBracketPayloadSchema.parse(legacy)).toMatchObject({ bracketId: 'old1', options: { breakEven: true, trail: null }, beDone: true });
  });
});

describe.each(TEST_DRIVERS)('payloads checked when a job is claimed, on %s', (driver) => {
  let handle: DatabaseHandle;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const created = await createTestDatabase(driver);
    handle = created.handle;
    close = created.close;
  });
  afterAll(() => close());

  const insert = async (key: string, payload: Record<string, unknown>, runAt: Date): Promise<void> => {
    await handle.db.insert(jobs).values({ kind: BRACKET_JOB_KIND, key, payload, runAt });
  };
  const row = async (key: string): Promise<JobRow> => (await handle.db.select().from(jobs).where(eq(jobs.key, key)))[0]!;

  it('fails a malformed payload naming the field, never runs its handler, and goes on with the next job (typed)', async () => {
    const { db } = handle;
    const seen: Array<{ key: string; payload: BracketJobPayload }> = [];
    const handler: JobHandler<BracketJobPayload> = {
      ...BRACKET_JOB,
      async run(ctx) {
        expectTypeOf(ctx.payload).toEqualTypeOf<BracketJobPayload>();
        seen.push({ key: ctx.job.key, payload: ctx.payload });
        await ctx.complete();
      },
    };
    const good = validBracket();
    const { apiKeyId: _gone, ...noKey } = validBracket();
    const floatQty = validBracket();
    const t = Date.now() - 60_000;
    // Claimed in this order: the two bad ones first.
    await insert('bracket:no-key', noKey, new Date(t));
    await insert('bracket:float-qty', raw({ ...floatQty, legs: [{ ...floatQty.legs[0]!, qty: 0.02 }] }), new Date(t + 1));
    await insert('bracket:good', good, new Date(t + 2));

    const runner = new JobRunner({ db, handlers: [handler], owner: 'P', leaseMs: 60_000 });
    await runner.tick();
    await until('the good job to finish', async () => (await row('bracket:good')).state === 'done');
    expect(seen).toEqual([{ key: 'bracket:good', payload: good }]);

    const noKeyRow = await until('the key-less job to fail', async () => ((await row('bracket:no-key')).state === 'failed' ? row('bracket:no-key') : null));
    expect(noKeyRow).toMatchObject({ state: 'failed', leaseOwner: null, attempts: 1 });
    expect(noKeyRow.lastError).toMatch(/^Invalid bracket job payload: apiKeyId: /);
    const qtyRow = await row('bracket:float-qty');
    expect(qtyRow.state).toBe('failed');
    expect(qtyRow.lastError).toContain('legs.0.qty');

    // The runner is still going: a job that arrives later runs on its next tick.
    const later = validBracket({ protectionPlaced: true, entrySeen: true, options: null });
    await insert('bracket:later', later, new Date());
    await runner.tick();
    await until('the later job to finish', async () => (await row('bracket:later')).state === 'done');
    expect(seen.map((s) => s.key)).toEqual(['bracket:good', 'bracket:later']);
    // The failed ones are not claimed again.
    await runner.tick();
    expect((await row('bracket:no-key')).attempts).toBe(1);
    await runner.stop();
    await db.delete(jobs).where(inArray(jobs.key, ['bracket:no-key', 'bracket:float-qty', 'bracket:good', 'bracket:later']));
  });

  it('parses a payload before saving it: an invalid one throws naming the field and writes nothing', async () => {
    const { db } = handle;
    const contexts: Array<JobContext<BracketJobPayload>> = [];
    const handler: JobHandler<BracketJobPayload> = {
      ...BRACKET_JOB,
      async run(ctx) {
        contexts.push(ctx);
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      },
    };
    const first = validBracket();
    await insert('bracket:save', first, new Date(Date.now() - 1000));
    const runner = new JobRunner({ db, handlers: [handler], owner: 'S', leaseMs: 60_000 });
    await runner.tick();
    const ctx = await until('the job to run', async () => contexts[0]);
    await expect(ctx.save({ ...ctx.payload, trailStop: '1e3' })).rejects.toThrow(/trailStop: /);
    await expect(ctx.save({ ...ctx.payload, legs: [{ ...ctx.payload.legs[0]!, qty: '-1' }] })).rejects.toThrow(InvalidJobPayloadError);
    expect((await row('bracket:save')).payload).toEqual(first);
    expect(await ctx.save({ ...ctx.payload, entrySeen: true, trailStop: '64100.5' })).toBe(true);
    expect((await row('bracket:save')).payload).toEqual({ ...first, entrySeen: true, trailStop: '64100.5' });
    await runner.stop();
    await db.delete(jobs).where(eq(jobs.key, 'bracket:save'));
  });

  it('ensureJob parses the payload of a typed kind before inserting it', async () => {
    const { db } = handle;
    const payload = validBracket();
    await ensureJob(db, { kind: BRACKET_JOB, key: 'bracket:ensured', payload });
    expect((await row('bracket:ensured')).payload).toEqual(payload);
    const kind: JobKind<BracketJobPayload> = BRACKET_JOB;
    await expect(ensureJob(db, { kind, key: 'bracket:ensured-bad', payload: { ...payload, network: 'PAPER' as 'MAINNET' } })).rejects.toThrow(/network: /);
    expect(await db.select().from(jobs).where(eq(jobs.key, 'bracket:ensured-bad'))).toHaveLength(0);
    await db.delete(jobs).where(eq(jobs.key, 'bracket:ensured'));
  });
});
