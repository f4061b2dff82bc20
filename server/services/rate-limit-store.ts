import { ReplyError, type Redis } from 'ioredis';
import type { RedisHealth } from './redis-health';

/** A fixed window: `count` hits since it started, `ttlMs` until it ends. */
export interface WindowCount {
  count: number;
  ttlMs: number;
}

/**
 * Counters in fixed windows that start at their first hit: what the route rate limits and the
 * key-password limits (services/key-password-limit.ts) count with.
 */
export interface WindowCounter {
  /** One more hit on `key`; a new window of `windowMs` starts when none is running. */
  incr(key: string, windowMs: number): Promise<WindowCount>;
  /** One hit fewer (never below 0), same window: undoes a hit that turned out not to count. */
  decr(key: string): Promise<void>;
  /** Forgets `key` (a right key password clears its wrong ones). */
  reset(key: string): Promise<void>;
}

/**
 * This instance's counts. Bounded: past `maxKeys` the expired windows are swept, then the oldest
 * go (as @fastify/rate-limit's LocalStore drops its least recently used).
 */
export class MemoryCounter implements WindowCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();

  constructor(
    private readonly maxKeys = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  incrNow(key: string, windowMs: number): WindowCount {
    const now = this.now();
    let w = this.windows.get(key);
    if (!w || w.endsAt <= now) {
      if (w) this.windows.delete(key);
      else this.makeRoom(now);
      w = { count: 0, endsAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count++;
    return { count: w.count, ttlMs: w.endsAt - now };
  }

  async incr(key: string, windowMs: number): Promise<WindowCount> {
    return this.incrNow(key, windowMs);
  }

  async decr(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count--;
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }

  private makeRoom(now: number): void {
    if (this.windows.size < this.maxKeys) return;
    for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    for (const k of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(k);
    }
  }
}

/** INCR, with the window's expiry set by its first hit; answers [count, ms left]. Atomic, so instances agree. */
const INCR_LUA = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if current == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;
/** DECR that never goes below 0 nor creates a key (DECR keeps the expiry). */
const DECR_LUA = `
local current = tonumber(redis.call('GET', KEYS[1]))
if current and current > 0 then redis.call('DECR', KEYS[1]) end
return 0
`;

interface CounterCommands {
  ctWindowIncr(key: string, windowMs: number): Promise<[number, number]>;
  ctWindowDecr(key: string): Promise<number>;
}

function withCounterCommands(redis: Redis): Redis & CounterCommands {
  const r = redis as Redis & Partial<CounterCommands>;
  if (!r.ctWindowIncr) redis.defineCommand('ctWindowIncr', { numberOfKeys: 1, lua: INCR_LUA });
  if (!r.ctWindowDecr) redis.defineCommand('ctWindowDecr', { numberOfKeys: 1, lua: DECR_LUA });
  return redis as Redis & CounterCommands;
}

export interface ResilientCounterOptions {
  /** null: no REDIS_URL, memory only. */
  redis: Redis | null;
  health: RedisHealth;
  /** Prefix of every key in Redis (tests isolate runs with it). */
  namespace: string;
  memory?: MemoryCounter;
}

/**
 * Counts in Redis while it answers — shared by every instance, so N instances limit as one (DESIGN
 * §6) — and in this instance's memory when it does not: a rate limit whose store is down fails
 * safe (still limits, per instance) and fast (no waiting on a dead server), never with a 500.
 *
 * Every hit is also counted in memory, so when Redis goes away mid-window this instance still
 * remembers what it saw instead of starting from zero. How fast "does not answer" is known comes
 * from the client: no offline queue (a command while disconnected fails at once) and a short
 * command timeout (app.ts), plus `health`, which skips Redis altogether while it is down.
 */
export class ResilientCounter implements WindowCounter {
  private readonly redis: (Redis & CounterCommands) | null;
  private readonly memory: MemoryCounter;

  constructor(private readonly opts: ResilientCounterOptions) {
    this.redis = opts.redis ? withCounterCommands(opts.redis) : null;
    this.memory = opts.memory ?? new MemoryCounter();
  }

  /** Whether counts go to Redis right now. */
  private shared(): (Redis & CounterCommands) | null {
    return this.redis && this.opts.health.state() === 'ok' ? this.redis : null;
  }

  async incr(key: string, windowMs: number): Promise<WindowCount> {
    const local = this.memory.incrNow(key, windowMs);
    const redis = this.shared();
    if (!redis) return local;
    try {
      const [count, ttlMs] = await redis.ctWindowIncr(this.opts.namespace + key, windowMs);
      return { count: Number(count), ttlMs: Number(ttlMs) };
    } catch (err) {
      this.failed(err);
      return local;
    }
  }

  /**
   * A timeout or a lost connection makes Redis "down" until it answers again; an error reply (say
   * READONLY during a failover) comes from a server that answers, so only this hit falls back —
   * marking it down would flap between down and back with every PING.
   */
  private failed(err: unknown): void {
    if (!(err instanceof (ReplyError as typeof Error))) this.opts.health.commandFailed(err);
  }

  async decr(key: string): Promise<void> {
    await this.memory.decr(key);
    const redis = this.shared();
    if (redis) await redis.ctWindowDecr(this.opts.namespace + key).catch((err: unknown) => this.failed(err));
  }

  async reset(key: string): Promise<void> {
    await this.memory.reset(key);
    const redis = this.shared();
    if (redis) {
      await redis.del(this.opts.namespace + key).then(
        () => undefined,
        (err: unknown) => this.failed(err),
      );
    }
  }
}

type StoreCallback = (err: Error | null, result?: { current: number; ttl: number }) => void;

/**
 * A `store` for @fastify/rate-limit over a WindowCounter. The plugin constructs the store itself
 * (`new Store(globalOptions)`) and calls `child(routeOptions)` once per limited route, so the counter
 * is bound by this factory. Keys are `<namespace><METHOD><url>-<client key>`, as the plugin's own
 * RedisStore spells them.
 */
export function rateLimitStore(counter: WindowCounter) {
  return class ResilientRateLimitStore {
    private readonly prefix: string;

    constructor(_options?: unknown, prefix = '') {
      this.prefix = prefix;
    }

    incr(key: string, cb: StoreCallback, timeWindow: number): void {
      counter.incr(this.prefix + key, timeWindow).then(
        ({ count, ttlMs }) => cb(null, { current: count, ttl: ttlMs }),
        (err: unknown) => cb(err instanceof Error ? err : new Error(String(err))),
      );
    }

    /** `routeOptions`: the plugin's merged options, with the route under `routeInfo`. */
    child(routeOptions: object): ResilientRateLimitStore {
      const info = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo ?? {};
      return new ResilientRateLimitStore(undefined, `${this.prefix}${[info.method ?? ''].flat().join(',')}${info.url ?? ''}-`);
    }
  };
}
