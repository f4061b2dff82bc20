import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Order } from '../contracts/trading';
import { httpStatus } from '../errors';
import { markOutOfSync } from './out-of-sync';
import { tradeQueryKey, type TradeKey } from './trade-key';

/** Statuses of an order that is still open (a row of the open orders). */
const OPEN_STATUSES: ReadonlySet<Order['status']> = new Set(['NEW', 'PARTIALLY_FILLED', 'UNTRIGGERED']);

/**
 * A trading action; afterwards the account is read again (the stream usually got there first).
 * `optimistic` rows (SPEC status TEMPORARY) show in the open orders until the exchange answered;
 * `acknowledged` gives the orders the answer carries (the exchange's acknowledgement): the open ones take the
 * TEMPORARY rows' place at once, without waiting for the read that follows (issue 25: click → acknowledged row).
 * The endpoint files wrap it (`usePlaceOrder`, `useCancelOrder`…) with their fallback message.
 */
export function useTradeAction<A, R>(
  k: TradeKey | null,
  fn: (k: TradeKey, arg: A) => Promise<R>,
  errorMessage: string,
  optimistic?: (arg: A) => Order[],
  acknowledged?: (result: R) => Order[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (arg: A) => {
      if (!k) throw new Error('Unlock an API key first');
      return fn(k, arg);
    },
    onMutate: (arg: A) => {
      const rows = k && optimistic ? optimistic(arg) : [];
      if (k && rows.length) queryClient.setQueryData<Order[]>(tradeQueryKey.orders(k.apiKeyId), (list = []) => [...rows, ...list]);
      return rows.map((r) => r.id);
    },
    onSuccess: (result, _arg, temporary) => {
      const acked = k && acknowledged ? acknowledged(result).filter((o) => OPEN_STATUSES.has(o.status)) : [];
      if (!k || (!acked.length && !temporary?.length)) return;
      const replaced = new Set([...(temporary ?? []), ...acked.map((o) => o.id)]);
      queryClient.setQueryData<Order[]>(tradeQueryKey.orders(k.apiKeyId), (list = []) => [...acked, ...list.filter((o) => !replaced.has(o.id))]);
    },
    onError: (err, arg, temporary) => {
      if (!k || !temporary?.length) return;
      // A 502/504 after the server's own check by client id: whether the order rests is unknown.
      const status = httpStatus(err);
      if (optimistic && (status === 502 || status === 504)) {
        const rows = optimistic(arg);
        markOutOfSync(
          k.apiKeyId,
          rows.map((r, i) => ({ ...r, id: temporary[i] ?? r.id })),
        );
      }
      queryClient.setQueryData<Order[]>(tradeQueryKey.orders(k.apiKeyId), (list = []) => list.filter((o) => !temporary.includes(o.id)));
    },
    onSettled: () => (k ? queryClient.invalidateQueries({ queryKey: tradeQueryKey.all(k.apiKeyId) }) : undefined),
    meta: { errorMessage },
  });
}
