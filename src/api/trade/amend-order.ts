import { http } from '../client';
import { amendOrderBodySchema, orderSchema, type AmendOrderBody, type Order } from '../contracts/trading';
import { keyPasswordHeader, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `PATCH /v1/trade/{apiKeyId}/orders/{orderId}`: a new price, trigger or size. */
export async function amendOrder(k: TradeKey, orderId: string, body: AmendOrderBody): Promise<Order> {
  const { data } = await http.patch<unknown>(tradeUrl(k, `/orders/${encodeURIComponent(orderId)}`), amendOrderBodySchema.parse(body), { headers: keyPasswordHeader(k) });
  return orderSchema.parse(data);
}

/** `mutate({ id, body })`. */
export function useAmendOrder(k: TradeKey | null) {
  return useTradeAction(k, (key, a: { id: string; body: AmendOrderBody }) => amendOrder(key, a.id, a.body), 'Unable to change the order');
}
