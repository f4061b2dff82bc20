import type { TradePrint } from './types';

/**
 * The public trades, newest last, in a fixed ring of preallocated prints (no allocation per trade
 * once full, except an aggregate's exact size sum).
 *
 * Aggregation: a print on the same side whose exchange time is within `aggregateMs` (default 5 ms) of
 * the newest print's FIRST trade merges into it — whatever its price, since one taker sweeping several
 * levels arrives as several prints in the same millisecond: sizes add up exactly (decimal strings),
 * `count` counts the trades, `price` is the last one's (where the sweep ended), `time` and `id` stay the
 * first one's.
 */
export class TradeRing {
  private readonly ring: TradePrint[];
  private readonly out: TradePrint[] = [];
  /** Index of the next slot to write; `size` prints are valid before it. */
  private head = 0;
  private size = 0;
  /** Time of the newest raw trade (not the aggregate's first): a replay older than it is dropped. */
  private lastTime = -Infinity;

  constructor(
    readonly capacity = 500,
    private readonly aggregateMs = 5,
  ) {
    this.ring = Array.from({ length: capacity }, () => ({ time: 0, price: '', size: '', p: 0, s: 0, side: 'buy' as const, count: 0, id: '' }));
  }

  /** The exchange time of the newest trade added (−Infinity before the first). */
  get newestTime(): number {
    return this.lastTime;
  }

  /** Adds one trade; false when it was dropped as older than the newest one seen (a replay). */
  push(time: number, price: string, size: string, side: 'buy' | 'sell', id: string): boolean {
    if (time < this.lastTime) return false;
    this.lastTime = time;
    const newest = this.size > 0 ? this.ring[(this.head + this.capacity - 1) % this.capacity]! : undefined;
    if (newest && newest.side === side && time - newest.time <= this.aggregateMs) {
      newest.size = addSizes(newest.size, size);
      newest.s += Number(size);
      newest.price = price;
      newest.p = Number(price);
      newest.count += 1;
      return true;
    }
    const slot = this.ring[this.head]!;
    slot.time = time;
    slot.price = price;
    slot.size = size;
    slot.p = Number(price);
    slot.s = Number(size);
    slot.side = side;
    slot.count = 1;
    slot.id = id;
    this.head = (this.head + 1) % this.capacity;
    this.size = Math.min(this.size + 1, this.capacity);
    return true;
  }

  /** The newest first, up to `limit`, in one reused array (its prints are reused too: copy what you keep). */
  newestFirst(limit = this.capacity): readonly TradePrint[] {
    const n = Math.min(limit, this.size);
    this.out.length = n;
    for (let i = 0; i < n; i++) this.out[i] = this.ring[(this.head + this.capacity - 1 - i) % this.capacity]!;
    return this.out;
  }
}

const PLAIN = /^\d+(\.\d+)?$/;

/** The exact sum of two non-negative decimal strings (`"0.1"` + `"0.2"` = `"0.3"`), trailing zeros dropped. */
export function addSizes(a: string, b: string): string {
  if (!PLAIN.test(a) || !PLAIN.test(b)) return String(Number(a) + Number(b));
  const [ai = '0', af = ''] = a.split('.');
  const [bi = '0', bf = ''] = b.split('.');
  const scale = Math.max(af.length, bf.length);
  const sum = (BigInt(ai + af.padEnd(scale, '0')) + BigInt(bi + bf.padEnd(scale, '0'))).toString();
  if (scale === 0) return sum;
  const digits = sum.padStart(scale + 1, '0');
  const frac = digits.slice(-scale).replace(/0+$/, '');
  const int = digits.slice(0, -scale);
  return frac ? `${int}.${frac}` : int;
}
