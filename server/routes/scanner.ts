import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { ExchangeId } from '../../src/api/contracts/common';
import type { FeatureFlagKey } from '../../src/api/contracts/feature-flags';
import { LIVE_ENDPOINTS } from '../exchanges/endpoints';
import { authenticateAccessToken } from '../plugins/authenticate';
import type { ExchangeInfoService } from '../services/exchange-info';
import { LIVE_CANDLE_GAP_MS, ScannerService, type ScannerOptions } from '../services/scanner/scanner-service';
import { redisScannerStore } from '../services/scanner/shared-store';
import type { OpenStreamSocket } from '../services/scanner/streams';
import { scannerRoutes } from './v1/scanner';

export interface ScannerRouteDeps {
  /** REST: the live hosts, or the simulator in-process (the same `simSource` exchange-info uses). */
  source: Pick<ScannerOptions, 'fetch' | 'base'>;
  /** True in MARKET_DATA=sim: streams come from the simulator in-process, nothing is shared. */
  sim: boolean;
  exchangeInfo: ExchangeInfoService;
  isFlagEnabled: (key: FeatureFlagKey) => Promise<boolean>;
  /** Test seams: TTLs, clocks, a fake shared store or socket opener. */
  scanner?: Partial<ScannerOptions>;
  pushIntervalMs?: number;
  flagCheckMs?: number;
}

/** A live exchange's public stream (`ws` package; the scanner never sends credentials). */
export const openLive: OpenStreamSocket = (exchange: ExchangeId, path: string) =>
  new Promise((resolve, reject) => {
    const socket = new WebSocket(`${LIVE_ENDPOINTS[exchange].ws}${path}`, { handshakeTimeout: 10_000 });
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
  });

/**
 * Mounts `/v1/scanner` (routes/v1/scanner.ts) over one `ScannerService` per server: the exchanges'
 * REST and streams in live mode (shared through Redis when REDIS_URL is set), the simulator's
 * in-process in sim mode (`app.injectWS`, like exchange-info's `app.inject`: no network hop, never
 * live data in sim mode and never simulated data in live mode).
 */
export async function registerScannerRoutes(app: FastifyInstance, deps: ScannerRouteDeps): Promise<ScannerService> {
  const redis = app.redis;
  const scanner = new ScannerService({
    ...deps.source,
    instruments: (exchange) => deps.exchangeInfo.instruments(exchange, false),
    openSocket: deps.sim ? (exchange, path) => app.injectWS(`/sim/${exchange}${path}`) : openLive,
    // Sim rows are in-process and cheap (as exchange-info decides): only live data is shared.
    shared: redis && !deps.sim ? redisScannerStore(redis) : undefined,
    candleGapMs: deps.sim ? {} : LIVE_CANDLE_GAP_MS,
    log: app.log,
    ...deps.scanner,
  });
  app.addHook('onClose', async () => scanner.close());
  await app.register(scannerRoutes, {
    prefix: '/v1/scanner',
    scanner,
    isFlagEnabled: deps.isFlagEnabled,
    authenticate: (token) => authenticateAccessToken(app.db, app.authContext.secret, token),
    pushIntervalMs: deps.pushIntervalMs,
    flagCheckMs: deps.flagCheckMs,
  });
  return scanner;
}
