import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { inArray } from 'drizzle-orm';
import { apiKeys, type ApiKeyRow } from '../../db/schema-api-keys';
import type { ExchangeCredentials } from '../../exchanges/transport';
import type { ExchangeInfoService } from '../exchange-info';
import { AccountStream, type StreamSubscriber } from './account-stream';
import { tradingInstrument, type TradingConnectors } from './connect';
import { recordSeenFills, xbtUsdOf } from './record';

/**
 * The server's account streams: one per key, however many tabs subscribe (DESIGN §3.3). The last
 * subscriber leaving closes the exchange connection (and drops the credentials it held); deleting
 * the key closes it for everyone.
 */
export class TradeStreamHub {
  private readonly streams = new Map<string, AccountStream>();
  private readonly opening = new Map<string, Promise<AccountStream>>();

  constructor(
    private readonly deps: { db: Db; connectors: TradingConnectors; exchangeInfo: ExchangeInfoService; log: FastifyBaseLogger; backoffMs?: (n: number) => number },
  ) {}

  /** Adds `sub` to the key's stream, opening it (with `creds`) when it is the first. */
  async subscribe(key: ApiKeyRow, creds: ExchangeCredentials, sub: StreamSubscriber): Promise<AccountStream> {
    let stream = this.streams.get(key.id);
    if (!stream) {
      let p = this.opening.get(key.id);
      if (!p) {
        p = this.open(key, creds).finally(() => this.opening.delete(key.id));
        this.opening.set(key.id, p);
      }
      stream = await p;
    }
    stream.add(sub);
    return stream;
  }

  private async open(key: ApiKeyRow, creds: ExchangeCredentials): Promise<AccountStream> {
    const { connectors } = this.deps;
    const instruments = (await this.deps.exchangeInfo.instruments(key.exchange, key.network === 'TESTNET')).map(tradingInstrument);
    const ctx = connectors.context(key, creds, instruments);
    const connector = connectors.connector(key.exchange, ctx);
    const xbtUsd = xbtUsdOf(connector, new Map(instruments.map((i) => [i.symbol.toUpperCase(), i])));
    const stream = new AccountStream({
      key,
      ctx,
      connector,
      driver: connectors.driver(key.exchange),
      open: connectors.opener(key.exchange, key.network),
      record: (inst, fills) => recordSeenFills(this.deps.db, key, creds.apiKey, inst, fills, xbtUsd),
      log: this.deps.log,
      backoffMs: this.deps.backoffMs,
    });
    this.streams.set(key.id, stream);
    stream.start();
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
    if (!stream) return;
    stream.close(reason);
    this.streams.delete(apiKeyId);
  }

  /**
   * After the event listener was away (it may have missed a deletion): closes the streams whose key
   * no longer exists.
   */
  async closeDeletedKeys(): Promise<void> {
    const ids = [...this.streams.keys()];
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
  }
}
