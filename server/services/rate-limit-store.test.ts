import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TcpProxy } from '../test/tcp-proxy';
import { MemoryCounter, ResilientCounter } from './rate-limit-store';
import { REDIS_CLIENT_OPTIONS, watchRedis, type RedisHealth } from './redis-health';

const REDIS = new URL(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const CLOSED_PORT_URL = 'redis://127.0.0.1:1';
const WINDOW = 60_000;

/** Collects what the health watcher logs. */
function recordingLog() {
  const lines: Array<{ level: 'warn' | 'info'; msg: string; reason?: string }> = [];
  return {
    lines,
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, reason: (obj as { reason?: string }).reason }),
    info: (msg: string) => lines.push({ level: 'info', msg }),
  };
}

/** Waits for `ok`; the cap only turns a hang into a clear failure (it is no speed limit). */
async function until(what: string, ok: () => boolean, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!ok()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * The counter's own commands (its INCR/DECR scripts, DEL) that `redis` was asked to send from now
 * on: "answers from memory" is asserted as "sent Redis nothing", not as a number of milliseconds.
 */
function counterCommands(redis: Redis): () => number {
  const spy = vi.spyOn(redis, 'sendCommand'); // the same spy again on a second call: count from here
  const from = spy.mock.calls.length;
  return () => spy.mock.calls.slice(from).filter(([command]) => /^(eval|evalsha|del)$/.test(command.name)).length;
}

describe('MemoryCounter', () => {
  it('counts in fixed windows from the first hit, never below zero, and forgets on reset', async () => {
    let now = 1_000;
    const c = new MemoryCounter(100, () => now);
    expect(await c.incr('a', 1000)).toEqual({ count: 1, ttlMs: 1000 });
    now += 400;
    expect(await c.incr('a', 1000)).toEqual({ count: 2, ttlMs: 600 });
    await c.decr('a');
    await c.decr('a');
    await c.decr('a');
    expect(await c.incr('a', 1000)).toEqual({ count: 1, ttlMs: 600 });
    now += 600;
    expect(await c.incr('a', 1000)).toEqual({ count: 1, ttlMs: 1000 });
    await c.reset('a');
    expect(await c.incr('a', 1000)).toEqual({ count: 1, ttlMs: 1000 });
  });

  it('stays bounded: expired windows are swept, then the oldest go', async () => {
    let now = 0;
    const c = new MemoryCounter(10, () => now);
    for (let i = 0; i < 25; i++) await c.incr(`k${i}`, 1000);
    expect(c.size).toBeLessThanOrEqual(10);
    now += 1000;
    await c.incr('fresh', 1000);
    expect(c.size).toBe(1);
  });
});

describe('ResilientCounter on a real Redis (DESIGN §6)', () => {
  const clients: Redis[] = [];
  const watches: RedisHealth[] = [];
  const namespace = `ct-test-counter-${process.pid}-${Date.now()}-`;
  const make = (url: string) => {
    const redis = new Redis(url, REDIS_CLIENT_OPTIONS);
    const log = recordingLog();
    const health = watchRedis(redis, log);
    clients.push(redis);
    watches.push(health);
    return { redis, log, health, counter: new ResilientCounter({ redis, health, namespace }) };
  };
  afterAll(async () => {
    for (const w of watches) w.close();
    for (const c of clients) c.disconnect();
  });

  it('shares counts between instances, and decr/reset reach every instance', async () => {
    const a = make(REDIS.toString());
    const b = make(REDIS.toString());
    await until('both ready', () => a.health.state() === 'ok' && b.health.state() === 'ok');
    expect((await a.counter.incr('shared', WINDOW)).count).toBe(1);
    const second = await b.counter.incr('shared', WINDOW);
    expect(second.count).toBe(2);
    expect(second.ttlMs).toBeGreaterThan(WINDOW - 5000);
    await a.counter.decr('shared');
    expect((await b.counter.incr('shared', WINDOW)).count).toBe(2);
    await b.counter.reset('shared');
    expect((await a.counter.incr('shared', WINDOW)).count).toBe(1);
    expect(a.log.lines).toEqual([]);
  });

  it('an error reply (Redis answers, but refuses the command) falls back for that hit without calling Redis down', async () => {
    const { redis, counter, health, log } = make(REDIS.toString());
    await until('ready', () => health.state() === 'ok');
    await redis.hset(`${namespace}wrong-type`, 'a', '1');
    expect(await counter.incr('wrong-type', WINDOW)).toEqual({ count: 1, ttlMs: WINDOW });
    expect(health.state()).toBe('ok');
    expect(log.lines).toEqual([]);
    await redis.del(`${namespace}wrong-type`); // the only test key without an expiry
  });

  it('with nothing listening: answers from memory at once, reports down, warns once, raises nothing', async () => {
    const { redis, counter, health, log } = make(CLOSED_PORT_URL);
    let refusals = 0;
    redis.on('error', () => refusals++);
    await until('a refused connection', () => log.lines.length > 0);
    expect(health.state()).toBe('down');
    const sent = counterCommands(redis);
    expect(await counter.incr('x', WINDOW)).toEqual({ count: 1, ttlMs: WINDOW });
    expect((await counter.incr('x', WINDOW)).count).toBe(2);
    await counter.decr('x');
    await counter.reset('x');
    // "At once": not one command tried on (or queued for) the dead connection.
    expect(sent()).toBe(0);
    // ioredis keeps retrying (an 'error' event each time): after three more refusals, still one line.
    const seen = refusals;
    await until('three more reconnect attempts', () => refusals >= seen + 3);
    expect(log.lines).toEqual([{ level: 'warn', msg: 'Redis is unavailable: rate limits count per instance until it is back', reason: expect.stringContaining('ECONNREFUSED') }]);
  });

  describe('through a proxy that hangs, comes back, drops and comes back (no restart)', () => {
    const proxy = new TcpProxy({ host: REDIS.hostname, port: Number(REDIS.port || 6379) });
    beforeAll(() => proxy.open());
    afterEach(() => proxy.thaw());
    afterAll(() => proxy.close());

    it('falls back per instance within the command timeout and shares counts again once Redis answers', async () => {
      const a = make(proxy.url);
      const b = make(REDIS.toString());
      await until('ready', () => a.health.state() === 'ok' && b.health.state() === 'ok');
      expect((await a.counter.incr('hang', WINDOW)).count).toBe(1);
      expect((await b.counter.incr('hang', WINDOW)).count).toBe(2);

      // Hung server: the first hit is sent, and only the command timeout can end it (a client
      // without one would hang here until vitest's test timeout); the next ones skip Redis.
      proxy.freeze();
      const sent = counterCommands(a.redis);
      const first = await a.counter.incr('hang', WINDOW);
      expect(sent()).toBe(1);
      expect(first.count).toBe(2); // this instance's own hits, counted in memory all along
      expect(a.health.state()).toBe('down');
      expect(a.log.lines).toEqual([{ level: 'warn', msg: expect.stringMatching(/^Redis is unavailable/), reason: 'Command timed out' }]);
      const next = await a.counter.incr('hang', WINDOW);
      expect(next.count).toBe(3);
      expect(sent()).toBe(1); // answered from memory: nothing more sent to (or queued for) the frozen server

      // Back: a probe notices by itself, and counts are shared again.
      proxy.thaw();
      await until('recovery', () => a.health.state() === 'ok');
      expect(a.log.lines.at(-1)).toEqual({ level: 'info', msg: 'Redis is back: rate limits are shared by the instances again' });
      // Shared again (the hit that timed out may have reached Redis late: "at least").
      const again = await a.counter.incr('hang', WINDOW);
      expect(again.count).toBeGreaterThanOrEqual(3);
      expect((await b.counter.incr('hang', WINDOW)).count).toBe(again.count + 1);

      // Dropped connections and refused reconnects, then the proxy listens again.
      await proxy.close();
      await until('down after close', () => a.health.state() === 'down');
      const whileDown = counterCommands(a.redis);
      expect((await a.counter.incr('drop', WINDOW)).count).toBe(1);
      expect(whileDown()).toBe(0);
      await proxy.open();
      await until('reconnected', () => a.health.state() === 'ok');
      expect(a.log.lines.map((l) => l.level)).toEqual(['warn', 'info', 'warn', 'info']);
    });
  });
});
