import { http } from '../client';
import { orderSchema, type Order } from '../contracts/trading';
import { keyPasswordHeader, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `DELETE /v1/trade/{apiKeyId}/orders/{orderId}`. */
export async function cancelOrder(k: TradeKey, orderId: string): Promise<Order> {
  const { data } = await http.delete<unknown>(tradeUrl(k, `/orders/${encodeURIComponent(orderId)}`), { headers: keyPasswordHeader(k) });
  return orderSchema.parse(data);
}

/** `mutate(orderId)`. */
export function useCancelOrder(k: TradeKey | null) {
  return useTradeAction(k, (key, id: string) => cancelOrder(key, id), 'Unable to cancel the order');
}
