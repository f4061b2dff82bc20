import type { Redis, RedisOptions } from 'ioredis';

/**
 * The app's Redis client (app.ts): fail fast while Redis is away (issue "Hardening": sign-in waited
 * up to 4 s, then answered 500). No offline queue — a command while disconnected fails at once
 * instead of waiting for a reconnect — and a 250 ms command timeout, so a frozen server costs one
 * request 250 ms before the counters skip Redis until it answers again. ioredis keeps reconnecting
 * in the background (its default back-off, at most 2 s apart).
 */
export const REDIS_CLIENT_OPTIONS: RedisOptions = { connectTimeout: 2000, commandTimeout: 250, enableOfflineQueue: false, maxRetriesPerRequest: 1 };

/** `ok`: commands answer; `down`: configured but not answering (counts fall back per instance); `off`: no REDIS_URL. */
export type RedisState = 'ok' | 'down' | 'off';

export interface RedisHealthLog {
  warn(obj: object, msg: string): void;
  info(msg: string): void;
}

export interface RedisHealth {
  state(): RedisState;
  /**
   * A command failed or timed out while the connection looked ready (a frozen server, a dead
   * link without a reset): count Redis as down until a PING answers again.
   */
  commandFailed(err: unknown): void;
  /** Stops watching (the app closes). */
  close(): void;
}

/** How often a PING checks a connection that stopped answering commands. */
const PROBE_EVERY_MS = 1000;

/**
 * Watches one ioredis client: its connection events, plus command failures reported by its users,
 * so the rate limits know at once whether to count in Redis or in memory (DESIGN §6). Logs one
 * `warn` when Redis becomes unavailable and one `info` when it is back — not one line per failed
 * reconnect — and is the handler of the client's 'error' events (without one, ioredis prints
 * "Unhandled error event" on every reconnect attempt).
 */
export function watchRedis(redis: Redis | null, log: RedisHealthLog): RedisHealth {
  if (!redis) return { state: () => 'off', commandFailed: () => {}, close: () => {} };

  let stalled = false;
  let lastError: unknown = null;
  /** What the log last said: nothing yet, down, or back. */
  let told: 'nothing' | 'down' | 'ok' = 'nothing';
  let probe: NodeJS.Timeout | null = null;

  const state = (): RedisState => (redis.status === 'ready' && !stalled ? 'ok' : 'down');

  const update = () => {
    const now = state();
    if (now === 'down' && told !== 'down' && (told === 'ok' || lastError)) {
      told = 'down';
      const reason = lastError instanceof Error ? lastError.message : stalled ? 'commands time out' : 'connection lost';
      log.warn({ reason }, 'Redis is unavailable: rate limits count per instance until it is back');
    } else if (now === 'ok' && told !== 'ok') {
      if (told === 'down') log.info('Redis is back: rate limits are shared by the instances again');
      told = 'ok';
      lastError = null;
    }
  };

  const stopProbe = () => {
    if (probe) clearInterval(probe);
    probe = null;
  };

  const onReady = () => {
    // A fresh connection passed ioredis's ready check (INFO answered): the server answers again.
    stalled = false;
    stopProbe();
    update();
  };
  const onError = (err: unknown) => {
    lastError = err;
    update();
  };
  const onDown = () => update();

  redis.on('ready', onReady);
  redis.on('error', onError);
  redis.on('close', onDown);
  redis.on('end', onDown);

  return {
    state,
    commandFailed(err) {
      lastError = err;
      if (redis.status === 'ready' && !stalled) {
        stalled = true;
        probe = setInterval(() => {
          redis.ping().then(
            () => {
              stalled = false;
              stopProbe();
              update();
            },
            () => {},
          );
        }, PROBE_EVERY_MS);
        probe.unref();
      }
      update();
    },
    close() {
      stopProbe();
      redis.off('ready', onReady);
      redis.off('error', onError);
      redis.off('close', onDown);
      redis.off('end', onDown);
    },
  };
}

/**
 * For the start-up message (main.ts): whether `redis` becomes ready within `timeoutMs`, or why not.
 * Never throws; the server starts either way.
 */
export function redisReachable(redis: Redis, timeoutMs: number): Promise<{ ok: true } | { ok: false; reason: string }> {
  if (redis.status === 'ready') return Promise.resolve({ ok: true });
  return new Promise((resolve) => {
    const done = (result: { ok: true } | { ok: false; reason: string }) => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      resolve(result);
    };
    const onReady = () => done({ ok: true });
    const onError = (err: unknown) => done({ ok: false, reason: err instanceof Error ? err.message : String(err) });
    const timer = setTimeout(() => done({ ok: false, reason: `no answer within ${timeoutMs} ms` }), timeoutMs);
    redis.on('ready', onReady);
    redis.on('error', onError);
  });
}
