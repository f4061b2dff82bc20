import type { FastifyPluginAsync } from 'fastify';
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
 * The simulator's signed (private) endpoints, with each exchange's own signature checks and error
 * shapes. Registered by the sim plugin under the same `/<exchange>` prefixes as its public routes.
 */
export const simPrivatePlugin: FastifyPluginAsync<SimPrivateOptions> = async (app, opts) => {
  await app.register(async (scope) => registerBinancePrivate(scope, opts), { prefix: '/binance' });
  await app.register(async (scope) => registerBybitPrivate(scope, opts), { prefix: '/bybit' });
  await app.register(async (scope) => registerBitmexPrivate(scope, opts), { prefix: '/bitmex' });
  await app.register(async (scope) => registerOkxPrivate(scope, opts), { prefix: '/okx' });
};

export { simPassphrase, simSecret, isSimKey, SIM_KEY_PATTERN } from './credentials';
