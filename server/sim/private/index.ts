import type { FastifyInstance } from 'fastify';
import type { SimExchange } from '../market/catalogue';
import { registerBinancePrivate } from './binance';
import { registerBitmexPrivate } from './bitmex';
import { registerBybitPrivate } from './bybit';
import { registerOkxPrivate } from './okx';

export interface SimPrivateOptions {
  /** The market seed: sim secrets are derived from it (credentials.ts). */
  seed: string;
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

export { simPassphrase, simSecret, isSimKey, SIM_KEY_PATTERN } from './credentials';
