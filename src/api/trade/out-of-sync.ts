import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import type { Order } from '../contracts/trading';
import { getOrderHistory } from './list-order-history';
import { tradeQueryKey, type TradeKey } from './trade-key';

/**
 * Orders whose placing ended in a 502/504 the server could not settle with the exchange (it checks
 * by client id first): the terminal does not know whether they rest there. They show as OUT_OF_SYNC
 * until a read of the open orders made after the failure settles them — found open (the real row
 * replaces it), found in the history (filled or cancelled since), or found nowhere (not placed).
 */
const outOfSync = new Map<string, Array<{ row: Order; since: number; checking: boolean }>>();
let outOfSyncVersion = 0;
const outOfSyncListeners = new Set<() => void>();
const outOfSyncChanged = () => {
  outOfSyncVersion++;
  outOfSyncListeners.forEach((l) => l());
};

export function markOutOfSync(apiKeyId: string, rows: readonly Order[]): void {
  const list = outOfSync.get(apiKeyId) ?? [];
  const since = Date.now();
  for (const r of rows) if (r.clientOrderId) list.push({ row: { ...r, status: 'OUT_OF_SYNC' }, since, checking: false });
  outOfSync.set(apiKeyId, list);
  outOfSyncChanged();
}

const noteListeners = new Set<(note: string) => void>();
/** How an OUT_OF_SYNC row was settled, for the UI to tell the trader (returns the unsubscribe). */
export function onOutOfSyncSettled(listener: (note: string) => void): () => void {
  noteListeners.add(listener);
  return () => noteListeners.delete(listener);
}

function settleOutOfSync(apiKeyId: string, clientOrderId: string, note: string | null): void {
  const list = (outOfSync.get(apiKeyId) ?? []).filter((e) => e.row.clientOrderId !== clientOrderId);
  if (list.length) outOfSync.set(apiKeyId, list);
  else outOfSync.delete(apiKeyId);
  outOfSyncChanged();
  if (note) noteListeners.forEach((l) => l(note));
}

/** The open orders with the unsettled OUT_OF_SYNC rows after them (none that the exchange now lists). */
export function withOutOfSync(orders: readonly Order[], apiKeyId: string): Order[] {
  const rows = outOfSync.get(apiKeyId);
  if (!rows?.length) return orders as Order[];
  const known = new Set(orders.map((o) => o.clientOrderId));
  return [...orders, ...rows.filter((e) => !known.has(e.row.clientOrderId)).map((e) => e.row)];
}

/** A number that changes whenever the OUT_OF_SYNC rows do (re-renders its component). */
export function useOutOfSyncVersion(): number {
  return useSyncExternalStore(
    (l) => {
      outOfSyncListeners.add(l);
      return () => outOfSyncListeners.delete(l);
    },
    () => outOfSyncVersion,
  );
}

/**
 * Settles the key's OUT_OF_SYNC rows against a read of the open orders (`dataUpdatedAt`): a row the
 * exchange lists goes; one read after it failed is looked up in the pair's history, and the trader told.
 */
export function useSettleOutOfSync(k: TradeKey | null, dataUpdatedAt: number, version: number): void {
  const apiKeyId = k?.apiKeyId ?? '';
  const queryClient = useQueryClient();
  useEffect(() => {
    const rows = outOfSync.get(apiKeyId);
    if (!k || !rows?.length) return;
    const orders = queryClient.getQueryData<Order[]>(tradeQueryKey.orders(apiKeyId)) ?? [];
    for (const entry of rows) {
      const id = entry.row.clientOrderId!;
      if (orders.some((o) => o.clientOrderId === id)) {
        settleOutOfSync(apiKeyId, id, null);
      } else if (dataUpdatedAt > entry.since && !entry.checking) {
        entry.checking = true;
        getOrderHistory(k, entry.row.symbol)
          .then((page) => {
            const past = page.data.find((o) => o.clientOrderId === id);
            const what = `The ${entry.row.side === 'BUY' ? 'buy' : 'sell'} ${entry.row.qty} ${entry.row.symbol} order`;
            settleOutOfSync(apiKeyId, id, past ? `${what} reached the exchange and is now ${past.status.toLowerCase().replace('_', ' ')}` : `${what} was not placed`);
            void queryClient.invalidateQueries({ queryKey: tradeQueryKey.all(apiKeyId) });
          })
          .catch(() => {
            // Still unreachable: stays OUT_OF_SYNC; the next read tries again.
            entry.checking = false;
          });
      }
    }
  }, [k, apiKeyId, dataUpdatedAt, version, queryClient]);
}
