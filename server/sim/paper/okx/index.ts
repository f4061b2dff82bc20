import type { FastifyInstance } from 'fastify';
import { keepRawBodies, mountRoutes } from '../signed';
import type { VenueContext } from '../venue';
import { OKX_ACCOUNT_ROUTES } from './account';
import { OKX_ALGO_ROUTES } from './algo';
import { watchAttached } from './attached';
import { OKX_ORDER_ROUTES } from './orders';
import { OKX } from './params';
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
  keepRawBodies(app);
  mountRoutes(app, venue, OKX, [OKX_ORDER_ROUTES, OKX_ALGO_ROUTES, OKX_ACCOUNT_ROUTES]);
  registerOkxPrivateStream(app, venue);
  const stop = watchAttached(venue);
  app.addHook('onClose', async () => stop());
}
