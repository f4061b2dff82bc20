import type { FastifyInstance } from 'fastify';
import type { VenueContext } from '../venue';
import { registerOkxAccount } from './account';
import { registerOkxOrders, watchAttached } from './orders';
import { registerOkxPrivateStream } from './stream';

export { okxEngineOptions } from './economics';

/**
 * The OKX v5 paper venue (SWAP, net mode) at OKX's own private paths (okx.md §5–§6), signed and
 * checked like OKX (private/okx.ts `verifyOkxSigned`), answering OKX's `{ code, msg, data }` with
 * per-item `sCode`/`sMsg`. Mounted inside `/sim/okx` (MAINNET; `x-simulated-trading: 1` = demo) and
 * `/sim/testnet/okx` (TESTNET).
 */
export function registerOkxVenue(app: FastifyInstance, venue: VenueContext): void {
  // OKX signs the POST body exactly as sent: keep the raw text, parse it after the check.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  registerOkxOrders(app, venue);
  registerOkxAccount(app, venue);
  registerOkxPrivateStream(app, venue);
  const stop = watchAttached(venue);
  app.addHook('onClose', async () => stop());
}
