import { replaceEqualDeep } from '@tanstack/react-query';

const idOf = (x: unknown): unknown => (x !== null && typeof x === 'object' && 'id' in x ? (x as { id: unknown }).id : undefined);

/**
 * react-query's structural sharing for a list of records with ids (the open orders): each record keeps its
 * previous object while its fields are unchanged, wherever it moved in the list. The default sharing pairs
 * records by index, so a row prepended (an order's TEMPORARY row, a new order from the stream) made a new
 * object of every record after it — and every memoised row of the Orders panel drew again (issue 25 §1:
 * click → acknowledged row). The list itself is the previous one when nothing in it changed.
 */
export function shareById(previous: unknown, next: unknown): unknown {
  if (!Array.isArray(previous) || !Array.isArray(next)) return replaceEqualDeep(previous, next);
  const before = new Map<unknown, unknown>();
  for (const p of previous) {
    const id = idOf(p);
    if (id !== undefined) before.set(id, p);
  }
  let same = previous.length === next.length;
  const shared = next.map((n: unknown, i) => {
    const id = idOf(n);
    const p = id === undefined ? undefined : before.get(id);
    const v = p === undefined ? n : replaceEqualDeep(p, n);
    if (v !== previous[i]) same = false;
    return v;
  });
  return same ? previous : shared;
}
