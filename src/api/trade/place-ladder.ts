import { z } from 'zod';
import { http } from '../client';
import { ladderBodySchema, ladderPartialSchema, orderSchema, type LadderBody, type Order } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

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

export function usePlaceLadder(k: TradeKey | null) {
  return useTradeAction(k, (key, body: LadderBody) => placeLadder(key, body), 'The ladder was refused', undefined, (r) => r.orders);
}
