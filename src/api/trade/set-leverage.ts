import { http } from '../client';
import { messageResponseSchema } from '../contracts/common';
import { leverageBodySchema, type LeverageBody } from '../contracts/trading';
import { keyPasswordHeader, tradeUrl, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

/** `PUT /v1/trade/{apiKeyId}/leverage`: the symbol's leverage on the exchange account. */
export async function setLeverage(k: TradeKey, body: LeverageBody): Promise<string> {
  const { data } = await http.put<unknown>(tradeUrl(k, '/leverage'), leverageBodySchema.parse(body), { headers: keyPasswordHeader(k) });
  return messageResponseSchema.parse(data).message;
}

/** Afterwards the symbol settings are read again (`useTradeAction` invalidates the key's queries). */
export function useSetLeverage(k: TradeKey | null) {
  return useTradeAction(k, (key, body: LeverageBody) => setLeverage(key, body), 'Unable to set the leverage');
}
