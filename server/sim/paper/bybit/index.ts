import type { FastifyInstance } from 'fastify';
import { keepRawBodies, mountRoutes } from '../signed';
import type { VenueContext } from '../venue';
import { BYBIT_ACCOUNT_ROUTES } from './account';
import { BYBIT_ORDER_ROUTES } from './orders';
import { BYBIT } from './params';
import { registerBybitPrivateStream } from './stream';
import { BYBIT_TPSL_ROUTES, registerBybitTpslCleanup } from './tpsl';

export { bybitEngineOptions } from './economics';

/**
 * The Bybit v5 paper venue (unified trading account; categories linear and inverse) at Bybit's own
 * private paths (bybit.md §5–§6), signed and checked like Bybit (private/bybit.ts
 * `verifyBybitSigned`), answering Bybit's envelopes and retCodes with HTTP 200.
 * Mounted by the sim plugin inside `/sim/bybit` (MAINNET) and `/sim/testnet/bybit` (TESTNET).
 */
export function registerBybitVenue(app: FastifyInstance, venue: VenueContext): void {
  // Bybit signs the POST body exactly as sent (trap 13): keep the raw JSON text, parse it after the check.
  keepRawBodies(app);
  mountRoutes(app, venue, BYBIT, [BYBIT_ORDER_ROUTES, BYBIT_ACCOUNT_ROUTES, BYBIT_TPSL_ROUTES]);
  registerBybitPrivateStream(app, venue);
  const stopCleanup = registerBybitTpslCleanup(venue);
  app.addHook('onClose', async () => stopCleanup());
}
