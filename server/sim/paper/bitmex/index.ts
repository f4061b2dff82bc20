import type { FastifyInstance } from 'fastify';
import type { VenueContext } from '../venue';
import { registerBitmexAccount } from './account';
import { registerBitmexOrders } from './orders';
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
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  registerBitmexOrders(app, venue);
  registerBitmexAccount(app, venue);
  const stop = registerBitmexPrivateStream(venue);
  app.addHook('onClose', async () => stop());
}
