import { vi } from 'vitest';

/**
 * Waiting in tests without racing the clock (issue 21: tests assert order and outcome, never
 * milliseconds). Used by test files only.
 */

/**
 * Polls `ok` until it gives a value (truthy); the cap only turns a hang into a clear failure naming
 * `what` — it is no speed limit.
 */
export async function until<T>(what: string, ok: () => T | null | undefined | false | Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await ok();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Holds every timer of exactly `ms` (an injected latency) until `release()`: the test, not a race
 * between two real timers, decides when it is over. Other timers run as usual.
 */
export function holdTimersOf(ms: number) {
  const realSetTimeout = globalThis.setTimeout;
  const held: Array<() => void> = [];
  const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: (...a: unknown[]) => void, delay?: number, ...args: unknown[]) => {
    if (delay !== ms) return realSetTimeout(fn, delay, ...args);
    held.push(() => fn(...args));
    return realSetTimeout(() => undefined, 0);
  }) as typeof setTimeout);
  return {
    waiting: () => held.length,
    release: () => {
      spy.mockRestore();
      for (const run of held.splice(0)) run();
    },
  };
}
