import { and, eq, sql } from 'drizzle-orm';
import type { ExchangeId } from '../../../src/api/contracts/common';
import { EXCHANGE_IDS } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { Db } from '../../db/client';
import { alerts } from '../../db/schema-alerts';
import type { NotificationRow } from '../../db/schema-jobs';
import { ALERT_JOB_KIND, ensureAlertJob, fireAlert } from '../alerts';
import type { FetchLike, RestBase } from '../exchange-info';
import { barsSince } from './candles';
import type { MarketFeed, PriceTick } from './market-feed';
import { sleep, type JobContext, type JobHandler, type JobRunnerLog } from './runner';

/**
 * Price alerts evaluated by the server (issue 13, DESIGN §3.6): one job per exchange
 * (`alerts:<exchange>`), held by one instance at a time (the runner's lease), reading the
 * exchange's shared market feed.
 *
 * - Every price update is checked against the exchange's active alerts (kept in memory, re-read
 *   every `refreshMs`); a crossing fires the alert through `fireAlert` — one guarded UPDATE plus the
 *   notification, so even two evaluators (a lease taken over while the old holder still ran) fire it once.
 * - **Gaps** (the job starting on a new instance after a crash or a restart, the stream dropping):
 *   the job saves `seenUntil` — the time up to which it heard the stream — and on start and on every
 *   reconnect reads the candles since then: a bar whose high (rising alert) or low (falling) reached
 *   the trigger fires it at the trigger price, at that bar's time.
 * - With no active alert on the exchange for `idleMs`, the job completes (guarded: not while an
 *   alert is active); creating, moving or re-arming an alert makes it pending again.
 */

interface Watched {
  id: string;
  userId: string;
  symbol: string;
  initialPrice: number;
  triggerPrice: number;
  updatedAt: Date;
}

export interface AlertWatchOptions {
  db: Db;
  feed: MarketFeed;
  instruments: (exchange: ExchangeId) => Promise<Instrument[]>;
  /** REST for the catch-up candles (the same hosts the feed reads). */
  rest: { fetch: FetchLike; base: RestBase; timeoutMs?: number };
  /** A fired alert's notification is new: e-mail it when the user asked (services/notifications.ts). */
  onNotification?: (row: NotificationRow) => Promise<void>;
  refreshMs?: number;
  idleMs?: number;
  now?: () => number;
  log?: JobRunnerLog;
}

const crossed = (a: Pick<Watched, 'initialPrice' | 'triggerPrice'>, price: number) =>
  a.initialPrice < a.triggerPrice ? price >= a.triggerPrice : a.initialPrice > a.triggerPrice ? price <= a.triggerPrice : price === a.triggerPrice;


export function alertWatchHandler(opts: AlertWatchOptions): JobHandler {
  const refreshMs = opts.refreshMs ?? 1000;
  const idleMs = opts.idleMs ?? 30_000;
  const now = opts.now ?? Date.now;
  const { db } = opts;

  async function load(exchange: ExchangeId): Promise<Watched[]> {
    return db
      .select({ id: alerts.id, userId: alerts.userId, symbol: alerts.symbol, initialPrice: alerts.initialPrice, triggerPrice: alerts.triggerPrice, updatedAt: alerts.updatedAt })
      .from(alerts)
      .where(and(eq(alerts.exchange, exchange), eq(alerts.status, 'active')));
  }

  return {
    kind: ALERT_JOB_KIND,
    retryMs: 2000,
    async run(ctx: JobContext) {
      const exchange = ctx.job.key.slice(`${ALERT_JOB_KIND}:`.length) as ExchangeId;
      if (!EXCHANGE_IDS.includes(exchange)) {
        await ctx.fail(`Unknown exchange in job key ${ctx.job.key}`);
        return;
      }
      const saved = typeof ctx.job.payload.seenUntil === 'number' ? ctx.job.payload.seenUntil : null;
      // Nothing was heard before this job existed: alerts set before it are caught up from their own time.
      let seenUntil = saved ?? ctx.job.createdAt.getTime();
      let watched: Watched[] = await load(exchange);
      let bySymbol = group(watched);
      /** Alerts being fired now or already fired by this run (by id + version). */
      const firing = new Set<string>();
      let live = false;
      let catchUpNeeded = true;
      let idleSince: number | null = null;

      const fire = async (a: Watched, price: number, at: Date) => {
        const version = `${a.id}:${a.updatedAt.getTime()}`;
        if (firing.has(version) || ctx.signal.aborted) return;
        firing.add(version);
        try {
          const fired = await fireAlert(db, a, price, at);
          if (fired?.notification) await opts.onNotification?.(fired.notification);
        } catch (err) {
          firing.delete(version); // tried again on the next price
          opts.log?.warn({ err, alert: a.id }, 'Could not fire an alert');
        }
      };

      const onPrices = (ticks: PriceTick[], at: number) => {
        for (const t of ticks) {
          const list = bySymbol.get(t.symbol);
          if (!list) continue;
          for (const a of list) if (a.updatedAt.getTime() <= at && crossed(a, t.price)) void fire(a, t.price, new Date(at));
        }
      };

      const catchUp = async (from: number) => {
        const to = now();
        if (watched.length === 0 || to - from < 1000) return;
        const instruments = new Map((await opts.instruments(exchange)).map((i) => [i.symbol, i]));
        for (const [symbol, list] of bySymbol) {
          const inst = instruments.get(symbol);
          if (!inst || ctx.signal.aborted) continue;
          const earliest = Math.min(...list.map((a) => a.updatedAt.getTime()));
          const { bars, barMs } = await barsSince(opts.rest, exchange, inst, Math.max(from, earliest), to);
          for (const a of list) {
            const setAt = a.updatedAt.getTime();
            const start = Math.max(from, setAt);
            for (const b of bars) {
              if (b.time + barMs <= start) continue;
              // The bar the alert was set in may hold prices from before it: only its close counts.
              const reached = b.time < setAt ? crossed(a, b.close) : a.initialPrice < a.triggerPrice ? b.high >= a.triggerPrice : a.initialPrice > a.triggerPrice ? b.low <= a.triggerPrice : b.low <= a.triggerPrice && b.high >= a.triggerPrice;
              if (!reached) continue;
              const price = b.time < setAt ? b.close : a.triggerPrice;
              await fire(a, price, new Date(Math.max(b.time, setAt)));
              break;
            }
          }
        }
      };

      const unwatch = opts.feed.watch(exchange, {
        onPrices,
        onLive: (isLive) => {
          live = isLive;
          if (isLive) catchUpNeeded = true;
        },
      });
      try {
        while (!ctx.signal.aborted) {
          if (live && catchUpNeeded) {
            catchUpNeeded = false;
            const from = seenUntil;
            seenUntil = now();
            try {
              await catchUp(from);
            } catch (err) {
              opts.log?.warn({ err, exchange }, 'Alert catch-up from candles failed; retrying');
              seenUntil = from;
              catchUpNeeded = true;
            }
          } else if (live) {
            seenUntil = now();
          }
          if (!(await ctx.save({ seenUntil }))) return; // the job is someone else's now
          await sleep(refreshMs, ctx.signal);
          if (ctx.signal.aborted) return;
          watched = await load(exchange);
          bySymbol = group(watched);
          if (watched.length > 0) idleSince = null;
          else if (idleSince === null) idleSince = now();
          else if (now() - idleSince >= idleMs) {
            // Guarded: an alert activated since the last read keeps the job running.
            const done = await ctx.complete(sql`not exists (select 1 from ${alerts} where ${alerts.exchange} = ${exchange} and ${alerts.status} = 'active')`);
            if (done) return;
            idleSince = null;
          }
        }
      } finally {
        unwatch();
      }
    },
  };
}

function group(list: Watched[]): Map<string, Watched[]> {
  const out = new Map<string, Watched[]>();
  for (const a of list) {
    const l = out.get(a.symbol);
    if (l) l.push(a);
    else out.set(a.symbol, [a]);
  }
  return out;
}

/** On boot: every exchange with active alerts has its evaluator job (alerts from before this feature, a lost row). */
export async function ensureAlertJobs(db: Db): Promise<void> {
  const rows = await db.selectDistinct({ exchange: alerts.exchange }).from(alerts).where(eq(alerts.status, 'active'));
  for (const r of rows) await ensureAlertJob(db, r.exchange);
}
