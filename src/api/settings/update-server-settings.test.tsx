import { MutationCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SERVER_SETTINGS_DEFAULTS, type ServerSettings } from '../contracts/settings';
import { errorMessage } from '../errors';
import { installFakeApi, signInForTest, type FakeReply } from '../testing/fake-api';
import { serverSettingsQueryKey } from './get-server-settings';
import { receiveServerSettings, useUpdateServerSettings } from './update-server-settings';

type Deferred = { resolve: () => void };

let api: ReturnType<typeof installFakeApi>;
/** Stored on the fake server; PATCHes merge into it like the real one does. */
let stored: ServerSettings;
/** Replies to hold back: each PATCH waits for the test to release it. */
let held: Deferred[];
let holdPatches: boolean;
let failWith: { status: number; data?: unknown } | null;
let toasts: string[];
/** The SPEC §8 fallback each failed mutation declared. */
let fallbacks: (string | undefined)[];

function patchRoute({ body }: { body: unknown }): FakeReply {
  const answer = (): { status: number; data?: unknown } => {
    if (failWith) return failWith;
    stored = { ...stored, ...(body as Partial<ServerSettings>) };
    return { status: 200, data: stored };
  };
  if (!holdPatches) return answer();
  return new Promise((resolve) => held.push({ resolve: () => resolve(answer()) }));
}

function setup(initial: Partial<ServerSettings> = {}) {
  stored = { ...SERVER_SETTINGS_DEFAULTS, ...initial };
  // What the app's client does with a failed mutation (src/app/query-client.ts): toast the server's
  // message, else the error's, else the endpoint's fallback.
  const client = new QueryClient({
    mutationCache: new MutationCache({ onError: (error, _v, _c, mutation) => {
        fallbacks.push(mutation.meta?.errorMessage);
        toasts.push(errorMessage(error, mutation.meta?.errorMessage ?? ''));
      },
    }),
    defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: 0 } },
  });
  client.setQueryData<ServerSettings>(serverSettingsQueryKey, stored);
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
  const { result } = renderHook(() => useUpdateServerSettings(), { wrapper });
  const cached = () => client.getQueryData<ServerSettings>(serverSettingsQueryKey)!;
  return { client, result, cached };
}

beforeEach(() => {
  held = [];
  holdPatches = false;
  failWith = null;
  toasts = [];
  fallbacks = [];
  api = installFakeApi({ 'PATCH /v1/users/settings': patchRoute });
  signInForTest();
});

afterEach(() => api.restore());

describe('useUpdateServerSettings', () => {
  it('shows a risk option change at once and keeps the server answer', async () => {
    holdPatches = true;
    const { result, cached } = setup();
    act(() => result.current.mutate({ riskOptions: [0.25, 3] }));
    expect(cached().riskOptions).toEqual([0.25, 3]); // before the server answered
    await waitFor(() => expect(held).toHaveLength(1));
    act(() => held[0].resolve());
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    expect(api.calls.find((c) => c.method === 'PATCH')?.body).toEqual({ riskOptions: [0.25, 3] });
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(cached().riskOptions).toEqual([0.25, 3]);
    expect(toasts).toEqual([]);
  });

  it('rolls a refused stop-loss change back and toasts, falling back to "Unable to update settings."', async () => {
    holdPatches = true;
    failWith = { status: 500, data: {} };
    const { result, cached } = setup({ stopLossOptions: [1, 2] });
    act(() => result.current.mutate({ stopLossOptions: [9] }));
    expect(cached().stopLossOptions).toEqual([9]);
    await waitFor(() => expect(held).toHaveLength(1));
    act(() => held[0].resolve());
    await waitFor(() => expect(cached().stopLossOptions).toEqual([1, 2]));
    expect(fallbacks).toEqual(['Unable to update settings.']);
    // No message from the server: the error's own text (SPEC §8 order: server message, error, fallback).
    expect(toasts).toEqual(['Request failed with status code 500']);
  });

  it("toasts the server's own message when it gives one", async () => {
    failWith = { status: 400, data: { message: 'Invalid request: riskOptions.0 must be positive' } };
    const { result, cached } = setup({ riskOptions: [1] });
    act(() => result.current.mutate({ riskOptions: [2] }));
    await waitFor(() => expect(toasts).toEqual(['Invalid request: riskOptions.0 must be positive']));
    expect(cached().riskOptions).toEqual([1]);
  });

  it('a failed change does not undo a later change of the same key', async () => {
    holdPatches = true;
    const { result, cached } = setup({ riskOptions: [1] });
    act(() => result.current.mutate({ riskOptions: [2] }));
    act(() => result.current.mutate({ riskOptions: [3] }));
    expect(cached().riskOptions).toEqual([3]);
    // Sent one at a time, in order: the second waits for the first.
    await waitFor(() => expect(held).toHaveLength(1));
    failWith = { status: 503 };
    act(() => held[0].resolve());
    await waitFor(() => expect(toasts).toHaveLength(1));
    expect(cached().riskOptions).toEqual([3]); // the later change still stands
    failWith = null;
    await waitFor(() => expect(held).toHaveLength(2));
    act(() => held[1].resolve());
    await waitFor(() => expect(stored.riskOptions).toEqual([3]));
    expect(cached().riskOptions).toEqual([3]);
  });

  it('a function change reads the optimistic list, so quick edits add up', async () => {
    holdPatches = true;
    const { result, cached } = setup();
    const add = (id: string, price: number) =>
      result.current.mutate((s) => ({ horizontalLines: { ...s.horizontalLines, binance: [...(s.horizontalLines.binance ?? []), { id, symbol: 'BTCUSDT', price }] } }));
    act(() => {
      add('a', 100);
      add('b', 200);
    });
    expect(cached().horizontalLines.binance?.map((l) => l.id)).toEqual(['a', 'b']);
    await waitFor(() => expect(held).toHaveLength(1));
    act(() => held[0].resolve());
    await waitFor(() => expect(held).toHaveLength(2));
    // The first answer (one line) does not hide the second line, whose save is still on its way.
    expect(cached().horizontalLines.binance?.map((l) => l.id)).toEqual(['a', 'b']);
    act(() => held[1].resolve());
    await waitFor(() => expect(stored.horizontalLines.binance?.map((l) => l.id)).toEqual(['a', 'b']));
  });

  it('another answer arriving meanwhile (the layout saver) keeps the change on its way', async () => {
    holdPatches = true;
    const { client, result, cached } = setup({ favoritePairs: [] });
    act(() => result.current.mutate({ favoritePairs: [{ exchange: 'bybit', symbol: 'ETHUSDT' }] }));
    receiveServerSettings(client, { ...SERVER_SETTINGS_DEFAULTS, layout: null, riskOptions: [4] });
    expect(cached().favoritePairs).toEqual([{ exchange: 'bybit', symbol: 'ETHUSDT' }]);
    expect(cached().riskOptions).toEqual([4]);
    await waitFor(() => expect(held).toHaveLength(1));
    act(() => held[0].resolve());
    await waitFor(() => expect(result.current.isPending).toBe(false));
    expect(cached().favoritePairs).toEqual([{ exchange: 'bybit', symbol: 'ETHUSDT' }]);
  });
});
