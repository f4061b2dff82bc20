import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { KEY_PASSWORD_HEADER, WRONG_KEY_PASSWORD } from '../../../src/api/contracts/api-keys';
import type { ApiKeyRow } from '../../db/schema-api-keys';
import type { ExchangeCredentials } from '../../exchanges/transport';
import { HttpError } from '../../lib/http-error';
import { openApiKey } from '../api-keys';
import type { KeyPasswordLimiter } from '../key-password-limit';

export interface UnlockLimits {
  /** An entry unused this long is gone (the next call derives again, or is refused without a password). */
  idleMs: number;
  /** Hard bound of an unlock "for this page only" (and of one filled by a trading call's own password). */
  maxMs: number;
  /** Hard bound of an unlock "remembered on this device": the sign-in's own lifetime at most. */
  rememberedMaxMs: number;
}

/**
 * Opens what an unlocked key keeps warm (its account state: compose/trading.ts) and answers its release,
 * called when the key's last unlock here ends (lock, idle or hard expiry, sign-out, deletion, custody).
 */
export type UnlockHolder = (row: ApiKeyRow, creds: Readonly<ExchangeCredentials>) => () => void;

export interface UnlockCacheOptions extends UnlockLimits {
  /** Tests: the clock. */
  now?: () => number;
  /** Entries held at most; past it the least recently unlocked goes first. */
  maxEntries?: number;
}

/** The sign-in a request belongs to (the access token's refresh-token family) and its user. */
export interface UnlockSession {
  sessionId: string;
  userId: string;
}

interface Entry {
  userId: string;
  sessionId: string;
  apiKeyId: string;
  creds: Readonly<ExchangeCredentials>;
  /** HMAC of the password under `mac`: a fast check of a resent password, never the password itself. */
  mac: Buffer;
  verifier: Buffer;
  lastUsed: number;
  deadline: number;
}

const DEFAULT_MAX_ENTRIES = 10_000;
const slot = (sessionId: string, apiKeyId: string) => `${sessionId}\0${apiKeyId}`;
const verify = (mac: Buffer, password: string) => createHmac('sha256', mac).update(password).digest();

/** What a trading call without `X-Key-Password` hears when its session holds no unlock of the key. */
export const NOT_UNLOCKED = `Unlock the key or send its password in ${KEY_PASSWORD_HEADER}`;

/**
 * Unlocked keys in this process's memory (DESIGN §3.2 "Unlocking", issue 25): the credentials a key
 * password opened, per sign-in session and key, so a trader's calls after the first skip the ~100 ms
 * scrypt derivation. An entry ends after `idleMs` unused, at its hard bound (the unlock's "remember"
 * choice), and at once on lock, sign-out, password change, key deletion and custody withdrawal
 * (compose/trading.ts subscribes to those events on every instance). Beside them, the unlocked keys'
 * rows (`row`): dropped with the key and re-read after `api-key.changed` (custody given). Another session of the same user,
 * or an admin's, never reads it: the request must also pass `requireUser`, which checks its session is live.
 */
export class UnlockCache {
  private readonly entries = new Map<string, Entry>();
  /** Unlocked keys' rows (exchange, network, owner, custody…), so a trading call skips reading `api_keys`. */
  private readonly rows = new Map<string, ApiKeyRow>();
  /** Bumped by every drop of a row: a read that began before it is not kept (it may predate the change). */
  private rowEpoch = 0;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private holder: UnlockHolder | null = null;
  /** Keys held open for their unlocks: the release of each. */
  private readonly held = new Map<string, () => void>();
  private sweeper: NodeJS.Timeout | null = null;

  constructor(readonly limits: UnlockCacheOptions) {
    this.now = limits.now ?? Date.now;
    this.maxEntries = limits.maxEntries ?? DEFAULT_MAX_ENTRIES;
  }

  get size(): number {
    return this.entries.size;
  }

  /** What an unlocked key holds open (the account state), from its first unlock here to its last one's end. */
  holdWith(holder: UnlockHolder | null): void {
    this.holder = holder;
  }

  /** Keys held open for their unlocks (tests). */
  heldKeys(): string[] {
    return [...this.held.keys()];
  }

  /** Keeps `creds` for the session and key, replacing an earlier unlock of them; with `row`, the key is held open. */
  put(who: UnlockSession, apiKeyId: string, password: string, creds: ExchangeCredentials, remember: boolean, row?: ApiKeyRow): void {
    const now = this.now();
    this.sweep(now);
    const key = slot(who.sessionId, apiKeyId);
    this.entries.delete(key);
    const mac = randomBytes(32);
    const bound = remember ? this.limits.rememberedMaxMs : this.limits.maxMs;
    this.entries.set(key, {
      userId: who.userId,
      sessionId: who.sessionId,
      apiKeyId,
      creds: Object.freeze({ ...creds }),
      mac,
      verifier: verify(mac, password),
      lastUsed: now,
      deadline: now + bound,
    });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    if (row && this.holder && !this.held.has(apiKeyId)) {
      try {
        this.held.set(apiKeyId, this.holder(row, creds));
      } catch {
        // Holding is a warm-up: a failure costs the first call a cold read, nothing else.
      }
      this.startSweeper();
    }
    this.releaseEnded();
  }

  /** Expiries end unlocks with no call to notice them: swept while keys are held. */
  private startSweeper(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweep(this.now()), Math.max(1000, Math.min(this.limits.idleMs, 60_000) / 4));
    this.sweeper.unref?.();
  }

  /** Keys held whose last unlock ended are released. */
  private releaseEnded(): void {
    if (!this.held.size) return;
    const unlocked = new Set<string>();
    for (const e of this.entries.values()) unlocked.add(e.apiKeyId);
    for (const [id, release] of this.held) {
      if (unlocked.has(id)) continue;
      this.held.delete(id);
      release();
    }
    if (!this.held.size && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = null;
    }
  }

  /**
   * The session's live unlock of the key, its idle clock restarted; null when there is none or when
   * `password` is given and is not the one that unlocked it (the caller then derives, and a wrong
   * password counts as a guess like any other).
   */
  get(sessionId: string, apiKeyId: string, password?: string): Readonly<ExchangeCredentials> | null {
    const key = slot(sessionId, apiKeyId);
    const e = this.entries.get(key);
    if (!e) return null;
    const now = this.now();
    if (this.expired(e, now)) {
      this.entries.delete(key);
      this.releaseEnded();
      return null;
    }
    if (password !== undefined && !timingSafeEqual(verify(e.mac, password), e.verifier)) return null;
    e.lastUsed = now;
    return e.creds;
  }

  /**
   * The key's row, held while some session has it unlocked; null when not held. The caller still needs
   * the session's own unlock (`get`) and checks the owner: the row alone opens nothing.
   */
  row(apiKeyId: string): ApiKeyRow | null {
    return this.rows.get(apiKeyId) ?? null;
  }

  /** Where row reads stand: pass it to `keepRow` after reading the row. */
  get rowVersion(): number {
    return this.rowEpoch;
  }

  /** Keeps a row read since `version`, unless it was dropped meanwhile or no session holds the key unlocked. */
  keepRow(row: ApiKeyRow, version: number): void {
    if (version !== this.rowEpoch) return;
    for (const e of this.entries.values()) {
      if (e.apiKeyId === row.id) {
        this.rows.set(row.id, row);
        return;
      }
    }
  }

  /** `api-key.changed`: the next trading call reads the key's row again (its unlocks stay). */
  forgetRow(apiKeyId: string): void {
    this.rowEpoch++;
    this.rows.delete(apiKeyId);
  }

  /** `DELETE /v1/api-keys/{id}/unlock`: this session's unlock of the key. */
  lock(sessionId: string, apiKeyId: string): void {
    this.entries.delete(slot(sessionId, apiKeyId));
    this.releaseEnded();
  }

  /** Key deleted or its custody withdrawn: every session's unlock of it. */
  dropKey(apiKeyId: string): void {
    this.dropWhere((e) => e.apiKeyId === apiKeyId);
    this.forgetRow(apiKeyId);
  }

  /** A sign-out (or a reused refresh token): every key that sign-in unlocked. */
  dropSession(sessionId: string): void {
    this.dropWhere((e) => e.sessionId === sessionId);
  }

  /**
   * A password change: every unlock of the user, the changing session's too (its panels still send
   * the key password, so their next call unlocks again; a session that was taken over does not).
   */
  dropUser(userId: string): void {
    this.dropWhere((e) => e.userId === userId);
  }

  clear(): void {
    this.entries.clear();
    this.releaseEnded();
    this.rowEpoch++;
    this.rows.clear();
  }

  private expired(e: Entry, now: number): boolean {
    return now - e.lastUsed >= this.limits.idleMs || now >= e.deadline;
  }

  private sweep(now: number): void {
    this.dropWhere((e) => this.expired(e, now));
    const unlocked = new Set<string>();
    for (const e of this.entries.values()) unlocked.add(e.apiKeyId);
    for (const id of this.rows.keys()) if (!unlocked.has(id)) this.rows.delete(id);
  }

  private dropWhere(gone: (e: Entry) => boolean): void {
    for (const [key, e] of this.entries) if (gone(e)) this.entries.delete(key);
    this.releaseEnded();
  }
}

export interface UnlockDeps {
  limiter: KeyPasswordLimiter;
  unlocks: UnlockCache;
}

/**
 * The credentials of `row` for a call of `who`: the session's unlock when it has one (and `password`,
 * when sent, is the one that unlocked it), else derived from `password` through the guessing limits
 * and kept for the session (`remember`: the unlock's bound). No password and no unlock: 403
 * 'Wrong key password' naming `keyPassword`, not counted as a guess (nothing was tried).
 */
export async function openUnlocked(deps: UnlockDeps, who: UnlockSession, row: ApiKeyRow, password: string | undefined, remember = false): Promise<Readonly<ExchangeCredentials>> {
  const held = deps.unlocks.get(who.sessionId, row.id, password);
  if (held) return held;
  if (!password) throw new HttpError(403, WRONG_KEY_PASSWORD, { keyPassword: NOT_UNLOCKED });
  const creds = await openApiKey(deps.limiter, row, password);
  deps.unlocks.put(who, row.id, password, creds, remember, row);
  return creds;
}
