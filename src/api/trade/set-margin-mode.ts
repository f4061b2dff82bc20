import { http } from '../client';
import { messageResponseSchema } from '../contracts/common';
import { marginModeBodySchema, type MarginModeBody } from '../contracts/trading';
import { keyPasswordHeader, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `PUT /v1/trade/{apiKeyId}/margin-mode`: cross or isolated for the symbol on the exchange account. */
export async function setMarginMode(k: TradeKey, body: MarginModeBody): Promise<string> {
  const { data } = await http.put<unknown>(tradeUrl(k, '/margin-mode'), marginModeBodySchema.parse(body), { headers: keyPasswordHeader(k) });
  return messageResponseSchema.parse(data).message;
}

/** Afterwards the symbol settings are read again (`useTradeAction` invalidates the key's queries). */
export function useSetMarginMode(k: TradeKey | null) {
  return useTradeAction(k, (key, body: MarginModeBody) => setMarginMode(key, body), 'Unable to set the margin mode');
}
