import type { BracketBody, LadderBody, ManagedBracket, PlaceOrderBody } from '../../../api/contracts/trading';
import { newClientOrderId } from '../../../api/trade/trade-key';
import type { OrderEntryType } from '../../../state/user-settings';
import type { OrderEntryValues } from './order-entry-form';

/** What order entry sends, from the checked form: each body with a fresh client order id (a resend is harmless). */

const API_TYPE = { market: 'MARKET', limit: 'LIMIT', 'stop-market': 'STOP_MARKET', 'stop-limit': 'STOP_LIMIT', 'take-profit': 'TAKE_PROFIT' } as const;

export function ladderBody(v: OrderEntryValues, symbol: string, size: string): LadderBody {
  return { symbol, side: v.side, qty: size, from: v.price, to: v.to, count: v.count, distribution: v.distribution, reduceOnly: v.reduceOnly, postOnly: v.postOnly, clientOrderId: newClientOrderId() };
}

export function bracketBody(v: OrderEntryValues, symbol: string, size: string, managed: ManagedBracket | null): BracketBody {
  return {
    symbol,
    side: v.side,
    qty: size,
    entry: v.entryKind === 'LIMIT' ? { type: 'LIMIT', price: v.price } : { type: 'MARKET' },
    stopLoss: { triggerPrice: v.stopLoss.triggerPrice },
    takeProfits: v.takeProfits.map((t) => ({ price: t.price, qtyPercent: t.qtyPercent })),
    clientOrderId: newClientOrderId(),
    ...(managed ? { managed } : {}),
  };
}

/** A single order of a type other than bracket and ladder: the price and trigger its type takes; post-only and time in force for a limit. */
export function singleOrderBody(v: OrderEntryValues, type: OrderEntryType, symbol: string, size: string): PlaceOrderBody {
  const apiType = API_TYPE[type as keyof typeof API_TYPE];
  return {
    symbol,
    side: v.side,
    type: apiType,
    clientOrderId: newClientOrderId(),
    qty: size,
    ...(apiType === 'LIMIT' || apiType === 'STOP_LIMIT' || apiType === 'TAKE_PROFIT' ? { price: v.price } : {}),
    ...(apiType !== 'MARKET' && apiType !== 'LIMIT' ? { triggerPrice: v.triggerPrice } : {}),
    reduceOnly: v.reduceOnly,
    postOnly: apiType === 'LIMIT' && v.postOnly,
    timeInForce: apiType === 'LIMIT' && !v.postOnly ? v.timeInForce : 'GTC',
  };
}
