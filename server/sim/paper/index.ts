import { openDatabase, type DatabaseHandle, type Db } from '../../db/client';
import type { SimExchange } from '../market/catalogue';
import type { SimMarket } from '../market/market';
import { binanceEngineOptions, registerBinanceVenue } from './binance';
import { bitmexEngineOptions, registerBitmexVenue } from './bitmex';
import { bybitEngineOptions, registerBybitVenue } from './bybit';
import { okxEngineOptions, registerOkxVenue } from './okx';
import type { PaperEngineOptions, Tape } from './engine';
import { SimFaults, type FaultAnswers } from './faults';
import { PaperRuntime } from './runtime';
import { simTape } from './tape';
import type { VenueRegistrar } from './venue';

/**
 * The paper exchange's venues: how each exchange's engine is configured and where its routes are.
 * A new venue adds one entry here (see README.md beside this file).
 */
const VENUES: Partial<Record<SimExchange, { engine: (tape: Tape) => PaperEngineOptions; register: VenueRegistrar }>> = {
  binance: { engine: binanceEngineOptions, register: registerBinanceVenue },
  bybit: { engine: bybitEngineOptions, register: registerBybitVenue },
  okx: { engine: okxEngineOptions, register: registerOkxVenue },
  bitmex: { engine: bitmexEngineOptions, register: registerBitmexVenue },
};

/**
 * Each exchange's injected failures in its own shapes (paper-economics.md error tables), so the
 * fault hooks work for every exchange's private endpoints, venues or not.
 */
export const FAULT_ANSWERS: Record<SimExchange, FaultAnswers> = {
  binance: {
    unavailable: () => ({ status: 503, body: { code: -1001, msg: 'Service Unavailable.' } }),
    refused: () => ({ status: 400, body: { code: -4016, msg: "Limit price can't be higher than the maximum price." } }),
    rateLimited: () => ({
      status: 429,
      body: { code: -1003, msg: 'Too many requests; current limit is 2400 requests per minute. Please use the websocket for live updates to avoid polling the API.' },
      headers: { 'retry-after': '1' },
    }),
  },
  bybit: {
    refused: () => ({ status: 200, body: { retCode: 110003, retMsg: 'Order price is out of permissible range', result: {}, retExtInfo: {}, time: Date.now() } }),
    unavailable: () => ({ status: 503, body: { retCode: 10016, retMsg: 'Server error.', result: {}, retExtInfo: {}, time: Date.now() } }),
    rateLimited: () => ({ status: 200, body: { retCode: 10006, retMsg: 'Too many visits. Exceeded the API Rate Limit.', result: {}, retExtInfo: {}, time: Date.now() } }),
  },
  bitmex: {
    refused: () => ({ status: 400, body: { error: { message: 'Invalid price: above the maximum price', name: 'ValidationError' } } }),
    unavailable: () => ({ status: 503, body: { error: { message: 'The system is currently overloaded. Please try again later.', name: 'HTTPError' } } }),
    rateLimited: () => ({ status: 429, body: { error: { message: 'Rate limit exceeded, retry in 1 seconds.', name: 'RateLimitError' } }, headers: { 'retry-after': '1' } }),
  },
  okx: {
    refused: () => ({ status: 200, body: { code: '1', msg: '', data: [{ sCode: '51006', sMsg: 'Order price is not within the price limit (max buy price: 200000, min sell price: 10000)' }] } }),
    unavailable: () => ({ status: 503, body: { code: '50001', msg: 'Service temporarily unavailable. Please try again later.', data: [] } }),
    rateLimited: () => ({ status: 429, body: { code: '50011', msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.', data: [] } }),
  },
};

export interface PaperOptions {
  market: SimMarket;
  /** The product's database; without one, an in-memory PGlite is opened (and migrated) on first use. */
  db?: Db;
  /** How often loaded accounts are advanced on the market clock. */
  tickMs: number;
}

export interface Paper {
  runtimes: Map<SimExchange, PaperRuntime>;
  venues: Partial<Record<SimExchange, VenueRegistrar>>;
  faults: SimFaults;
  /** The database the accounts (and the simulator's keys) live in: the product's, or the in-memory one opened on first use. */
  db: () => Promise<Db>;
  close(): Promise<void>;
}

export function createPaper(opts: PaperOptions): Paper {
  let own: Promise<DatabaseHandle> | null = null;
  const db = async (): Promise<Db> => {
    if (opts.db) return opts.db;
    own ??= openDatabase({ driver: 'pglite' }).then(async (h) => {
      await h.migrate();
      return h;
    });
    return (await own).db;
  };
  const runtimes = new Map<SimExchange, PaperRuntime>();
  const venues: Partial<Record<SimExchange, VenueRegistrar>> = {};
  for (const [exchange, v] of Object.entries(VENUES) as Array<[SimExchange, NonNullable<(typeof VENUES)[SimExchange]>]>) {
    const runtime = new PaperRuntime({ exchange, engine: v.engine(simTape(opts.market, exchange)), db, now: opts.market.now, tickMs: opts.tickMs });
    runtime.start();
    runtimes.set(exchange, runtime);
    venues[exchange] = v.register;
  }
  return {
    runtimes,
    venues,
    faults: new SimFaults(),
    db,
    async close() {
      for (const r of runtimes.values()) r.close();
      if (own) await (await own).close();
    },
  };
}

export { SimFaults, faultBodySchema } from './faults';
export type { PaperRuntime } from './runtime';
