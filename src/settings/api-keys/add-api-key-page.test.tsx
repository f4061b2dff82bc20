import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider, MutationCache } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { ApiKey } from '../../api/contracts/api-keys';
import { installFakeApi, signInForTest } from '../../api/testing/fake-api';
import { userSettings } from '../../state';
import { toastFailure } from '../../ui/toast';
import { apiKeySettingsRoutes } from './routes';

let api: ReturnType<typeof installFakeApi>;
afterEach(() => api.restore());

const KEY: ApiKey = {
  id: '11111111-1111-4111-8111-111111111111',
  userId: '00000000-0000-4000-8000-000000000001',
  name: 'Main',
  exchange: 'bybit',
  network: 'TESTNET',
  apiKeyMasked: 'sim-…beef',
  permissions: { read: true, trade: true, withdraw: false, details: [] },
  createdAt: '2026-11-01T10:00:00.000Z',
  lastValidatedAt: '2026-11-01T10:00:00.000Z', serverCustody: false,
};

/** The settings pages alone, with the app's failure toasts, in a memory router. */
async function renderAt(path: string) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false } },
    mutationCache: new MutationCache({ onError: (error, _v, _c, m) => toastFailure(error, m.meta?.errorMessage ?? 'failed') }),
  });
  const router = createMemoryRouter([{ path: '/settings', children: apiKeySettingsRoutes }], { initialEntries: [path] });
  await act(async () => {
    render(
      <MantineProvider env="test">
        <Notifications />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>,
    );
  });
  return router;
}

const posts = (url: string) => api.calls.filter((c) => c.method === 'POST' && c.url === url);

describe('add API key page', () => {
  it('fills a simulator key, sends only the contract fields and remembers the key password on this device', async () => {
    api = installFakeApi({
      'POST /v1/api-keys/sim-credentials': () => ({ status: 200, data: { apiKey: 'sim-key-0000beef', apiSecret: 'a'.repeat(64) } }),
      'POST /v1/api-keys': () => ({ status: 201, data: KEY }),
      'GET /v1/api-keys': () => ({ status: 200, data: [KEY] }),
    });
    signInForTest();
    const router = await renderAt('/settings/api-keys/add-new');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'Main');
    await user.click(screen.getByRole('combobox', { name: 'Exchange' }));
    await user.click(await screen.findByRole('option', { name: 'bybit' }));
    await user.click(screen.getByRole('combobox', { name: 'Network' }));
    await user.click(await screen.findByRole('option', { name: 'Testnet' }));
    await user.click(await screen.findByRole('button', { name: 'Generate simulator key' }));
    await waitFor(() => expect(screen.getByLabelText('API key')).toHaveValue('sim-key-0000beef'));
    expect(posts('/v1/api-keys/sim-credentials')[0].body).toEqual({ exchange: 'bybit', withdraw: false });
    expect(screen.getByLabelText('API secret')).toHaveValue('a'.repeat(64));
    expect(screen.queryByLabelText('Passphrase')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Key password'), 'my-key-password');
    await user.type(screen.getByLabelText('Repeat key password'), 'my-key-password');
    await user.click(screen.getByLabelText('Remember password on this device'));
    await user.click(screen.getByRole('button', { name: 'Add API key' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/api-keys'));
    expect(posts('/v1/api-keys')[0].body).toEqual({
      name: 'Main',
      exchange: 'bybit',
      network: 'TESTNET',
      apiKey: 'sim-key-0000beef',
      apiSecret: 'a'.repeat(64),
      keyPassword: 'my-key-password',
    });
    expect(userSettings.apiKeyPasswords[KEY.id]).toBe('my-key-password');
    expect(await screen.findByText('API key “Main” added')).toBeInTheDocument();
  });

  it('asks OKX keys for their passphrase and checks the key password was typed the same twice', async () => {
    api = installFakeApi();
    signInForTest();
    await renderAt('/settings/api-keys/add-new');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('combobox', { name: 'Exchange' }));
    await user.click(await screen.findByRole('option', { name: 'okx' }));
    await user.type(screen.getByLabelText('Name'), 'OKX');
    await user.type(screen.getByLabelText('API key'), 'k');
    await user.type(screen.getByLabelText('API secret'), 's');
    await user.type(screen.getByLabelText('Key password'), 'my-key-password');
    await user.type(screen.getByLabelText('Repeat key password'), 'my-key-passw0rd');
    await user.click(screen.getByRole('button', { name: 'Add API key' }));
    expect(await screen.findByText('Key passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('OKX keys need their passphrase')).toBeInTheDocument();
    expect(posts('/v1/api-keys')).toHaveLength(0);
  });

  it('shows the exchange’s refusal under the field it concerns and in a toast', async () => {
    api = installFakeApi({
      'POST /v1/api-keys': () => ({
        status: 400,
        data: { message: 'binance rejected the key: Signature for this request is not valid. (-1022)', fields: { apiSecret: 'Signature for this request is not valid.' } },
      }),
    });
    signInForTest();
    const router = await renderAt('/settings/api-keys/add-new');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Name'), 'Main');
    await user.type(screen.getByLabelText('API key'), 'real-key');
    await user.type(screen.getByLabelText('API secret'), 'wrong-secret');
    await user.type(screen.getByLabelText('Key password'), 'my-key-password');
    await user.type(screen.getByLabelText('Repeat key password'), 'my-key-password');
    await user.click(screen.getByRole('button', { name: 'Add API key' }));
    expect(await screen.findByText('Signature for this request is not valid.')).toBeInTheDocument();
    expect(screen.getByText('binance rejected the key: Signature for this request is not valid. (-1022)')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/api-keys/add-new');
  });
});
