import type { Db } from '../../db/client';
import { listenChannel } from '../../db/listen';
import type { SimExchange } from '../market/catalogue';
import { accountId, PaperEngine, type AccountKey, type EngineEvent, type PaperEngineOptions } from './engine';
import { PAPER_EVENTS_CHANNEL, PaperStore, VersionConflict, type PaperNotice } from './store';

export interface PaperRuntimeOptions {
  exchange: SimExchange;
  engine: PaperEngineOptions;
  /** The product's database, opened on first use (the standalone sim opens an in-memory PGlite). */
  db: () => Promise<Db>;
  /** The market clock (ms). */
  now: () => number;
  /** How often loaded accounts with orders or positions are advanced (fills, triggers, liquidations). */
  tickMs: number;
}

/** Events of one account, delivered after they were written (so a stream never shows what a restart would lose). */
export type PaperListener = (account: AccountKey, events: EngineEvent[]) => void;

interface Loaded {
  key: AccountKey;
  dbId: string;
  version: number;
}

/** One `run` waiting for its account's next batch. */
interface Waiting {
  fn: (id: string, now: number) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

// Instances sharing one paper account (3 in bench:jobs) may each write first more than twice in a row.
const MAX_ATTEMPTS = 5;

/** A batch's operation threw: it was rejected, these run again on a fresh copy of the account. */
class Rerun {
  constructor(readonly rest: Waiting[]) {}
}
/** How long committed events stay in paper_events for instances catching up, and how often the runner prunes. */
const EVENTS_KEPT_MS = 10 * 60_000;
const PRUNE_EVERY_MS = 60_000;

/**
 * One exchange's paper trading runtime: the engine, the store and the clock. `run` is how venues
 * touch an account: per account one operation at a time; the account is loaded (or created with
 * the starting balances) on first use, and reloaded whenever another instance on the database wrote
 * it since (one primary-key `select version` per call); the engine first processes the tape up to
 * `now`; whatever changed is committed in one transaction BEFORE `run` returns — so a venue answers
 * only with what survives a kill -9 — and only then are the events published to the private streams.
 * A timer advances loaded accounts that have orders or positions, so fills happen with nobody asking.
 *
 * Several instances, one database: each commit's events are written to paper_events with a
 * `pg_notify` in the same transaction. The committing instance publishes its own directly; the
 * others hear the notice and publish the account's rows after the last one they have published
 * (under the account's lock, so in commit order and once), reloading their copy first if it is
 * older. After a dropped listener they catch up from the rows they have not seen.
 */
export class PaperRuntime {
  readonly engine: PaperEngine;
  private readonly loaded = new Map<string, Loaded>();
  private readonly locks = new Map<string, Promise<unknown>>();
  /** Per account: the operations waiting for its next batch (`run`). */
  private readonly waiting = new Map<string, Waiting[]>();
  private readonly listeners = new Set<PaperListener>();
  /** Per account: the last paper_events row published here (its own or another instance's). */
  private readonly cursors = new Map<string, number>();
  /** The newest paper_events row when this runtime started listening: older rows are not published. */
  private baseline = 0;
  private store: Promise<PaperStore> | null = null;
  private unlisten: Promise<() => Promise<void>> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private closed = false;
  private prunedAt = 0;

  constructor(private readonly opts: PaperRuntimeOptions) {
    this.engine = new PaperEngine(opts.engine);
  }

  get exchange(): SimExchange {
    return this.opts.exchange;
  }

  now(): number {
    return this.opts.now();
  }

  subscribe(listener: PaperListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Runs `fn` on the account (as the database has it) at `now` and commits what it changed. `fn`
   * may run again after a version conflict (another instance wrote first), on the reloaded account:
   * keep it a pure function of the engine state (no side effects outside the engine).
   *
   * Group commit: operations on one account that arrive while its previous batch is being written
   * (a bracket's legs sent at once) run together, in arrival order, at one `now`, behind one version
   * check, and are written in one transaction — each answered only after that commit, as before.
   */
  async run<T>(key: AccountKey, fn: (id: string, now: number) => T): Promise<T> {
    const id = accountId(key);
    return new Promise<T>((resolve, reject) => {
      let batch = this.waiting.get(id);
      if (!batch) {
        // The first to wait schedules the account's next batch; whoever comes before it starts joins it.
        // It starts after the event loop's I/O of this turn (setImmediate), not at once: a bracket's legs
        // read in the same turn (sent at once, arriving together) are one batch and one commit.
        this.waiting.set(id, (batch = []));
        setImmediate(() => void this.exclusive(id, () => this.runBatch(key)).catch(() => undefined));
      }
      batch.push({ fn, resolve: resolve as (v: unknown) => void, reject });
    });
  }

  /** The account's store id (loading it if needed), for history queries. */
  async dbId(key: AccountKey): Promise<string> {
    return this.exclusive(accountId(key), async () => (await this.ensure(key, true)).dbId);
  }

  async history(): Promise<PaperStore> {
    return this.getStore();
  }

  /** Deletes the account and starts it afresh with the starting balances. */
  async reset(key: AccountKey): Promise<void> {
    const id = accountId(key);
    await this.exclusive(id, async () => {
      this.forget(id);
      const store = await this.getStore();
      await store.remove(key);
      await this.ensure(key, false);
    });
  }

  /** Starts the timer that advances loaded accounts (idempotent). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.tickMs);
    this.timer.unref();
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    void unlisten?.then((stop) => stop()).catch(() => undefined);
  }

  /**
   * Runs the operations waiting on the account, in order, and commits them in one transaction. One
   * that throws (a defect: refusals are return values) is rejected and the rest run again on a fresh
   * copy; a failed commit rejects them all (nothing of them was written).
   */
  private async runBatch(key: AccountKey): Promise<void> {
    const id = accountId(key);
    let batch = this.waiting.get(id) ?? [];
    this.waiting.delete(id);
    for (let attempt = 1; batch.length; ) {
      try {
        const acc = await this.ensure(key, true);
        const now = this.opts.now();
        this.engine.advance(id, now);
        const results: unknown[] = [];
        for (const w of batch) {
          try {
            results.push(w.fn(id, now));
          } catch (err) {
            this.forget(id);
            w.reject(err);
            throw new Rerun(batch.filter((o) => o !== w));
          }
        }
        const { changes, events } = this.engine.takeChanges(id);
        if (changes || events.length) {
          const done = await (await this.getStore()).commit(acc.dbId, acc.version, changes, events.length ? { key, events } : undefined);
          acc.version = done.version;
          if (done.eventId !== null) this.cursors.set(id, done.eventId);
        }
        this.publish(key, events);
        batch.forEach((w, i) => w.resolve(results[i]));
        return;
      } catch (err) {
        if (err instanceof Rerun) {
          batch = err.rest;
          continue;
        }
        this.forget(id);
        if (err instanceof VersionConflict && attempt++ < MAX_ATTEMPTS) continue;
        for (const w of batch) w.reject(err);
        return;
      }
    }
  }

  private async runLocked<T>(key: AccountKey, fn: (id: string, now: number) => T, check: boolean): Promise<T> {
    const id = accountId(key);
    for (let attempt = 1; ; attempt++) {
      const acc = await this.ensure(key, check || attempt > 1);
      const now = this.opts.now();
      let result: T;
      try {
        this.engine.advance(id, now);
        result = fn(id, now);
      } catch (err) {
        this.forget(id);
        throw err;
      }
      const { changes, events } = this.engine.takeChanges(id);
      if (changes || events.length) {
        try {
          const done = await (await this.getStore()).commit(acc.dbId, acc.version, changes, events.length ? { key, events } : undefined);
          acc.version = done.version;
          // Every earlier row of the account was published here when the account was (re)loaded.
          if (done.eventId !== null) this.cursors.set(id, done.eventId);
        } catch (err) {
          // What was not written was not acknowledged: drop the in-memory state, reload it next time.
          this.forget(id);
          if (err instanceof VersionConflict && attempt < MAX_ATTEMPTS) continue;
          throw err;
        }
      }
      this.publish(key, events);
      return result;
    }
  }

  /**
   * Advances the loaded accounts with orders or positions. One query checks every loaded copy
   * against the database first: a copy another instance wrote is reloaded (it may have gained or
   * lost orders), so the timer never acts — or declines to act — on a stale account.
   */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      // Nothing loaded, nothing to do (the standalone sim opens its database on the first private request).
      if (this.loaded.size === 0) return;
      const store = await this.getStore();
      const accounts = [...this.loaded.values()];
      const versions = await store.versions(accounts.map((a) => a.dbId));
      for (const acc of accounts) {
        const id = accountId(acc.key);
        if (this.locks.has(id) || this.loaded.get(id) !== acc || !this.engine.has(id)) continue;
        if (!versions.has(acc.dbId)) {
          // Deleted elsewhere (a reset): forget it; the next request creates it, not the runner.
          await this.exclusive(id, async () => {
            if (this.loaded.get(id) === acc) this.forget(id);
          });
          continue;
        }
        const fresh = versions.get(acc.dbId) === acc.version;
        if (fresh && this.engine.symbols(id).length === 0) continue;
        // Fresh as of this tick's check: no second check (a write in between fails the commit's version guard and reloads).
        await this.exclusive(id, () => this.runLocked(acc.key, () => undefined, !fresh)).catch(() => undefined);
      }
      if (Date.now() - this.prunedAt >= PRUNE_EVERY_MS) {
        this.prunedAt = Date.now();
        await store.pruneEvents(EVENTS_KEPT_MS);
      }
    } catch {
      // The database is away: the next tick tries again.
    } finally {
      this.ticking = false;
    }
  }

  /** The loaded account; with `check`, first compared with the stored version (reloaded if another instance wrote it). */
  private async ensure(key: AccountKey, check: boolean): Promise<Loaded> {
    const id = accountId(key);
    const known = this.loaded.get(id);
    if (known && this.engine.has(id)) {
      if (!check) return known;
      const stored = await (await this.getStore()).version(known.dbId);
      if (stored === known.version) return known;
      this.forget(id);
    }
    return this.load(key);
  }

  /** Loads (or creates) the account, then publishes what other instances committed that was not published here yet. */
  private async load(key: AccountKey): Promise<Loaded> {
    const id = accountId(key);
    const store = await this.getStore();
    const stored = (await store.load(key)) ?? (await store.create(key, this.engine.newAccount(this.opts.now())));
    this.engine.load(id, stored.snapshot);
    const acc: Loaded = { key, dbId: stored.dbId, version: stored.version };
    this.loaded.set(id, acc);
    await this.catchUp(key, stored.dbId);
    return acc;
  }

  private forget(id: string): void {
    this.engine.unload(id);
    this.loaded.delete(id);
  }

  private publish(key: AccountKey, events: EngineEvent[]): void {
    if (events.length) for (const l of this.listeners) l(key, events);
  }

  /** Publishes the account's events rows after the last one published here, in order (under the account's lock). */
  private async catchUp(key: AccountKey, dbId: string): Promise<void> {
    const id = accountId(key);
    const rows = await (await this.getStore()).eventsAfter(dbId, this.cursors.get(id) ?? this.baseline);
    for (const row of rows) {
      this.cursors.set(id, row.id);
      this.publish(key, row.events);
    }
  }

  /** Another instance committed events of an account (PaperNotice): publish them here, on a fresh copy. */
  private async heard(notice: PaperNotice): Promise<void> {
    const { key } = notice;
    const id = accountId(key);
    if ((this.cursors.get(id) ?? this.baseline) >= notice.eventId) return; // its own, or already caught up
    const acc = this.loaded.get(id);
    if (acc && this.engine.has(id) && (acc.dbId !== notice.account || acc.version < notice.version)) {
      // The listeners read the engine too (balances, open orders): reload first (load catches up).
      this.forget(id);
      await this.load(key);
      return;
    }
    await this.catchUp(key, notice.account);
  }

  private onNotice(payload: string): void {
    let notice: PaperNotice;
    try {
      notice = JSON.parse(payload) as PaperNotice;
    } catch {
      return;
    }
    if (notice.key?.exchange !== this.opts.exchange || this.closed) return;
    void this.exclusive(accountId(notice.key), () => this.heard(notice)).catch(() => undefined);
  }

  /** After a dropped listener: every account with rows this runtime may not have seen catches up. */
  private async onReconnect(): Promise<void> {
    const store = await this.getStore();
    for (const { dbId, key } of await store.accountsWithEventsAfter(this.opts.exchange, this.baseline)) {
      await this.exclusive(accountId(key), async () => {
        const acc = this.loaded.get(accountId(key));
        if (acc && acc.dbId === dbId) await this.ensure(key, true);
        await this.catchUp(key, dbId);
      }).catch(() => undefined);
    }
  }

  private getStore(): Promise<PaperStore> {
    this.store ??= this.open().catch((err: unknown) => {
      this.store = null;
      throw err;
    });
    return this.store;
  }

  /** Opens the store and starts listening for the other instances' events (from the newest row on). */
  private async open(): Promise<PaperStore> {
    const db = await this.opts.db();
    const store = new PaperStore(db);
    this.baseline = await store.lastEventId();
    if (!this.closed) {
      const unlisten = listenChannel(db, PAPER_EVENTS_CHANNEL, {
        onMessage: (m) => this.onNotice(m),
        onReconnect: () => void this.onReconnect().catch(() => undefined),
      });
      this.unlisten = unlisten;
      const stop = await unlisten;
      if (this.closed) await stop();
    }
    return store;
  }

  /** One operation per account at a time, in arrival order. */
  private async exclusive<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.locks.get(id) ?? Promise.resolve();
    const run = prev.then(fn, fn);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    this.locks.set(id, settled);
    void settled.then(() => {
      if (this.locks.get(id) === settled) this.locks.delete(id);
    });
    return run;
  }
}
