import { http } from '../client';
import { bracketBodySchema, bracketResultSchema, type BracketBody, type BracketResult } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useQuietTradeAction, useTradeAction } from './use-trade-action';

/**
 * `POST brackets`: 201 with the legs placed (a resting entry alone, with `planned` for when it
 * fills), or 207 with `partial` naming what stayed live after a refused leg could not be undone.
 */
export async function placeBracket(k: TradeKey, body: BracketBody): Promise<BracketResult> {
  const sent = bracketBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(tradeUrl(k, '/brackets'), sent, { headers: keyPasswordHeader(k) }));
  return bracketResultSchema.parse(data);
}

const bracketOrders = (r: BracketResult) => r.orders;

export function usePlaceBracket(k: TradeKey | null) {
  return useTradeAction(k, placeBracket, 'The bracket was refused', undefined, bracketOrders);
}

/** `usePlaceBracket` whose caller is not drawn again while the bracket is sent (Order entry; `useActionsPending`). */
export function useQuietPlaceBracket(k: TradeKey | null) {
  return useQuietTradeAction(k, placeBracket, 'The bracket was refused', undefined, bracketOrders);
}
