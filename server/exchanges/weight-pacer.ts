import type { ExchangeId } from '../../src/api/contracts/common';
import { TradeRefusedError } from './trading';

/**
 * Who a read is for: a trader waiting on the answer (the whole read budget; refused rather than kept waiting past
 * `maxWaitMs`), a job acting on the account (a bracket's guard: the whole budget, and it waits its turn), or no
 * one (the account state's refreshes: two thirds of the budget, waiting).
 */
export type ReadFor = 'trader' | 'job' | 'background';

/**
 * A request-weight budget shared by every key this server holds on one exchange and network (Binance counts
 * weight per IP address: binance.md §7). Reads wait here for room in the exchange's window instead of running
 * into the hold (`RateGate`, a refusal) or the exchange's ban; orders and cancels never wait, they are only
 * counted. The count follows the exchange's own (`observe`, its used-weight header), which also sees other
 * processes on the address.
 */
export class WeightPacer {
  private windowStart = 0;
  private used = 0;

  constructor(
    private readonly exchange: ExchangeId,
    /** What reads may use of a window, leaving the rest of the exchange's limit to orders and cancels. */
    private readonly readBudget: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    /** A read that would wait longer is refused (429 with the wait) rather than hang its caller. */
    private readonly maxWaitMs = 10_000,
    /** What background reads (no one waiting on them) may use of a window: the rest of `readBudget` is kept for a trader's. */
    private readonly backgroundBudget = Math.floor(readBudget * (2 / 3)),
  ) {}

  /** The weight counted in the current window. */
  get usedNow(): number {
    this.roll();
    return this.used;
  }

  /**
   * A read of `weight`: waits until the window has room for it (a read larger than the budget goes alone in a
   * fresh window); when that is more than `maxWaitMs` away, a trader's read is refused at once (429, the wait in
   * seconds); a job's or a background read waits.
   */
  async read(weight: number, readFor: ReadFor = 'trader'): Promise<void> {
    const budget = readFor === 'background' ? this.backgroundBudget : this.readBudget;
    for (;;) {
      this.roll();
      if (weight <= 0 || this.used + weight <= budget || (this.used === 0 && weight > budget)) {
        this.used += weight;
        return;
      }
      const wait = this.windowStart + this.windowMs - this.now();
      // A background read waits for its window however far (no one waits on it; refused, a snapshot would throw
      // away the parts already read and spend the window again); a trader's is refused rather than hang.
      if (wait > this.maxWaitMs && readFor === 'trader') {
        const seconds = Math.max(1, Math.ceil(wait / 1000));
        throw new TradeRefusedError(this.exchange, '', `request weight of this server's address nearly used up: reads wait ${seconds} s so the exchange does not ban it`, undefined, 429, seconds);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) + Math.floor(Math.random() * 50)));
    }
  }

  /**
   * Until the window has room for `weight` (nothing is counted: the reads that follow are): a caller that must
   * not sit half-done while its reads wait — the account state's slow reconcile, which holds the stream's events
   * while it reads — waits here first, whole.
   */
  async room(weight: number, readFor: ReadFor = 'trader'): Promise<void> {
    const budget = readFor === 'background' ? this.backgroundBudget : this.readBudget;
    for (;;) {
      this.roll();
      if (this.used + weight <= budget || this.used === 0) return;
      const wait = this.windowStart + this.windowMs - this.now();
      await new Promise((resolve) => setTimeout(resolve, Math.max(1, wait) + Math.floor(Math.random() * 50)));
    }
  }

  /** A call that does not wait (an order, a cancel): counted only. */
  write(weight: number): void {
    this.roll();
    this.used += weight;
  }

  /** The exchange's count from an answer's header: the larger of the two stands (it includes this server's calls). */
  observe(used: number): void {
    this.roll();
    if (Number.isFinite(used) && used > this.used) this.used = used;
  }

  private roll(): void {
    const start = Math.floor(this.now() / this.windowMs) * this.windowMs;
    if (start !== this.windowStart) {
      this.windowStart = start;
      this.used = 0;
    }
  }
}
