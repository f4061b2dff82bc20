import type { FastifyInstance, FastifyReply, RouteHandlerMethod } from 'fastify';
import { parseIntParam, queryOf, sendJson, type SimContext } from '../context';
import { instrumentsOf, type SimInstrument } from '../market/catalogue';
import { bookOf } from '../market/book';
import { topOfBook } from '../market/derivs';
import { freshPrints } from '../market/prints';
import { booksRest, recentTrades, REST_MAX as BOOKS_MAX, restTradeItem } from './book';
import { bucketPrev, bucketStart, DAY_MS, MINUTE_MS } from '../market/intervals';
import type { SimMarket } from '../market/market';
import { candleRow, fundingRateItem, instrument, OKX_BARS, okxBody, openInterestItem, ticker } from './format';

const LIMIT_MAX = 300;
const LIMIT_DEFAULT = 100;
/** `/market/candles` reaches back only 1,440 bars; older needs `/history-candles` (trap 7). */
const RECENT_BARS = 1440;
const UTC8 = 8 * 3_600_000;

/** Start-of-day opens at 00:00 UTC and 00:00 UTC+8, for `sodUtc0` / `sodUtc8`. */
export function startOfDayOpens(market: SimMarket, inst: SimInstrument, now: number): [number, number] {
  const model = market.model(inst);
  const utc0 = Math.floor(now / DAY_MS) * DAY_MS;
  const utc8 = Math.floor((now + UTC8) / DAY_MS) * DAY_MS - UTC8;
  const at = (t: number) => model.priceTicksAt(Math.max(model.firstMinute, t / MINUTE_MS));
  return [at(utc0), at(utc8)];
}

/** OKX v5 public REST at `/sim/okx/api/v5/...` (okx.md §1, §3, §4). */
export function registerOkxRest(app: FastifyInstance, { market }: SimContext): void {
  const fail = (reply: FastifyReply, code: string, msg: string, status = 200) => sendJson(reply, status, okxBody([], code, msg));
  const notExist = (reply: FastifyReply) => fail(reply, '51001', "Instrument ID, Instrument ID code or Spread ID doesn't exist.");

  app.get('/api/v5/public/time', async (_req, reply) => sendJson(reply, 200, okxBody([{ ts: String(market.now()) }])));

  const candles = (recentOnly: boolean): RouteHandlerMethod => async (req, reply) => {
    const q = queryOf(req);
    if (!q.instId) return fail(reply, '50014', 'Parameter instId can not be empty.');
    const inst = market.instrument('okx', q.instId);
    if (!inst || inst.symbol !== q.instId) return notExist(reply);
    const barName = q.bar ?? '1m';
    const spec = OKX_BARS[barName];
    if (!spec) return fail(reply, '51000', 'Parameter bar error');
    const after = parseIntParam(q.after);
    const before = parseIntParam(q.before);
    const limit = parseIntParam(q.limit);
    if (after === null) return fail(reply, '51000', 'Parameter after error');
    if (before === null) return fail(reply, '51000', 'Parameter before error');
    if (limit === null || (limit !== undefined && (limit < 1 || limit > LIMIT_MAX))) return fail(reply, '51000', 'Parameter limit error');
    const now = market.now();
    // after = "earlier than ts", before = "newer than ts": both exclusive.
    let from = before === undefined ? undefined : before + 1;
    if (recentOnly) {
      let oldest = bucketStart(spec, now);
      for (let k = 1; k < RECENT_BARS; k++) oldest = bucketPrev(spec, oldest);
      from = Math.max(from ?? oldest, oldest);
    }
    const bars = market.bars(inst, spec, { from, to: after === undefined ? undefined : after - 1, limit: limit ?? LIMIT_DEFAULT, prefer: 'latest' }, now);
    const model = market.model(inst);
    // Newest first (observed behaviour, trap 1); confirm "0" on the forming bar.
    return sendJson(reply, 200, okxBody(bars.reverse().map((b) => candleRow(model, b))));
  };
  app.get('/api/v5/market/candles', candles(true));
  app.get('/api/v5/market/history-candles', candles(false));

  const tickerOf = (inst: SimInstrument, now: number) => {
    const st = market.stats24h(inst, now);
    const book = topOfBook(market, inst, now);
    if (!st || !book) return null;
    const [sod0, sod8] = startOfDayOpens(market, inst, now);
    return ticker(market.model(inst), st, book, market.lastTrade(inst, now), sod0, sod8, now);
  };

  app.get('/api/v5/market/tickers', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instType) return fail(reply, '50014', 'Parameter instType can not be empty.');
    if (!['SPOT', 'SWAP', 'FUTURES', 'OPTION', 'MARGIN'].includes(q.instType)) return fail(reply, '51000', 'Parameter instType error');
    const now = market.now();
    const insts = q.instType === 'SWAP' ? instrumentsOf('okx').filter((i) => !q.instFamily || `${i.base}-${i.quote}` === q.instFamily) : [];
    return sendJson(reply, 200, okxBody(insts.flatMap((i) => tickerOf(i, now) ?? [])));
  });

  app.get('/api/v5/market/ticker', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instId) return fail(reply, '50014', 'Parameter instId can not be empty.');
    const inst = market.instrument('okx', q.instId);
    if (!inst || inst.symbol !== q.instId) return notExist(reply);
    const t = tickerOf(inst, market.now());
    return sendJson(reply, 200, okxBody(t ? [t] : []));
  });

  // Order book (market/book.ts): sz 1–400, default 1.
  app.get('/api/v5/market/books', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instId) return fail(reply, '50014', 'Parameter instId can not be empty.');
    const inst = market.instrument('okx', q.instId);
    if (!inst || inst.symbol !== q.instId) return notExist(reply);
    const sz = parseIntParam(q.sz);
    if (sz === null || (sz !== undefined && (sz < 1 || sz > BOOKS_MAX))) return fail(reply, '51000', 'Parameter sz error');
    const book = bookOf(market, inst).view(market.now());
    return sendJson(reply, 200, okxBody(book ? [booksRest(market.model(inst), book, sz ?? 1)] : []));
  });

  // Recent trades, newest first (limit 1–500, default 100).
  app.get('/api/v5/market/trades', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instId) return fail(reply, '50014', 'Parameter instId can not be empty.');
    const inst = market.instrument('okx', q.instId);
    if (!inst || inst.symbol !== q.instId) return notExist(reply);
    const limit = parseIntParam(q.limit);
    if (limit === null || (limit !== undefined && (limit < 1 || limit > 500))) return fail(reply, '51000', 'Parameter limit error');
    const model = market.model(inst);
    await freshPrints(market);
    return sendJson(reply, 200, okxBody(recentTrades(market, inst, market.now(), limit ?? 100).map((t) => restTradeItem(model, t))));
  });

  app.get('/api/v5/public/instruments', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instType) return fail(reply, '50014', 'Parameter instType can not be empty.');
    if (!['SPOT', 'SWAP', 'FUTURES', 'OPTION', 'MARGIN', 'EVENTS'].includes(q.instType)) return fail(reply, '51000', 'Parameter instType error');
    if (q.instType === 'OPTION' && !q.uly && !q.instFamily) return fail(reply, '51000', 'Parameter uly or instFamily error');
    let list = q.instType === 'SWAP' ? instrumentsOf('okx') : [];
    if (q.instId) list = list.filter((i) => i.symbol === q.instId);
    if (q.instFamily) list = list.filter((i) => `${i.base}-${i.quote}` === q.instFamily);
    if (q.uly) list = list.filter((i) => `${i.base}-${i.quote}` === q.uly);
    return sendJson(reply, 200, okxBody(list.map(instrument)));
  });

  // Funding: one SWAP by instId, or every SWAP with instId=ANY (what ccxt's fetchFundingRates sends).
  app.get('/api/v5/public/funding-rate', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instId) return fail(reply, '50014', 'Parameter instId can not be empty.');
    const now = market.now();
    if (q.instId === 'ANY') return sendJson(reply, 200, okxBody(instrumentsOf('okx').map((i) => fundingRateItem(market.model(i), now))));
    const inst = market.instrument('okx', q.instId);
    if (!inst || inst.symbol !== q.instId) return notExist(reply);
    return sendJson(reply, 200, okxBody([fundingRateItem(market.model(inst), now)]));
  });

  // Open interest of every instrument of a type (instType required; instId narrows it).
  app.get('/api/v5/public/open-interest', async (req, reply) => {
    const q = queryOf(req);
    if (!q.instType) return fail(reply, '50014', 'Parameter instType can not be empty.');
    if (!['SWAP', 'FUTURES', 'OPTION'].includes(q.instType)) return fail(reply, '51000', 'Parameter instType error');
    const now = market.now();
    let list = q.instType === 'SWAP' ? instrumentsOf('okx') : [];
    if (q.instId) list = list.filter((i) => i.symbol === q.instId);
    if (q.instFamily) list = list.filter((i) => `${i.base}-${i.quote}` === q.instFamily);
    return sendJson(
      reply,
      200,
      okxBody(
        list.flatMap((i) => {
          const last = market.lastTrade(i, now);
          return last ? [openInterestItem(market.model(i), last.price, now)] : [];
        }),
      ),
    );
  });

  // Option underlyings (ccxt asks before listing options): the sim lists no options.
  app.get('/api/v5/public/underlying', async (_req, reply) => sendJson(reply, 200, okxBody([[]])));
}
