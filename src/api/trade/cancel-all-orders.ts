import { http } from '../client';
import { messageResponseSchema } from '../contracts/common';
import { IDEMPOTENCY_HEADER } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `DELETE /v1/trade/{apiKeyId}/orders?symbol=`: every open order of the pair (an idempotency key makes the resend harmless). */
export async function cancelAllOrders(k: TradeKey, symbol: string): Promise<string> {
  const key = newClientOrderId();
  const { data } = await sendOnce(() => http.delete<unknown>(tradeUrl(k, '/orders'), { headers: { ...keyPasswordHeader(k), [IDEMPOTENCY_HEADER]: key }, params: { symbol } }));
  return messageResponseSchema.parse(data).message;
}

/** `mutate(symbol)`. */
export function useCancelAllOrders(k: TradeKey | null) {
  return useTradeAction(k, (key, symbol: string) => cancelAllOrders(key, symbol), 'Unable to cancel the orders');
}
