import type { Db } from '../../db/client';
import type { SimExchange } from '../market/catalogue';
import { accountId, PaperEngine, type AccountKey, type EngineEvent, type PaperEngineOptions } from './engine';
import { PaperStore, VersionConflict } from './store';

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

const MAX_ATTEMPTS = 3;

/**
 * One exchange's paper trading runtime: the engine, the store and the clock. `run` is how venues
 * touch an account: per account one operation at a time; the account is loaded (or created with
 * the starting balances) on first use; the engine first processes the tape up to `now`; whatever
 * changed is committed in one transaction BEFORE `run` returns — so a venue answers only with what
 * survives a kill -9 — and only then are the events published to the private streams.
 * A timer advances loaded accounts that have orders or positions, so fills happen with nobody asking.
 */
export class PaperRuntime {
  readonly engine: PaperEngine;
  private readonly loaded = new Map<string, Loaded>();
  private readonly locks = new Map<string, Promise<unknown>>();
  private readonly listeners = new Set<PaperListener>();
  private store: PaperStore | null = null;
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

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
   * Runs `fn` on the account at `now` and commits what it changed. `fn` may run again after a
   * version conflict (another instance wrote first), on the reloaded account: keep it a pure
   * function of the engine state (no side effects outside the engine).
   */
  async run<T>(key: AccountKey, fn: (id: string, now: number) => T): Promise<T> {
    const id = accountId(key);
    return this.exclusive(id, async () => {
      for (let attempt = 1; ; attempt++) {
        const acc = await this.ensure(key);
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
        if (changes) {
          try {
            acc.version = await (await this.getStore()).commit(acc.dbId, acc.version, changes);
          } catch (err) {
            // What was not written was not acknowledged: drop the in-memory state, reload it next time.
            this.forget(id);
            if (err instanceof VersionConflict && attempt < MAX_ATTEMPTS) continue;
            throw err;
          }
        }
        if (events.length) for (const l of this.listeners) l(key, events);
        return result;
      }
    });
  }

  /** The account's store id (loading it if needed), for history queries. */
  async dbId(key: AccountKey): Promise<string> {
    return this.exclusive(accountId(key), async () => (await this.ensure(key)).dbId);
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
      await this.ensure(key);
    });
  }

  /** Starts the timer that advances loaded accounts (idempotent). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), this.opts.tickMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const { key } of [...this.loaded.values()]) {
        const id = accountId(key);
        if (this.locks.has(id) || !this.engine.has(id) || this.engine.symbols(id).length === 0) continue;
        await this.run(key, () => undefined).catch(() => undefined);
      }
    } finally {
      this.ticking = false;
    }
  }

  private async ensure(key: AccountKey): Promise<Loaded> {
    const id = accountId(key);
    const known = this.loaded.get(id);
    if (known && this.engine.has(id)) return known;
    const store = await this.getStore();
    const stored = (await store.load(key)) ?? (await store.create(key, this.engine.newAccount(this.opts.now())));
    this.engine.load(id, stored.snapshot);
    const acc: Loaded = { key, dbId: stored.dbId, version: stored.version };
    this.loaded.set(id, acc);
    return acc;
  }

  private forget(id: string): void {
    this.engine.unload(id);
    this.loaded.delete(id);
  }

  private async getStore(): Promise<PaperStore> {
    this.store ??= new PaperStore(await this.opts.db());
    return this.store;
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
