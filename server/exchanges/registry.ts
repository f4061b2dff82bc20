import type { ExchangeId } from '../../src/api/contracts/common';
import { binance } from './binance';
import { bitmex } from './bitmex';
import { bybit } from './bybit';
import type { ExchangeDescriptor } from './descriptor';
import { okx } from './okx';

/**
 * Every exchange the server trades on, one line each (issue 23 §1): what the folder's `index.ts` describes
 * (README "Adding an exchange"). The hosts (endpoints.ts), the key check (account.ts), the connectors and
 * the private streams are read from here; registry.test.ts trades every capability each one claims.
 */
export const EXCHANGES: Readonly<Record<ExchangeId, ExchangeDescriptor>> = {
  binance,
  bybit,
  bitmex,
  okx,
};

/** One value per registered exchange, in the registry's order. */
export function perExchange<T>(value: (descriptor: ExchangeDescriptor) => T): Record<ExchangeId, T> {
  const out = {} as Record<ExchangeId, T>;
  for (const d of Object.values(EXCHANGES)) out[d.id] = value(d);
  return out;
}
