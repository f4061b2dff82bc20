import { http } from '../client';
import { orderSchema, type Order } from '../contracts/trading';
import { keyPasswordHeader, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `POST /v1/trade/{apiKeyId}/orders/{orderId}/execute`: a waiting stop traded at market now (FF_ENABLE_EXECUTE_NON_TRIGGERED). */
export async function executeOrder(k: TradeKey, orderId: string): Promise<Order> {
  const { data } = await http.post<unknown>(tradeUrl(k, `/orders/${encodeURIComponent(orderId)}/execute`), undefined, { headers: keyPasswordHeader(k) });
  return orderSchema.parse(data);
}

/** `mutate(orderId)`. */
export function useExecuteOrder(k: TradeKey | null) {
  return useTradeAction(k, (key, id: string) => executeOrder(key, id), 'Unable to execute the order');
}
