import { z } from 'zod';
import { http } from '../client';
import { ladderBodySchema, ladderPartialSchema, orderSchema, type LadderBody, type Order } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useQuietTradeAction, useTradeAction } from './use-trade-action';

/** `POST ladders`: the orders placed, or (207) what stayed live after a refused order could not be undone. */
export async function placeLadder(k: TradeKey, body: LadderBody): Promise<{ orders: Order[]; partial: string | null }> {
  const sent = ladderBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const res = await sendOnce(() => http.post<unknown>(tradeUrl(k, '/ladders'), sent, { headers: keyPasswordHeader(k) }));
  if (res.status === 207) {
    const partial = ladderPartialSchema.parse(res.data);
    return { orders: partial.orders, partial: partial.message };
  }
  return { orders: z.array(orderSchema).parse(res.data), partial: null };
}

const ladderOrders = (r: { orders: Order[] }) => r.orders;

export function usePlaceLadder(k: TradeKey | null) {
  return useTradeAction(k, placeLadder, 'The ladder was refused', undefined, ladderOrders);
}

/** `usePlaceLadder` whose caller is not drawn again while the ladder is sent (Order entry; `useActionsPending`). */
export function useQuietPlaceLadder(k: TradeKey | null) {
  return useQuietTradeAction(k, placeLadder, 'The ladder was refused', undefined, ladderOrders);
}
