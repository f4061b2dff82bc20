import fp from 'fastify-plugin';
import { authenticateAccessToken } from '../plugins/authenticate';
import { scannerRoutes } from '../routes/v1/scanner';
import { isFeatureEnabled } from '../services/feature-flags';
import { LIVE_CANDLE_GAP_MS, ScannerService, type ScannerOptions } from '../services/scanner/scanner-service';
import { redisScannerStore } from '../services/scanner/shared-store';

export interface ScannerPluginOptions {
  /** Test seams: TTLs, clocks, a fake shared store or socket opener. */
  scanner?: Partial<ScannerOptions>;
  pushIntervalMs?: number;
  flagCheckMs?: number;
}

/**
 * `scanner`: `/v1/scanner`, `/v1/scanner/{exchange}` and the `/v1/scanner/stream` WebSocket (signed in,
 * FF_ENABLE_SCANNER or 403) over one `ScannerService` per server: the exchanges' REST and streams in
 * live mode (shared through Redis when REDIS_URL is set), the simulator's in-process in sim mode.
 */
export const scannerPlugin = fp<ScannerPluginOptions>(
  async (app, opts) => {
    const { redis, marketSource } = app;
    const scanner = new ScannerService({
      ...marketSource.rest,
      instruments: (exchange) => app.exchangeInfo.instruments(exchange, false),
      openSocket: marketSource.open,
      // Sim rows are in-process and cheap (as exchange-info decides): only live data is shared.
      shared: redis && !marketSource.sim ? redisScannerStore(redis) : undefined,
      candleGapMs: marketSource.sim ? {} : LIVE_CANDLE_GAP_MS,
      log: app.log,
      ...opts.scanner,
    });
    app.addHook('onClose', async () => scanner.close());
    await app.register(scannerRoutes, {
      prefix: '/v1/scanner',
      scanner,
      isFlagEnabled: (key) => isFeatureEnabled(app.db, key),
      authenticate: (token) => authenticateAccessToken(app.db, app.authContext.secret, token),
      pushIntervalMs: opts.pushIntervalMs,
      flagCheckMs: opts.flagCheckMs,
    });
  },
  { name: 'scanner', dependencies: ['core', 'http', 'simulator', 'exchange-info'] },
);
