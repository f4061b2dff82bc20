import { and, eq, sql } from 'drizzle-orm';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import type { Db } from '../../db/client';
import { alerts } from '../../db/schema-alerts';
import type { NotificationRow } from '../../db/schema-jobs';
import { ALERT_JOB_KIND, alertJobTarget, ensureAlertJob, fireAlerts, pruneFired } from '../alerts';
import type { EventBus } from '../events/bus';
import type { AppEvent } from '../events/events';
import type { FetchLike, RestBase } from '../exchange-info';
import { TRADE_STREAMS } from '../../exchanges/trade-streams';
import { barsSince } from './candles';
import { crossed, fireBatches, firstReach, group, versionOf, type Queued, type Watched } from './alert-judging';
import type { TradeFeed, TradeTick, TradeWatch } from './trade-feed';
import { alertJobPayloadSchema, type AlertJobPayload } from './payloads';
import { sleep, type JobContext, type JobHandler, type JobRunnerLog } from './runner';

/**
 * Price alerts evaluated by the server (issue 13, DESIGN §3.6; per network, on trades: issue 26 §3):
 * one job per exchange and network (`alerts:<exchange>` on MAINNET, `alerts:<exchange>:testnet`),
 * held by one instance at a time (the runner's lease), listening to the trade streams of the pairs
 * its active alerts are on (`TradeFeed`), on that network's hosts.
 *
 * - Every print is checked against the network's active alerts of its pair (kept in memory: a set, moved or re-armed
 *   alert is pushed to it at once — the `alert.active` event, from any instance — and all are re-read every
 *   `reloadMs` and after the events' transport was away; both (un)subscribe pairs as alerts come and go); a crossing — a touch
 *   inside a second included — fires the alert through `fireAlerts`: one guarded UPDATE plus the
 *   notification, so even two evaluators (a lease taken over while the old holder still ran) fire it once.
 * - **Gaps** (the job starting on a new instance after a crash or a restart, the stream dropping):
 *   the job saves `seenUntil` — the time up to which it heard the stream — and on start and on every
 *   reconnect reads the candles since then: a bar whose high (rising alert) or low (falling) reached
 *   the trigger fires it at the trigger price, at that bar's time.
 * - With no active alert on the exchange for `idleMs`, the job completes (guarded: not while an
 *   alert is active); creating, moving or re-arming an alert makes it pending again.
 */


export interface AlertWatchOptions {
  db: Db;
  trades: TradeFeed;
  instruments: (exchange: ExchangeId, network: Network) => Promise<Instrument[]>;
  /** REST for the catch-up candles (`base(exchange, testnet)`: the alert's network's hosts). */
  rest: { fetch: FetchLike; base: RestBase; timeoutMs?: number };
  /** A fired alert's notification is new: e-mail it when the user asked (services/notifications.ts). */
  onNotification?: (row: NotificationRow) => Promise<void>;
  /** A fired alert's notification is published (`notification.created`) with the firing's commit. */
  events?: EventBus;
  /** How often the run saves its progress and moves `seenUntil` (1 s). */
  refreshMs?: number;
  /**
   * How often the active alerts are all read again (5 × `refreshMs` with `events`, which push each new version at
   * once; `refreshMs` without): what a lost event or a deletion changed. Below `RECENT_MS`.
   */
  reloadMs?: number;
  idleMs?: number;
  now?: () => number;
  log?: JobRunnerLog;
}



/** The `alerts` kind's handler: its payload is checked against `alertJobPayloadSchema` when claimed (payloads.ts). */
export function alertWatchHandler(opts: AlertWatchOptions): JobHandler<AlertJobPayload> {
  return {
    kind: ALERT_JOB_KIND,
    payload: alertJobPayloadSchema,
    retryMs: 2000,
    async run(ctx) {
      const target = alertJobTarget(ctx.job.key);
      if (!target) {
        await ctx.fail(`Unknown exchange or network in job key ${ctx.job.key}`);
        return;
      }
      await new AlertWatch(opts, ctx, target.exchange, target.network).run();
    },
  };
}

/** One run of an exchange+network's evaluator: its pairs' trades watched, gaps caught up from candles, idle → done. */
class AlertWatch {
  private readonly now: () => number;
  /** Up to when the stream was heard (saved as the payload's `seenUntil`). */
  private seenUntil: number;
  private watched = new Map<string, Watched>();
  /** Alerts pushed (`alert.active`), numbered as heard: those heard after a read began are kept over it. */
  private readonly pushed = new Map<string, { a: Watched; n: number }>();
  private heardPushes = 0;
  private readNeeded = false;
  private bySymbol = new Map<string, Watched[]>();
  /** Alerts being fired now or already fired by this run (by id + version). */
  private readonly firing = new Set<string>();
  /** Crossings waiting for their write (`firer`). */
  private toFire: Queued[] = [];
  /** Writers running (`firer`), the failed-write backoff they all wait out, and its attempt. */
  private firers = 0;
  private fireHold: Promise<void> | null = null;
  private fireAttempt = 0;
  /** Users whose firings committed, their prune to do (`prune`), and whether it runs. */
  private readonly toPrune = new Set<string>();
  private pruning = false;
  /** Fired alerts' notifications to e-mail, sent beside the firings (`mail`). */
  private readonly toMail: NotificationRow[] = [];
  private mailing = 0;
  /**
   * When each queued or in-flight crossing happened (by alert version): `seenUntil` stays before the earliest, so
   * whoever runs the job after this run stops reads that print's candle again instead of losing it.
   */
  private readonly unwritten = new Map<string, number>();
  private stopped = false;
  private live = false;
  private catchUpNeeded = true;
  private catchingUp = false;
  /** Prints heard while a gap's candles are still to be read (bounded: the candles cover what is dropped). */
  private held: { ticks: TradeTick[]; at: number }[] = [];
  /** Prints were dropped from `held` (it was full): the candles since the catch-up's end are read again. */
  private heldOverflow = false;
  private idleSince: number | null = null;
  private hold: TradeWatch | null = null;
  /**
   * The prints judged in the last `RECENT_MS` (oldest first). An alert reaches the run a moment after it was set
   * (pushed), or up to `reloadMs` after (read, its event lost): the prints of its pair heard in between are judged
   * for it then, so a touch in its first moments is not missed.
   */
  private recent: { ticks: TradeTick[]; at: number }[] = [];
  /** The alert versions (id + updatedAt) this run has read. */
  private known = new Set<string>();
  private loaded = false;
  /** New alerts on pairs that were not listened to when they were read, by pair: their recent prints to ask for. */
  private readonly unheard = new Map<string, Watched[]>();
  private askingRecent = false;
  /** When each pair last printed on the stream (this server's clock). */
  private readonly heardAt = new Map<string, number>();

  constructor(
    private readonly opts: AlertWatchOptions,
    private readonly ctx: JobContext<AlertJobPayload>,
    private readonly exchange: ExchangeId,
    private readonly network: Network,
  ) {
    this.now = opts.now ?? Date.now;
    // Nothing was heard before this job existed: alerts set before it are caught up from their own time.
    this.seenUntil = ctx.payload.seenUntil ?? ctx.job.createdAt.getTime();
  }

  async run(): Promise<void> {
    const { ctx } = this;
    this.hold = this.opts.trades.watch(this.exchange, this.network, {
      onTrades: (ticks, at) => this.onTrades(ticks, at),
      onLive: (isLive) => {
        this.live = isLive;
        if (isLive) this.catchUpNeeded = true;
      },
    });
    const offPushed = this.opts.events?.on('alert.active', (p) => this.onPushed(p));
    const offResync = this.opts.events?.onResync(() => {
      this.readNeeded = true;
    });
    const unwatch = () => {
      this.hold?.stop();
      offPushed?.();
      offResync?.();
    };
    const refreshMs = this.opts.refreshMs ?? 1000;
    const reloadMs = Math.min(RECENT_MS / 2, this.opts.reloadMs ?? (this.opts.events ? 5 * refreshMs : refreshMs));
    const readEvery = Math.max(1, Math.round(reloadMs / refreshMs));
    try {
      await this.reload();
      for (let round = 1; !ctx.signal.aborted; round++) {
        await this.listen();
        if (!(await ctx.save({ seenUntil: this.seenUntil }))) return; // the job is someone else's now
        await sleep(refreshMs, ctx.signal);
        if (ctx.signal.aborted) return;
        if (this.readNeeded || round % readEvery === 0) await this.reload();
        if (await this.idleDone()) return;
      }
    } finally {
      this.stopped = true;
      unwatch();
    }
  }

  /** Every active alert of the exchange and network read again (pushed versions heard since the read began kept over it). */
  private async reload(): Promise<void> {
    const listened = this.loaded ? new Set(this.bySymbol.keys()) : null;
    const readFrom = this.heardPushes;
    this.readNeeded = false;
    const rows = await this.opts.db
      .select({ id: alerts.id, userId: alerts.userId, symbol: alerts.symbol, initialPrice: alerts.initialPrice, triggerPrice: alerts.triggerPrice, updatedAt: alerts.updatedAt })
      .from(alerts)
      .where(and(eq(alerts.exchange, this.exchange), eq(alerts.network, this.network), eq(alerts.status, 'active')));
    const watched = new Map(rows.map((a) => [a.id, a]));
    // An event is published after its write committed: one heard before the read began is in it (or something newer).
    for (const [id, { a, n }] of this.pushed) {
      if (n <= readFrom) this.pushed.delete(id);
      else if ((watched.get(id)?.updatedAt.getTime() ?? -Infinity) < a.updatedAt.getTime()) watched.set(id, a);
    }
    this.watched = watched;
    this.bySymbol = group(this.watched.values());
    this.hold?.want(this.bySymbol.keys());
    const fresh = [...this.watched.values()].filter((a) => !this.known.has(versionOf(a)));
    this.known = new Set([...this.watched.values()].map(versionOf));
    this.loaded = true;
    this.judgeFresh(fresh, listened);
  }

  /**
   * A set, moved or re-armed alert of this exchange and network (`alert.active`, from whichever instance wrote it):
   * watched at once — its pair subscribed, the prints heard since it was set judged for it.
   */
  private onPushed(p: AppEvent<'alert.active'>): void {
    if (p.exchange !== this.exchange || p.network !== this.network || this.stopped) return;
    const a: Watched = { id: p.id, userId: p.userId, symbol: p.symbol, initialPrice: p.initialPrice, triggerPrice: p.triggerPrice, updatedAt: new Date(p.updatedAt) };
    this.pushed.set(a.id, { a, n: ++this.heardPushes });
    if (!this.loaded) return; // the first read keeps it
    const had = this.watched.get(a.id);
    if (had && had.updatedAt.getTime() >= a.updatedAt.getTime()) return;
    const listened = new Set(this.bySymbol.keys());
    this.watched.set(a.id, a);
    const list = (this.bySymbol.get(a.symbol) ?? []).filter((w) => w.id !== a.id);
    list.push(a);
    this.bySymbol.set(a.symbol, list);
    if (had && had.symbol !== a.symbol) this.bySymbol.set(had.symbol, (this.bySymbol.get(had.symbol) ?? []).filter((w) => w.id !== a.id));
    if (!listened.has(a.symbol)) this.hold?.want(this.bySymbol.keys());
    if (this.known.has(versionOf(a))) return;
    this.known.add(versionOf(a));
    this.judgeFresh([a], listened);
  }

  /** Alert versions read for the first time: judged on the prints already heard; a pair nobody listened to asks its recent prints. */
  private judgeFresh(fresh: Watched[], listened: Set<string> | null): void {
    if (fresh.length && this.recent.length) this.judgeRecent(group(fresh));
    // A pair nobody listened to: what it printed between the alert's setting and its subscription is asked
    // over REST (on the first read the candles' catch-up covers the gap instead).
    if (listened) for (const a of fresh) if (!listened.has(a.symbol)) this.unheard.set(a.symbol, [...(this.unheard.get(a.symbol) ?? []), a]);
    if (this.unheard.size && !this.askingRecent) void this.askRecent().catch((err: unknown) => this.opts.log?.warn({ err, exchange: this.exchange }, 'Reading recent trades failed'));
  }

  /** The unheard pairs' latest prints over REST, one pair at a time, judged for their new alerts by the exchange's time. */
  private async askRecent(): Promise<void> {
    this.askingRecent = true;
    try {
      const { recent } = TRADE_STREAMS[this.exchange];
      const { base, headers } = this.opts.rest.base(this.exchange, this.network === 'TESTNET');
      while (this.unheard.size && !this.ctx.signal.aborted) {
        const [symbol, list] = this.unheard.entries().next().value as [string, Watched[]];
        this.unheard.delete(symbol);
        try {
          const inst = (await this.opts.instruments(this.exchange, this.network)).find((i) => i.symbol === symbol);
          if (!inst) continue;
          // Read once the stream has printed the pair (or after a while): the answer then reaches past the
          // subscription's first print, so no print falls between the two.
          const asked = this.now();
          for (let waited = 0; (this.heardAt.get(symbol) ?? 0) < asked && waited < HEARD_WAIT_MS && !this.ctx.signal.aborted; waited += 50) await sleep(50, this.ctx.signal);
          const res = await this.opts.rest.fetch(`${base}${recent.path(inst)}`, { headers: { accept: 'application/json', ...headers }, signal: AbortSignal.timeout(this.opts.rest.timeoutMs ?? 10_000) });
          if (res.status >= 400) throw new Error(`${this.exchange} recent trades: HTTP ${res.status}`);
          const prints = recent.parse(await res.json(), inst).sort((x, y) => x.time - y.time);
          for (const a of list) {
            const hit = prints.find((p) => p.time >= a.updatedAt.getTime() && crossed(a, p.price));
            if (hit) this.fire(a, hit.price, new Date(hit.time));
          }
        } catch (err) {
          this.opts.log?.warn({ err, exchange: this.exchange, network: this.network, symbol }, 'Could not read the recent trades of a newly watched pair');
        }
      }
    } finally {
      this.askingRecent = false;
    }
  }

  /** The prints already heard, judged for alerts read only now (`judge`'s rule: prints heard after the alert was set). */
  private judgeRecent(fresh: Map<string, Watched[]>): void {
    for (const { ticks, at } of this.recent) {
      for (const t of ticks) {
        const list = fresh.get(t.symbol);
        if (!list) continue;
        for (const a of list) if (a.updatedAt.getTime() <= at && crossed(a, t.price)) this.fire(a, t.price, new Date(at));
      }
    }
  }

  /** Moves `seenUntil` while the stream is live, catching up from candles first after a gap. */
  private async listen(): Promise<void> {
    if (this.live && this.catchUpNeeded) {
      this.catchUpNeeded = false;
      const from = this.seenUntil;
      this.seenUntil = this.now();
      this.catchingUp = true;
      try {
        await this.catchUp(from);
      } catch (err) {
        this.opts.log?.warn({ err, exchange: this.exchange, network: this.network }, 'Alert catch-up from candles failed; retrying');
        this.seenUntil = from;
        this.catchUpNeeded = true;
      } finally {
        this.catchingUp = false;
        this.judgeHeld();
        // Prints dropped while the candles were read (more than the hold keeps) came after the candles' end
        // (`seenUntil`): the next round reads the candles from there.
        if (this.heldOverflow) {
          this.heldOverflow = false;
          this.catchUpNeeded = true;
        }
      }
    } else if (this.live) {
      this.seenUntil = this.now();
    }
    for (const at of this.unwritten.values()) this.seenUntil = Math.min(this.seenUntil, at);
  }

  /** No active alert for `idleMs`: the job completes (true), guarded so that an alert activated since the last read keeps it. */
  private async idleDone(): Promise<boolean> {
    if (this.watched.size > 0) {
      this.idleSince = null;
      return false;
    }
    if (this.idleSince === null) {
      this.idleSince = this.now();
      return false;
    }
    if (this.now() - this.idleSince < (this.opts.idleMs ?? 30_000)) return false;
    const done = await this.ctx.complete(
      sql`not exists (select 1 from ${alerts} where ${alerts.exchange} = ${this.exchange} and ${alerts.network} = ${this.network} and ${alerts.status} = 'active')`,
    );
    if (!done) this.idleSince = null;
    return done;
  }

  /**
   * Fires a crossed alert once: queued, and written with the other crossings queued meanwhile — up to
   * `FIRE_BATCH` crossings (of many users, a user's never split) in one transaction (`fireAlerts`), at most
   * `FIRE_CONCURRENCY` at once, so a burst through thousands of alerts takes a few connections of the pool and a few
   * round trips, not one transaction per user. The users' prunes follow once nothing waits to be fired (`prune`). A
   * failed write (the database busy or away) is tried again at the same price and time, with a backoff, until it
   * lands or the job stops: the price may never cross again, and the write is guarded (the alert's version, still
   * active), so a retry after a write that landed fires nothing twice.
   */
  private fire(a: Watched, price: number, at: Date): void {
    const version = versionOf(a);
    if (this.firing.has(version) || this.ctx.signal.aborted) return;
    this.firing.add(version);
    this.unwritten.set(version, at.getTime());
    this.toFire.push({ a, crossing: { alert: a, price, at } });
    if (this.firers < FIRE_CONCURRENCY) void this.firer();
  }

  /**
   * One of up to `FIRE_CONCURRENCY` writers: takes the next batch of what is queued whenever it is free, so a
   * crossing queued while a slow firing is in flight goes out on the other writer at once, not after it.
   */
  private async firer(): Promise<void> {
    this.firers++;
    try {
      // The crossings queued by the same prints (the caller's loop) go together.
      await Promise.resolve();
      while (this.toFire.length && !this.ctx.signal.aborted && !this.stopped) {
        if (this.fireHold) await this.fireHold;
        const [list = [], ...rest] = fireBatches(this.toFire.splice(0));
        this.toFire = rest.flat().concat(this.toFire);
        if (!list.length) continue;
        try {
          const started = performance.now();
          const fired = await fireAlerts(this.opts.db, list.map((f) => f.crossing), this.opts.events, { prune: false });
          const took = performance.now() - started;
          if (took > SLOW_FIRE_MS) this.opts.log?.warn({ alerts: list.length, fired: fired.length, ms: Math.round(took) }, 'Firing alerts was slow');
          this.fireAttempt = 0;
          for (const f of list) this.unwritten.delete(versionOf(f.a));
          for (const f of fired) this.toPrune.add(f.row.userId);
          for (const { notification } of fired) if (notification) this.mail(notification);
        } catch (err) {
          // Back at the front, and every writer waits out the backoff before its next batch.
          this.toFire.unshift(...list);
          this.opts.log?.warn({ err, alerts: list.length, attempt: this.fireAttempt }, 'Could not fire alerts; trying again');
          if (!this.fireHold) {
            const hold = sleep(Math.min(FIRE_RETRY_MAX_MS, FIRE_RETRY_MS * 2 ** this.fireAttempt++), this.ctx.signal).finally(() => {
              if (this.fireHold === hold) this.fireHold = null;
            });
            this.fireHold = hold;
          }
        }
      }
    } finally {
      this.firers--;
      if (this.firers === 0) {
        // The job stopped (its lease lost, the server closing): whoever runs it next judges these alerts afresh.
        if (this.ctx.signal.aborted || this.stopped) for (const f of this.toFire.splice(0)) this.firing.delete(versionOf(f.a));
        else if (this.toPrune.size && !this.pruning) void this.prune();
      }
    }
  }

  /**
   * A fired alert's e-mail, sent beside the firings, at most `MAIL_CONCURRENCY` at once: a mail server that is slow
   * or away (each send waiting for its timeout) never holds back the next firing. Each is sent once (its row's
   * `emailed_at`, claimed before sending).
   */
  private mail(row: NotificationRow): void {
    if (!this.opts.onNotification) return;
    this.toMail.push(row);
    if (this.mailing < MAIL_CONCURRENCY) void this.mailNext();
  }

  private async mailNext(): Promise<void> {
    this.mailing += 1;
    try {
      for (let row = this.toMail.shift(); row; row = this.toMail.shift()) {
        await this.opts.onNotification!(row).catch((err: unknown) => this.opts.log?.warn({ err }, 'Could not send the e-mail of a fired alert'));
      }
    } finally {
      this.mailing -= 1;
    }
  }

  /** The fired users' old alerts and notifications dropped, one user at a time, giving way to firings. */
  private async prune(): Promise<void> {
    this.pruning = true;
    try {
      while (this.toPrune.size && this.firers === 0 && !this.stopped) {
        const userId = this.toPrune.values().next().value as string;
        this.toPrune.delete(userId);
        await pruneFired(this.opts.db, [userId]);
      }
    } finally {
      this.pruning = false;
    }
  }

  /**
   * Prints in the order printed: the first that crosses fires (at its price, when it was heard). Prints heard
   * before the candles of a gap are read wait for them: a price reached while nobody listened fires first, at
   * the trigger and at its time, and the prints after it find the alert fired.
   */
  private onTrades(ticks: TradeTick[], at: number): void {
    if (this.catchUpNeeded || this.catchingUp) {
      if (this.held.length < MAX_HELD_BATCHES) this.held.push({ ticks, at });
      else this.heldOverflow = true;
      return;
    }
    this.judge(ticks, at);
  }

  /** The prints held during a catch-up, judged once it is over (or has failed: they are not lost with it). */
  private judgeHeld(): void {
    const held = this.held;
    this.held = [];
    for (const { ticks, at } of held) this.judge(ticks, at);
  }

  private judge(ticks: TradeTick[], at: number): void {
    this.recent.push({ ticks, at });
    let drop = 0;
    while (drop < this.recent.length && (this.recent[drop]!.at < at - RECENT_MS || this.recent.length - drop > MAX_HELD_BATCHES)) drop++;
    if (drop) this.recent.splice(0, drop);
    for (const t of ticks) {
      this.heardAt.set(t.symbol, at);
      const list = this.bySymbol.get(t.symbol);
      if (!list) continue;
      for (const a of list) if (a.updatedAt.getTime() <= at && crossed(a, t.price)) this.fire(a, t.price, new Date(at));
    }
  }

  /** Fires the alerts whose price the candles since `from` reached while nobody listened. */
  private async catchUp(from: number): Promise<void> {
    const to = this.now();
    if (this.watched.size === 0 || to - from < 1000) return;
    const instruments = new Map((await this.opts.instruments(this.exchange, this.network)).map((i) => [i.symbol, i]));
    for (const [symbol, list] of this.bySymbol) {
      const inst = instruments.get(symbol);
      if (!inst || this.ctx.signal.aborted) continue;
      const earliest = Math.min(...list.map((a) => a.updatedAt.getTime()));
      const { bars, barMs } = await barsSince(this.opts.rest, this.exchange, this.network, inst, Math.max(from, earliest), to);
      for (const a of list) {
        const hit = firstReach(a, bars, barMs, from);
        if (hit) this.fire(a, hit.price, hit.at);
      }
    }
  }
}

/** How long a newly watched pair's recent trades wait for the stream's first print of it. */
const HEARD_WAIT_MS = 3000;
/** Fired alerts' e-mails sent at once per evaluator. */
const MAIL_CONCURRENCY = 4;
/** Firing transactions at once per evaluator (each up to `FIRE_BATCH` crossings). */
const FIRE_CONCURRENCY = 2;
/** A firing (its transaction and the push after its commit) slower than this is logged: its alerts rang late. */
const SLOW_FIRE_MS = 250;
/** A failed firing is written again after 250 ms, doubling up to 5 s. */
const FIRE_RETRY_MS = 250;
const FIRE_RETRY_MAX_MS = 5000;
/** Trade batches held while a catch-up runs (a batch is one socket message); also the most kept as recent. */
const MAX_HELD_BATCHES = 10_000;
/** How long judged prints are kept for alerts read after them (well above the re-read period, 1 s). */
const RECENT_MS = 10_000;

/** On boot: every exchange+network with active alerts has its evaluator job (alerts from before this feature, a lost row). */
export async function ensureAlertJobs(db: Db): Promise<void> {
  const rows = await db.selectDistinct({ exchange: alerts.exchange, network: alerts.network }).from(alerts).where(eq(alerts.status, 'active'));
  for (const r of rows) await ensureAlertJob(db, r.exchange, r.network);
}
