import type { FastifyInstance } from 'fastify';
import type { VenueContext } from '../venue';
import { registerBinanceAccount } from './account';
import { registerBinanceAlgo } from './algo';
import { registerBinanceOrders } from './orders';
import { registerBinanceUserStream } from './user-stream';

export { binanceEngineOptions } from './economics';

/**
 * The Binance USDⓈ-M paper venue at Binance's own private paths (binance.md §5–§6), signed and
 * checked like Binance (private/binance.ts), answering Binance's shapes and error codes.
 * Mounted by the sim plugin inside `/sim/binance` (MAINNET) and `/sim/testnet/binance` (TESTNET).
 */
export function registerBinanceVenue(app: FastifyInstance, venue: VenueContext): void {
  // Binance takes POST/PUT/DELETE parameters as a form body; the signature covers its exact bytes.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  registerBinanceOrders(app, venue);
  registerBinanceAlgo(app, venue);
  registerBinanceAccount(app, venue);
  registerBinanceUserStream(app, venue);
}
