import { MutationObserver, useMutation, useQueryClient, type MutationObserverOptions } from '@tanstack/react-query';
import { useCallback, useLayoutEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { Order } from '../contracts/trading';
import { httpStatus } from '../errors';
import { markOutOfSync } from './out-of-sync';
import { isAccountStreamLive } from './stream-liveness';
import { tradeQueryKey, type TradeKey } from './trade-key';

/** The parts of a key's account its live stream keeps current (`tradeQueryKey`'s third element). */
const STREAMED_PARTS: ReadonlySet<string> = new Set(['orders', 'positions', 'balance']);

/** Statuses of an order that is still open (a row of the open orders). */
const OPEN_STATUSES: ReadonlySet<Order['status']> = new Set(['NEW', 'PARTIALLY_FILLED', 'UNTRIGGERED']);

/**
 * A trading action; afterwards the account is read again (what its live stream does not keep, while it is live).
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
  return useMutation(useTradeActionOptions(k, fn, errorMessage, optimistic, acknowledged));
}

/** Whether an action is being sent, and a way to hear when that changes. */
export interface Sending {
  isPending(): boolean;
  subscribe(onChange: () => void): () => void;
}

/** A trading action whose caller is not drawn again when its state changes: `useActionsPending` reads that where it is shown. */
export interface QuietAction<A, R> extends Sending {
  mutateAsync(arg: A): Promise<R>;
}

/**
 * `useTradeAction` for a big form (Order entry): the same action, optimistic rows and acknowledgement, but the
 * component that sends it does not subscribe to it — a pending and a settled state drew the whole form again,
 * twice per order, on the main thread between the click and the acknowledged row (issue 25 §1). The button
 * that shows the busy state subscribes with `useActionsPending`.
 */
export function useQuietTradeAction<A, R>(
  k: TradeKey | null,
  fn: (k: TradeKey, arg: A) => Promise<R>,
  errorMessage: string,
  optimistic?: (arg: A) => Order[],
  acknowledged?: (result: R) => Order[],
): QuietAction<A, R> {
  const queryClient = useQueryClient();
  const options = useTradeActionOptions(k, fn, errorMessage, optimistic, acknowledged);
  const [observer] = useState(() => new MutationObserver<R, Error, A, string[]>(queryClient, options));
  // The latest key and callbacks before any press can send (a layout effect: before the browser shows the button).
  useLayoutEffect(() => observer.setOptions(options));
  return useMemo(
    () => ({
      mutateAsync: (arg: A) => observer.mutate(arg),
      isPending: () => observer.getCurrentResult().isPending,
      subscribe: (onChange: () => void) => observer.subscribe(onChange),
    }),
    [observer],
  );
}

/** True while any of `actions` (a list kept between renders) is being sent; re-renders only its caller, when that changes. */
export function useActionsPending(actions: readonly Sending[]): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const offs = actions.map((a) => a.subscribe(onChange));
      return () => offs.forEach((off) => off());
    },
    [actions],
  );
  return useSyncExternalStore(subscribe, () => actions.some((a) => a.isPending()));
}

/** The options of a trading action (see `useTradeAction`). */
function useTradeActionOptions<A, R>(
  k: TradeKey | null,
  fn: (k: TradeKey, arg: A) => Promise<R>,
  errorMessage: string,
  optimistic?: (arg: A) => Order[],
  acknowledged?: (result: R) => Order[],
): MutationObserverOptions<R, Error, A, string[]> {
  const queryClient = useQueryClient();
  return {
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
    // Afterwards the key's account is read again — but while its stream is live, not what the stream keeps (the open
    // orders from its events, positions and balance on its fills): those reads and their re-renders would land on
    // the row the answer just drew (issue 25: click → acknowledged row). The polling (15 s) stays as the fallback.
    onSettled: () => {
      if (!k) return undefined;
      const streamed = isAccountStreamLive(k.apiKeyId);
      return queryClient.invalidateQueries({ queryKey: tradeQueryKey.all(k.apiKeyId), predicate: (q) => !streamed || !STREAMED_PARTS.has(String(q.queryKey[2])) });
    },
    meta: { errorMessage },
  };
}
