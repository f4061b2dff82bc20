import type { FastifyInstance, FastifyReply } from 'fastify';
import { parseIntParam, queryOf, sendJson, type SimContext } from '../context';
import { instrumentsOf, type SimInstrument } from '../market/catalogue';
import { bookOf } from '../market/book';
import { topOfBook } from '../market/derivs';
import { freshPrints } from '../market/prints';
import { orderbookResult, recentTradeItem, recentTrades, REST_DEFAULT, REST_MAX } from './book';
import { BYBIT_CATEGORIES, BYBIT_INTERVALS, envelope, instrumentInfo, klineRow, tickerFields } from './format';

const KLINE_MAX = 1000;
const KLINE_DEFAULT = 200;
const INSTRUMENTS_MAX = 1000;
const INSTRUMENTS_DEFAULT = 500;

type Category = (typeof BYBIT_CATEGORIES)[number];
const isCategory = (c: string): c is Category => (BYBIT_CATEGORIES as readonly string[]).includes(c);

/** Opaque page cursor, shaped like Bybit's (`first%3D...%26last%3D...` once decoded). */
const encodeCursor = (offset: number, first: string, last: string) => Buffer.from(`first=${first}&last=${last}&offset=${offset}`).toString('base64url');
function decodeCursor(c: string): number | null {
  const m = /offset=(\d+)$/.exec(Buffer.from(c, 'base64url').toString());
  return m ? Number(m[1]) : null;
}

/** Bybit v5 public market REST at `/sim/bybit/v5/market/...` (bybit.md §1, §3, §4). */
export function registerBybitRest(app: FastifyInstance, { market }: SimContext): void {
  // Errors come with HTTP 200 and retCode ≠ 0 (trap 9).
  const fail = (reply: FastifyReply, retCode: number, retMsg: string) => sendJson(reply, 200, envelope({}, market.now(), retCode, retMsg));
  const inCategory = (category: Category, symbol: string): SimInstrument | undefined => {
    const inst = market.instrument('bybit', symbol);
    return inst && inst.category === category && symbol === symbol.toUpperCase() ? inst : undefined;
  };

  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Bapi-Limit', '600').header('X-Bapi-Limit-Status', '599').header('X-Bapi-Limit-Reset-Timestamp', String(Date.now()));
    return payload;
  });

  app.get('/v5/market/time', async (_req, reply) => {
    const now = market.now();
    return sendJson(reply, 200, envelope({ timeSecond: String(Math.floor(now / 1000)), timeNano: `${now}000000` }, now));
  });

  app.get('/v5/market/kline', async (req, reply) => {
    const q = queryOf(req);
    const category = q.category ?? 'linear';
    if (category !== 'linear' && category !== 'inverse' && category !== 'spot') return fail(reply, 10001, 'Illegal category');
    if (!q.symbol) return fail(reply, 10001, 'params error: symbol invalid');
    if (!q.interval || !BYBIT_INTERVALS[q.interval]) return fail(reply, 10001, 'params error: interval invalid');
    const inst = category === 'spot' ? undefined : inCategory(category, q.symbol);
    if (!inst) return fail(reply, 10001, 'Not supported symbols');
    const start = parseIntParam(q.start);
    const end = parseIntParam(q.end);
    const limit = parseIntParam(q.limit);
    if (start === null || end === null) return fail(reply, 10001, 'params error: start/end invalid');
    if (limit === null || (limit !== undefined && (limit < 1 || limit > KLINE_MAX))) return fail(reply, 10001, 'params error: limit invalid');
    const n = limit ?? KLINE_DEFAULT;
    const bars = market.bars(inst, BYBIT_INTERVALS[q.interval], { from: start, to: end, limit: n, prefer: start !== undefined && end === undefined ? 'earliest' : 'latest' });
    const model = market.model(inst);
    // "Sort in reverse by startTime": newest first, list[0] the forming bar (traps 1 and 3).
    const list = bars.reverse().map((b) => klineRow(model, b));
    return sendJson(reply, 200, envelope({ symbol: inst.symbol, category, list }, market.now()));
  });

  app.get('/v5/market/instruments-info', async (req, reply) => {
    const q = queryOf(req);
    if (!q.category) return fail(reply, 10001, 'params error: Category is null');
    if (!isCategory(q.category)) return fail(reply, 10001, 'Illegal category');
    const limit = parseIntParam(q.limit);
    if (limit === null || (limit !== undefined && (limit < 1 || limit > INSTRUMENTS_MAX))) return fail(reply, 10001, 'params error: limit invalid');
    let offset = 0;
    if (q.cursor) {
      const o = decodeCursor(q.cursor);
      if (o === null) return fail(reply, 10001, 'params error: cursor invalid');
      offset = o;
    }
    const category = q.category;
    let all = category === 'linear' || category === 'inverse' ? instrumentsOf('bybit', category) : [];
    if (q.symbol) all = all.filter((i) => i.symbol === q.symbol);
    if (q.baseCoin) all = all.filter((i) => i.base === q.baseCoin);
    if (q.status && q.status !== 'Trading') all = [];
    const size = limit ?? INSTRUMENTS_DEFAULT;
    const page = all.slice(offset, offset + size);
    const more = offset + size < all.length;
    const nextPageCursor = more && page.length ? encodeCursor(offset + size, page[0].symbol, page[page.length - 1].symbol) : '';
    // Spot does not paginate and carries no nextPageCursor in the real API.
    const result = category === 'spot' ? { category, list: page } : { category, list: page.map(instrumentInfo), nextPageCursor };
    return sendJson(reply, 200, envelope(result, market.now()));
  });

  // Order book (market/book.ts): linear/inverse limit 1–500, default 25; `u` matches the WS orderbook topics.
  app.get('/v5/market/orderbook', async (req, reply) => {
    const q = queryOf(req);
    if (!q.category) return fail(reply, 10001, 'params error: Category is null');
    if (q.category !== 'linear' && q.category !== 'inverse') return fail(reply, 10001, 'Illegal category');
    if (!q.symbol) return fail(reply, 10001, 'params error: symbol invalid');
    const inst = inCategory(q.category, q.symbol);
    if (!inst) return fail(reply, 10001, 'Not supported symbols');
    const limit = parseIntParam(q.limit);
    if (limit === null || (limit !== undefined && (limit < 1 || limit > REST_MAX))) return fail(reply, 10001, 'params error: limit invalid');
    const now = market.now();
    const book = bookOf(market, inst).view(now);
    if (!book) return sendJson(reply, 200, envelope({ s: inst.symbol, b: [], a: [], ts: now, u: 0, seq: 0, cts: now }, now));
    return sendJson(reply, 200, envelope(orderbookResult(market.model(inst), book, limit ?? REST_DEFAULT, now), now));
  });

  // Public trading history, newest first (limit 1–1000, default 500).
  app.get('/v5/market/recent-trade', async (req, reply) => {
    const q = queryOf(req);
    if (!q.category) return fail(reply, 10001, 'params error: Category is null');
    if (q.category !== 'linear' && q.category !== 'inverse') return fail(reply, 10001, 'Illegal category');
    if (!q.symbol) return fail(reply, 10001, 'params error: symbol invalid');
    const inst = inCategory(q.category, q.symbol);
    if (!inst) return fail(reply, 10001, 'Not supported symbols');
    const limit = parseIntParam(q.limit);
    if (limit === null || (limit !== undefined && (limit < 1 || limit > 1000))) return fail(reply, 10001, 'params error: limit invalid');
    const now = market.now();
    const model = market.model(inst);
    await freshPrints(market);
    const list = recentTrades(market, inst, now, limit ?? 500).map((t) => recentTradeItem(model, t));
    return sendJson(reply, 200, envelope({ category: q.category, list }, now));
  });

  app.get('/v5/market/tickers', async (req, reply) => {
    const q = queryOf(req);
    if (!q.category) return fail(reply, 10001, 'params error: Category is null');
    if (!isCategory(q.category)) return fail(reply, 10001, 'Illegal category');
    const category = q.category;
    let insts = category === 'linear' || category === 'inverse' ? instrumentsOf('bybit', category) : [];
    if (q.symbol) {
      const inst = category === 'linear' || category === 'inverse' ? inCategory(category, q.symbol) : undefined;
      if (!inst) return fail(reply, 10001, 'Not supported symbols');
      insts = [inst];
    }
    const now = market.now();
    const list = insts.flatMap((inst) => {
      const st = market.stats24h(inst, now);
      const book = topOfBook(market, inst, now);
      return st && book ? [tickerFields(market.model(inst), st, book, now)] : [];
    });
    return sendJson(reply, 200, envelope({ category, list }, now));
  });
}
