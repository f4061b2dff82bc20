import { and, eq, sql } from 'drizzle-orm';
import { exchangeIdSchema, type ExchangeId } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { Db } from '../../db/client';
import { alerts } from '../../db/schema-alerts';
import type { NotificationRow } from '../../db/schema-jobs';
import { ALERT_JOB_KIND, ensureAlertJob, fireAlert } from '../alerts';
import type { FetchLike, RestBase } from '../exchange-info';
import { barsSince, type RangeBar } from './candles';
import type { MarketFeed, PriceTick } from './market-feed';
import { alertJobPayloadSchema, type AlertJobPayload } from './payloads';
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


/** The `alerts` kind's handler: its payload is checked against `alertJobPayloadSchema` when claimed (payloads.ts). */
export function alertWatchHandler(opts: AlertWatchOptions): JobHandler<AlertJobPayload> {
  return {
    kind: ALERT_JOB_KIND,
    payload: alertJobPayloadSchema,
    retryMs: 2000,
    async run(ctx) {
      const exchange = exchangeIdSchema.safeParse(ctx.job.key.slice(`${ALERT_JOB_KIND}:`.length));
      if (!exchange.success) {
        await ctx.fail(`Unknown exchange in job key ${ctx.job.key}`);
        return;
      }
      await new AlertWatch(opts, ctx, exchange.data).run();
    },
  };
}

/** One run of an exchange's evaluator: the feed watched, gaps caught up from candles, idle → done. */
class AlertWatch {
  private readonly now: () => number;
  /** Up to when the stream was heard (saved as the payload's `seenUntil`). */
  private seenUntil: number;
  private watched: Watched[] = [];
  private bySymbol = new Map<string, Watched[]>();
  /** Alerts being fired now or already fired by this run (by id + version). */
  private readonly firing = new Set<string>();
  private live = false;
  private catchUpNeeded = true;
  private idleSince: number | null = null;

  constructor(
    private readonly opts: AlertWatchOptions,
    private readonly ctx: JobContext<AlertJobPayload>,
    private readonly exchange: ExchangeId,
  ) {
    this.now = opts.now ?? Date.now;
    // Nothing was heard before this job existed: alerts set before it are caught up from their own time.
    this.seenUntil = ctx.payload.seenUntil ?? ctx.job.createdAt.getTime();
  }

  async run(): Promise<void> {
    const { ctx } = this;
    await this.reload();
    const unwatch = this.opts.feed.watch(this.exchange, {
      onPrices: (ticks, at) => this.onPrices(ticks, at),
      onLive: (isLive) => {
        this.live = isLive;
        if (isLive) this.catchUpNeeded = true;
      },
    });
    try {
      while (!ctx.signal.aborted) {
        await this.listen();
        if (!(await ctx.save({ seenUntil: this.seenUntil }))) return; // the job is someone else's now
        await sleep(this.opts.refreshMs ?? 1000, ctx.signal);
        if (ctx.signal.aborted) return;
        await this.reload();
        if (await this.idleDone()) return;
      }
    } finally {
      unwatch();
    }
  }

  private async reload(): Promise<void> {
    this.watched = await this.opts.db
      .select({ id: alerts.id, userId: alerts.userId, symbol: alerts.symbol, initialPrice: alerts.initialPrice, triggerPrice: alerts.triggerPrice, updatedAt: alerts.updatedAt })
      .from(alerts)
      .where(and(eq(alerts.exchange, this.exchange), eq(alerts.status, 'active')));
    this.bySymbol = group(this.watched);
  }

  /** Moves `seenUntil` while the stream is live, catching up from candles first after a gap. */
  private async listen(): Promise<void> {
    if (this.live && this.catchUpNeeded) {
      this.catchUpNeeded = false;
      const from = this.seenUntil;
      this.seenUntil = this.now();
      try {
        await this.catchUp(from);
      } catch (err) {
        this.opts.log?.warn({ err, exchange: this.exchange }, 'Alert catch-up from candles failed; retrying');
        this.seenUntil = from;
        this.catchUpNeeded = true;
      }
    } else if (this.live) {
      this.seenUntil = this.now();
    }
  }

  /** No active alert for `idleMs`: the job completes (true), guarded so that an alert activated since the last read keeps it. */
  private async idleDone(): Promise<boolean> {
    if (this.watched.length > 0) {
      this.idleSince = null;
      return false;
    }
    if (this.idleSince === null) {
      this.idleSince = this.now();
      return false;
    }
    if (this.now() - this.idleSince < (this.opts.idleMs ?? 30_000)) return false;
    const done = await this.ctx.complete(sql`not exists (select 1 from ${alerts} where ${alerts.exchange} = ${this.exchange} and ${alerts.status} = 'active')`);
    if (!done) this.idleSince = null;
    return done;
  }

  private async fire(a: Watched, price: number, at: Date): Promise<void> {
    const version = `${a.id}:${a.updatedAt.getTime()}`;
    if (this.firing.has(version) || this.ctx.signal.aborted) return;
    this.firing.add(version);
    try {
      const fired = await fireAlert(this.opts.db, a, price, at);
      if (fired?.notification) await this.opts.onNotification?.(fired.notification);
    } catch (err) {
      this.firing.delete(version); // tried again on the next price
      this.opts.log?.warn({ err, alert: a.id }, 'Could not fire an alert');
    }
  }

  private onPrices(ticks: PriceTick[], at: number): void {
    for (const t of ticks) {
      const list = this.bySymbol.get(t.symbol);
      if (!list) continue;
      for (const a of list) if (a.updatedAt.getTime() <= at && crossed(a, t.price)) void this.fire(a, t.price, new Date(at));
    }
  }

  /** Fires the alerts whose price the candles since `from` reached while nobody listened. */
  private async catchUp(from: number): Promise<void> {
    const to = this.now();
    if (this.watched.length === 0 || to - from < 1000) return;
    const instruments = new Map((await this.opts.instruments(this.exchange)).map((i) => [i.symbol, i]));
    for (const [symbol, list] of this.bySymbol) {
      const inst = instruments.get(symbol);
      if (!inst || this.ctx.signal.aborted) continue;
      const earliest = Math.min(...list.map((a) => a.updatedAt.getTime()));
      const { bars, barMs } = await barsSince(this.opts.rest, this.exchange, inst, Math.max(from, earliest), to);
      for (const a of list) {
        const hit = firstReach(a, bars, barMs, from);
        if (hit) await this.fire(a, hit.price, hit.at);
      }
    }
  }
}

/** The first bar since `from` in which the alert's price was reached: at which price, and when. */
function firstReach(a: Watched, bars: RangeBar[], barMs: number, from: number): { price: number; at: Date } | null {
  const setAt = a.updatedAt.getTime();
  const start = Math.max(from, setAt);
  for (const b of bars) {
    if (b.time + barMs <= start) continue;
    // The bar the alert was set in may hold prices from before it: only its close counts.
    const reached = b.time < setAt ? crossed(a, b.close) : a.initialPrice < a.triggerPrice ? b.high >= a.triggerPrice : a.initialPrice > a.triggerPrice ? b.low <= a.triggerPrice : b.low <= a.triggerPrice && b.high >= a.triggerPrice;
    if (!reached) continue;
    return { price: b.time < setAt ? b.close : a.triggerPrice, at: new Date(Math.max(b.time, setAt)) };
  }
  return null;
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
