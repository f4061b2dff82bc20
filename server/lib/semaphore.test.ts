import { describe, expect, it } from 'vitest';
import { RetryLaterError, humanDuration } from './retry-later';
import { SERVER_BUSY, Semaphore } from './semaphore';

const tick = () => new Promise((r) => setTimeout(r, 5));
/** Promise.withResolvers needs Node 22; the project runs on 20. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Semaphore', () => {
  it('runs at most `concurrency` jobs at once, the rest in arrival order', async () => {
    const s = new Semaphore(2, 10);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, deferred);
    const runs = gates.map((g, i) =>
      s.run(async () => {
        started.push(i);
        await g.promise;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(s.stats()).toMatchObject({ active: 2, queued: 3 });
    gates[1].resolve();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(s.stats()).toEqual({ active: 0, queued: 0, maxActive: 2, rejected: 0 });
  });

  it('refuses with 503 Server busy (Retry-After 1 s) once the queue is full, and frees slots after failures', async () => {
    const s = new Semaphore(1, 2);
    const gate = deferred();
    const held = [s.run(() => gate.promise), s.run(() => gate.promise), s.run(() => gate.promise)];
    const refused = await s.run(async () => 'never').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RetryLaterError);
    expect(refused).toMatchObject({ status: 503, message: SERVER_BUSY, retryAfterSeconds: 1 });
    expect(s.stats().rejected).toBe(1);
    gate.resolve();
    await Promise.all(held);
    await expect(s.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await s.run(async () => 'free again')).toBe('free again');
    expect(s.stats()).toMatchObject({ active: 0, queued: 0 });
  });
});

describe('humanDuration', () => {
  it('says seconds under a minute and whole minutes (rounded up) after', () => {
    expect(humanDuration(0)).toBe('1 second');
    expect(humanDuration(40_000)).toBe('40 seconds');
    expect(humanDuration(60_000)).toBe('1 minute');
    expect(humanDuration(13 * 60_000 + 1)).toBe('14 minutes');
  });
});
