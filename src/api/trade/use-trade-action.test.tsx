/**
 * Issue 25 §1 (click → acknowledged row): the exchange's answer to a placement is its acknowledgement, so the order
 * takes its TEMPORARY row's place as soon as it comes — not after the read of the open orders that follows it (here
 * that read never answers). An order answered already filled leaves no open row.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { apiClient, http } from '../client';
import type { Order, PlaceOrderBody } from '../contracts/trading';
import { useOpenOrders } from './list-open-orders';
import { usePlaceOrder, useQuietPlaceOrder } from './place-order';
import { reportAccountStream } from './stream-liveness';
import type { TradeKey } from './trade-key';
import { useActionsPending } from './use-trade-action';

const KEY: TradeKey = { apiKeyId: '22222222-2222-4222-8222-222222222222', keyPassword: 'pw' };
const base = `/v1/trade/${KEY.apiKeyId}`;
const answered = (body: PlaceOrderBody, status: Order['status']): Order => ({
  id: `BTCUSDT:o:${body.clientOrderId}`,
  clientOrderId: body.clientOrderId ?? null,
  exchange: 'binance',
  symbol: 'BTCUSDT',
  side: body.side,
  type: body.type,
  status,
  qty: body.qty,
  filledQty: status === 'FILLED' ? body.qty : '0',
  price: body.price ?? null,
  triggerPrice: null,
  avgFillPrice: status === 'FILLED' ? '60100' : null,
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
  createdAt: '2026-11-27T00:00:00.000Z',
  updatedAt: '2026-11-27T00:00:00.000Z',
  bracketId: null,
  role: null,
});

let reads = 0;
let posts = 0;
const originalAdapter = http.defaults.adapter;
const reply = (config: InternalAxiosRequestConfig, data: unknown) => Promise.resolve({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = (config) => {
  if (config.url === `${base}/orders` && config.method === 'get') {
    // The first read answers; the reads after a placement never do (the row must come from the answer).
    return reads++ === 0 ? reply(config, []) : new Promise(() => undefined);
  }
  if (config.url === `${base}/orders` && config.method === 'post') {
    const body = JSON.parse(String(config.data)) as PlaceOrderBody;
    posts += 1;
    return reply(config, answered(body, body.type === 'MARKET' ? 'FILLED' : 'NEW'));
  }
  return Promise.reject(new Error(`unexpected ${config.method} ${config.url}`));
};

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

beforeEach(() => {
  reads = 0;
  posts = 0;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
});
afterEach(() => {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

const limit = (clientOrderId: string): PlaceOrderBody => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.01', price: '60000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId });

it('the answer’s order replaces its TEMPORARY row at once; one answered filled leaves no open row', async () => {
  const { result } = renderHook(() => ({ orders: useOpenOrders(KEY), place: usePlaceOrder(KEY, 'binance') }), { wrapper });
  await waitFor(() => expect(result.current.orders.data).toEqual([]));

  const rows = () => (result.current.orders.data ?? []).map((o) => `${o.clientOrderId}:${o.status}`);
  // `mutate`, not `mutateAsync`: the mutation settles only after the read, which never answers here.
  act(() => result.current.place.mutate(limit('c1')));
  await waitFor(() => expect(rows()).toEqual(['c1:NEW']));

  act(() => result.current.place.mutate({ ...limit('c2'), type: 'MARKET', price: undefined }));
  await waitFor(() => expect(posts).toBe(2));
  await waitFor(() => expect(rows()).toEqual(['c1:NEW']));
});

it('while the key’s account stream is live, an order reads the open orders again only through the stream', async () => {
  const { result } = renderHook(() => ({ orders: useOpenOrders(KEY), place: usePlaceOrder(KEY, 'binance') }), { wrapper });
  await waitFor(() => expect(result.current.orders.data).toEqual([]));
  expect(reads).toBe(1);

  reportAccountStream(KEY.apiKeyId, true);
  try {
    await act(() => result.current.place.mutateAsync(limit('c3')));
    expect(result.current.orders.data?.map((o) => o.clientOrderId)).toEqual(['c3']);
    // Settled without a read of the open orders: the row came from the answer, its updates come from the stream.
    expect(reads).toBe(1);
  } finally {
    reportAccountStream(KEY.apiKeyId, false);
  }

  // The stream down: the order is followed by a read of the open orders again (it never answers here).
  act(() => result.current.place.mutate(limit('c4')));
  await waitFor(() => expect(reads).toBe(2));
});

it('a quiet action (Order entry) does not draw its caller again while it is sent; only what reads its pending state is', async () => {
  let callerRenders = 0;
  const { result } = renderHook(
    () => {
      callerRenders += 1;
      const place = useQuietPlaceOrder(KEY, 'binance');
      return { place, orders: useOpenOrders(KEY) };
    },
    { wrapper },
  );
  await waitFor(() => expect(result.current.orders.data).toEqual([]));
  const pending = renderHook(() => useActionsPending([result.current.place]), { wrapper });
  expect(pending.result.current).toBe(false);
  const before = callerRenders;
  // The stream live: the action settles without reading the open orders again (that read never answers here).
  reportAccountStream(KEY.apiKeyId, true);
  try {
    let sent: Promise<Order> | null = null;
    act(() => {
      sent = result.current.place.mutateAsync(limit('c5'));
    });
    await waitFor(() => expect(pending.result.current).toBe(true));
    const placed = await act(() => sent!);
    expect(placed.status).toBe('NEW');
    await waitFor(() => expect(pending.result.current).toBe(false));
  } finally {
    reportAccountStream(KEY.apiKeyId, false);
  }
  // The caller drew again for the open orders it reads (the TEMPORARY row, then the acknowledged one), never for the action's state.
  expect(result.current.orders.data?.map((o) => `${o.clientOrderId}:${o.status}`)).toEqual(['c5:NEW']);
  expect(callerRenders - before).toBeLessThanOrEqual(2);
});
