import { describe, expect, it } from 'vitest';
import { QUERY_GC_TIME_MS, clearUserData, createAppQueryClient, retryDelay } from './query-client';

describe('React Query defaults (SPEC §9)', () => {
  it('caches 5 minutes, retries queries 3 times and mutations never, refetches on focus', () => {
    const { queries, mutations } = createAppQueryClient().getDefaultOptions();
    expect(QUERY_GC_TIME_MS).toBe(300_000);
    expect(queries?.gcTime).toBe(300_000);
    expect(queries?.retry).toBe(3);
    expect(queries?.refetchOnWindowFocus).toBe(true);
    expect(mutations?.retry).toBe(0);
  });

  it('doubles the retry delay from 1000 ms up to 30000 ms', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});

describe('clearUserData', () => {
  it('drops user data but keeps the public config, flag map and maintenance message', () => {
    const client = createAppQueryClient();
    for (const key of [['config'], ['feature-flags', 'map'], ['maintenance'], ['users', 'me'], ['users', 'settings'], ['feature-flags', 'list']]) {
      client.setQueryData(key, { some: 'data' });
    }
    clearUserData(client);
    const left = client.getQueryCache().getAll().map((q) => q.queryKey.join('/'));
    expect(left.sort()).toEqual(['config', 'feature-flags/map', 'maintenance']);
  });
});
