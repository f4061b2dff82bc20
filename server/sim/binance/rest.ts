import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseIntParam, queryOf, sendJson, type SimContext } from '../context';
import { instrumentsOf } from '../market/catalogue';
import { bookOf } from '../market/book';
import { topOfBook } from '../market/derivs';
import { freshPrints } from '../market/prints';
import { bookTickerRest, DEPTH_LIMITS, depthSnapshot, depthWeight, recentTrade, recentTrades } from './book';
import { BINANCE_INTERVALS, binanceError, exchangeInfoSymbol, klineRow, premiumIndex, ticker24hr } from './format';
import { binanceWeight } from './weights';

const MAX_LIMIT = 1500;
const DEFAULT_LIMIT = 500;

/** Request weight of `/fapi/v1/klines` by limit (binance.md §1). */
const klineWeight = (limit: number) => (limit < 100 ? 1 : limit < 500 ? 2 : limit <= 1000 ? 5 : 10);

/** Binance USDⓈ-M public REST at `/sim/binance/fapi/v1/...` (binance.md §1, §3, §4). */
export function registerBinanceRest(app: FastifyInstance, { market, flatWeights, onWeight }: SimContext): void {
  let weightMinute = 0;
  let weight = 0;
  const useWeight = (w: number, req: FastifyRequest): number => {
    const minute = Math.floor(market.now() / 60_000);
    if (minute !== weightMinute) {
      weightMinute = minute;
      weight = 0;
    }
    weight += w;
    if (onWeight) {
      const q = req.url.indexOf('?');
      onWeight(`${req.method} ${(q < 0 ? req.url : req.url.slice(0, q)).replace(/^.*?(?=\/fapi\/)/, '')}`, w, minute, weight);
    }
    return weight;
  };

  // One counter for the simulator's "IP" (this process and network): every key's calls add to it, as on Binance.
  app.addHook('onSend', async (req, reply, payload) => {
    if (!reply.hasHeader('x-mbx-used-weight-1m')) reply.header('X-MBX-USED-WEIGHT-1M', String(useWeight(flatWeights ? 1 : binanceWeight(req.method, req.url, queryOf(req)), req)));
    return payload;
  });

  const missing = (name: string) => binanceError(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`);
  const illegal = (name: string) => binanceError(-1100, `Illegal characters found in parameter '${name}'; legal range is '^(-)?[0-9]{1,20}$'.`);

  app.get('/fapi/v1/ping', async (_req, reply) => sendJson(reply, 200, {}));
  app.get('/fapi/v1/time', async (_req, reply) => sendJson(reply, 200, { serverTime: market.now() }));

  app.get('/fapi/v1/klines', async (req, reply) => {
    const q = queryOf(req);
    if (!q.symbol) return sendJson(reply, 400, missing('symbol'));
    if (!q.interval) return sendJson(reply, 400, missing('interval'));
    const inst = market.instrument('binance', q.symbol);
    if (!inst || q.symbol !== q.symbol.toUpperCase()) return sendJson(reply, 400, binanceError(-1121, 'Invalid symbol.'));
    const spec = BINANCE_INTERVALS[q.interval];
    if (!spec) return sendJson(reply, 400, binanceError(-1120, 'Invalid interval.'));
    const startTime = parseIntParam(q.startTime);
    const endTime = parseIntParam(q.endTime);
    const limit = parseIntParam(q.limit);
    if (startTime === null) return sendJson(reply, 400, illegal('startTime'));
    if (endTime === null) return sendJson(reply, 400, illegal('endTime'));
    if (limit === null) return sendJson(reply, 400, illegal('limit'));
    if (limit !== undefined && (limit < 1 || limit > MAX_LIMIT)) {
      return sendJson(reply, 400, binanceError(-1130, "Data sent for parameter 'limit' is not valid."));
    }
    if (startTime !== undefined && endTime !== undefined && startTime > endTime) {
      return sendJson(reply, 400, binanceError(-1023, 'Start time is greater than end time.'));
    }
    const n = limit ?? DEFAULT_LIMIT;
    reply.header('X-MBX-USED-WEIGHT-1M', String(useWeight(klineWeight(n), req)));
    // With startTime the window fills forward from it; otherwise it ends at endTime (or now).
    const bars = market.bars(inst, spec, { from: startTime, to: endTime, limit: n, prefer: startTime !== undefined ? 'earliest' : 'latest' });
    const model = market.model(inst);
    return sendJson(reply, 200, bars.map((b) => klineRow(model, b)));
  });

  app.get('/fapi/v1/exchangeInfo', async (_req, reply) =>
    sendJson(reply, 200, {
      timezone: 'UTC',
      serverTime: market.now(),
      futuresType: 'U_MARGINED',
      rateLimits: [
        { rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: 2400 },
        { rateLimitType: 'ORDERS', interval: 'MINUTE', intervalNum: 1, limit: 1200 },
        { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 300 },
      ],
      exchangeFilters: [],
      assets: [
        { asset: 'USDT', marginAvailable: true, autoAssetExchange: '-10000' },
        { asset: 'BTC', marginAvailable: true, autoAssetExchange: '-0.10000000' },
      ],
      symbols: instrumentsOf('binance').map(exchangeInfoSymbol),
    }),
  );

  app.get('/fapi/v1/ticker/24hr', async (req, reply) => {
    const q = queryOf(req);
    const one = (symbol: string) => {
      const inst = market.instrument('binance', symbol);
      if (!inst) return null;
      const st = market.stats24h(inst);
      return st && ticker24hr(market.model(inst), st, market.lastTrade(inst));
    };
    if (q.symbol !== undefined) {
      const t = q.symbol === q.symbol.toUpperCase() ? one(q.symbol) : null;
      if (!t) return sendJson(reply, 400, binanceError(-1121, 'Invalid symbol.'));
      return sendJson(reply, 200, t);
    }
    reply.header('X-MBX-USED-WEIGHT-1M', String(useWeight(40, req)));
    return sendJson(reply, 200, instrumentsOf('binance').flatMap((i) => one(i.symbol) ?? []));
  });

  // Order book snapshot (market/book.ts): lastUpdateId matches the depth streams' U/u/pu.
  app.get('/fapi/v1/depth', async (req, reply) => {
    const q = queryOf(req);
    if (!q.symbol) return sendJson(reply, 400, missing('symbol'));
    const inst = market.instrument('binance', q.symbol);
    if (!inst || q.symbol !== q.symbol.toUpperCase()) return sendJson(reply, 400, binanceError(-1121, 'Invalid symbol.'));
    const limit = parseIntParam(q.limit);
    if (limit === null) return sendJson(reply, 400, illegal('limit'));
    if (limit !== undefined && !DEPTH_LIMITS.includes(limit)) return sendJson(reply, 400, binanceError(-1130, "Data sent for parameter 'limit' is not valid."));
    const n = limit ?? 500;
    reply.header('X-MBX-USED-WEIGHT-1M', String(useWeight(depthWeight(n), req)));
    const now = market.now();
    const book = bookOf(market, inst).view(now);
    return sendJson(reply, 200, book ? depthSnapshot(market.model(inst), book, n, now) : { lastUpdateId: 0, E: now, T: now, bids: [], asks: [] });
  });

  app.get('/fapi/v1/ticker/bookTicker', async (req, reply) => {
    const q = queryOf(req);
    const now = market.now();
    const one = (symbol: string) => {
      const inst = market.instrument('binance', symbol);
      const book = inst && bookOf(market, inst).view(now);
      return inst && book ? bookTickerRest(market.model(inst), book) : null;
    };
    if (q.symbol !== undefined) {
      const item = q.symbol === q.symbol.toUpperCase() ? one(q.symbol) : null;
      if (!item) return sendJson(reply, 400, binanceError(-1121, 'Invalid symbol.'));
      return sendJson(reply, 200, item);
    }
    reply.header('X-MBX-USED-WEIGHT-1M', String(useWeight(5, req)));
    return sendJson(reply, 200, instrumentsOf('binance').flatMap((i) => one(i.symbol) ?? []));
  });

  // Recent market trades, oldest first (limit default 500, max 1000).
  app.get('/fapi/v1/trades', async (req, reply) => {
    const q = queryOf(req);
    if (!q.symbol) return sendJson(reply, 400, missing('symbol'));
    const inst = market.instrument('binance', q.symbol);
    if (!inst || q.symbol !== q.symbol.toUpperCase()) return sendJson(reply, 400, binanceError(-1121, 'Invalid symbol.'));
    const limit = parseIntParam(q.limit);
    if (limit === null) return sendJson(reply, 400, illegal('limit'));
    if (limit !== undefined && (limit < 1 || limit > 1000)) return sendJson(reply, 400, binanceError(-1130, "Data sent for parameter 'limit' is not valid."));
    const model = market.model(inst);
    await freshPrints(market);
    return sendJson(reply, 200, recentTrades(market, inst, market.now(), limit ?? 500).map((t) => recentTrade(model, t)));
  });

  // Mark price and funding (weight 1 with a symbol, 10 without: then an array of every symbol).
  app.get('/fapi/v1/premiumIndex', async (req, reply) => {
    const q = queryOf(req);
    const now = market.now();
    const one = (symbol: string) => {
      const inst = market.instrument('binance', symbol);
      const book = inst && topOfBook(market, inst, now);
      return inst && book ? premiumIndex(market.model(inst), book, now) : null;
    };
    if (q.symbol !== undefined) {
      const item = q.symbol === q.symbol.toUpperCase() ? one(q.symbol) : null;
      if (!item) return sendJson(reply, 400, binanceError(-1121, 'Invalid symbol.'));
      return sendJson(reply, 200, item);
    }
    reply.header('X-MBX-USED-WEIGHT-1M', String(useWeight(10, req)));
    return sendJson(reply, 200, instrumentsOf('binance').flatMap((i) => one(i.symbol) ?? []));
  });
}
