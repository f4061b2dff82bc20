import type { Db } from '../../db/client';
import { inArray } from 'drizzle-orm';
import { apiKeys, type ApiKeyRow } from '../../db/schema-api-keys';
import type { ExchangeCredentials } from '../../exchanges/transport';
import { AccountStream, type StreamSubscriber } from './account-stream';
import type { AccountStates } from './account-states';

/**
 * The server's account streams to the browser: one per key, however many tabs subscribe (DESIGN §3.3),
 * each a lease on the key's account state (`account-states.ts`: one exchange connection per key, shared
 * with the bracket guards and the pre-send checks). The last subscriber leaving releases it (the exchange
 * connection closes, with its credentials, when nothing else holds it); deleting the key closes it for everyone.
 */
export class TradeStreamHub {
  private readonly streams = new Map<string, AccountStream>();
  private readonly opening = new Map<string, Promise<AccountStream>>();

  constructor(private readonly deps: { db: Db; accounts: AccountStates }) {}

  /** Adds `sub` to the key's stream, opening it (with `creds`) when it is the first. */
  async subscribe(key: ApiKeyRow, creds: ExchangeCredentials, sub: StreamSubscriber): Promise<AccountStream> {
    let stream = this.streams.get(key.id);
    if (!stream) {
      let p = this.opening.get(key.id);
      if (!p) {
        p = this.deps.accounts
          .acquire(key, creds)
          .then((lease) => {
            const s = new AccountStream(lease);
            this.streams.set(key.id, s);
            return s;
          })
          .finally(() => this.opening.delete(key.id));
        this.opening.set(key.id, p);
      }
      stream = await p;
    }
    stream.add(sub);
    return stream;
  }

  unsubscribe(apiKeyId: string, sub: StreamSubscriber): void {
    const stream = this.streams.get(apiKeyId);
    if (!stream) return;
    stream.remove(sub);
    if (stream.subscribers.size === 0) {
      stream.close();
      this.streams.delete(apiKeyId);
    }
  }

  /** The key is gone (deleted): every subscriber is told and the exchange connection closes. */
  closeKey(apiKeyId: string, reason = 'The API key was deleted'): void {
    const stream = this.streams.get(apiKeyId);
    if (stream) {
      stream.close(reason);
      this.streams.delete(apiKeyId);
    }
    this.deps.accounts.closeKey(apiKeyId);
  }

  /**
   * After the event listener was away (it may have missed a deletion): closes the streams and account
   * states whose key no longer exists.
   */
  async closeDeletedKeys(): Promise<void> {
    const ids = [...new Set([...this.streams.keys(), ...this.deps.accounts.keys()])];
    if (!ids.length) return;
    const alive = new Set((await this.deps.db.select({ id: apiKeys.id }).from(apiKeys).where(inArray(apiKeys.id, ids))).map((r) => r.id));
    for (const id of ids) if (!alive.has(id)) this.closeKey(id);
  }

  get(apiKeyId: string): AccountStream | undefined {
    return this.streams.get(apiKeyId);
  }

  close(): void {
    for (const s of this.streams.values()) s.close();
    this.streams.clear();
    this.deps.accounts.close();
  }
}
