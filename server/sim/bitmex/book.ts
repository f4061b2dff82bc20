import type { StreamSub } from '../hub';
import { BOOK_LEVELS, BOOK_VERSION_MS, bookOf, BookDeltaStream, type BookSides, type BookView, type Level } from '../market/book';
import { instrumentsOf, type SimInstrument } from '../market/catalogue';
import { MINUTE_MS } from '../market/intervals';
import type { SimMarket } from '../market/market';
import { publicMinute } from '../market/prints';
import type { InstrumentModel, Trade } from '../market/model';
import { nativeQty, numPrice } from '../market/units';
import { iso, tradeRow } from './format';

/**
 * BitMEX order book and trades on the wire (the book model: market/book.ts): `GET /api/v1/orderBook/L2`,
 * `GET /api/v1/trade`, WS `orderBookL2` / `orderBookL2_25` (partial, then insert/update/delete keyed by
 * symbol, id, side). A level's id is derived from its price as BitMEX does:
 * `id = 100000000 × symbolIdx − price / tickSize` (XBTUSD: index 88 and its legacy 0.01 tick, so
 * price 6570 → 8799343000).
 */

export const L2_TYPES = { symbol: 'symbol', id: 'long', side: 'symbol', size: 'long', price: 'float', timestamp: 'timestamp' };

/** The symbol index of the id formula: XBTUSD's real 88; the others a stable index of their own. */
export function symbolIndex(inst: SimInstrument): number {
  if (inst.symbol === 'XBTUSD') return 88;
  return 100 + instrumentsOf('bitmex').findIndex((i) => i.symbol === inst.symbol);
}

export function levelId(m: InstrumentModel, ticks: number): number {
  const legacyTick = m.inst.symbol === 'XBTUSD' ? 0.01 : m.tick;
  return 100_000_000 * symbolIndex(m.inst) - Math.round((ticks * m.tick) / legacyTick);
}

type Side = 'Buy' | 'Sell';

export function l2Row(m: InstrumentModel, side: Side, [p, s]: Level, time: number) {
  return { symbol: m.inst.symbol, id: levelId(m, p), side, size: nativeQty(m, s), price: numPrice(m, p), timestamp: iso(time) };
}

/** Sells from the highest price down, then buys from the best down (the REST order). */
export function l2Rows(m: InstrumentModel, b: BookSides, depth: number, time: number) {
  const asks = (depth > 0 ? b.asks.slice(0, depth) : b.asks).slice().reverse();
  const bids = depth > 0 ? b.bids.slice(0, depth) : b.bids;
  return [...asks.map((l) => l2Row(m, 'Sell', l, time)), ...bids.map((l) => l2Row(m, 'Buy', l, time))];
}

export const l2Snapshot = (m: InstrumentModel, b: BookView, depth: number) => l2Rows(m, b, depth, b.time);

/**
 * `GET /api/v1/trade`: `count` trades (≤ 1000) from `startTime` ascending (skipping `start`), or with
 * `reverse` the newest first ending at `endTime`/now. Without either, the latest `count`, ascending.
 */
export function tradeHistory(market: SimMarket, inst: SimInstrument, q: { count: number; start: number; reverse: boolean; startTime?: number; endTime?: number }, now: number) {
  const model = market.model(inst);
  const end = Math.min(q.endTime ?? now, now);
  const from = Math.max(q.startTime ?? -Infinity, inst.listedAt);
  const want = q.count + q.start;
  const picked: Trade[] = [];
  const lastMinute = Math.floor(end / MINUTE_MS);
  if (q.startTime !== undefined && !q.reverse) {
    for (let mi = Math.max(model.firstMinute, Math.floor(from / MINUTE_MS)); mi <= lastMinute && picked.length < want; mi++) {
      for (const t of publicMinute(market, inst, mi)) if (t.time >= from && t.time <= end && picked.length < want) picked.push(t);
    }
  } else {
    // Walk back from the end (at most a day of minutes).
    for (let mi = lastMinute; mi >= Math.max(model.firstMinute, lastMinute - 1440) && picked.length < want; mi--) {
      const ticks = publicMinute(market, inst, mi);
      for (let k = ticks.length - 1; k >= 0 && picked.length < want; k--) if (ticks[k].time <= end && ticks[k].time >= from) picked.push(ticks[k]);
    }
    if (!q.reverse) picked.reverse();
  }
  const page = q.reverse || q.startTime !== undefined ? picked.slice(q.start, q.start + q.count) : picked.slice(0, q.count);
  return page.map((t, k) => tradeRow(model, t, page[k - 1]?.price));
}

interface BookFrame {
  table: string;
  action: 'partial' | 'delete' | 'update' | 'insert';
  data: unknown[];
  filter?: Record<string, string>;
}

/**
 * `orderBookL2` / `orderBookL2_25` without a symbol (or `:*`): every instrument, as BitMEX serves it — one
 * `partial` holding every symbol's levels (filter `{}`), then each poll's changes merged per action.
 */
function everySymbolBook(market: SimMarket, table: string): StreamSub | null {
  const subs = instrumentsOf('bitmex').flatMap((inst) => bitmexBookTopic(market, table, inst) ?? []);
  if (!subs.length) return null;
  return {
    poll(now) {
      const frames = subs.flatMap((sub) => sub.poll(now) as BookFrame[]);
      const out: BookFrame[] = [];
      const partials = frames.filter((f) => f.action === 'partial');
      if (partials.length) out.push({ ...partials[0], filter: {}, data: partials.flatMap((f) => f.data) });
      for (const action of ['delete', 'update', 'insert'] as const) {
        const data = frames.filter((f) => f.action === action).flatMap((f) => f.data);
        if (data.length) out.push({ table, action, data });
      }
      return out;
    },
  };
}

/** `orderBookL2:SYM` / `orderBookL2_25:SYM` (without a symbol: every instrument); null for another table. */
export function bitmexBookTopic(market: SimMarket, table: string, inst: SimInstrument | undefined): StreamSub | null {
  if (table !== 'orderBookL2' && table !== 'orderBookL2_25') return null;
  if (!inst) return everySymbolBook(market, table);
  const m = market.model(inst);
  const depth = table === 'orderBookL2_25' ? 25 : BOOK_LEVELS;
  const stream = new BookDeltaStream(bookOf(market, inst), depth, true);
  let sent: BookSides | null = null;
  return {
    poll(now) {
      const { snapshot, deltas } = stream.poll(now);
      if (snapshot) {
        sent = snapshot;
        return [
          {
            table,
            action: 'partial',
            keys: ['symbol', 'id', 'side'],
            types: L2_TYPES,
            foreignKeys: { symbol: 'instrument', side: 'side' },
            attributes: { symbol: 'parted', id: 'sorted' },
            filter: { symbol: inst.symbol },
            data: l2Rows(m, snapshot, 0, now),
          },
        ];
      }
      const last = deltas[deltas.length - 1];
      if (!last || !sent) return [];
      const time = Math.max(now, last.version * BOOK_VERSION_MS);
      const del: unknown[] = [];
      const ins: unknown[] = [];
      const upd: unknown[] = [];
      for (const [side, prev, next] of [
        ['Sell', sent.asks, last.book.asks],
        ['Buy', sent.bids, last.book.bids],
      ] as Array<[Side, Level[], Level[]]>) {
        const before = new Map(prev);
        for (const [p, s] of next) {
          const had = before.get(p);
          if (had === undefined) ins.push(l2Row(m, side, [p, s], time));
          else if (had !== s) upd.push(l2Row(m, side, [p, s], time));
          before.delete(p);
        }
        for (const p of before.keys()) del.push({ symbol: inst.symbol, id: levelId(m, p), side, price: numPrice(m, p), timestamp: iso(time) });
      }
      sent = last.book;
      const out: unknown[] = [];
      if (del.length) out.push({ table, action: 'delete', data: del });
      if (upd.length) out.push({ table, action: 'update', data: upd });
      if (ins.length) out.push({ table, action: 'insert', data: ins });
      return out;
    },
  };
}
