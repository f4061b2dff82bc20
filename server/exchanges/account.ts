import type { ApiKeyPermissions } from '../../src/api/contracts/api-keys';
import type { ExchangeId } from '../../src/api/contracts/common';
import { binanceKeyPermissions } from './binance/account';
import { bitmexKeyPermissions } from './bitmex/account';
import { bybitKeyPermissions } from './bybit/account';
import { okxKeyPermissions } from './okx/account';
import type { ExchangeCredentials, ExchangeTransport } from './transport';

type PermissionsFetcher = (transport: ExchangeTransport, creds: ExchangeCredentials, now: number) => Promise<ApiKeyPermissions>;

const FETCHERS: Record<ExchangeId, PermissionsFetcher> = {
  binance: binanceKeyPermissions,
  bybit: bybitKeyPermissions,
  bitmex: bitmexKeyPermissions,
  okx: okxKeyPermissions,
};

/**
 * Asks the exchange what a key may do with one signed read-only call. Throws
 * ExchangeRejectedError (the exchange said no) or ExchangeUnreachableError.
 * `now` is the exchange's clock as the caller knows it (ms).
 */
export function fetchKeyPermissions(exchange: ExchangeId, transport: ExchangeTransport, creds: ExchangeCredentials, now: number): Promise<ApiKeyPermissions> {
  return FETCHERS[exchange](transport, creds, now);
}
