import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { http } from '../client';
import { messageResponseSchema } from '../contracts/common';
import {
  amendOrderBodySchema,
  balanceSchema,
  bracketBodySchema,
  bracketResultSchema,
  closePositionBodySchema,
  fillSchema,
  ladderBodySchema,
  leverageBodySchema,
  marginModeBodySchema,
  orderSchema,
  placeOrderBodySchema,
  positionSchema,
  tradeCursorPageSchema,
  type AmendOrderBody,
  type Balance,
  type BracketBody,
  type BracketResult,
  type ClosePositionBody,
  type Fill,
  type LadderBody,
  type LeverageBody,
  type MarginModeBody,
  type Order,
  type PlaceOrderBody,
  type Position,
} from '../contracts/trading';
import { retryServerErrors } from '../query-meta';

/**
 * `/v1/trade/{apiKeyId}/…` (DESIGN §3.2) for the trading panels. Every call carries the key password
 * in `X-Key-Password` (the server opens the key for that call only); answers are parsed with the
 * shared contracts. Queries live under `['trade', apiKeyId, …]`; the account stream (trade-stream.ts)
 * writes its snapshots into the same keys.
 */
export interface TradeKey {
  apiKeyId: string;
  keyPassword: string;
}

const base = (k: TradeKey) => `/v1/trade/${encodeURIComponent(k.apiKeyId)}`;
const headers = (k: TradeKey) => ({ 'X-Key-Password': k.keyPassword });

export const tradeQueryKey = {
  all: (apiKeyId: string) => ['trade', apiKeyId] as const,
  balance: (apiKeyId: string) => ['trade', apiKeyId, 'balance'] as const,
  positions: (apiKeyId: string) => ['trade', apiKeyId, 'positions'] as const,
  orders: (apiKeyId: string) => ['trade', apiKeyId, 'orders'] as const,
};

export async function getBalance(k: TradeKey): Promise<Balance> {
  const { data } = await http.get<unknown>(`${base(k)}/balance`, { headers: headers(k) });
  return balanceSchema.parse(data);
}

export async function getPositions(k: TradeKey): Promise<Position[]> {
  const { data } = await http.get<unknown>(`${base(k)}/positions`, { headers: headers(k) });
  return z.array(positionSchema).parse(data);
}

export async function getOpenOrders(k: TradeKey): Promise<Order[]> {
  const { data } = await http.get<unknown>(`${base(k)}/orders`, { headers: headers(k) });
  return z.array(orderSchema).parse(data);
}

export async function placeOrder(k: TradeKey, body: PlaceOrderBody): Promise<Order> {
  const { data } = await http.post<unknown>(`${base(k)}/orders`, placeOrderBodySchema.parse(body), { headers: headers(k) });
  return orderSchema.parse(data);
}

export async function placeBracket(k: TradeKey, body: BracketBody): Promise<BracketResult> {
  const { data } = await http.post<unknown>(`${base(k)}/brackets`, bracketBodySchema.parse(body), { headers: headers(k) });
  return bracketResultSchema.parse(data);
}

export async function cancelOrder(k: TradeKey, orderId: string): Promise<Order> {
  const { data } = await http.delete<unknown>(`${base(k)}/orders/${encodeURIComponent(orderId)}`, { headers: headers(k) });
  return orderSchema.parse(data);
}

export async function cancelAllOrders(k: TradeKey, symbol: string): Promise<string> {
  const { data } = await http.delete<unknown>(`${base(k)}/orders`, { headers: headers(k), params: { symbol } });
  return messageResponseSchema.parse(data).message;
}

export async function closePosition(k: TradeKey, body: ClosePositionBody): Promise<Order> {
  const { data } = await http.post<unknown>(`${base(k)}/positions/close`, closePositionBodySchema.parse(body), { headers: headers(k) });
  return orderSchema.parse(data);
}

const readOptions = { retry: retryServerErrors, staleTime: 5_000, refetchInterval: 15_000 } as const;

export function useBalance(k: TradeKey | null) {
  return useQuery({ queryKey: tradeQueryKey.balance(k?.apiKeyId ?? ''), queryFn: () => getBalance(k!), enabled: k !== null, ...readOptions, meta: { errorMessage: 'Unable to load the balance' } });
}

export function usePositions(k: TradeKey | null) {
  return useQuery({ queryKey: tradeQueryKey.positions(k?.apiKeyId ?? ''), queryFn: () => getPositions(k!), enabled: k !== null, ...readOptions, meta: { errorMessage: 'Unable to load positions' } });
}

export function useOpenOrders(k: TradeKey | null) {
  return useQuery({ queryKey: tradeQueryKey.orders(k?.apiKeyId ?? ''), queryFn: () => getOpenOrders(k!), enabled: k !== null, ...readOptions, meta: { errorMessage: 'Unable to load orders' } });
}

/**
 * A trading action; afterwards the account is read again (the stream usually got there first).
 * `optimistic` rows (SPEC status TEMPORARY) show in the open orders until the exchange answered.
 */
export function useTradeAction<A, R>(k: TradeKey | null, fn: (k: TradeKey, arg: A) => Promise<R>, errorMessage: string, optimistic?: (arg: A) => Order[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (arg: A) => {
      if (!k) throw new Error('Unlock an API key first');
      return fn(k, arg);
    },
    onMutate: (arg: A) => {
      const rows = k && optimistic ? optimistic(arg) : [];
      if (k && rows.length) queryClient.setQueryData<Order[]>(tradeQueryKey.orders(k.apiKeyId), (list = []) => [...rows, ...list]);
      return rows.map((r) => r.id);
    },
    onError: (_err, _arg, temporary) => {
      if (k && temporary?.length) queryClient.setQueryData<Order[]>(tradeQueryKey.orders(k.apiKeyId), (list = []) => list.filter((o) => !temporary.includes(o.id)));
    },
    onSettled: () => (k ? queryClient.invalidateQueries({ queryKey: tradeQueryKey.all(k.apiKeyId) }) : undefined),
    meta: { errorMessage },
  });
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

export async function amendOrder(k: TradeKey, orderId: string, body: AmendOrderBody): Promise<Order> {
  const { data } = await http.patch<unknown>(`${base(k)}/orders/${encodeURIComponent(orderId)}`, amendOrderBodySchema.parse(body), { headers: headers(k) });
  return orderSchema.parse(data);
}

export async function setLeverage(k: TradeKey, body: LeverageBody): Promise<string> {
  const { data } = await http.put<unknown>(`${base(k)}/leverage`, leverageBodySchema.parse(body), { headers: headers(k) });
  return messageResponseSchema.parse(data).message;
}

export async function setMarginMode(k: TradeKey, body: MarginModeBody): Promise<string> {
  const { data } = await http.put<unknown>(`${base(k)}/margin-mode`, marginModeBodySchema.parse(body), { headers: headers(k) });
  return messageResponseSchema.parse(data).message;
}

export async function executeOrder(k: TradeKey, orderId: string): Promise<Order> {
  const { data } = await http.post<unknown>(`${base(k)}/orders/${encodeURIComponent(orderId)}/execute`, undefined, { headers: headers(k) });
  return orderSchema.parse(data);
}

export async function getOrderHistory(k: TradeKey, symbol: string, cursor?: string): Promise<{ data: Order[]; nextCursor: string | null }> {
  const { data } = await http.get<unknown>(`${base(k)}/orders/history`, { headers: headers(k), params: { symbol, ...(cursor ? { cursor } : {}) } });
  return tradeCursorPageSchema(orderSchema).parse(data);
}

export async function getFills(k: TradeKey, symbol: string, cursor?: string): Promise<{ data: Fill[]; nextCursor: string | null }> {
  const { data } = await http.get<unknown>(`${base(k)}/fills`, { headers: headers(k), params: { symbol, ...(cursor ? { cursor } : {}) } });
  return tradeCursorPageSchema(fillSchema).parse(data);
}

export async function placeLadder(k: TradeKey, body: LadderBody): Promise<Order[]> {
  const { data } = await http.post<unknown>(`${base(k)}/ladders`, ladderBodySchema.parse(body), { headers: headers(k) });
  return z.array(orderSchema).parse(data);
}
