/**
 * Issue 26 (no browser polls while its socket is up): the guarded brackets, the alerts and the maintenance banner
 * are read again when the app's socket says they changed, and polled only while it is down.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ALERTS_REFRESH_MS, useAlerts } from './alerts/list-alerts';
import { FEATURE_FLAG_DEFAULTS } from './contracts/feature-flags';
import { MAINTENANCE_POLL_MS, useMaintenance } from './maintenance/get-maintenance';
import type { AppStreamSocket } from './notifications/app-stream';
import { installFakeApi, signInForTest } from './testing/fake-api';
import { FakeAppSocket } from './testing/fake-app-socket';
import { MANAGED_POLL_MS, useManagedBrackets } from './trade/managed';
import { configureAppStream } from './use-app-stream';

const KEY = '44444444-4444-4444-8444-444444444444';
const NOW = '2026-12-01T10:00:00.000Z';
let api: ReturnType<typeof installFakeApi>;
const readsOf = (url: string) => api.calls.filter((c) => c.method === 'GET' && c.url === url).length;
const reads = () => readsOf(`/v1/trade/${KEY}/managed`);

beforeEach(() => {
  FakeAppSocket.all = [];
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
  api = installFakeApi({
    [`GET /v1/trade/${KEY}/managed`]: () => ({ status: 200, data: [] }),
    'GET /v1/alerts': () => ({ status: 200, data: [] }),
    'GET /v1/feature-flags/json': () => ({ status: 200, data: { ...FEATURE_FLAG_DEFAULTS, FF_ENABLE_ALERTS: true } }),
  });
  configureAppStream({ WebSocket: FakeAppSocket as unknown as AppStreamSocket, url: 'ws://test/v1/stream', random: () => 0 });
  signInForTest();
});
afterEach(() => {
  api.restore();
  vi.useRealTimers();
});

/** Real-time waits (the intervals are held). */
const settle = (ms = 20) => act(() => new Promise((r) => setTimeout(r, ms)));
/** `n` poll periods, one at a time (each poll's read answers before the next is due). */
async function periods(n: number, ms = MANAGED_POLL_MS): Promise<void> {
  for (let i = 0; i < n; i++) {
    await act(async () => {
      vi.advanceTimersByTime(ms);
      await new Promise((r) => setTimeout(r, 20));
    });
  }
}

it('not polled while the socket is up; `managed-changed` reads them again; polled while the socket is down', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const view = renderHook(() => useManagedBrackets(KEY), { wrapper });
  await settle();
  expect(reads()).toBe(1);
  const s = FakeAppSocket.latest()!;
  await act(async () => s.open());
  await act(async () => s.receive({ type: 'notifications', items: [], unread: 0, now: NOW, resume: true }));
  await settle();
  await periods(4);
  expect(reads()).toBe(1);
  await act(async () => s.receive({ type: 'managed-changed' }));
  await settle();
  expect(reads()).toBe(2);
  // The socket drops: polled again.
  await act(async () => s.drop());
  await periods(2);
  expect(reads()).toBe(4);
  view.unmount();
});

it('the alerts list and the banner: read again when the socket says so, not polled while it is up', async () => {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
  const view = renderHook(() => [useAlerts(), useMaintenance()] as const, { wrapper });
  await settle(50);
  const alerts = () => readsOf('/v1/alerts');
  const banner = () => readsOf('/v1/maintenance');
  expect([alerts(), banner()]).toEqual([1, 1]);
  const s = FakeAppSocket.latest()!;
  await act(async () => s.open());
  await act(async () => s.receive({ type: 'notifications', items: [], unread: 0, now: NOW, resume: true }));
  await settle();
  await periods(3, Math.max(ALERTS_REFRESH_MS, MAINTENANCE_POLL_MS));
  expect([alerts(), banner()]).toEqual([1, 1]);
  await act(async () => s.receive({ type: 'alerts-changed' }));
  await act(async () => s.receive({ type: 'maintenance-changed' }));
  await settle();
  expect([alerts(), banner()]).toEqual([2, 2]);
  // A fired alert (pushed as a notification) moves it to triggered: the list is read again.
  await act(async () =>
    s.receive({ type: 'notifications', items: [{ id: '55555555-5555-4555-8555-555555555555', kind: 'alert', title: 'BTCUSDT crossed 61000', body: '', refId: null, alert: null, read: false, createdAt: NOW }], unread: 1, now: NOW, resume: false }),
  );
  await settle();
  expect(alerts()).toBe(3);
  view.unmount();
});
