import { add, dec, fixed, mul, normalise, roundToStep, str, sub, toNumber, type Decimal } from '../../api/contracts/decimal';
import type { BookLevel, BookView } from '../../api/market/order-flow/types';

/**
 * The ladder's rows (no React): a fixed number of price rows a step apart (the tick, or a multiple of
 * it), top row highest, centred on a price. Row prices are exact decimal strings — what a click sends —
 * while the book's sizes are summed into the rows as numbers, for drawing only, into arrays kept
 * between frames (no allocation per update in steady state).
 */
export interface LadderGrid {
  /** Price of each row, top first, as sent (`str`: "65000.5"). */
  prices: string[];
  /** The same, shown with the tick's decimals ("65000.50"). */
  labels: string[];
  /** Top row and step as numbers (drawing only: which row a book level falls in). */
  top: number;
  step: number;
}

/** The step of the rows: the tick times the grouping (exact). */
export const rowStep = (tickSize: string, group: number): string => str(mul(dec(tickSize), dec(group)));

/** The centre row's price for a price: the row holding it (nearest multiple of the step). */
export const centreOf = (price: number | string, step: string): string => str(roundToStep(dec(price), dec(step), 'half-even'));

/** `count` rows around `centre` (the centre at index ⌊count / 2⌋), shown with the tick's decimals. */
export function ladderGrid(centre: string, step: string, count: number, tickSize: string): LadderGrid {
  const s = dec(step);
  const scale = normalise(dec(tickSize)).scale;
  const half = Math.floor(count / 2);
  const topPrice: Decimal = add(dec(centre), mul(s, dec(half)));
  const prices: string[] = [];
  const labels: string[] = [];
  for (let i = 0; i < count; i++) {
    const p = sub(topPrice, mul(s, dec(i)));
    prices.push(str(p));
    labels.push(fixed(p, scale));
  }
  return { prices, labels, top: toNumber(topPrice), step: toNumber(s) };
}

// Tolerance of the float row index (prices are tick multiples: the error is far below a row).
const EPS = 1e-6;

/** The row of a bid (or a buy order) at `p`: grouped down to its row. -1 when outside. */
export function bidRow(grid: Pick<LadderGrid, 'top' | 'step'>, p: number, count: number): number {
  const i = Math.ceil((grid.top - p) / grid.step - EPS);
  return i >= 0 && i < count ? i : -1;
}

/** The row of an ask (or a sell order) at `p`: grouped up to its row. -1 when outside. */
export function askRow(grid: Pick<LadderGrid, 'top' | 'step'>, p: number, count: number): number {
  const i = Math.floor((grid.top - p) / grid.step + EPS);
  return i >= 0 && i < count ? i : -1;
}

/** The row nearest `p` (the last trade's, the position's entry). -1 when outside. */
export function nearestRow(grid: Pick<LadderGrid, 'top' | 'step'>, p: number, count: number): number {
  const i = Math.round((grid.top - p) / grid.step);
  return i >= 0 && i < count ? i : -1;
}

/** Sums one side's levels into `into` (zeroed first); returns the largest row's size. */
export function sumSide(levels: readonly BookLevel[], grid: LadderGrid, into: Float64Array, bids: boolean): number {
  into.fill(0);
  const count = into.length;
  let largest = 0;
  for (let k = 0; k < levels.length; k++) {
    const level = levels[k];
    const i = bids ? bidRow(grid, level.p, count) : askRow(grid, level.p, count);
    if (i < 0) {
      // Levels are best first: once past the grid's far edge nothing more lands in it.
      if (bids ? level.p < grid.top - grid.step * count : level.p > grid.top) break;
      continue;
    }
    into[i] += level.s;
    if (into[i] > largest) largest = into[i];
  }
  return largest;
}

/** Best bid, best ask and their mid as numbers (drawing: centring), null without both sides. */
export function midOf(book: Pick<BookView, 'bids' | 'asks'>): number | null {
  const bid = book.bids[0];
  const ask = book.asks[0];
  if (!bid || !ask) return bid?.p ?? ask?.p ?? null;
  return (bid.p + ask.p) / 2;
}

/** Whether `price` lies outside the rows (the ladder then centres itself on it). */
export function outside(grid: Pick<LadderGrid, 'top' | 'step'>, price: number, count: number): boolean {
  const bottom = grid.top - grid.step * (count - 1);
  return price > grid.top + grid.step / 2 || price < bottom - grid.step / 2;
}

/** A row's size as shown: compact, no trailing zeros ("1.25", "12.4k"); blank for nothing. */
export function sizeText(s: number): string {
  if (s <= 0) return '';
  if (s >= 1e6) return `${trim((s / 1e6).toFixed(2))}M`;
  if (s >= 1e4) return `${trim((s / 1e3).toFixed(1))}k`;
  if (s >= 100) return trim(s.toFixed(1));
  return trim(s.toPrecision(4));
}

const trim = (t: string) => (t.includes('.') ? t.replace(/\.?0+$/, '') : t);
