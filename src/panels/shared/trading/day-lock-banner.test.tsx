import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TradeLimitsStatus } from '../../../api/contracts/funded-users';
import { installFakeApi, signInForTest } from '../../../api/testing/fake-api';
import { DayLockBanner } from './day-lock-banner';

const KEY = { apiKeyId: '11111111-1111-4111-8111-111111111111', keyPassword: 'key-password-1' };
const URL = `GET /v1/trade/${KEY.apiKeyId}/limits`;
const OPEN: TradeLimitsStatus = { funded: true, dailyLossLimit: '1000', lossToday: '120.5', locked: false, lockedUntil: null, reason: null };
const LOCKED: TradeLimitsStatus = {
  funded: true,
  dailyLossLimit: '1000',
  lossToday: '1234.567891',
  locked: true,
  lockedUntil: '2026-06-02T00:00:00.000Z',
  reason: 'Daily loss limit reached: …',
};

let api: ReturnType<typeof installFakeApi>;
afterEach(() => api.restore());

function renderBanner(status: TradeLimitsStatus | null, timeZone = 'UTC') {
  api = installFakeApi(status ? { [URL]: () => ({ status: 200, data: status }) } : {});
  signInForTest();
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <MantineProvider env="test">
      <QueryClientProvider client={client}>
        <DayLockBanner tradeKey={KEY} timeZone={timeZone} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('DayLockBanner', () => {
  it('says the loss, the limit and until when, in the trader’s clock and in UTC', async () => {
    renderBanner(LOCKED, 'Europe/Berlin');
    expect(await screen.findByTestId('day-lock-banner')).toHaveTextContent(
      'Daily loss limit reached: −$1,234.57 of $1,000.00 today. Only reducing orders and closes until 02:00 (00:00 UTC).',
    );
    // The key password travels as a header, as on every trading call.
    expect(api.calls.find((c) => c.url.endsWith('/limits'))?.headers['X-Key-Password']).toBe(KEY.keyPassword);
  });

  it('shows nothing while the key is not locked', async () => {
    renderBanner(OPEN);
    await waitFor(() => expect(api.calls.some((c) => c.url.endsWith('/limits'))).toBe(true));
    expect(screen.queryByTestId('day-lock-banner')).not.toBeInTheDocument();
  });

  it('shows nothing when the status cannot be read (the order routes still refuse)', async () => {
    renderBanner(null);
    await waitFor(() => expect(api.calls.some((c) => c.url.endsWith('/limits'))).toBe(true));
    expect(screen.queryByTestId('day-lock-banner')).not.toBeInTheDocument();
  });

  it('asks nothing without an unlocked key', () => {
    api = installFakeApi();
    const client = new QueryClient();
    render(
      <MantineProvider env="test">
        <QueryClientProvider client={client}>
          <DayLockBanner tradeKey={null} />
        </QueryClientProvider>
      </MantineProvider>,
    );
    expect(api.calls.some((c) => c.url.endsWith('/limits'))).toBe(false);
    expect(screen.queryByTestId('day-lock-banner')).not.toBeInTheDocument();
  });
});
