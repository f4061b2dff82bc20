import { http } from '../client';
import { orderSchema, placeOrderBodySchema, type Order, type PlaceOrderBody } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useQuietTradeAction, useTradeAction } from './use-trade-action';

/** `POST /v1/trade/{apiKeyId}/orders` with a client order id (resent once when the answer was lost). */
export async function placeOrder(k: TradeKey, body: PlaceOrderBody): Promise<Order> {
  const sent = placeOrderBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(tradeUrl(k, '/orders'), sent, { headers: keyPasswordHeader(k) }));
  return orderSchema.parse(data);
}

/** The row an order shows as until the exchange acknowledged it (status TEMPORARY). */
export function temporaryOrder(exchange: Order['exchange'], body: PlaceOrderBody): Order {
  const now = new Date().toISOString();
  return {
    id: `temporary:${Math.random().toString(36).slice(2)}`,
    clientOrderId: body.clientOrderId ?? null,
    exchange,
    symbol: body.symbol,
    side: body.side,
    type: body.type,
    status: 'TEMPORARY',
    qty: body.qty,
    filledQty: '0',
    price: body.price ?? null,
    triggerPrice: body.triggerPrice ?? null,
    avgFillPrice: null,
    reduceOnly: body.reduceOnly ?? false,
    postOnly: body.postOnly ?? false,
    timeInForce: body.timeInForce ?? 'GTC',
    createdAt: now,
    updatedAt: now,
    bracketId: null,
    role: null,
  };
}

const acknowledgedOrder = (order: Order) => [order];

/** Places an order, shown as a TEMPORARY row of `exchange` until the exchange answered. */
export function usePlaceOrder(k: TradeKey | null, exchange: Order['exchange']) {
  return useTradeAction(k, placeOrder, 'The order was refused', (body) => [temporaryOrder(exchange, body)], acknowledgedOrder);
}

/** `usePlaceOrder` whose caller is not drawn again while the order is sent (Order entry; `useActionsPending`). */
export function useQuietPlaceOrder(k: TradeKey | null, exchange: Order['exchange']) {
  return useQuietTradeAction(k, placeOrder, 'The order was refused', (body) => [temporaryOrder(exchange, body)], acknowledgedOrder);
}
