import type { DataTableSortStatus } from 'mantine-datatable';
import { cmp, dec, isDecimalString } from '../api/contracts/decimal';

/**
 * Sorts the loaded rows of a cursor-paged table by a column (numbers numerically, money as exact
 * decimal text by value — "9.5" before "10", text with the locale, missing values last); used where the server pages in one fixed order.
 */
export function sortRecords<T>(records: readonly T[], status: DataTableSortStatus<T>, value?: (row: T) => unknown): T[] {
  const read = value ?? ((row: T) => (row as Record<string, unknown>)[status.columnAccessor as string]);
  const dir = status.direction === 'asc' ? 1 : -1;
  return [...records].sort((a, b) => {
    const va = read(a);
    const vb = read(b);
    if (va === vb) return 0;
    if (va === null || va === undefined) return 1;
    if (vb === null || vb === undefined) return -1;
    if (typeof va === 'number' && typeof vb === 'number') return (va - vb) * dir;
    if (typeof va === 'string' && typeof vb === 'string' && isDecimalString(va) && isDecimalString(vb)) return cmp(dec(va), dec(vb)) * dir;
    return String(va).localeCompare(String(vb)) * dir;
  });
}
