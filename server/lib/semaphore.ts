import { RetryLaterError } from './retry-later';

export const SERVER_BUSY = 'Server busy: try again in a moment';

export interface SemaphoreStats {
  /** Running now. */
  active: number;
  /** Waiting for a slot now. */
  queued: number;
  /** Most ever running at once (since the last `resetStats`): the test seam for "at most K at once". */
  maxActive: number;
  /** Turned away with 503 because the queue was full. */
  rejected: number;
}

/**
 * At most `concurrency` jobs at once; up to `maxQueue` more wait in order; past that the job is
 * refused at once with 503 'Server busy' (Retry-After: 1) instead of joining a queue whose wait
 * would outlast any client's patience. Load shedding beats every request getting slow.
 */
export class Semaphore {
  private active = 0;
  private maxActive = 0;
  private rejected = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueue: number,
  ) {}

  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxQueue) {
        this.rejected++;
        throw new RetryLaterError(503, SERVER_BUSY, 1);
      }
      // The slot is handed over by `release`, so `active` never drops between two jobs.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active++;
    }
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }

  stats(): SemaphoreStats {
    return { active: this.active, queued: this.waiting.length, maxActive: this.maxActive, rejected: this.rejected };
  }

  resetStats(): void {
    this.maxActive = this.active;
    this.rejected = 0;
  }
}

/**
 * Every scrypt derivation of the process (sign-in/sign-up password hashes, API-key passwords) runs
 * through these slots. scrypt runs on libuv's thread pool (4 threads by default) and takes a full
 * core for 40–100 ms (16–32 MiB): 64 at once took both cores of a small host and pushed unrelated
 * requests from 2 ms to 70 ms. Two at a time leaves the event loop and half the pool free; 32 waiting
 * is ~1.5 s of work at 2 × 80 ms, longer than that the client is better told to come back.
 * Login and key passwords share one pool because they share the CPU they compete for.
 */
export const scryptSlots = new Semaphore(2, 32);
