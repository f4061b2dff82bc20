import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { AxiosAdapter, InternalAxiosRequestConfig } from 'axios';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiClient, http } from '../client';
import type { LeverageBody, MarginModeBody, SymbolSettings } from '../contracts/trading';
import { useSymbolSettings } from './get-symbol-settings';
import { setLeverage } from './set-leverage';
import { setMarginMode } from './set-margin-mode';
import type { TradeKey } from './trade-key';
import { useTradeAction } from './use-trade-action';

const KEY: TradeKey = { apiKeyId: '11111111-1111-4111-8111-111111111111', keyPassword: 'pw' };
const base = `/v1/trade/${KEY.apiKeyId}`;

/** The exchange's settings per symbol, as the fake server holds them; every request, as sent. */
let held: Record<string, SymbolSettings>;
let requests: Array<{ method: string; url: string; symbol?: string; password?: string }>;
const originalAdapter = http.defaults.adapter;
const answer = (config: InternalAxiosRequestConfig, status: number, data: unknown) => {
  if (status >= 400) {
    const err = Object.assign(new Error(`Request failed with status code ${status}`), { isAxiosError: true, config, response: { data, status, statusText: '', headers: {}, config } });
    return Promise.reject(err);
  }
  return Promise.resolve({ data, status, statusText: 'OK', headers: {}, config });
};
const adapter: AxiosAdapter = (config) => {
  const params = (config.params ?? {}) as { symbol?: string };
  requests.push({ method: String(config.method), url: String(config.url), symbol: params.symbol, password: config.headers?.['X-Key-Password'] as string | undefined });
  if (config.url === `${base}/symbol-settings` && config.method === 'get') {
    const s = params.symbol ? held[params.symbol] : undefined;
    return s ? answer(config, 200, s) : answer(config, 400, { message: `${params.symbol} is not a perpetual of binance`, fields: { symbol: `Unknown symbol ${params.symbol}` } });
  }
  if (config.method === 'put' && (config.url === `${base}/leverage` || config.url === `${base}/margin-mode`)) {
    const body = JSON.parse(String(config.data)) as Partial<LeverageBody & MarginModeBody> & { symbol: string };
    const s = held[body.symbol];
    if (body.leverage !== undefined) s.leverage = String(body.leverage);
    if (body.marginMode !== undefined) s.marginMode = body.marginMode;
    return answer(config, 200, { message: 'ok' });
  }
  return answer(config, 404, { message: `unexpected ${config.method} ${config.url}` });
};

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

function useHarness(symbol: string | null) {
  const settings = useSymbolSettings(KEY, symbol);
  const leverage = useTradeAction(KEY, (k, body: LeverageBody) => setLeverage(k, body), 'Unable to set the leverage');
  const mode = useTradeAction(KEY, (k, body: MarginModeBody) => setMarginMode(k, body), 'Unable to set the margin mode');
  return { settings, leverage, mode };
}

beforeEach(() => {
  held = { BTCUSDT: { symbol: 'BTCUSDT', leverage: '20', marginMode: 'CROSS' }, ETHUSDT: { symbol: 'ETHUSDT', leverage: '5', marginMode: 'ISOLATED' } };
  requests = [];
  http.defaults.adapter = adapter;
  apiClient.setTokens({ accessToken: 'access', refreshToken: 'refresh' });
});
afterEach(() => {
  http.defaults.adapter = originalAdapter;
  apiClient.clearTokens();
});

describe('useSymbolSettings', () => {
  it("reads the symbol's settings with the key password, per symbol", async () => {
    const { result, rerender } = renderHook(({ symbol }) => useHarness(symbol), { wrapper, initialProps: { symbol: 'BTCUSDT' as string | null } });
    await waitFor(() => expect(result.current.settings.data).toEqual({ symbol: 'BTCUSDT', leverage: '20', marginMode: 'CROSS' }));
    expect(requests[0]).toEqual({ method: 'get', url: `${base}/symbol-settings`, symbol: 'BTCUSDT', password: 'pw' });
    rerender({ symbol: 'ETHUSDT' });
    await waitFor(() => expect(result.current.settings.data).toEqual({ symbol: 'ETHUSDT', leverage: '5', marginMode: 'ISOLATED' }));
  });

  it('is idle without a symbol', async () => {
    const { result } = renderHook(() => useHarness(null), { wrapper });
    await act(async () => undefined);
    expect(result.current.settings.fetchStatus).toBe('idle');
    expect(requests).toEqual([]);
  });

  it('reads again after the leverage and the margin mode are set', async () => {
    const { result } = renderHook(() => useHarness('BTCUSDT'), { wrapper });
    await waitFor(() => expect(result.current.settings.data?.leverage).toBe('20'));
    await act(async () => {
      await result.current.leverage.mutateAsync({ symbol: 'BTCUSDT', leverage: 7 });
    });
    await waitFor(() => expect(result.current.settings.data).toEqual({ symbol: 'BTCUSDT', leverage: '7', marginMode: 'CROSS' }));
    await act(async () => {
      await result.current.mode.mutateAsync({ symbol: 'BTCUSDT', marginMode: 'ISOLATED' });
    });
    await waitFor(() => expect(result.current.settings.data).toEqual({ symbol: 'BTCUSDT', leverage: '7', marginMode: 'ISOLATED' }));
  });
});
