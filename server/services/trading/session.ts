import type { Network } from '../../../src/api/contracts/common';
import type { Fill, Order } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import type { ApiKeyRow } from '../../db/schema-api-keys';
import { TradeRefusedError, type TradingConnector, type TradingInstrument } from '../../exchanges/trading';
import { ExchangeRejectedError, ExchangeUnreachableError, type ExchangeCredentials } from '../../exchanges/transport';
import { badRequest, HttpError } from '../../lib/http-error';
import { RetryLaterError } from '../../lib/retry-later';
import { getApiKey } from '../api-keys';
import type { ExchangeInfoService } from '../exchange-info';
import type { KeyPasswordLimiter } from '../key-password-limit';
import { tradingInstrument, type TradingConnectors } from './connect';
import { tagOrder } from './ids';
import { recordSeenFills, xbtUsdOf } from './record';
import { openUnlocked, type UnlockCache, type UnlockSession } from './unlock-cache';

/**
 * One trading call's view of a stored key (DESIGN §3.2): the owner's key — the session's unlock of it
 * (unlock-cache.ts), or opened with the call's key password (then kept as the session's unlock) —, its
 * exchange's connector and instrument list. Errors of the exchange become the
 * API's: 422 naming the field (refused), 404 (unknown order), 429 (rate limit), 502/504 (down, slow).
 */
export interface TradeSession {
  key: ApiKeyRow;
  network: Network;
  connector: TradingConnector;
  /** By the product's symbol or the exchange's own (`BTCUSDT`, `BTC-USDT-SWAP`); 400 naming `symbol` when unknown. */
  instrument(symbol: string, field?: string): TradingInstrument;
  /** Runs an exchange call, translating its errors to the API's. */
  run<T>(fn: (c: TradingConnector) => Promise<T>): Promise<T>;
  /** Records fills the server has seen (once each: trading volume, referrals). */
  record(inst: TradingInstrument, fills: readonly Fill[]): Promise<number>;
  /** The opened credentials: only for sealing them for a server-managed bracket (never logged or answered). */
  credentials(): ExchangeCredentials;
}

export interface TradeSessionDeps {
  db: Db;
  connectors: TradingConnectors;
  exchangeInfo: ExchangeInfoService;
  limiter: KeyPasswordLimiter;
  unlocks: UnlockCache;
}

/** Who calls and with what: the sign-in (its unlocks) and the `X-Key-Password` header when sent. */
export interface TradeCaller extends UnlockSession {
  keyPassword: string | undefined;
}

/**
 * The key's row and credentials: both from memory when the caller's sign-in holds the key unlocked
 * (the row is the owner's: checked here), else the row read (404 for someone else's key) and opened.
 */
async function openKey(deps: TradeSessionDeps, ownerId: string, apiKeyId: string, caller: TradeCaller): Promise<{ key: ApiKeyRow; creds: Readonly<ExchangeCredentials> }> {
  const held = deps.unlocks.get(caller.sessionId, apiKeyId, caller.keyPassword);
  const row = held ? deps.unlocks.row(apiKeyId) : null;
  if (held && row && row.userId === ownerId) return { key: row, creds: held };
  const version = deps.unlocks.rowVersion;
  const key = await getApiKey(deps.db, ownerId, apiKeyId);
  const creds = held ?? (await openUnlocked(deps, caller, key, caller.keyPassword));
  deps.unlocks.keepRow(key, version);
  return { key, creds };
}

export async function openTradeSession(deps: TradeSessionDeps, ownerId: string, apiKeyId: string, caller: TradeCaller): Promise<TradeSession> {
  const { key, creds } = await openKey(deps, ownerId, apiKeyId, caller);
  const list = (await deps.exchangeInfo.instruments(key.exchange, key.network === 'TESTNET')).map(tradingInstrument);
  const bySymbol = new Map<string, TradingInstrument>();
  for (const i of list) {
    bySymbol.set(i.symbol.toUpperCase(), i);
    bySymbol.set(i.exchangeSymbol.toUpperCase(), i);
  }
  const connector = deps.connectors.connect(key, creds, list);
  return {
    key,
    network: key.network,
    connector,
    instrument(symbol, field = 'symbol') {
      const inst = bySymbol.get(symbol.toUpperCase());
      if (!inst) throw badRequest(`${symbol} is not a perpetual of ${key.exchange}`, { [field]: `Unknown symbol ${symbol}` });
      return inst;
    },
    run: (fn) => runExchange(fn, connector, creds),
    record: (inst, fills) => recordSeenFills(deps.db, key, creds.apiKey, inst, fills, xbtUsdOf(connector, bySymbol)),
    credentials: () => creds,
  };
}

export async function runExchange<T>(fn: (c: TradingConnector) => Promise<T>, connector: TradingConnector, creds: ExchangeCredentials): Promise<T> {
  try {
    return await fn(connector);
  } catch (err) {
    throw toHttpError(err, creds);
  }
}

/** Never echo a credential, even when an exchange quotes one in its message. */
function scrub(text: string, creds: ExchangeCredentials): string {
  let out = text;
  for (const secret of [creds.apiSecret, creds.passphrase, creds.apiKey]) {
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

export function toHttpError(err: unknown, creds: ExchangeCredentials): unknown {
  if (err instanceof TradeRefusedError) {
    const message = scrub(err.message, creds);
    // The exchange's own wait (or this server's hold for it) reaches the client as Retry-After.
    if (err.status === 429) return new RetryLaterError(429, message, err.retryAfterSeconds ?? 1);
    return new HttpError(err.status, message, err.field ? { [err.field]: scrub(err.exchangeMessage, creds) } : undefined);
  }
  if (err instanceof ExchangeRejectedError) return new HttpError(422, scrub(err.message, creds));
  if (err instanceof ExchangeUnreachableError) {
    const timeout = /no answer within/.test(err.message);
    return new HttpError(timeout ? 504 : 502, scrub(err.message, creds));
  }
  return err;
}

/** Orders as the API answers them: the bracket id and role read back from the client id. */
export const tagged = (orders: Order[]): Order[] => orders.map(tagOrder);

export const newestFirst = (fills: Fill[]): Fill[] => [...fills].sort((a, b) => b.time.localeCompare(a.time));
