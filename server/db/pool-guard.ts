import { AsyncLocalStorage } from 'node:async_hooks';
import type pg from 'pg';
import { classifyDatabaseError, POOL_SHARE_TIMEOUT_CODE } from './errors';

/**
 * Two guards on the PostgreSQL pool, so one stuck thing cannot take the whole server with it.
 *
 * 1. A bulkhead: the pool's connections are shared by every route, so 15 requests waiting on one
 *    row lock used to hold all 10 and unrelated routes waited behind them. Each request runs in a
 *    *scope* (its route: `plugins/database.ts` sets it), and one scope may hold at most `perScopeMax`
 *    connections; its extra requests wait in their own queue (up to `acquireTimeoutMs`, then a
 *    `PoolShareTimeoutError`, answered 503) instead of in the pool's queue ahead of everyone else.
 *    Work outside any scope (boot, migrations, the health probe) is bounded by the pool alone.
 * 2. A connection whose query got no answer (pg's client-side `query_timeout`, a lost socket) still
 *    has that query in flight: reused, every later query would queue behind it — drizzle's own
 *    `rollback` after the failure would wait one more timeout. Such a client fails at once and is
 *    destroyed when released, never returned to the pool.
 */

/** The scope (route) a database call belongs to; `undefined` outside requests. */
export const databaseScope = new AsyncLocalStorage<string>();

export class PoolShareTimeoutError extends Error {
  readonly code = POOL_SHARE_TIMEOUT_CODE;
  constructor(scope: string, waitedMs: number) {
    super(`Connection share of ${scope} still busy after ${waitedMs} ms`);
    this.name = 'PoolShareTimeoutError';
  }
}

export interface PoolGuardOptions {
  /** Connections one scope may hold at once. */
  perScopeMax: number;
  /** How long a request may wait for its scope's share before failing. */
  acquireTimeoutMs: number;
}

interface Waiter {
  grant: () => void;
  timer: NodeJS.Timeout;
}

/** Counts connections per scope; FIFO waiters per scope. */
class ScopeShares {
  private readonly held = new Map<string, number>();
  private readonly waiting = new Map<string, Waiter[]>();
  constructor(private readonly opts: PoolGuardOptions) {}

  acquire(scope: string): Promise<() => void> {
    const release = this.releaser(scope);
    if ((this.held.get(scope) ?? 0) < this.opts.perScopeMax) {
      this.held.set(scope, (this.held.get(scope) ?? 0) + 1);
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(scope) ?? [];
      this.waiting.set(scope, queue);
      const waiter: Waiter = {
        // The releasing request hands its slot over: `held` stays the same.
        grant: () => {
          clearTimeout(waiter.timer);
          resolve(release);
        },
        timer: setTimeout(() => {
          queue.splice(queue.indexOf(waiter), 1);
          if (!queue.length) this.waiting.delete(scope);
          reject(new PoolShareTimeoutError(scope, this.opts.acquireTimeoutMs));
        }, this.opts.acquireTimeoutMs),
      };
      queue.push(waiter);
    });
  }

  private releaser(scope: string): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting.get(scope)?.shift();
      if (next) {
        if (!this.waiting.get(scope)?.length) this.waiting.delete(scope);
        next.grant();
        return;
      }
      const n = (this.held.get(scope) ?? 1) - 1;
      if (n > 0) this.held.set(scope, n);
      else this.held.delete(scope);
    };
  }
}

const BROKEN = Symbol('ct.brokenConnection');
const WATCHED = Symbol('ct.watchedConnection');
type WatchedClient = pg.PoolClient & { [BROKEN]?: Error; [WATCHED]?: true };

/** Marks the client broken when a query on it fails because the connection is gone or silent. */
function watch(client: WatchedClient): void {
  if (client[WATCHED]) return;
  client[WATCHED] = true;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = (...args: unknown[]) => {
    const broken = client[BROKEN];
    if (broken) {
      const last = args[args.length - 1];
      if (typeof last === 'function') {
        process.nextTick(last, broken);
        return undefined;
      }
      return Promise.reject(broken);
    }
    const result = query(...args);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        if (classifyDatabaseError(err)?.kind === 'unavailable') {
          client[BROKEN] = new Error('Connection terminated: an earlier query on this connection got no answer', { cause: err });
        }
      });
    }
    return result;
  };
}

type ConnectCallback = (err: Error | undefined, client?: pg.PoolClient, done?: (release?: Error | boolean) => void) => void;

/** Installs both guards on `pool` (drizzle and pg-pool's own `query` go through `pool.connect`). */
export function guardPool(pool: pg.Pool, opts: PoolGuardOptions): void {
  const shares = new ScopeShares(opts);
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;

  const guarded = async (): Promise<pg.PoolClient> => {
    const scope = databaseScope.getStore();
    const releaseShare = scope === undefined ? () => undefined : await shares.acquire(scope);
    let client: WatchedClient;
    try {
      client = await connect();
    } catch (err) {
      releaseShare();
      throw err;
    }
    watch(client);
    const release = client.release.bind(client);
    client.release = (err?: Error | boolean) => {
      releaseShare();
      // An error (or true) makes pg-pool destroy the client instead of keeping it.
      return release(err || client[BROKEN]);
    };
    return client;
  };

  (pool as { connect: unknown }).connect = (cb?: ConnectCallback) => {
    const promise = guarded();
    if (!cb) return promise;
    promise.then(
      (client) => cb(undefined, client, client.release),
      (err: Error) => cb(err, undefined, () => undefined),
    );
    return undefined;
  };
}
