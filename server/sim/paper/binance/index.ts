import type { FastifyInstance } from 'fastify';
import { keepRawBodies, mountRoutes } from '../signed';
import type { VenueContext } from '../venue';
import { BINANCE_ACCOUNT_ROUTES } from './account';
import { BINANCE_ALGO_ROUTES } from './algo';
import { BINANCE_BATCH_ROUTES } from './batch';
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
  // Binance takes POST/PUT/DELETE parameters from the query string and a form body; the signature
  // covers their exact bytes. Any body (or none, whatever its Content-Type: the official connector
  // sends `application/json` with every parameter in the query) stays raw text until then.
  keepRawBodies(app);
  mountRoutes(app, venue, BINANCE, [BINANCE_ORDER_ROUTES, BINANCE_BATCH_ROUTES, BINANCE_ALGO_ROUTES, BINANCE_ACCOUNT_ROUTES]);
  registerBinanceUserStream(app, venue);
}
