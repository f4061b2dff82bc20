import type { FastifyInstance } from 'fastify';
import { keepRawBodies, mountRoutes } from '../signed';
import type { VenueContext } from '../venue';
import { BITMEX_ACCOUNT_ROUTES } from './account';
import { BITMEX_ORDER_ROUTES } from './orders';
import { BITMEX } from './params';
import { registerBitmexPrivateStream } from './stream';

export { bitmexEngineOptions } from './economics';

/**
 * The BitMEX paper venue at BitMEX's own private paths (bitmex.md §5–§6), signed and checked like
 * BitMEX (private/bitmex.ts `verifyBitmexSigned`), answering BitMEX's shapes and `{ error }` bodies;
 * private topics on the public `/realtime` socket. Mounted inside `/sim/bitmex` (MAINNET) and
 * `/sim/testnet/bitmex` (TESTNET).
 */
export function registerBitmexVenue(app: FastifyInstance, venue: VenueContext): void {
  // BitMEX signs the body exactly as sent: keep the raw text (JSON or form), parse it after the check.
  keepRawBodies(app);
  mountRoutes(app, venue, BITMEX, [BITMEX_ORDER_ROUTES, BITMEX_ACCOUNT_ROUTES]);
  const stop = registerBitmexPrivateStream(venue);
  app.addHook('onClose', async () => stop());
}
