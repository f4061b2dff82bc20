import type { BookLevel } from '../../api/market/order-flow';

/**
 * Grouping a book by tick multiples, exactly: prices become integers of the tick's last decimal
 * (`67391.5` with tick `0.1` → 673915), a group is a multiple of `ticks × tick` — bids round DOWN to it
 * (a bid of 100.7 with a 1.0 step rests in "100"), asks round UP (an ask of 100.2 → "101"), so a group
 * never shows a better price than its levels offer — and the group's price is written back from the
 * integer. Integer doubles are exact below 2^53, far beyond any price × 10^decimals traded.
 * Sizes are summed as numbers: they are drawn (bars, text), never sent.
 */
export const GROUPINGS = [1, 2, 5, 10, 50, 100] as const;

export interface Grid {
  /** Digits after the point of the tick size. */
  scale: number;
  /** The tick in units of 10^-scale. */
  tickUnits: number;
}

export function gridOf(tickSize: string): Grid | null {
  const m = /^(\d*)(?:\.(\d+))?$/.exec(tickSize.trim());
  if (!m) return null;
  const decimals = (m[2] ?? '').replace(/0+$/, '');
  const scale = decimals.length;
  const tickUnits = Number(`${m[1] ?? ''}${decimals}` || '0');
  return tickUnits > 0 ? { scale, tickUnits } : null;
}

/** A price (text or number) in grid units: the nearest integer (the exchange's prices sit on the grid). */
export function toUnits(p: number, grid: Grid): number {
  return Math.round(p * 10 ** grid.scale);
}

/** Grid units back to a decimal string with the tick's decimals (`673915`, scale 1 → `"67391.5"`). */
export function unitsToPrice(units: number, grid: Grid): string {
  if (grid.scale === 0) return String(units);
  const negative = units < 0;
  const digits = String(Math.abs(units)).padStart(grid.scale + 1, '0');
  const text = `${digits.slice(0, -grid.scale)}.${digits.slice(-grid.scale)}`;
  return negative ? `-${text}` : text;
}

/** The group a price falls in: bids (side 0) floor, asks (side 1) ceil, in grid units. */
export function groupUnits(p: number, side: 0 | 1, grid: Grid, ticks: number): number {
  const step = grid.tickUnits * ticks;
  const units = toUnits(p, grid);
  return (side === 0 ? Math.floor(units / step) : Math.ceil(units / step)) * step;
}

/** One row of the grouped book (reused between frames: `fillGroups` overwrites them). */
export interface GroupRow {
  price: string;
  units: number;
  s: number;
  /** Cumulative size from the best row to this one. */
  total: number;
}

/**
 * Fills `out` with up to `rows` groups of `levels` (best first), and returns how many. With one tick
 * (or no known tick) a group is a level and keeps the exchange's own price text.
 */
export function fillGroups(levels: readonly BookLevel[], side: 0 | 1, grid: Grid | null, ticks: number, out: GroupRow[], rows: number): number {
  let n = 0;
  let total = 0;
  for (let i = 0; i < levels.length; i++) {
    const level = levels[i]!;
    const units = grid ? groupUnits(level.p, side, grid, ticks) : level.p;
    total += level.s;
    const last = n > 0 ? out[n - 1]! : undefined;
    if (last && last.units === units) {
      last.s += level.s;
      last.total = total;
      continue;
    }
    if (n === rows) break;
    const row = (out[n] ??= { price: '', units: 0, s: 0, total: 0 });
    row.units = units;
    row.price = grid && ticks > 1 ? unitsToPrice(units, grid) : level.price;
    row.s = level.s;
    row.total = total;
    n += 1;
  }
  return n;
}
