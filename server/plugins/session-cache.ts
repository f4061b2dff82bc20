import type { UserRow } from '../db/schema';

export interface SessionCacheOptions {
  /** A sign-in checked this long ago is checked against the database again, event or not. */
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Held {
  user: UserRow;
  at: number;
}

/** Long enough for a burst of trading calls, short enough to bound a change made outside the app (`AUTH_CHECK_HOLD_MS`). */
export const SESSION_CACHE_TTL_MS = 10_000;
const DEFAULT_MAX_ENTRIES = 10_000;

const slot = (userId: string, familyId: string) => `${userId}\0${familyId}`;

/**
 * The access-token check's database half, held briefly (issue 25 §1: no `users` read on every trading
 * call): per user and sign-in, the user's row as of a check that found the sign-in live. Dropped at once,
 * on every instance, by what ends or changes a sign-in — `session.ended` (sign-out, a reused refresh
 * token), `user.sessions-ended` (password change or reset), `user.changed` (role or email changed by an
 * admin) — wired in compose/http.ts, everything on a resync; and after `ttlMs` whatever happens. A token
 * whose session version differs from the held row's is checked against the database. A check that began
 * before a drop is answered but not kept, so it cannot put back what the drop removed.
 */
export class SessionCache {
  private readonly held = new Map<string, Held>();
  private epoch = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(opts: SessionCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? SESSION_CACHE_TTL_MS;
    this.maxEntries = opts.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.held.size;
  }

  /** The user of a live sign-in `familyId` with session version `sv`, or null (then check the database). */
  get(userId: string, familyId: string, sv: number): UserRow | null {
    if (this.ttlMs <= 0) return null;
    const key = slot(userId, familyId);
    const hit = this.held.get(key);
    if (!hit) return null;
    if (this.now() - hit.at >= this.ttlMs) {
      this.held.delete(key);
      return null;
    }
    return hit.user.sessionVersion === sv ? hit.user : null;
  }

  /** Where checks stand: pass it to `keep` with the result of a check that began now. */
  get version(): number {
    return this.epoch;
  }

  /** Holds a sign-in found live by a check that began at `version`, unless something was dropped since. */
  keep(familyId: string, user: UserRow, version: number): void {
    if (version !== this.epoch || this.ttlMs <= 0) return;
    const key = slot(user.id, familyId);
    this.held.delete(key);
    this.held.set(key, { user, at: this.now() });
    while (this.held.size > this.maxEntries) this.held.delete(this.held.keys().next().value as string);
  }

  /** One sign-in ended. */
  dropSession(familyId: string): void {
    this.dropWhere((key) => key.endsWith(`\0${familyId}`));
  }

  /** Every sign-in of the user: their sessions ended, or their role or email changed. */
  dropUser(userId: string): void {
    this.dropWhere((key) => key.startsWith(`${userId}\0`));
  }

  clear(): void {
    this.epoch++;
    this.held.clear();
  }

  private dropWhere(gone: (key: string) => boolean): void {
    this.epoch++;
    for (const key of this.held.keys()) if (gone(key)) this.held.delete(key);
  }
}
