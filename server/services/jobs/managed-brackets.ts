import { and, desc, eq, sql } from 'drizzle-orm';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import { cmp, dec, isZero, roundToStep, str, sub, add, mul, div } from '../../../src/api/contracts/decimal';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { ActivityEntry, BracketResult, ManagedBracket, ManagedBracketInfo, Order, Side } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import { apiKeys, type ApiKeyRow } from '../../db/schema-api-keys';
import { jobActivity, jobs, sealedCredentials, type JobRow } from '../../db/schema-jobs';
import type { TradingConnector, TradingInstrument } from '../../exchanges/trading';
import type { ExchangeCredentials } from '../../exchanges/transport';
import { conflict, notFound } from '../../lib/http-error';
import { serverOpen, serverSeal } from '../../lib/server-seal';
import { API_KEY_NOT_FOUND } from '../api-keys';
import { addNotification } from '../notifications';
import { tradingInstrument, type TradingConnectors } from '../trading/connect';
import { legId, tagOrder } from '../trading/ids';
import type { MarketFeed } from './market-feed';
import { sleep, type JobContext, type JobHandler, type JobRunnerLog } from './runner';

/**
 * Semi-auto brackets (FF_ENABLE_SEMI_AUTO, issue 13, DESIGN §3.6): a bracket the server manages
 * with no browser open — the stop moved to break-even when the first take-profit fills, trailed
 * once in profit, the remaining orders cancelled when the position is closed elsewhere.
 *
 * - One job per bracket (`bracket:<bracketId>`), run by whichever instance holds its lease.
 * - **Credentials**: the key's, sealed under SERVER_SECRET (`lib/server-seal.ts`) when the bracket
 *   is placed — only with the owner's consent for that key — and deleted when the key's last
 *   managed bracket ends or the consent is withdrawn.
 * - **Idempotent by state, not by memory**: every round reads the bracket's orders and position from
 *   the exchange and acts on the difference (a stop already at break-even is not moved again; of
 *   two stops left by a crash in the middle of Binance's place-then-cancel amend, the one at
 *   break-even is kept). So a holder killed between the fill and the amend leaves nothing for the
 *   next holder to do twice; the lease makes sure two instances never act at once.
 * - Every action is in the activity log (`job_activity`), and the notable ones notify the user.
 */

export const BRACKET_JOB_KIND = 'bracket';
export const bracketJobKey = (bracketId: string) => `bracket:${bracketId}`;
export const CUSTODY_REQUIRED_MESSAGE = 'Allow the server to manage brackets for this key first (Order entry → Managed by server)';

export interface BracketJobPayload {
  apiKeyId: string;
  exchange: ExchangeId;
  network: Network;
  symbol: string;
  side: Side;
  bracketId: string;
  options: ManagedBracket;
  /** The position has been seen open (the entry filled). */
  entrySeen?: boolean;
  beDone?: boolean;
  /** The stop price the trail last set. */
  trailStop?: string;
}

const aadOf = (apiKeyId: string, userId: string) => `sealed-credentials:v1:${apiKeyId}:${userId}`;

// ------------------------------------------------------------------------------------ custody

export async function sealCredentials(db: Db, secret: string, key: Pick<ApiKeyRow, 'id' | 'userId'>, creds: ExchangeCredentials): Promise<void> {
  const sealed = serverSeal(JSON.stringify({ k: creds.apiKey, s: creds.apiSecret, ...(creds.passphrase ? { p: creds.passphrase } : {}) }), secret, aadOf(key.id, key.userId));
  await db
    .insert(sealedCredentials)
    .values({ apiKeyId: key.id, userId: key.userId, ...sealed })
    .onConflictDoUpdate({ target: sealedCredentials.apiKeyId, set: { ...sealed, createdAt: new Date() } });
}

export async function openSealedCredentials(db: Db, secret: string, apiKeyId: string, userId: string): Promise<ExchangeCredentials | null> {
  const [row] = await db.select().from(sealedCredentials).where(and(eq(sealedCredentials.apiKeyId, apiKeyId), eq(sealedCredentials.userId, userId)));
  if (!row) return null;
  const plain = JSON.parse(serverOpen(row, secret, aadOf(apiKeyId, userId))) as { k: string; s: string; p?: string };
  return { apiKey: plain.k, apiSecret: plain.s, ...(plain.p ? { passphrase: plain.p } : {}) };
}

/** Deletes the key's sealed credentials unless a managed bracket of the key still runs. */
export async function dropSealedIfIdle(db: Db, apiKeyId: string): Promise<void> {
  await db
    .delete(sealedCredentials)
    .where(
      and(
        eq(sealedCredentials.apiKeyId, apiKeyId),
        sql`not exists (select 1 from ${jobs} where ${jobs.kind} = ${BRACKET_JOB_KIND} and ${jobs.state} = 'pending' and ${jobs.payload} ->> 'apiKeyId' = ${apiKeyId})`,
      ),
    );
}

/**
 * The owner's consent for a key (`PUT` / `DELETE /v1/api-keys/{id}/server-custody`). Withdrawing it
 * deletes the sealed credentials and stops every managed bracket of the key (their orders stay as
 * they are on the exchange), each noted in the activity log.
 */
export async function setServerCustody(db: Db, userId: string, apiKeyId: string, on: boolean): Promise<ApiKeyRow> {
  const [row] = await db
    .update(apiKeys)
    .set({ serverCustodyAt: on ? new Date() : null })
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.userId, userId)))
    .returning();
  if (!row) throw notFound(API_KEY_NOT_FOUND);
  if (!on) {
    const stopped = await db
      .update(jobs)
      .set({ state: 'failed', lastError: 'Server management was turned off for this key: the orders stay as they are', leaseOwner: null, leaseUntil: null, updatedAt: new Date() })
      .where(and(eq(jobs.kind, BRACKET_JOB_KIND), eq(jobs.state, 'pending'), sql`${jobs.payload} ->> 'apiKeyId' = ${apiKeyId}`))
      .returning();
    for (const job of stopped) {
      await logActivity(db, job.userId!, job.key, { action: 'Stopped managing the bracket', orderId: null, result: 'ok', message: 'Server management was turned off for this key: the orders stay as they are', dedupe: 'stopped' });
    }
    await db.delete(sealedCredentials).where(eq(sealedCredentials.apiKeyId, apiKeyId));
  }
  return row;
}

/** After a bracket is placed with `managed`: seal the credentials and start the job. */
export async function startManagedBracket(
  db: Db,
  secret: string,
  key: ApiKeyRow,
  creds: ExchangeCredentials,
  inst: TradingInstrument,
  body: { side: Side; managed: ManagedBracket },
  result: BracketResult,
): Promise<void> {
  if (!key.serverCustodyAt) throw conflict(CUSTODY_REQUIRED_MESSAGE, { managed: CUSTODY_REQUIRED_MESSAGE });
  await sealCredentials(db, secret, key, creds);
  const payload: BracketJobPayload = {
    apiKeyId: key.id,
    exchange: key.exchange,
    network: key.network,
    symbol: inst.symbol,
    side: body.side,
    bracketId: result.bracketId,
    options: body.managed,
  };
  await db.insert(jobs).values({ kind: BRACKET_JOB_KIND, key: bracketJobKey(result.bracketId), userId: key.userId, payload: payload as unknown as Record<string, unknown> }).onConflictDoNothing();
  const what = [body.managed.breakEven ? 'break-even after TP1' : null, body.managed.trail ? `trailing by ${body.managed.trail.value}${body.managed.trail.mode === 'percent' ? ' %' : ''}` : null, body.managed.cancelOnClose ? 'cancel the rest on close' : null]
    .filter(Boolean)
    .join(', ');
  await logActivity(db, key.userId, bracketJobKey(result.bracketId), { action: 'Started managing the bracket', orderId: null, result: 'ok', message: `${inst.symbol} ${body.side}: ${what}`, dedupe: 'started' });
}

// ------------------------------------------------------------------------------------ reads

const infoOf = (job: JobRow): ManagedBracketInfo => {
  const p = job.payload as unknown as BracketJobPayload;
  return {
    bracketId: p.bracketId,
    symbol: p.symbol,
    side: p.side,
    options: p.options,
    state: job.state === 'pending' ? 'running' : job.state,
    breakEvenDone: p.beDone === true,
    message: job.lastError,
    createdAt: job.createdAt.toISOString(),
  };
};

/** The key's managed brackets, running first, then the 50 newest finished. */
export async function listManagedBrackets(db: Db, userId: string, apiKeyId: string): Promise<ManagedBracketInfo[]> {
  const rows = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.kind, BRACKET_JOB_KIND), eq(jobs.userId, userId), sql`${jobs.payload} ->> 'apiKeyId' = ${apiKeyId}`))
    .orderBy(sql`case when ${jobs.state} = 'pending' then 0 else 1 end`, desc(jobs.createdAt))
    .limit(100);
  return rows.map(infoOf);
}

export async function listActivity(db: Db, userId: string, limit = 100): Promise<ActivityEntry[]> {
  const rows = await db.select().from(jobActivity).where(eq(jobActivity.userId, userId)).orderBy(desc(jobActivity.at), desc(jobActivity.id)).limit(limit);
  return rows.map((r) => ({ id: r.id, at: r.at.toISOString(), job: r.jobKey, action: r.action, orderId: r.orderId, result: r.result === 'failed' ? 'failed' : 'ok', message: r.message }));
}

/** One activity entry; `dedupe` (within the job) makes a replay after a crash add nothing. */
export async function logActivity(
  db: Db,
  userId: string,
  jobKey: string,
  e: { action: string; orderId: string | null; result: 'ok' | 'failed'; message: string; dedupe: string; notify?: boolean },
): Promise<void> {
  const [row] = await db
    .insert(jobActivity)
    .values({ userId, jobKey, action: e.action, orderId: e.orderId, result: e.result, message: e.message.slice(0, 1000), dedupeKey: `${jobKey}:${e.dedupe}` })
    .onConflictDoNothing()
    .returning({ id: jobActivity.id });
  if (row && e.notify) {
    await addNotification(db, { userId, kind: 'job', title: e.action, body: e.message, refId: jobKey, dedupeKey: `activity:${jobKey}:${e.dedupe}` });
  }
}

// ------------------------------------------------------------------------------------ the job

export interface BracketJobOptions {
  db: Db;
  connectors: TradingConnectors;
  instruments: (exchange: ExchangeId, testnet: boolean) => Promise<Instrument[]>;
  secret: string | undefined;
  /** The shared mainnet ticker streams (prices for break-even and trailing without a request per job). */
  feed?: MarketFeed;
  /** How often the bracket is read from the exchange (default 400 ms: a fill is acted on within 1 s). */
  pollMs?: number;
  log?: JobRunnerLog;
  /** Tests: called before each exchange action (a crash can be staged there). */
  beforeAction?: (action: string, ctx: JobContext) => Promise<void>;
}


/** Break-even is beyond the price now: nothing is wrong, the round just ends early. */
class WaitForPrice extends Error {}

/** Consecutive failed rounds after which the job gives up (and says so). */
const MAX_FAILURES = 30;

export function bracketJobHandler(opts: BracketJobOptions): JobHandler {
  const { db } = opts;
  const pollMs = opts.pollMs ?? 400;

  return {
    kind: BRACKET_JOB_KIND,
    retryMs: 1000,
    async run(ctx) {
      const p = { ...(ctx.job.payload as unknown as BracketJobPayload) };
      const userId = ctx.job.userId!;
      const jobKey = ctx.job.key;
      const log = (e: Parameters<typeof logActivity>[3]) => logActivity(db, userId, jobKey, e);
      const end = async (how: 'done' | 'failed', message?: string) => {
        const ok = how === 'done' ? await ctx.complete() : await ctx.fail(message ?? 'failed');
        if (ok) await dropSealedIfIdle(db, p.apiKeyId);
      };
      if (!opts.secret) return end('failed', 'This server has no SERVER_SECRET: it cannot open the sealed credentials');

      const creds = await openSealedCredentials(db, opts.secret, p.apiKeyId, userId).catch(() => null);
      const [key] = await db.select().from(apiKeys).where(and(eq(apiKeys.id, p.apiKeyId), eq(apiKeys.userId, userId)));
      if (!creds || !key) {
        await log({ action: 'Stopped managing the bracket', orderId: null, result: 'failed', message: 'The key or its sealed credentials are gone: the orders stay as they are', dedupe: 'no-credentials', notify: true });
        return end('failed', 'The key or its sealed credentials are gone');
      }
      const list = (await opts.instruments(p.exchange, p.network === 'TESTNET')).map(tradingInstrument);
      const inst = list.find((i) => i.symbol === p.symbol);
      if (!inst) return end('failed', `${p.symbol} is no longer listed on ${p.exchange}`);
      const conn: TradingConnector = opts.connectors.connect(key, creds, list);
      // The last price from the exchange's shared ticker stream (mainnet); REST until it has one, and on testnets.
      let streamed: { price: number; at: number } | null = null;
      const unwatch =
        opts.feed && p.network === 'MAINNET'
          ? opts.feed.watch(p.exchange, {
              onPrices: (ticks) => {
                for (const t of ticks) if (t.symbol === inst.symbol) streamed = { price: t.price, at: Date.now() };
              },
            })
          : () => undefined;
      const lastPrice = async () => {
        const s = streamed as { price: number; at: number } | null;
        if (!s || Date.now() - s.at >= 5000) return dec(await conn.lastPrice(inst));
        const text = String(s.price);
        return dec(text.includes('e') ? s.price.toFixed(18) : text);
      };
      const long = p.side === 'BUY';
      const tick = dec(inst.tickSize);
      let failures = 0;
      let lastTrailAt = 0;

      const act = async (action: string) => {
        await opts.beforeAction?.(action, ctx);
        if (ctx.signal.aborted) throw new Error('aborted');
      };
      /** False when this instance no longer holds the job: the run must stop acting. */
      const save = () => ctx.save(p as unknown as Record<string, unknown>);

      /** Leaves exactly one stop of the bracket at `price` (amending, or cancelling extra ones). */
      const stopAt = async (stops: Order[], price: string, qty: string): Promise<Order> => {
        const keep = stops.find((o) => o.triggerPrice !== null && cmp(dec(o.triggerPrice), dec(price)) === 0);
        let result: Order;
        if (keep) {
          result = keep;
        } else if (stops[0]) {
          await act('amend');
          result = tagOrder(await conn.amend(inst, stops[0].id, { triggerPrice: price }));
        } else {
          await act('place-stop');
          result = tagOrder(
            await conn.place({
              symbol: inst.exchangeSymbol,
              side: long ? 'SELL' : 'BUY',
              type: 'STOP_MARKET',
              qty,
              triggerPrice: price,
              reduceOnly: true,
              postOnly: false,
              timeInForce: 'GTC',
              clientOrderId: `${legId(p.bracketId, 'S')}R${Date.now() % 100_000}`,
            }),
          );
        }
        // Extra stops (a crash in the middle of a place-then-cancel amend) go; the kept one stays.
        const open = (await conn.openOrders(inst)).map(tagOrder);
        for (const o of open) if (o.bracketId === p.bracketId && o.role === 'stop-loss' && o.id !== result.id && o.clientOrderId !== result.clientOrderId) await conn.cancel(inst, o.id).catch(() => undefined);
        return result;
      };

      try {
      while (!ctx.signal.aborted) {
        try {
          const open = (await conn.openOrders(inst)).map(tagOrder).filter((o) => o.bracketId === p.bracketId);
          const positions = await conn.positions(inst);
          const pos = positions.find((x) => x.symbol === inst.symbol && !isZero(dec(x.size)));
          const inPosition = pos !== undefined && pos.side === p.side;
          const entryOpen = open.some((o) => o.role === 'entry');
          const stops = open.filter((o) => o.role === 'stop-loss');

          if (inPosition && !p.entrySeen) {
            p.entrySeen = true;
            if (!(await save())) return;
          }

          // The position is gone (stopped out, targets done, closed elsewhere), or the entry never filled.
          if ((p.entrySeen && !inPosition) || (!p.entrySeen && !entryOpen && !inPosition)) {
            if (p.options.cancelOnClose && open.length > 0) {
              await act('cancel-rest');
              for (const o of open) await conn.cancel(inst, o.id).catch(() => undefined);
              await log({
                action: 'Cancelled the remaining orders',
                orderId: open.map((o) => o.id).join(',').slice(0, 500),
                result: 'ok',
                message: `${p.symbol}: ${p.entrySeen ? 'the position was closed' : 'the entry is no longer open'}; ${open.length} order${open.length === 1 ? '' : 's'} of the bracket cancelled`,
                dedupe: 'cancel-rest',
                notify: true,
              });
            }
            await log({ action: 'Finished managing the bracket', orderId: null, result: 'ok', message: `${p.symbol}: ${p.entrySeen ? 'the position is closed' : 'the entry is no longer open'}`, dedupe: 'finished' });
            return end('done');
          }

          if (inPosition && pos) {
            // Break-even once the first take-profit has filled.
            if (p.options.breakEven && !p.beDone && !open.some((o) => o.clientOrderId?.startsWith(legId(p.bracketId, 'T1')))) {
              const tp1 = await conn.orderByClientId(inst, legId(p.bracketId, 'T1'), true);
              if (tp1 && (tp1.status === 'FILLED' || (tp1.status !== 'NEW' && !isZero(dec(tp1.filledQty))))) {
                const be = str(roundToStep(dec(pos.breakEvenPrice), tick, long ? 'up' : 'down'));
                // The exchange's own last price: the stop must be valid there (the stream may lag a tick).
                const now = dec(await conn.lastPrice(inst));
                // A stop beyond the price now would fire at once (the exchange refuses it): wait for the price.
                if (long ? cmp(dec(be), now) >= 0 : cmp(dec(be), now) <= 0) {
                  await log({
                    action: 'Waiting to move the stop to break-even',
                    orderId: null,
                    result: 'ok',
                    message: `${p.symbol}: take-profit 1 filled, but break-even (${be}) is ${long ? 'above' : 'below'} the price now (${str(now)}); the stop moves there once the price allows`,
                    dedupe: 'be-wait',
                  });
                  throw new WaitForPrice();
                }
                const moved = await stopAt(stops, be, pos.size);
                p.beDone = true;
                if (!(await save())) return;
                await log({ action: 'Moved the stop to break-even', orderId: moved.id, result: 'ok', message: `${p.symbol}: take-profit 1 filled; stop moved to ${be} (entry ${pos.entryPrice} with fees)`, dedupe: 'break-even', notify: true });
                continue;
              }
            }
            // Trailing once in profit: never loosens the stop.
            if (p.options.trail && stops[0]?.triggerPrice && Date.now() - lastTrailAt >= 1000) {
              const last = await lastPrice();
              const inProfit = long ? cmp(last, dec(pos.entryPrice)) > 0 : cmp(last, dec(pos.entryPrice)) < 0;
              if (inProfit) {
                const dist = p.options.trail.mode === 'percent' ? div(mul(last, dec(p.options.trail.value)), dec(100)) : dec(p.options.trail.value);
                const want = roundToStep(long ? sub(last, dist) : add(last, dist), tick, long ? 'down' : 'up');
                const current = dec(stops[0].triggerPrice);
                if (long ? cmp(want, current) > 0 : cmp(want, current) < 0) {
                  lastTrailAt = Date.now();
                  const price = str(want);
                  const moved = await stopAt(stops, price, pos.size);
                  p.trailStop = price;
                  if (!(await save())) return;
                  await log({ action: 'Trailed the stop', orderId: moved.id, result: 'ok', message: `${p.symbol}: last ${str(last)}; stop moved to ${price}`, dedupe: `trail:${price}` });
                }
              }
            }
          }
          failures = 0;
        } catch (err) {
          if (ctx.signal.aborted) return;
          if (err instanceof WaitForPrice) {
            await sleep(pollMs, ctx.signal);
            continue;
          }
          failures += 1;
          const message = err instanceof Error ? err.message : String(err);
          opts.log?.warn({ err, job: jobKey }, 'Managed bracket round failed');
          if (failures >= MAX_FAILURES) {
            await log({ action: 'Stopped managing the bracket', orderId: null, result: 'failed', message: `${p.symbol}: ${message}`, dedupe: 'gave-up', notify: true });
            return end('failed', message);
          }
        }
        await sleep(pollMs * (failures > 0 ? Math.min(8, 2 ** failures) : 1), ctx.signal);
      }
      } finally {
        unwatch();
      }
    },
  };
}
