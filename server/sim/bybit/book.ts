import type { StreamSub } from '../hub';
import { BOOK_VERSION_MS, bookOf, BookDeltaStream, updateId, type BookView, type Level } from '../market/book';
import type { SimInstrument } from '../market/catalogue';
import type { SimMarket } from '../market/market';
import { publicTrades } from '../market/prints';
import type { InstrumentModel, Trade } from '../market/model';
import { fmtPrice, fmtQty } from '../market/units';
import { tradeUuid } from './format';

/**
 * Bybit v5 order book and trades on the wire (the book model: market/book.ts): `GET /v5/market/orderbook`,
 * `GET /v5/market/recent-trade`, WS `orderbook.{1,50,200,500}.<symbol>`. `u` is the version counted from
 * an epoch (+1 per message, so REST and every socket agree), `seq` the cross sequence `updateId(version)`.
 */

/** Versions are counted from here for `u` (keeps the numbers in the real ones' range). */
const U_EPOCH = Date.UTC(2024, 0, 1) / BOOK_VERSION_MS;
export const bybitU = (version: number): number => version - U_EPOCH;

export const WS_DEPTHS = [1, 50, 200, 500];
export const REST_MAX = 500;
export const REST_DEFAULT = 25;
/** Level 1 resends its snapshot when nothing changed for 3 s. */
const LEVEL1_REFRESH_MS = 3000;

const row = (m: InstrumentModel) => ([p, s]: Level): [string, string] => [fmtPrice(m, p), fmtQty(m, s)];

/** `result` of `GET /v5/market/orderbook`. */
export function orderbookResult(m: InstrumentModel, b: BookView, limit: number, now: number) {
  return {
    s: m.inst.symbol,
    b: b.bids.slice(0, limit).map(row(m)),
    a: b.asks.slice(0, limit).map(row(m)),
    ts: now,
    u: bybitU(b.version),
    seq: updateId(b.version),
    cts: b.time,
  };
}

/** `list` item of `GET /v5/market/recent-trade` (newest first; same ids as `publicTrade`). */
export function recentTradeItem(m: InstrumentModel, t: Trade) {
  return {
    execId: tradeUuid(m.inst, t.id),
    symbol: m.inst.symbol,
    price: fmtPrice(m, t.price),
    size: fmtQty(m, t.steps),
    side: t.buy ? 'Buy' : 'Sell',
    time: String(t.time),
    isBlockTrade: false,
    isRPITrade: false,
    seq: String(t.id),
  };
}

export const recentTrades = (market: SimMarket, inst: SimInstrument, now: number, limit: number): Trade[] =>
  publicTrades(market, inst, now - 5 * 60_000, now).slice(-limit).reverse();

/** `orderbook.{depth}.{symbol}`: a snapshot, then one delta per book version (u + 1 each); level 1 sends snapshots only. */
export function bybitBookTopic(market: SimMarket, inst: SimInstrument, topic: string, depth: number): StreamSub | null {
  if (!WS_DEPTHS.includes(depth)) return null;
  const m = market.model(inst);
  const stream = new BookDeltaStream(bookOf(market, inst), depth);
  const levels = (ls: Level[]) => ls.map(row(m));
  let lastSent = 0;
  const frame = (type: 'snapshot' | 'delta', version: number, b: Level[], a: Level[], now: number) => {
    lastSent = now;
    return { topic, type, ts: now, data: { s: inst.symbol, b: levels(b), a: levels(a), u: bybitU(version), seq: updateId(version) }, cts: version * BOOK_VERSION_MS };
  };
  return {
    poll(now) {
      const { snapshot, deltas } = stream.poll(now);
      if (snapshot) return [frame('snapshot', snapshot.version, snapshot.bids, snapshot.asks, now)];
      if (depth === 1) {
        const changed = deltas.filter((d) => d.bids.length || d.asks.length);
        const last = changed[changed.length - 1] ?? (now - lastSent >= LEVEL1_REFRESH_MS ? deltas[deltas.length - 1] : undefined);
        return last ? [frame('snapshot', last.version, last.book.bids, last.book.asks, now)] : [];
      }
      return deltas.map((d) => frame('delta', d.version, d.bids, d.asks, now));
    },
  };
}
