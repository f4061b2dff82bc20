/** Issue 26: the account reads (open orders, positions, balance) poll only while the key's account stream is not live. */
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { apiClient, http } from '../client';
import { balanceQueryOptions } from './get-balance';
import { openOrdersQueryOptions } from './list-open-orders';
import { positionsQueryOptions } from './list-positions';
import { reportAccountStream } from './stream-liveness';
import { ACCOUNT_POLL_MS, tradeQueryKey, type TradeKey } from './trade-key';

const KEY: TradeKey = { apiKeyId: '33333333-3333-4333-8333-333333333333', keyPassword: 'pw' };
const reads: string[] = [];
const originalAdapter = http.defaults.adapter;
const reply = (config: InternalAxiosRequestConfig, data: unknown) => Promise.resolve({ data, status: 200, statusText: 'OK', headers: {}, config });
const adapter: AxiosAdapter = (config) => {
  reads.push(String(config.url).split('/').pop() ?? '');
  if (config.url?.endsWith('/balance')) return reply(config, { currency: 'USDT', total: '1', available: '1', unrealisedPnl: '0', marginUsed: '0', assets: [] });
  return reply(config, []);
};

beforeEach(() => {
  vi.useFakeTimers();
  reads.length = 0;
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
});
afterEach(() => {
  vi.useRealTimers();
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

it('no read is polled while the stream is live; dropped, the account is read and polled again', async () => {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  reportAccountStream(KEY.apiKeyId, true);
  const observers = [openOrdersQueryOptions(KEY), positionsQueryOptions(KEY), balanceQueryOptions(KEY)].map((o) => new QueryObserver(client, o as never));
  const offs = observers.map((o) => o.subscribe(() => undefined));
  try {
    await vi.advanceTimersByTimeAsync(10);
    expect(reads.sort()).toEqual(['balance', 'orders', 'positions']);
    // Live for a minute: nothing polled.
    await vi.advanceTimersByTimeAsync(4 * ACCOUNT_POLL_MS);
    expect(reads).toHaveLength(3);
    // Dropped (account-store reads the key's account again): then polled every 15 s.
    reportAccountStream(KEY.apiKeyId, false);
    await client.invalidateQueries({ queryKey: tradeQueryKey.all(KEY.apiKeyId) });
    expect(reads).toHaveLength(6);
    await vi.advanceTimersByTimeAsync(ACCOUNT_POLL_MS + 10);
    expect(reads).toHaveLength(9);
  } finally {
    offs.forEach((off) => off());
    client.clear();
  }
});
