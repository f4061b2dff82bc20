import { eq } from 'drizzle-orm';
import type { TradeSettings } from '../../../src/api/contracts/funded-users';
import type { Db } from '../../db/client';
import { fundedUsers } from '../../db/schema-api-keys';
import { getTradeSettings } from '../trade-settings';

/** Whether a key owner is a funded user, and their trade limits when they are. */
export interface FundedStatus {
  funded: boolean;
  settings: TradeSettings | null;
}

/** Read from the database: one query for a user who is not funded, two for one who is. */
export async function loadFundedStatus(db: Db, userId: string): Promise<FundedStatus> {
  const [row] = await db.select({ userId: fundedUsers.userId }).from(fundedUsers).where(eq(fundedUsers.userId, userId)).limit(1);
  if (!row) return { funded: false, settings: null };
  return { funded: true, settings: await getTradeSettings(db, userId) };
}

export interface FundedCacheOptions {
  /** A held status is read again after this long even without an event (a change made outside the app). */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Held {
  status: FundedStatus;
  at: number;
}

const DEFAULT_TTL_MS = 60_000;
const DEFAULT_MAX_ENTRIES = 10_000;

/**
 * Funded-user status and limits in this process's memory (issue 25 §1: no database read on an order's
 * path). Every change — a user added to or removed from the funded users, their trade settings changed —
 * publishes `funded-user.changed`, which drops the user here on every instance (compose/trading.ts); a
 * resync drops everything. A read that began before a drop is answered but not kept, so an in-flight
 * read cannot put a status older than the change back.
 */
export class FundedCache {
  private readonly held = new Map<string, Held>();
  private epoch = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly db: Db,
    opts: FundedCacheOptions = {},
  ) {
    this.ttlMs = opts.ttlMs ?? DEFAULT_TTL_MS;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.held.size;
  }

  async status(userId: string): Promise<FundedStatus> {
    const hit = this.held.get(userId);
    if (hit && this.now() - hit.at < this.ttlMs) return hit.status;
    const epoch = this.epoch;
    const status = await loadFundedStatus(this.db, userId);
    if (epoch === this.epoch) {
      this.held.delete(userId);
      this.held.set(userId, { status, at: this.now() });
      while (this.held.size > this.maxEntries) this.held.delete(this.held.keys().next().value as string);
    }
    return status;
  }

  /** `funded-user.changed`: the user's next order reads their status and limits again. */
  drop(userId: string): void {
    this.epoch++;
    this.held.delete(userId);
  }

  clear(): void {
    this.epoch++;
    this.held.clear();
  }
}
