import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ScannerSharedStore } from './scanner-service';

/** Deletes the lock only if it is still ours (it may have expired and been taken by another instance). */
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";

/**
 * The scanner's shared store on Redis (DESIGN §6): JSON entries with an expiry, and short locks
 * (`SET NX PX` with a random token) so one instance fetches an exchange while the others wait for
 * its answer. Commands fail fast while Redis is away (REDIS_CLIENT_OPTIONS); the service then
 * acts on its own.
 */
export function redisScannerStore(redis: Redis): ScannerSharedStore {
  const held = new Map<string, string>();
  return {
    get: (key) => redis.get(key),
    set: async (key, value, ttlSeconds) => {
      await redis.set(key, value, 'EX', ttlSeconds);
    },
    lock: async (key, ttlMs) => {
      const token = randomUUID();
      const ok = await redis.set(key, token, 'PX', ttlMs, 'NX');
      if (ok !== 'OK') return false;
      held.set(key, token);
      return true;
    },
    unlock: async (key) => {
      const token = held.get(key);
      if (!token) return;
      held.delete(key);
      await redis.eval(UNLOCK, 1, key, token);
    },
  };
}
