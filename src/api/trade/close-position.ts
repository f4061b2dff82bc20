import { http } from '../client';
import { closePositionBodySchema, orderSchema, type ClosePositionBody, type Order } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `POST /v1/trade/{apiKeyId}/positions/close` with a client order id (resent once when the answer was lost). */
export async function closePosition(k: TradeKey, body: ClosePositionBody): Promise<Order> {
  const sent = closePositionBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(tradeUrl(k, '/positions/close'), sent, { headers: keyPasswordHeader(k) }));
  return orderSchema.parse(data);
}

export function useClosePosition(k: TradeKey | null) {
  return useTradeAction(k, (key, body: ClosePositionBody) => closePosition(key, body), 'Unable to close the position');
}
