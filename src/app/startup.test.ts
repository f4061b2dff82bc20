import { notificationsStore } from '@mantine/notifications';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiClient } from '../api/client';
import { configQueryKey } from '../api/config/get-config';
import { installFakeApi } from '../api/testing/fake-api';
import { createAppQueryClient } from './query-client';
import { reportStartupError, startup } from './startup';

const toasts = () => notificationsStore.getState().notifications.map((n) => String(n.message));

let api: ReturnType<typeof installFakeApi> | null = null;
afterEach(() => {
  api?.restore();
  api = null;
  notificationsStore.setState({ ...notificationsStore.getState(), notifications: [], queue: [] });
  vi.restoreAllMocks();
});

// In the node environment there is no localStorage: the client keeps the refresh token in memory.

describe('startup (SPEC §1, §4)', () => {
  it("toasts the server's message when an HTTP call fails at startup", async () => {
    api = installFakeApi({ 'GET /v1/config': () => ({ status: 503, data: { message: 'Server is starting, try again' } }) });
    await startup(createAppQueryClient());
    expect(toasts()).toEqual(['Server is starting, try again']);
  });

  it('toasts a thrown string, and sends any other error to the console only', () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    reportStartupError('Storage is full');
    reportStartupError(new TypeError('x is undefined'));
    expect(toasts()).toEqual(['Storage is full']);
    expect(consoleError).toHaveBeenCalledOnce();
  });

  it('caches the configuration for the app', async () => {
    api = installFakeApi();
    const client = createAppQueryClient();
    await startup(client);
    expect(client.getQueryData(configQueryKey)).toMatchObject({ productName: 'Crypto Terminal', marketData: 'sim' });
  });

  it('restores the session when a refresh token is stored', async () => {
    api = installFakeApi({
      'POST /v1/auth/refresh': ({ headers }) =>
        headers.Authorization === 'Bearer stored-refresh'
          ? { status: 200, data: { accessToken: 'fresh-access', refreshToken: 'fresh-refresh' } }
          : { status: 401, data: { message: 'Invalid refresh token' } },
    });
    apiClient.setTokens({ accessToken: 'old', refreshToken: 'stored-refresh' });
    await startup(createAppQueryClient());
    expect(apiClient.getAccessToken()).toBe('fresh-access');
    expect(toasts()).toEqual([]);
  });

  it('clears both tokens, quietly, when the stored refresh token is refused', async () => {
    api = installFakeApi({ 'POST /v1/auth/refresh': () => ({ status: 401, data: { message: 'Invalid refresh token' } }) });
    // Outside the 200 ms window in which the previous test's refresh would be shared.
    await new Promise((resolve) => setTimeout(resolve, 250));
    apiClient.setTokens({ accessToken: 'old', refreshToken: 'revoked' });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await startup(createAppQueryClient());
    expect(apiClient.getAccessToken()).toBeNull();
    expect(apiClient.getRefreshToken()).toBeNull();
    expect(toasts()).toEqual([]);
  });
});
