import type { FastifyInstance } from 'fastify';
import { mountRoutes } from '../signed';
import type { VenueContext } from '../venue';
import { BINANCE_ACCOUNT_ROUTES } from './account';
import { BINANCE_ALGO_ROUTES } from './algo';
import { BINANCE_ORDER_ROUTES } from './orders';
import { BINANCE } from './params';
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
  mountRoutes(app, venue, BINANCE, [BINANCE_ORDER_ROUTES, BINANCE_ALGO_ROUTES, BINANCE_ACCOUNT_ROUTES]);
  registerBinanceUserStream(app, venue);
}
