import type { StreamSub } from '../hub';
import { BOOK_VERSION_MS, bookOf, BookDeltaStream, BookDiffStream, TopOfBookStream, updateId, type BookView, type Level } from '../market/book';
import type { SimInstrument } from '../market/catalogue';
import { Cadence } from '../market/live';
import type { SimMarket } from '../market/market';
import { publicTrades } from '../market/prints';
import type { InstrumentModel, Trade } from '../market/model';
import { fmtPrice, fmtQty } from '../market/units';

/**
 * Binance USDⓈ-M order book and trades on the wire (the book model: market/book.ts):
 * `GET /fapi/v1/depth`, `/fapi/v1/ticker/bookTicker`, `/fapi/v1/trades`, and the streams
 * `<sym>@depth[@100ms|@500ms]` (diff), `<sym>@depth<5|10|20>[@100ms|@500ms]` (partial), `<sym>@bookTicker`.
 * `lastUpdateId`/`U`/`u`/`pu` come from `updateId(version)`, so the REST snapshot and every socket agree.
 */

export const DEPTH_LIMITS = [5, 10, 20, 50, 100, 500, 1000];

/** Request weight of `/fapi/v1/depth` by limit. */
export const depthWeight = (limit: number): number => (limit <= 50 ? 2 : limit <= 100 ? 5 : limit <= 500 ? 10 : 20);

const row = (m: InstrumentModel) => ([p, s]: Level): [string, string] => [fmtPrice(m, p), fmtQty(m, s)];

/** `GET /fapi/v1/depth` (docs example: `{lastUpdateId, E, T, bids, asks}`). */
export function depthSnapshot(m: InstrumentModel, b: BookView, limit: number, now: number) {
  return { lastUpdateId: updateId(b.version), E: now, T: b.time, bids: b.bids.slice(0, limit).map(row(m)), asks: b.asks.slice(0, limit).map(row(m)) };
}

/** `GET /fapi/v1/ticker/bookTicker` element. */
export function bookTickerRest(m: InstrumentModel, b: BookView) {
  const [bid, ask] = [b.bids[0], b.asks[0]];
  return {
    symbol: m.inst.symbol,
    bidPrice: fmtPrice(m, bid[0]),
    bidQty: fmtQty(m, bid[1]),
    askPrice: fmtPrice(m, ask[0]),
    askQty: fmtQty(m, ask[1]),
    time: b.time,
    lastUpdateId: updateId(b.version),
  };
}

/** `GET /fapi/v1/trades` element; `isBuyerMaker` = the taker sold. */
export function recentTrade(m: InstrumentModel, t: Trade) {
  const qty = fmtQty(m, t.steps);
  const contract = m.inst.category === 'inverse' ? m.inst.contractSize : 1;
  const quote = m.inst.category === 'inverse' ? t.steps * m.step * contract : t.price * m.tick * t.steps * m.step;
  return { id: t.id, price: fmtPrice(m, t.price), qty, quoteQty: quote.toFixed(Math.min(8, m.tickDecimals + m.stepDecimals)), time: t.time, isBuyerMaker: !t.buy };
}

/** The last `limit` trades up to `now`, oldest first. */
export function recentTrades(market: SimMarket, inst: SimInstrument, now: number, limit: number): Trade[] {
  return publicTrades(market, inst, now - 5 * 60_000, now).slice(-limit);
}

/** Cadence of a depth stream name suffix: `''` → 250 ms, `@100ms`, `@500ms`; null when not one. */
function speedOf(suffix: string): number | null {
  if (suffix === '') return 250;
  if (suffix === '@100ms') return 100;
  if (suffix === '@500ms') return 500;
  return null;
}

/** `<sym>@depth…` and `<sym>@bookTicker` subscriptions; null for any other kind. */
export function binanceBookStream(market: SimMarket, inst: SimInstrument, kind: string): StreamSub | null {
  const m = market.model(inst);
  const book = bookOf(market, inst);
  const s = inst.symbol;
  const levels = (ls: Level[]) => ls.map(row(m));

  if (kind === 'bookTicker') {
    const top = new TopOfBookStream(book);
    return {
      poll(now) {
        return top.poll(now).map((x) => ({
          e: 'bookTicker',
          u: updateId(x.version),
          s,
          b: fmtPrice(m, x.bid[0]),
          B: fmtQty(m, x.bid[1]),
          a: fmtPrice(m, x.ask[0]),
          A: fmtQty(m, x.ask[1]),
          T: x.version * BOOK_VERSION_MS,
          E: now,
        }));
      },
    };
  }
  const match = /^depth(5|10|20)?(@100ms|@500ms)?$/.exec(kind);
  if (!match) return null;
  const speed = speedOf(match[2] ?? '');
  if (speed === null) return null;
  const cadence = new Cadence(speed);

  if (match[1]) {
    // Partial book: the top N every cadence (futures send them as depthUpdate with U/u/pu).
    const depth = Number(match[1]);
    const stream = new BookDeltaStream(book, depth);
    let prevU = -1;
    return {
      poll(now) {
        if (!cadence.due(now)) return [];
        const r = stream.poll(now);
        const last = r.deltas[r.deltas.length - 1];
        const version = r.snapshot?.version ?? last?.version;
        const b = r.snapshot ?? last?.book;
        if (version === undefined || !b) return [];
        const u = updateId(version);
        const event = { e: 'depthUpdate', E: now, T: version * BOOK_VERSION_MS, s, U: prevU < 0 ? u : prevU + 1, u, pu: prevU < 0 ? u : prevU, b: levels(b.bids), a: levels(b.asks) };
        prevU = u;
        return [event];
      },
    };
  }

  const diff = new BookDiffStream(book);
  return {
    poll(now) {
      // The first poll starts the stream (the client's book comes from GET /fapi/v1/depth).
      if (!cadence.due(now)) return [];
      const d = diff.poll(now);
      if (!d) return [];
      const pu = updateId(d.prevVersion);
      return [{ e: 'depthUpdate', E: now, T: d.version * BOOK_VERSION_MS, s, U: pu + 1, u: updateId(d.version), pu, b: levels(d.bids), a: levels(d.asks) }];
    },
  };
}
