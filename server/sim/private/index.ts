import type { FastifyInstance } from 'fastify';
import type { SimExchange } from '../market/catalogue';
import type { SimKeys } from './keyring';
import { registerBinancePrivate } from './binance';
import { registerBitmexPrivate } from './bitmex';
import { registerBybitPrivate } from './bybit';
import { registerOkxPrivate } from './okx';

export interface SimPrivateOptions {
  /** The market seed (account and user ids derive from it; secrets do not). */
  seed: string;
  /** The minted keys' secrets (keyring.ts): an unknown key gets the exchange's invalid-key error. */
  keys: SimKeys;
  /** The exchange clock (ms) the timestamp / expiry checks compare with. */
  now: () => number;
}

/**
 * The simulator's signed (private) endpoints per exchange, with each exchange's own signature checks
 * and error shapes. The sim plugin registers them inside each exchange's private scope (with the
 * paper venue and the fault hooks), under the same `/<exchange>` prefixes as its public routes.
 */
export const PRIVATE_REGISTRARS: Record<SimExchange, (app: FastifyInstance, opts: SimPrivateOptions) => void> = {
  binance: registerBinancePrivate,
  bybit: registerBybitPrivate,
  bitmex: registerBitmexPrivate,
  okx: registerOkxPrivate,
};

export { isSimKey, SIM_KEY_PATTERN } from './credentials';
export { SimKeyring, withSimSecret, type MintedSimKey, type SimKeys, type SimSecret } from './keyring';
