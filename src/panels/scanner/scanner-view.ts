import type { ExchangeId } from '../../api/contracts/common';
import { SCANNER_VIEW_DEFAULTS, scannerViewSchema, type ScannerView } from '../../api/contracts/scanner';
import type { BookRow } from './scanner-book';

/**
 * What the table shows, as pure functions of the rows and the view (filters, sort, favourites
 * first): tested without React, run on every repaint over all rows (2,000 rows: well under a
 * millisecond to filter and sort).
 */

/** A stored view (panel config or preset), field by field: a bad field takes the default. */
export function parseView(value: unknown): ScannerView {
  const input = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(scannerViewSchema.shape)) {
    const parsed = schema.safeParse(input[key]);
    out[key] = parsed.success ? parsed.data : SCANNER_VIEW_DEFAULTS[key as keyof ScannerView];
  }
  return out as ScannerView;
}

/** The exchanges the view watches: its own choice within the enabled ones, else every enabled one. */
export function watchedExchanges(view: ScannerView, enabled: readonly ExchangeId[]): ExchangeId[] {
  const chosen = view.exchanges.filter((e) => enabled.includes(e));
  return chosen.length ? chosen : [...enabled];
}

export function matchesView(row: BookRow, view: ScannerView, exchanges: readonly ExchangeId[]): boolean {
  if (!exchanges.includes(row.exchange)) return false;
  if (view.quotes.length && !view.quotes.includes(row.quote)) return false;
  if (view.minVolume !== null && (row.quoteVolume === null || row.quoteVolume < view.minVolume)) return false;
  if (view.minChange !== null && (row.changePercent === null || row.changePercent < view.minChange)) return false;
  if (view.maxChange !== null && (row.changePercent === null || row.changePercent > view.maxChange)) return false;
  const text = view.text.trim().toUpperCase();
  if (text && !row.symbol.toUpperCase().includes(text) && !row.base.toUpperCase().includes(text)) return false;
  return true;
}

/**
 * Sort by the view's column and direction; missing values (null) last either way; ties by pair
 * then exchange, so the order is total and does not shuffle between repaints. Favourites first
 * (when asked) before all that.
 */
export function rowComparator(view: ScannerView, favorites: ReadonlySet<string>): (a: BookRow, b: BookRow) => number {
  const sign = view.direction === 'asc' ? 1 : -1;
  const column = view.sort;
  return (a, b) => {
    if (view.favoritesFirst) {
      const fa = favorites.has(a.key);
      if (fa !== favorites.has(b.key)) return fa ? -1 : 1;
    }
    const va = a[column];
    const vb = b[column];
    if (va !== vb) {
      if (va === null) return 1;
      if (vb === null) return -1;
      const c = typeof va === 'number' && typeof vb === 'number' ? va - vb : String(va).localeCompare(String(vb));
      if (c !== 0) return sign * c;
    }
    return a.symbol === b.symbol ? (a.exchange < b.exchange ? -1 : a.exchange > b.exchange ? 1 : 0) : a.symbol < b.symbol ? -1 : 1;
  };
}

export interface OrderInput {
  rows: Iterable<BookRow>;
  view: ScannerView;
  exchanges: readonly ExchangeId[];
  favorites: ReadonlySet<string>;
}

/** The rows the view shows, in its order. */
export function orderRows({ rows, view, exchanges, favorites }: OrderInput): BookRow[] {
  const out: BookRow[] = [];
  for (const row of rows) if (matchesView(row, view, exchanges)) out.push(row);
  return out.sort(rowComparator(view, favorites));
}

/**
 * The order while the pointer is over the table: the rows keep the places they had (values still
 * change), so the row under the pointer does not move away from it. Rows that appeared meanwhile
 * go to the end; rows that are gone (delisted, exchange unwatched) leave. Rows that stopped
 * matching the filter stay until the pointer leaves — removing one would shift those below it.
 */
export function frozenOrder(previous: readonly BookRow[], rows: ReadonlyMap<string, BookRow>, input: OrderInput): BookRow[] {
  const kept: BookRow[] = [];
  const seen = new Set<string>();
  for (const old of previous) {
    const row = rows.get(old.key);
    if (!row || !input.exchanges.includes(row.exchange)) continue;
    kept.push(row);
    seen.add(row.key);
  }
  const added = orderRows(input).filter((r) => !seen.has(r.key));
  return added.length ? [...kept, ...added] : kept;
}
