import { http } from '../client';
import { bracketBodySchema, bracketResultSchema, type BracketBody, type BracketResult } from '../contracts/trading';
import { keyPasswordHeader, newClientOrderId, sendOnce, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/**
 * `POST brackets`: 201 with the legs placed (a resting entry alone, with `planned` for when it
 * fills), or 207 with `partial` naming what stayed live after a refused leg could not be undone.
 */
export async function placeBracket(k: TradeKey, body: BracketBody): Promise<BracketResult> {
  const sent = bracketBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(tradeUrl(k, '/brackets'), sent, { headers: keyPasswordHeader(k) }));
  return bracketResultSchema.parse(data);
}

export function usePlaceBracket(k: TradeKey | null) {
  return useTradeAction(k, (key, body: BracketBody) => placeBracket(key, body), 'The bracket was refused', undefined, (r) => r.orders);
}
