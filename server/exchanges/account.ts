import type { ApiKeyPermissions } from '../../src/api/contracts/api-keys';
import type { ExchangeId } from '../../src/api/contracts/common';
import { EXCHANGES } from './registry';
import type { ExchangeCredentials, ExchangeTransport } from './transport';

/**
 * Asks the exchange what a key may do with one signed read-only call (the registry's `keyPermissions`).
 * Throws ExchangeRejectedError (the exchange said no) or ExchangeUnreachableError.
 * `now` is the exchange's clock as the caller knows it (ms).
 */
export function fetchKeyPermissions(exchange: ExchangeId, transport: ExchangeTransport, creds: ExchangeCredentials, now: number): Promise<ApiKeyPermissions> {
  return EXCHANGES[exchange].keyPermissions(transport, creds, now);
}
