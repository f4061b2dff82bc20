import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, http } from '../client';
import type { Order, PlaceOrderBody } from '../contracts/trading';
import { useOpenOrders } from './list-open-orders';
import { onOutOfSyncSettled } from './out-of-sync';
import { placeOrder, temporaryOrder } from './place-order';
import { newClientOrderId, type TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

const KEY: TradeKey = { apiKeyId: '11111111-1111-4111-8111-111111111111', keyPassword: 'pw' };
const base = `/v1/trade/${KEY.apiKeyId}`;
const resting = (clientOrderId: string, status: Order['status'] = 'NEW'): Order => ({
  id: 'x1',
  clientOrderId,
  exchange: 'binance',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  status,
  qty: '0.01',
  filledQty: status === 'FILLED' ? '0.01' : '0',
  price: '60000',
  triggerPrice: null,
  avgFillPrice: null,
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
  createdAt: '2026-11-24T00:00:00.000Z',
  updatedAt: '2026-11-24T00:00:00.000Z',
  bracketId: null,
  role: null,
});

let open: Order[];
let history: Order[] | 'down';
const originalAdapter = http.defaults.adapter;
const answer = (config: InternalAxiosRequestConfig, status: number, data: unknown) => {
  if (status >= 400) {
    const err = Object.assign(new Error(`Request failed with status code ${status}`), { isAxiosError: true, config, response: { data, status, statusText: '', headers: {}, config } });
    return Promise.reject(err);
  }
  return Promise.resolve({ data, status, statusText: 'OK', headers: {}, config });
};
const adapter: AxiosAdapter = (config) => {
  if (config.url === `${base}/orders` && config.method === 'get') return answer(config, 200, open);
  if (config.url === `${base}/orders` && config.method === 'post')
    return answer(config, 504, { message: 'binance did not answer in time. Whether the order was placed is unknown: check open orders before sending it again' });
  if (config.url === `${base}/orders/history`) return history === 'down' ? answer(config, 504, { message: 'binance did not answer in time' }) : answer(config, 200, { data: history, nextCursor: null });
  return answer(config, 404, { message: `unexpected ${config.method} ${config.url}` });
};

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function useHarness() {
  const orders = useOpenOrders(KEY);
  const place = useTradeAction(KEY, (k, body: PlaceOrderBody) => placeOrder(k, body), 'The order was refused', (body) => [temporaryOrder('binance', body)]);
  return { orders, place };
}

const body = (clientOrderId: string): PlaceOrderBody => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.01', price: '60000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId });
const statuses = (orders: Order[] | undefined) => (orders ?? []).map((o) => `${o.clientOrderId}:${o.status}`);

beforeEach(() => {
  open = [];
  history = [];
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
});
afterEach(() => {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('OUT_OF_SYNC orders', () => {
  it('an order whose placing timed out shows OUT_OF_SYNC until the history says what became of it', async () => {
    history = 'down';
    const notes: string[] = [];
    const off = onOutOfSyncSettled((n) => notes.push(n));
    const { result } = renderHook(useHarness, { wrapper });
    await waitFor(() => expect(result.current.orders.isSuccess).toBe(true));
    const id = newClientOrderId();
    await act(async () => {
      await result.current.place.mutateAsync(body(id)).catch(() => undefined);
    });
    // The exchange could not be asked: the row stays, marked, after the re-read.
    await waitFor(() => expect(statuses(result.current.orders.data)).toEqual([`${id}:OUT_OF_SYNC`]));
    expect(notes).toEqual([]);
    // The exchange answers again and has it as filled: the row goes, the trader is told.
    history = [resting(id, 'FILLED')];
    await act(async () => {
      await result.current.orders.refetch();
    });
    await waitFor(() => expect(statuses(result.current.orders.data)).toEqual([]));
    expect(notes).toEqual(['The buy 0.01 BTCUSDT order reached the exchange and is now filled']);
    off();
  });

  it('a timed-out order the exchange lists as open is replaced by the real row', async () => {
    const { result } = renderHook(useHarness, { wrapper });
    await waitFor(() => expect(result.current.orders.isSuccess).toBe(true));
    const id = newClientOrderId();
    open = [resting(id)];
    await act(async () => {
      await result.current.place.mutateAsync(body(id)).catch(() => undefined);
    });
    await waitFor(() => expect(statuses(result.current.orders.data)).toEqual([`${id}:NEW`]));
  });

  it('a timed-out order found nowhere is reported as not placed', async () => {
    const notes: string[] = [];
    const off = onOutOfSyncSettled((n) => notes.push(n));
    const { result } = renderHook(useHarness, { wrapper });
    await waitFor(() => expect(result.current.orders.isSuccess).toBe(true));
    const id = newClientOrderId();
    await act(async () => {
      await result.current.place.mutateAsync(body(id)).catch(() => undefined);
    });
    await waitFor(() => expect(notes).toEqual(['The buy 0.01 BTCUSDT order was not placed']));
    expect(statuses(result.current.orders.data)).toEqual([]);
    off();
  });
});
