import { useMemo, useRef, useState } from 'react';
import type { ExchangeId } from '../../api/contracts/common';
import type { ScannerExchangeStatus, ScannerView } from '../../api/contracts/scanner';
import type { BookRow, ScannerBook } from './scanner-book';
import { frozenOrder, orderRows } from './scanner-view';

/**
 * The rows in the table's order; `setHovered(true)` (the pointer over the rows) holds their places
 * until it leaves. `generation` is the repaint: the book is mutated in place, so it stands for its contents.
 */
export function useHeldOrder(book: ScannerBook, generation: number, view: ScannerView, watched: ExchangeId[], favoriteKeys: ReadonlySet<string>) {
  const [hovered, setHovered] = useState(false);
  const shown = useRef<BookRow[]>([]);
  const rows = useMemo(() => {
    const input = { rows: book.rows.values(), view, exchanges: watched, favorites: favoriteKeys };
    // While the pointer is over the rows they keep their places (values still tick): a row never
    // slides away from under the pointer about to click it.
    return hovered ? frozenOrder(shown.current, book.rows, input) : orderRows(input);
    // `generation` is the repaint: the book is mutated in place, so it stands for its contents.
  }, [generation, view, watched, favoriteKeys, hovered, book]);
  shown.current = rows;
  return { rows, setHovered };
}

/** What the toolbar and the status line show of the book: its quote currencies, the watched rows' count, the watched exchanges' statuses. */
export function useBookSummary(book: ScannerBook, watched: ExchangeId[]) {
  const structure = book.structure;
  const quotes = useMemo(() => [...new Set([...book.rows.values()].map((r) => r.quote))].sort(), [book, structure]);
  let total = 0;
  for (const row of book.rows.values()) if (watched.includes(row.exchange)) total += 1;
  const statusList = watched.map((e) => book.statuses.get(e)).filter((s): s is ScannerExchangeStatus => s !== undefined);
  const statusKey = JSON.stringify(statusList);
  // The same list while its contents are the same (the key stands for them): the status line is memoised.
  const statuses = useMemo(() => statusList, [statusKey]);
  return { quotes, total, statuses };
}
