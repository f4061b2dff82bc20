import type { BookLevel } from './types';
import { CRC32_START, crc32Feed, crc32Finish } from './crc32';

/** 0 = bids (best = highest first), 1 = asks (best = lowest first). */
export type BookSide = 0 | 1;

/**
 * A local order book: per side one array of levels kept sorted best first, searched by binary search
 * on the price's number and spliced in place. Level objects removed from the book go to a pool and come
 * back for new levels, so a steady stream of updates allocates nothing here (DESIGN: no allocation per
 * update). Prices and sizes stay the exchange's strings as received (OKX's checksum reads them).
 */
export class LocalBook {
  readonly sides: [BookLevel[], BookLevel[]] = [[], []];
  private readonly pool: BookLevel[] = [];

  clear(): void {
    for (const side of this.sides) {
      for (const level of side) this.pool.push(level);
      side.length = 0;
    }
  }

  get empty(): boolean {
    return this.sides[0].length === 0 && this.sides[1].length === 0;
  }

  /** Sets a level's size; a zero size removes it (every exchange's delta convention). */
  set(side: BookSide, price: string, size: string): void {
    const p = Number(price);
    const s = Number(size);
    const levels = this.sides[side];
    const at = this.search(side, p);
    const found = at < levels.length && levels[at]!.p === p;
    if (s === 0) {
      if (found) this.pool.push(levels.splice(at, 1)[0]!);
      return;
    }
    if (found) {
      const level = levels[at]!;
      level.size = size;
      level.s = s;
      return;
    }
    const level = this.pool.pop() ?? { price: '', size: '', p: 0, s: 0 };
    level.price = price;
    level.size = size;
    level.p = p;
    level.s = s;
    levels.splice(at, 0, level);
  }

  /** Removes the level at this price, if any (BitMEX deletes by id). */
  remove(side: BookSide, p: number): void {
    const levels = this.sides[side];
    const at = this.search(side, p);
    if (at < levels.length && levels[at]!.p === p) this.pool.push(levels.splice(at, 1)[0]!);
  }

  /** Keeps the best `depth` levels per side (Bybit's `orderbook.N` drops what falls out of its N). */
  trim(depth: number): void {
    for (const side of this.sides) {
      while (side.length > depth) this.pool.push(side.pop()!);
    }
  }

  /** The best bid is below the best ask (or a side is empty). */
  sane(): boolean {
    const [bids, asks] = this.sides;
    return bids.length === 0 || asks.length === 0 || bids[0]!.p < asks[0]!.p;
  }

  /**
   * OKX's documented checksum: the first 25 bids and asks interleaved as `bidPx:bidSz:askPx:askSz:…`
   * (a side that runs out is skipped), CRC-32 as a signed 32-bit integer.
   */
  okxChecksum(): number {
    const [bids, asks] = this.sides;
    let crc = CRC32_START;
    let n = 0;
    for (let i = 0; i < 25; i++) {
      if (i < bids.length) crc = feedLevel(crc, bids[i]!, n++ > 0);
      if (i < asks.length) crc = feedLevel(crc, asks[i]!, n++ > 0);
    }
    return crc32Finish(crc);
  }

  /** Index of the level at `p`, or where it would go, best first. */
  private search(side: BookSide, p: number): number {
    const levels = this.sides[side];
    let lo = 0;
    let hi = levels.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const q = levels[mid]!.p;
      const before = side === 0 ? q > p : q < p;
      if (before) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** `[:]price:size` into a running CRC (no joined string is built). */
function feedLevel(crc: number, level: BookLevel, separator: boolean): number {
  let c = separator ? crc32Feed(crc, ':') : crc;
  c = crc32Feed(c, level.price);
  c = crc32Feed(c, ':');
  return crc32Feed(c, level.size);
}
