import { crc32 } from 'node:zlib';
import type { StreamSub } from '../hub';
import { BOOK_VERSION_MS, bookOf, BookDeltaStream, TopOfBookStream, updateId, type BookView, type Level } from '../market/book';
import type { SimInstrument } from '../market/catalogue';
import { hashIndex } from '../market/hash';
import { Cadence } from '../market/live';
import type { SimMarket } from '../market/market';
import { publicTrades } from '../market/prints';
import type { InstrumentModel, Trade } from '../market/model';
import { fmtPrice, fmtQty, trimZeros } from '../market/units';

/**
 * OKX v5 order book and trades on the wire (the book model: market/book.ts): `GET /api/v5/market/books`,
 * `GET /api/v5/market/trades`, WS `books` (400 levels: snapshot, then `update` with `prevSeqId`/`seqId`
 * and the CRC32 `checksum`), `books5`, `bbo-tbt`. Levels are `[px, sz, "0", numOrders]`, sz in contracts.
 */

export const BOOKS_DEPTH = 400;
export const REST_MAX = 400;

export type OkxLevel = [string, string, string, string];

const numOrders = (p: number, s: number): number => 1 + (hashIndex(p >>> 0, s) % Math.min(40, 1 + Math.ceil(Math.log2(1 + s))));

export const okxLevel = (m: InstrumentModel) => ([p, s]: Level): OkxLevel => [
  trimZeros(fmtPrice(m, p)),
  s === 0 ? '0' : trimZeros(fmtQty(m, s)),
  '0',
  s === 0 ? '0' : String(numOrders(p, s)),
];

/**
 * OKX's checksum: the first 25 bids and asks interleaved as `bidPx:bidSz:askPx:askSz:…` (the longer
 * side's rest appended alone), CRC32 of that string as a SIGNED 32-bit integer.
 */
export function okxChecksum(bids: ReadonlyArray<readonly [string, string, ...string[]]>, asks: ReadonlyArray<readonly [string, string, ...string[]]>): number {
  const parts: string[] = [];
  for (let i = 0; i < 25; i++) {
    if (i < bids.length) parts.push(`${bids[i][0]}:${bids[i][1]}`);
    if (i < asks.length) parts.push(`${asks[i][0]}:${asks[i][1]}`);
  }
  return crc32(Buffer.from(parts.join(':'))) | 0;
}

/** `data[0]` of `GET /api/v5/market/books?instId&sz`. */
export function booksRest(m: InstrumentModel, b: BookView, sz: number) {
  const row = okxLevel(m);
  return { asks: b.asks.slice(0, sz).map(row), bids: b.bids.slice(0, sz).map(row), ts: String(b.time) };
}

/** `GET /api/v5/market/trades` item (newest first). */
export function restTradeItem(m: InstrumentModel, t: Trade) {
  return { instId: m.inst.symbol, side: t.buy ? 'buy' : 'sell', sz: trimZeros(fmtQty(m, t.steps)), px: trimZeros(fmtPrice(m, t.price)), source: '0', tradeId: String(t.id), ts: String(t.time) };
}

export const recentTrades = (market: SimMarket, inst: SimInstrument, now: number, limit: number): Trade[] =>
  publicTrades(market, inst, now - 5 * 60_000, now).slice(-limit).reverse();

/** `books`, `books5`, `bbo-tbt` on `/ws/v5/public`; null for another channel. */
export function okxBookChannel(market: SimMarket, inst: SimInstrument, channel: string): StreamSub | null {
  const m = market.model(inst);
  const arg = { channel, instId: inst.symbol };
  const row = okxLevel(m);
  const book = bookOf(market, inst);

  if (channel === 'books') {
    const stream = new BookDeltaStream(book, BOOKS_DEPTH);
    let prevSeqId = -1;
    return {
      poll(now) {
        const { snapshot, deltas } = stream.poll(now);
        if (snapshot) {
          const asks = snapshot.asks.map(row);
          const bids = snapshot.bids.map(row);
          const seqId = updateId(snapshot.version);
          prevSeqId = seqId;
          return [{ arg, action: 'snapshot', data: [{ asks, bids, ts: String(snapshot.time), checksum: okxChecksum(bids, asks), prevSeqId: -1, seqId }] }];
        }
        return deltas.flatMap((d) => {
          // No change in a version: nothing is sent (the next update's prevSeqId still names the last one sent).
          if (!d.bids.length && !d.asks.length) return [];
          const seqId = updateId(d.version);
          const frame = {
            arg,
            action: 'update',
            data: [{ asks: d.asks.map(row), bids: d.bids.map(row), ts: String(d.version * BOOK_VERSION_MS), checksum: okxChecksum(d.book.bids.slice(0, 25).map(row), d.book.asks.slice(0, 25).map(row)), prevSeqId, seqId }],
          };
          prevSeqId = seqId;
          return [frame];
        });
      },
    };
  }
  if (channel === 'books5') {
    const cadence = new Cadence(100);
    let last = '';
    return {
      poll(now) {
        if (!cadence.due(now)) return [];
        const b = book.view(now);
        if (!b) return [];
        const asks = b.asks.slice(0, 5).map(row);
        const bids = b.bids.slice(0, 5).map(row);
        const key = JSON.stringify([asks, bids]);
        if (key === last) return [];
        last = key;
        return [{ arg, data: [{ asks, bids, instId: inst.symbol, ts: String(b.time), seqId: updateId(b.version) }] }];
      },
    };
  }
  if (channel === 'bbo-tbt') {
    const top = new TopOfBookStream(book);
    return {
      poll(now) {
        return top.poll(now).map((x) => ({ arg, data: [{ asks: [row(x.ask)], bids: [row(x.bid)], ts: String(x.version * BOOK_VERSION_MS), seqId: updateId(x.version) }] }));
      },
    };
  }
  return null;
}
