import { randomBytes } from 'node:crypto';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_IDS, type ExchangeId } from '../../../src/api/contracts/common';
import { scannerExchangeSnapshotSchema, type ScannerRow } from '../../../src/api/contracts/scanner';
import simPlugin from '../../sim';
import { manualClock } from '../../sim/testing';
import { ExchangeInfoService, type FetchLike } from '../exchange-info';
import { HOUR_MS } from './parsers';
import { ScannerService, ScannerUnavailableError, type ScannerEvent, type ScannerOptions } from './scanner-service';
import { redisScannerStore } from './shared-store';

// The scanner service against the simulator (the four exchanges' real wire formats, in-process, as
// in sim mode), against failing upstreams, and two instances sharing one Redis.

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function simApp(now?: () => number): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await app.register(websocket);
  await app.register(simPlugin, { prefix: '/sim', pushIntervalMs: 100, ...(now ? { now } : {}) });
  await app.ready();
  return app;
}

/** `fetch` answered by the simulator in-process, counting calls by path (query left out). */
function simFetch(app: FastifyInstance, calls: string[] = []): FetchLike {
  return async (url, init) => {
    calls.push(url.split('?')[0]);
    const res = await app.inject({ method: 'GET', url, headers: init.headers });
    return { status: res.statusCode, json: async () => res.json() };
  };
}

function service(app: FastifyInstance, over: Partial<ScannerOptions> = {}, calls?: string[]): ScannerService {
  const fetch = simFetch(app, calls);
  const base = (exchange: ExchangeId) => ({ base: `/sim/${exchange}` });
  const info = new ExchangeInfoService({ fetch: simFetch(app), base });
  return new ScannerService({ fetch, base, instruments: (e) => info.instruments(e, false), ...over });
}

const untilAtr = async (svc: ScannerService, exchange: ExchangeId) => {
  for (let k = 0; k < 300; k++) {
    const snap = await svc.snapshot(exchange);
    if (snap.status.atrAt !== null) return snap;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no ATR for ${exchange}`);
};

describe('ScannerService on the simulator (fixed clock)', () => {
  const clock = manualClock(Date.parse('2025-03-05T10:20:00Z'));
  let app: FastifyInstance;
  let svc: ScannerService;
  beforeAll(async () => {
    app = await simApp(clock.now);
    svc = service(app, { now: clock.now });
  });
  afterAll(async () => {
    svc.close();
    await app.close();
  });

  it.each(EXCHANGE_IDS)('%s: one row per perpetual, values as the exchange’s own ticker says', async (exchange) => {
    const snap = scannerExchangeSnapshotSchema.parse(await svc.snapshot(exchange));
    expect(snap.status).toMatchObject({ exchange, state: 'ok', message: null, tickersAt: clock.now() });
    expect(snap.rows.length).toBeGreaterThanOrEqual(15);
    const btc = snap.rows.find((r) => r.symbol === (exchange === 'bitmex' ? 'XBTUSD' : 'BTCUSDT'));
    expect(btc).toBeDefined();
    for (const key of ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime'] as const) expect(btc?.[key]).toEqual(expect.any(Number));
    expect(btc?.openInterest === null).toBe(exchange === 'binance'); // binance publishes OI per symbol only
    // Funding every 8 h: 00/08/16 UTC, BitMEX 04/12/20 UTC.
    expect(btc?.nextFundingTime).toBe(Date.parse(exchange === 'bitmex' ? '2025-03-05T12:00:00Z' : '2025-03-05T16:00:00Z'));
    // The simulator's own ticker for the same pair and clock.
    const last = {
      binance: async () => Number((await app.inject(`/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT`)).json().lastPrice),
      bybit: async () => Number((await app.inject(`/sim/bybit/v5/market/tickers?category=linear&symbol=BTCUSDT`)).json().result.list[0].lastPrice),
      okx: async () => Number((await app.inject(`/sim/okx/api/v5/market/ticker?instId=BTC-USDT-SWAP`)).json().data[0].last),
      bitmex: async () => (await app.inject(`/sim/bitmex/api/v1/instrument?symbol=XBTUSD`)).json()[0].lastPrice as number,
    }[exchange];
    expect(btc?.last).toBe(await last());
    expect(btc?.rangePercent).toBeGreaterThan(0);
    expect(btc?.quoteVolume).toBeGreaterThan(0);
  });

  it('bybit lists linear and inverse perpetuals with quote-currency volume on both', async () => {
    const { rows } = await svc.snapshot('bybit');
    const inverse = rows.find((r) => r.symbol === 'BTCUSD');
    const linear = rows.find((r) => r.symbol === 'BTCUSDT');
    expect(inverse?.category).toBe('inverse');
    // The same market on two contracts trades comparable USD amounts (within two orders of magnitude).
    expect(Math.abs(Math.log10((inverse?.quoteVolume ?? 1) / (linear?.quoteVolume ?? 1)))).toBeLessThan(2);
  });

  it.each(EXCHANGE_IDS)('%s: ATR % over the last 14 closed 1 h candles, as computed from the exchange’s own klines', async (exchange) => {
    const snap = await untilAtr(svc, exchange);
    expect(snap.status.atrAt).toBe(clock.now());
    const rows = snap.rows.filter((r) => r.atrPercent !== null);
    expect(rows.length).toBe(snap.rows.length);
    // Reference: binance's klines by hand (high/low/close of the 15 bars before the current hour).
    if (exchange !== 'binance') return;
    const raw = (await app.inject('/sim/binance/fapi/v1/klines?symbol=ETHUSDT&interval=1h&limit=16')).json() as string[][];
    const closed = raw.filter((r) => Number(r[0]) + HOUR_MS <= clock.now()).slice(-15);
    let sum = 0;
    for (let k = 1; k < closed.length; k++) {
      const [h, l, pc] = [Number(closed[k][2]), Number(closed[k][3]), Number(closed[k - 1][4])];
      sum += Math.max(h - l, Math.abs(h - pc), Math.abs(l - pc));
    }
    const expected = (sum / 14 / Number(closed[14][4])) * 100;
    expect(snap.rows.find((r) => r.symbol === 'ETHUSDT')?.atrPercent).toBeCloseTo(expected, 4); // kept to four decimals
  });
});

describe('ScannerService live streams from the simulator', () => {
  let app: FastifyInstance;
  let svc: ScannerService;
  beforeAll(async () => {
    app = await simApp();
    svc = service(app, { openSocket: (exchange, path) => app.injectWS(`/sim/${exchange}${path}`) });
  });
  afterAll(async () => {
    svc.close();
    await app.close();
  });

  it.each(EXCHANGE_IDS)('%s: watchers get changed rows from the all-market stream and the status says live', async (exchange) => {
    const { rows } = await svc.snapshot(exchange);
    const events: ScannerEvent[] = [];
    const stop = svc.watch(exchange, (e) => events.push(e));
    try {
      await expect.poll(() => events.some((e) => e.type === 'status' && e.status.live), { timeout: 5000 }).toBe(true);
      const patches = () => events.flatMap((e) => (e.type === 'update' ? e.rows : []));
      // Ticks (not the ATR round the snapshot started, which also arrives as updates).
      await expect.poll(() => patches().filter((p) => p.last !== undefined || p.changePercent !== undefined || p.quoteVolume !== undefined).length, { timeout: 10_000 }).toBeGreaterThan(0);
      const symbols = new Set(rows.map((r) => r.symbol));
      expect(patches().every((p) => symbols.has(p.symbol))).toBe(true);
    } finally {
      stop();
    }
  });
});

describe('ScannerService failures: the exchange named, the cached rows kept', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await simApp();
  });
  afterAll(() => app.close());

  const failing = (status: number | 'hang'): FetchLike => async (_url, init) => {
    if (status === 'hang') {
      await new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
    }
    return { status: status as number, json: async () => ({ message: 'down' }) };
  };

  it('nothing cached and the exchange answers 503: 502 naming it', async () => {
    const svc = service(app, { fetch: failing(503) });
    const err = await svc.snapshot('bybit').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScannerUnavailableError);
    expect(err).toMatchObject({ status: 502, message: 'Could not load the tickers of bybit: HTTP 503' });
    svc.close();
  });

  it('nothing cached and the exchange does not answer: 504 naming it', async () => {
    const svc = service(app, { fetch: failing('hang'), timeoutMs: 100 });
    await expect(svc.snapshot('okx')).rejects.toMatchObject({ status: 504, message: 'okx did not answer in time (0 s): its tickers could not be loaded' });
    svc.close();
  });

  it('a refresh that fails keeps the last rows, marked stale with the reason; other exchanges unaffected', async () => {
    const clock = manualClock(Date.now());
    let down = false;
    const sim = simFetch(app);
    const svc = service(app, { now: clock.now, tickersTtlMs: 1000, fetch: (url, init) => (down && url.startsWith('/sim/binance') ? failing(500)(url, init) : sim(url, init)) });
    const first = await svc.snapshot('binance');
    down = true;
    clock.advance(2000);
    await svc.snapshot('binance'); // stale: answers at once and refreshes in the background
    await expect.poll(async () => (await svc.snapshot('binance')).status.state).toBe('stale');
    const stale = await svc.snapshot('binance');
    expect(stale.rows).toHaveLength(first.rows.length);
    expect(stale.status.message).toBe('Could not load the tickers of binance: HTTP 500');
    expect((await svc.snapshot('bybit')).status.state).toBe('ok');
    svc.close();
  });
});

describe('two ScannerService instances sharing one Redis', () => {
  let app: FastifyInstance;
  let redis: Redis;
  const prefix = `ct:scanner:test:${process.pid}:${randomBytes(4).toString('hex')}:`;
  // A running clock that starts mid-hour, for the simulator and both instances: an hour turning
  // during the test would (rightly) start a new ATR round.
  const started = Date.now();
  const now = () => Date.parse('2025-03-05T10:20:00Z') + (Date.now() - started);
  beforeAll(async () => {
    app = await simApp(now);
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    await redis.quit();
    await app.close();
  });

  it('the second instance answers from the first one’s fetch: one set of exchange calls for both', async () => {
    const callsA: string[] = [];
    const callsB: string[] = [];
    const a = service(app, { shared: redisScannerStore(redis), keyPrefix: prefix, now }, callsA);
    const b = service(app, { shared: redisScannerStore(redis), keyPrefix: prefix, now }, callsB);
    try {
      const rowsA = (await a.snapshot('bybit')).rows;
      const rowsB = (await b.snapshot('bybit')).rows;
      expect(callsA.filter((c) => c.endsWith('/v5/market/tickers'))).toHaveLength(2); // linear + inverse
      expect(callsB.filter((c) => c.endsWith('/v5/market/tickers'))).toHaveLength(0);
      const last = (rows: ScannerRow[]) => rows.map((r) => [r.symbol, r.last]);
      expect(last(rowsB)).toEqual(last(rowsA));

      // ATR: one instance fetches the candles, the other reads the result.
      await untilAtr(a, 'bybit');
      await untilAtr(b, 'bybit');
      const klines = (calls: string[]) => calls.filter((c) => c.endsWith('/v5/market/kline')).length;
      expect(klines(callsA) + klines(callsB)).toBe(rowsA.length);
      expect(Math.min(klines(callsA), klines(callsB))).toBe(0);
      expect((await b.snapshot('bybit')).rows.map((r) => r.atrPercent)).toEqual((await a.snapshot('bybit')).rows.map((r) => r.atrPercent));
    } finally {
      a.close();
      b.close();
    }
  });

  it('asked at the same moment, one instance fetches (the lock) and the other waits for its answer', async () => {
    const callsA: string[] = [];
    const callsB: string[] = [];
    const a = service(app, { shared: redisScannerStore(redis), keyPrefix: prefix, now }, callsA);
    const b = service(app, { shared: redisScannerStore(redis), keyPrefix: prefix, now }, callsB);
    try {
      await Promise.all([a.snapshot('okx'), b.snapshot('okx')]);
      const tickerCalls = [...callsA, ...callsB].filter((c) => c.endsWith('/api/v5/market/tickers'));
      expect(tickerCalls).toHaveLength(1);
    } finally {
      a.close();
      b.close();
    }
  });
});
