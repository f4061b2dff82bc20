import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useSyncExternalStore } from 'react';
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
  IDEMPOTENCY_HEADER,
  ladderBodySchema,
  ladderPartialSchema,
  leverageBodySchema,
  marginModeBodySchema,
  orderSchema,
  placeOrderBodySchema,
  positionSchema,
  symbolSettingsSchema,
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
  type SymbolSettings,
} from '../contracts/trading';
import { httpStatus } from '../errors';
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
  /** Under `all`: every trading action (leverage and margin-mode changes included) reads it again. */
  symbolSettings: (apiKeyId: string, symbol: string) => ['trade', apiKeyId, 'symbol-settings', symbol] as const,
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

/** `GET symbol-settings`: the symbol's leverage and margin mode as the exchange holds them for the key, position or not (issue 22). */
export async function getSymbolSettings(k: TradeKey, symbol: string): Promise<SymbolSettings> {
  const { data } = await http.get<unknown>(`${base(k)}/symbol-settings`, { headers: headers(k), params: { symbol } });
  return symbolSettingsSchema.parse(data);
}

/** A client order id (letters and digits, 32 at most: every exchange takes it) that makes a resend of the same order harmless. */
export function newClientOrderId(): string {
  const random = globalThis.crypto?.randomUUID?.().replace(/-/g, '') ?? `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
  return `ct${random}`.slice(0, 32);
}

/**
 * Sends a request that carries an idempotency key, and sends it once more when the answer was lost
 * (no answer, or the exchange down or slow: 502, 503, 504): the server answers a retry with the same
 * key from what the first did, so the retry can never place anything twice (issue 21).
 */
async function sendOnce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const status = httpStatus(err);
    if (status !== null && status !== 502 && status !== 503 && status !== 504) throw err;
    await new Promise((r) => setTimeout(r, 500));
    return send();
  }
}

export async function placeOrder(k: TradeKey, body: PlaceOrderBody): Promise<Order> {
  const sent = placeOrderBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(`${base(k)}/orders`, sent, { headers: headers(k) }));
  return orderSchema.parse(data);
}

/**
 * `POST brackets`: 201 with the legs placed (a resting entry alone, with `planned` for when it
 * fills), or 207 with `partial` naming what stayed live after a refused leg could not be undone.
 */
export async function placeBracket(k: TradeKey, body: BracketBody): Promise<BracketResult> {
  const sent = bracketBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(`${base(k)}/brackets`, sent, { headers: headers(k) }));
  return bracketResultSchema.parse(data);
}

export async function cancelOrder(k: TradeKey, orderId: string): Promise<Order> {
  const { data } = await http.delete<unknown>(`${base(k)}/orders/${encodeURIComponent(orderId)}`, { headers: headers(k) });
  return orderSchema.parse(data);
}

export async function cancelAllOrders(k: TradeKey, symbol: string): Promise<string> {
  const key = newClientOrderId();
  const { data } = await sendOnce(() => http.delete<unknown>(`${base(k)}/orders`, { headers: { ...headers(k), [IDEMPOTENCY_HEADER]: key }, params: { symbol } }));
  return messageResponseSchema.parse(data).message;
}

export async function closePosition(k: TradeKey, body: ClosePositionBody): Promise<Order> {
  const sent = closePositionBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const { data } = await sendOnce(() => http.post<unknown>(`${base(k)}/positions/close`, sent, { headers: headers(k) }));
  return orderSchema.parse(data);
}

const readOptions = { retry: retryServerErrors, staleTime: 5_000, refetchInterval: 15_000 } as const;

export function useBalance(k: TradeKey | null) {
  return useQuery({ queryKey: tradeQueryKey.balance(k?.apiKeyId ?? ''), queryFn: () => getBalance(k!), enabled: k !== null, ...readOptions, meta: { errorMessage: 'Unable to load the balance' } });
}

export function usePositions(k: TradeKey | null) {
  return useQuery({ queryKey: tradeQueryKey.positions(k?.apiKeyId ?? ''), queryFn: () => getPositions(k!), enabled: k !== null, ...readOptions, meta: { errorMessage: 'Unable to load positions' } });
}

/**
 * The leverage and margin mode the exchange will use for the symbol's next order, with or without a
 * position (idle without a key or a symbol). Read again after every trading action of the key
 * (`useTradeAction` invalidates `['trade', apiKeyId]`: `PUT leverage` and `PUT margin-mode` too), and
 * every minute for a change made elsewhere (the exchange's own site, another device).
 */
export function useSymbolSettings(k: TradeKey | null, symbol: string | null) {
  return useQuery({
    queryKey: tradeQueryKey.symbolSettings(k?.apiKeyId ?? '', symbol ?? ''),
    queryFn: () => getSymbolSettings(k!, symbol!),
    enabled: k !== null && !!symbol,
    retry: retryServerErrors,
    staleTime: 5_000,
    refetchInterval: 60_000,
    meta: { errorMessage: 'Unable to read the leverage and margin mode' },
  });
}

/**
 * Orders whose placing ended in a 502/504 the server could not settle with the exchange (it checks
 * by client id first): the terminal does not know whether they rest there. They show as OUT_OF_SYNC
 * until a read of the open orders made after the failure settles them — found open (the real row
 * replaces it), found in the history (filled or cancelled since), or found nowhere (not placed).
 */
const outOfSync = new Map<string, Array<{ row: Order; since: number; checking: boolean }>>();
let outOfSyncVersion = 0;
const outOfSyncListeners = new Set<() => void>();
const outOfSyncChanged = () => {
  outOfSyncVersion++;
  outOfSyncListeners.forEach((l) => l());
};

export function markOutOfSync(apiKeyId: string, rows: readonly Order[]): void {
  const list = outOfSync.get(apiKeyId) ?? [];
  const since = Date.now();
  for (const r of rows) if (r.clientOrderId) list.push({ row: { ...r, status: 'OUT_OF_SYNC' }, since, checking: false });
  outOfSync.set(apiKeyId, list);
  outOfSyncChanged();
}

const noteListeners = new Set<(note: string) => void>();
/** How an OUT_OF_SYNC row was settled, for the UI to tell the trader (returns the unsubscribe). */
export function onOutOfSyncSettled(listener: (note: string) => void): () => void {
  noteListeners.add(listener);
  return () => noteListeners.delete(listener);
}

function settleOutOfSync(apiKeyId: string, clientOrderId: string, note: string | null): void {
  const list = (outOfSync.get(apiKeyId) ?? []).filter((e) => e.row.clientOrderId !== clientOrderId);
  if (list.length) outOfSync.set(apiKeyId, list);
  else outOfSync.delete(apiKeyId);
  outOfSyncChanged();
  if (note) noteListeners.forEach((l) => l(note));
}

/**
 * Legs a refused bracket left live because cancelling them failed (a 207's `partial.live`), by
 * client id, so the Orders panel can mark them until they are gone (issue 21).
 */
const leftLive = new Map<string, Map<string, string>>();
let leftLiveVersion = 0;
const leftLiveListeners = new Set<() => void>();

export function markLeftLive(apiKeyId: string, legs: ReadonlyArray<{ clientOrderId: string }>, why: string): void {
  const m = leftLive.get(apiKeyId) ?? new Map<string, string>();
  for (const l of legs) m.set(l.clientOrderId, why);
  leftLive.set(apiKeyId, m);
  leftLiveVersion++;
  leftLiveListeners.forEach((l) => l());
}

/** Client id → why it is live, for the key's legs left live by a refused bracket. */
export function useLeftLive(apiKeyId: string | null): ReadonlyMap<string, string> {
  useSyncExternalStore(
    (l) => {
      leftLiveListeners.add(l);
      return () => leftLiveListeners.delete(l);
    },
    () => leftLiveVersion,
  );
  return (apiKeyId && leftLive.get(apiKeyId)) || EMPTY_LEFT_LIVE;
}
const EMPTY_LEFT_LIVE: ReadonlyMap<string, string> = new Map();

/** The open orders with the unsettled OUT_OF_SYNC rows after them (none that the exchange now lists). */
export function withOutOfSync(orders: readonly Order[], apiKeyId: string): Order[] {
  const rows = outOfSync.get(apiKeyId);
  if (!rows?.length) return orders as Order[];
  const known = new Set(orders.map((o) => o.clientOrderId));
  return [...orders, ...rows.filter((e) => !known.has(e.row.clientOrderId)).map((e) => e.row)];
}

export function useOpenOrders(k: TradeKey | null) {
  const apiKeyId = k?.apiKeyId ?? '';
  const version = useSyncExternalStore(
    (l) => {
      outOfSyncListeners.add(l);
      return () => outOfSyncListeners.delete(l);
    },
    () => outOfSyncVersion,
  );
  // A new select whenever the OUT_OF_SYNC rows change.
  const select = useCallback((orders: Order[]) => (version >= 0 ? withOutOfSync(orders, apiKeyId) : orders), [apiKeyId, version]);
  const query = useQuery({ queryKey: tradeQueryKey.orders(apiKeyId), queryFn: () => getOpenOrders(k!), enabled: k !== null, ...readOptions, select, meta: { errorMessage: 'Unable to load orders' } });
  const queryClient = useQueryClient();
  const { dataUpdatedAt } = query;
  useEffect(() => {
    const rows = outOfSync.get(apiKeyId);
    if (!k || !rows?.length) return;
    const orders = queryClient.getQueryData<Order[]>(tradeQueryKey.orders(apiKeyId)) ?? [];
    for (const entry of rows) {
      const id = entry.row.clientOrderId!;
      if (orders.some((o) => o.clientOrderId === id)) {
        settleOutOfSync(apiKeyId, id, null);
      } else if (dataUpdatedAt > entry.since && !entry.checking) {
        entry.checking = true;
        getOrderHistory(k, entry.row.symbol)
          .then((page) => {
            const past = page.data.find((o) => o.clientOrderId === id);
            const what = `The ${entry.row.side === 'BUY' ? 'buy' : 'sell'} ${entry.row.qty} ${entry.row.symbol} order`;
            settleOutOfSync(apiKeyId, id, past ? `${what} reached the exchange and is now ${past.status.toLowerCase().replace('_', ' ')}` : `${what} was not placed`);
            void queryClient.invalidateQueries({ queryKey: tradeQueryKey.all(apiKeyId) });
          })
          .catch(() => {
            // Still unreachable: stays OUT_OF_SYNC; the next read tries again.
            entry.checking = false;
          });
      }
    }
  }, [k, apiKeyId, dataUpdatedAt, version, queryClient]);
  return query;
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
    onError: (err, arg, temporary) => {
      if (!k || !temporary?.length) return;
      // A 502/504 after the server's own check by client id: whether the order rests is unknown.
      const status = httpStatus(err);
      if (optimistic && (status === 502 || status === 504)) {
        const rows = optimistic(arg);
        markOutOfSync(
          k.apiKeyId,
          rows.map((r, i) => ({ ...r, id: temporary[i] ?? r.id })),
        );
      }
      queryClient.setQueryData<Order[]>(tradeQueryKey.orders(k.apiKeyId), (list = []) => list.filter((o) => !temporary.includes(o.id)));
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

/** `POST ladders`: the orders placed, or (207) what stayed live after a refused order could not be undone. */
export async function placeLadder(k: TradeKey, body: LadderBody): Promise<{ orders: Order[]; partial: string | null }> {
  const sent = ladderBodySchema.parse({ ...body, clientOrderId: body.clientOrderId ?? newClientOrderId() });
  const res = await sendOnce(() => http.post<unknown>(`${base(k)}/ladders`, sent, { headers: headers(k) }));
  if (res.status === 207) {
    const partial = ladderPartialSchema.parse(res.data);
    return { orders: partial.orders, partial: partial.message };
  }
  return { orders: z.array(orderSchema).parse(res.data), partial: null };
}
